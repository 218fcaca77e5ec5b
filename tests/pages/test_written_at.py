"""A raise helper's page says where its message was written (JSON `written_at`, and the terminal page)."""

from __future__ import annotations

import io

from rich.console import Console

from errdex.match import explain
from errdex.pages import build_page
from errdex.terminal import page_panel
from tests.pages.conftest import Indexer, error_id_of

PACKAGE = {
    "pyproject.toml": "",
    "tpl/__init__.py": "",
    "tpl/parser.py": """
        class TemplateSyntaxError(Exception):
            pass


        class Parser:
            def fail(self, msg, lineno=None, exc=TemplateSyntaxError):
                raise exc(msg, lineno)

            def parse_statement(self, token):
                if token not in ("if", "for"):
                    self.fail(f"Encountered unknown tag {token!r}.")
        """,
}


def test_page_of_a_helper_site_says_where_the_message_was_written(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="tpl")
    eid = error_id_of(store, "tpl", "Encountered unknown tag {}.")
    page = build_page(store, eid)
    assert (page["file"], page["line"], page["function"]) == ("tpl/parser.py", 7, "Parser.fail")
    assert page["written_at"] == {"file": "tpl/parser.py", "line": 11, "function": "Parser.parse_statement"}
    assert page["condition"] == "token not in ('if', 'for')"
    assert page["sites"][0]["written_at"] == page["written_at"]
    out = io.StringIO()
    Console(file=out, width=120, color_system=None).print(page_panel(page))
    assert "message written at tpl/parser.py:11 in Parser.parse_statement" in out.getvalue()


def test_the_traceback_of_a_helper_finds_the_callers_message(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="tpl")
    paste = "tpl.parser.TemplateSyntaxError: Encountered unknown tag 'endif'."
    best = explain(paste, store=store, auto_index=False).best
    assert best is not None and (best.file, best.line, best.template) == (
        "tpl/parser.py",
        7,
        "Encountered unknown tag {}.",
    )


def test_other_pages_have_no_written_at(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="tpl")
    own = next(e.error_id for e in store.errors("tpl") if e.site.template is None)
    assert build_page(store, own)["written_at"] is None
