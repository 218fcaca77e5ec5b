"""AI-assisted prose against a real HTTP server on 127.0.0.1 speaking the chat-completions shape."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from errdex.pages import build_page
from errdex.pages.prose import LABEL
from tests.pages.conftest import Indexer, error_id_of

PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/config.py": """
        MODES = ("fast", "slow")


        def run(mode):
            if mode not in MODES:
                raise ValueError(f"bad mode {mode!r}")
    """,
}


class ChatServer:
    """A chat-completions endpoint that records what it was sent and answers with a fixed text or status."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.status = 200
        self.answer = "The mode must be one of the listed values."
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                body = self.rfile.read(int(self.headers["Content-Length"]))
                server.requests.append({"path": self.path, "body": json.loads(body)})
                reply = json.dumps({"choices": [{"message": {"role": "assistant", "content": server.answer}}]}).encode()
                self.send_response(server.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> ChatServer:
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[ChatServer]:
    with ChatServer() as server:
        monkeypatch.setenv("ERRDEX_LLM_URL", server.url)
        monkeypatch.setenv("ERRDEX_LLM_MODEL", "tiny-model")
        yield server


def test_prose_is_labelled_cached_and_beside_the_facts(indexed: Indexer, chat: ChatServer) -> None:
    store = indexed(PACKAGE)
    eid = error_id_of(store, "pkg", "bad mode {}")
    page = build_page(store, eid)
    assert page["prose"] == {
        "text": chat.answer,
        "model": "tiny-model",
        "label": LABEL,
        "cached": False,
        "error": None,
    }
    assert page["generated_by"] == "tiny-model"
    assert page["what_it_means"]["summary"].startswith("`run` raises ValueError when `mode` is not one of `MODES`")
    (request,) = chat.requests
    assert request["path"] == "/v1/chat/completions"
    assert request["body"]["model"] == "tiny-model"
    sent = request["body"]["messages"][1]["content"]
    assert '"condition": "mode not in MODES"' in sent  # the facts, as JSON
    assert 'raise ValueError(f"bad mode {mode!r}")' in sent  # the source excerpt, as written
    again = build_page(store, eid, values=["'turbo'"])
    assert again["prose"]["cached"] and again["prose"]["text"] == chat.answer
    assert len(chat.requests) == 1  # cached per (error id, release, model)


def test_a_failing_endpoint_leaves_the_page_whole(indexed: Indexer, chat: ChatServer) -> None:
    chat.status = 500
    store = indexed(PACKAGE)
    page = build_page(store, error_id_of(store, "pkg", "bad mode {}"))
    assert page["prose"]["text"] is None and "failed" in page["prose"]["error"]
    assert page["generated_by"] == "static"
    assert page["solutions"] and page["what_it_means"]["summary"]


def test_without_the_environment_nothing_is_sent(indexed: Indexer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ERRDEX_LLM_URL", raising=False)
    monkeypatch.delenv("ERRDEX_LLM_MODEL", raising=False)
    store = indexed(PACKAGE)
    page = build_page(store, error_id_of(store, "pkg", "bad mode {}"))
    assert page["prose"] is None and page["generated_by"] == "static"
