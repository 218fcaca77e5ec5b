"""Hostile requests: paths that climb out, malformed query strings, a schema-driven fuzz run, a loopback load.

XSS in pasted text and indexed messages, 413/414 and unknown ids are tested in tests/web/.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from errdex.web import create_app
from tests.web.conftest import SHOP_ID

SECRET_TEXT = "def create_app("  # text of errdex/web/app.py, one folder above the static files
TRAVERSALS = [
    "/errors/..%2F..%2Fetc%2Fpasswd",
    "/errors/../../etc/passwd",
    "/api/errors/..%2F..%2Fapp.py",
    "/p/..",
    "/p/..%2F..%2Fapp.py",
    "/api/packages/..%2Fapp.py",
    "/static/../app.py",
    "/static/..%2Fapp.py",
    "/static/%2e%2e/app.py",
    "/static/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "/static/....//app.py",
    "/static/..\\app.py",
    "/static/%00style.css",
    "/static//etc/passwd",
    "/static/templates/../../app.py",
    "//etc/passwd",
]


async def raw_get(app: object, raw_path: bytes, query: bytes = b"") -> tuple[int, bytes]:
    """Send one GET exactly as a server would hand it over (no client-side path clean-up)."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": unquote(raw_path.decode("latin-1")),
        "raw_path": raw_path,
        "root_path": "",
        "query_string": query,
        "headers": [(b"host", b"errdex.test")],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }
    status, body = 0, bytearray()
    asked = False

    async def receive() -> dict:
        nonlocal asked
        if asked:  # the client stays connected: a file response listens for a disconnect while it streams
            await asyncio.Event().wait()
        asked = True
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            body.extend(message.get("body", b""))

    await app(scope, receive, send)  # type: ignore[operator]
    return status, bytes(body)


@pytest.mark.anyio
@pytest.mark.parametrize("path", TRAVERSALS)
async def test_paths_that_climb_out_are_not_found(web_db: Path, path: str) -> None:
    status, body = await raw_get(create_app(web_db), path.encode())
    assert status in (400, 404, 405), (path, status)
    assert SECRET_TEXT.encode() not in body and b"root:" not in body


MALFORMED_QUERIES = [
    b"q=%ZZ",
    b"q=%",
    b"q=%E0%A4",
    b"q=\xff\xfe",
    b"q&q&q",
    b"=&&=",
    b"q=a;limit=3",
    b"q=%00%00",
    b"q=a&limit=abc",
    b"q=a&limit=-1",
    b"q=a&limit=99999999999999999999999",
    b"q=a&limit=1e3",
    b"q[]=a&q[x]=b",
    b"q=" + b"%" * 4000,
    b"&" * 4000,
    b"q=a&" + b"x=1&" * 1500,
]


@pytest.mark.anyio
@pytest.mark.parametrize("query", MALFORMED_QUERIES)
@pytest.mark.parametrize(
    "path", ["/api/search", "/search", "/api/packages/shop", "/p/shop", f"/errors/{SHOP_ID}", "/api"]
)
async def test_malformed_query_strings_are_answered_without_a_server_error(
    web_db: Path, path: str, query: bytes
) -> None:
    status, body = await raw_get(create_app(web_db), path.encode(), query)
    assert 200 <= status < 500, (path, query[:40], status, body[:300])


@pytest.fixture(scope="module")
def api(web_db: Path) -> schemathesis.BaseSchema:
    """The JSON API's OpenAPI description, served in-process by the app over the web tests' index."""
    return schemathesis.openapi.from_asgi("/api/openapi.json", create_app(web_db))


def test_the_json_api_never_answers_with_a_server_error(api: schemathesis.BaseSchema) -> None:
    operations = [result.ok() for result in api.get_all_operations()]
    assert len(operations) >= 5  # every JSON route is described, so every one is fuzzed

    for operation in operations:

        @settings(
            max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True, database=None
        )
        @given(case=operation.as_strategy())
        def no_server_error(case: schemathesis.Case) -> None:
            response = case.call()
            assert response.status_code < 500, (case.method, case.formatted_path, case.query, response.text[:300])

        no_server_error()


# --- a bounded load on loopback --------------------------------------------------------------

LOAD_REQUESTS = 600
LOAD_CLIENTS = 16


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def server(web_db: Path) -> Iterator[str]:
    """`errdex serve` on 127.0.0.1, in its own process, until the test ends."""
    port = free_port()
    command = [sys.executable, "-m", "errdex", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(web_db)]
    proc = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"}
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            if proc.poll() is not None:
                raise AssertionError(f"errdex serve exited: {proc.stderr.read().decode() if proc.stderr else ''}")
            try:
                httpx.get(base + "/api", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)


async def hammer(base: str) -> list[str]:
    """LOAD_REQUESTS requests from LOAD_CLIENTS clients at once; what went wrong, one entry a failure."""
    paths = [
        "/",
        "/api",
        "/p/shop",
        f"/errors/{SHOP_ID}",
        f"/api/errors/{SHOP_ID}",
        "/api/search?q=ValueError%3A+mode+must+be+one+of+%28%27fast%27%29%2C+got+%27turbo%27",
        "/search?q=KeyError%3A+%27x%27",
        "/static/style.css",
    ]
    queue: asyncio.Queue[str] = asyncio.Queue()
    for i in range(LOAD_REQUESTS):
        queue.put_nowait(paths[i % len(paths)])
    failures: list[str] = []

    async def client() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=60) as c:
            while not queue.empty():
                path = queue.get_nowait()
                try:
                    response = await c.get(path)
                    if response.status_code != 200:
                        failures.append(f"{path}: {response.status_code}")
                except httpx.HTTPError as exc:
                    failures.append(f"{path}: {type(exc).__name__}")

    await asyncio.gather(*(client() for _ in range(LOAD_CLIENTS)))
    return failures


def test_a_bounded_load_on_loopback_has_no_failed_request(server: str) -> None:
    assert asyncio.run(hammer(server)) == []
