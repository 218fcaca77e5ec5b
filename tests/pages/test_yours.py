"""The user's own line from their traceback, fixed: their literal replaced by the value the example fix or the
message gives, only in their own code, only where the line writes the value."""

from __future__ import annotations

from typing import Any

from errdex.hooks.panel import to_text
from errdex.model import Frame
from errdex.terminal import page_panel
from tests.pages.conftest import Indexer, pages_of

FILES = {
    "fetch/__init__.py": "from .api import get, Config\n",
    "fetch/api.py": """
        MODES = ["fast", "slow"]


        def get(url, timeout=None):
            if "://" not in url:
                raise ValueError(f"Invalid URL {url!r}: no scheme. Perhaps you meant https://{url}?")
            return url


        class Config:
            def __init__(self, mode="fast"):
                if mode not in MODES:
                    raise ValueError(f"unknown mode {mode!r}")
                self.mode = mode
    """,
}


def _frames(user_file: str, code: str, raised_in: str, raised_line: int) -> list[Frame]:
    return [
        Frame(user_file, 12, "<module>", code),
        Frame(f"/venv/lib/python3.12/site-packages/fetch/{raised_in}", raised_line, "get", "raise ValueError("),
    ]


def _page(indexed: Indexer, template: str, values: list[str], frames: list[Frame]) -> Any:
    return pages_of(indexed(FILES, name="fetch"), "fetch")(template, values=values, frames=frames)


def test_the_message_s_proposal_replaces_the_literal_in_the_users_line(indexed: Indexer) -> None:
    frames = _frames("/home/me/app.py", "    r = fetch.get('localhost:8000/api')\n", "api.py", 7)
    template = "Invalid URL {}: no scheme. Perhaps you meant https://{}?"
    page = _page(indexed, template, ["'localhost:8000/api'", "localhost:8000/api"], frames)
    assert page["user_input"]["your_line"] == {
        "file": "/home/me/app.py",
        "line": 12,
        "before": "r = fetch.get('localhost:8000/api')",
        "after": "r = fetch.get('https://localhost:8000/api')",
        "value_before": "'localhost:8000/api'",
        "value_after": "'https://localhost:8000/api'",
        "source": "the message",
    }
    text = " ".join(to_text(page_panel(page), width=200).split())
    assert "Your line (/home/me/app.py:12), with the value the message gives:" in text


def test_the_example_fix_s_value_replaces_the_users(indexed: Indexer) -> None:
    frames = _frames("/home/me/app.py", 'cfg = fetch.Config(mode="quick")', "api.py", 14)
    page = _page(indexed, "unknown mode {}", ["'quick'"], frames)
    assert page["example_fix"]["value_after"] == "'fast'"
    line = page["user_input"]["your_line"]
    assert line["after"] == "cfg = fetch.Config(mode='fast')" and line["source"] == "the example fix"


def test_no_line_of_the_users_no_fixed_line(indexed: Indexer) -> None:
    template = "unknown mode {}"
    # a value passed by name is not written in the line; a library's frame is no line of the user's
    by_name = _frames("/home/me/app.py", "cfg = fetch.Config(mode=choice)", "api.py", 14)
    library = _frames("/venv/lib/python3.12/site-packages/other/use.py", 'fetch.Config(mode="quick")', "api.py", 14)
    unknown = [Frame("/home/me/app.py", 12, "<module>", None), by_name[1]]  # a traceback without its code lines
    for frames in (by_name, library, unknown, by_name[1:]):
        assert _page(indexed, template, ["'quick'"], frames)["user_input"]["your_line"] is None
