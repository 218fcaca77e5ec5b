"""A raise in the `else:` block of a `for` or `while` loop runs only when that loop ends without `break`: the page
says what leads to each `break` instead of "whenever line N runs", and gives no trigger."""

from __future__ import annotations

from typing import Any

import pytest

from tests.pages.conftest import Indexer, pages_of

MODULE = """
    import logging

    _log = logging.getLogger(__name__)


    def select(font):
        for code in (1, 2):
            try:
                font.select(code)
            except (ValueError, RuntimeError):
                pass
            else:
                break
        else:
            _log.warning("No supported encoding in font")


    def pick(options, mode="auto"):
        for option in options:
            if option.startswith("x"):
                break
        else:
            if mode != "auto":
                raise ValueError("no option for the mode")


    def find(rows, name):
        for row in rows:
            for cell in row:
                if cell:
                    break
            else:
                break
            if row == name:
                break
        else:
            raise KeyError("no such row")


    def wait(ready):
        while not ready():
            pass
        else:
            raise TimeoutError("ready at last")


    def plain(mode="auto"):
        for option in ("a", "b"):
            if option == mode:
                return option
        if mode != "auto":
            raise ValueError("no plain option for the mode")
"""


@pytest.fixture
def page_of(indexed: Indexer) -> Any:
    return pages_of(indexed({"pkg/__init__.py": "", "pkg/loops.py": MODULE}), "pkg")


def test_an_unguarded_log_in_a_loop_else_says_what_breaks_the_loop(page_of: Any) -> None:
    meaning = page_of("No supported encoding in font")["what_it_means"]
    assert meaning["summary"] == (
        "`select` logs at level warning only when the loop at line 7 ends without `break`, by running out of items"
        " with no pass reaching the `break` at line 13 (reached when the code in the `try` at line 9"
        " (`font.select(code)`) raises nothing); no `if` in `select` guards line 15."
    )
    assert meaning["loop_else"] == {
        "line": 7,
        "kind": "for",
        "test": None,
        "breaks": [{"line": 13, "when": ["the code in the `try` at line 9 (`font.select(code)`) raises nothing"]}],
    }


def test_a_guarded_raise_in_a_loop_else_gets_no_trigger(page_of: Any) -> None:
    """Without the loop, `mode='x'` would certainly fire; with it, the loop must also run out of options."""
    page = page_of("no option for the mode")
    summary = page["what_it_means"]["summary"]
    assert summary.startswith("`pick` raises ValueError when `mode` does not equal 'auto'")
    assert (
        " Line 24 is in the `else:` block of a loop: it runs only when the loop at line 19 ends without `break`, by"
        " running out of items with no pass reaching the `break` at line 21 (reached when `option.startswith('x')`"
        " is true (line 20))." in summary
    )
    assert page["triggers"] == [] and page["example_fix"] is None
    outside = page_of("no plain option for the mode")  # the same check after a loop, not in its `else:`
    assert outside["what_it_means"]["loop_else"] is None
    assert outside["triggers"] != []


def test_a_nested_loops_break_is_its_own_but_one_in_its_else_ends_the_outer_loop(page_of: Any) -> None:
    breaks = page_of("no such row")["what_it_means"]["loop_else"]["breaks"]
    assert breaks == [
        {"line": 33, "when": ["the loop at line 29 ends without `break`"]},
        {"line": 35, "when": ["`row == name` is true (line 34)"]},
    ]  # the `break` at line 31 ends the inner loop only


def test_a_while_loop_without_break_ends_when_its_test_is_false(page_of: Any) -> None:
    meaning = page_of("ready at last")["what_it_means"]
    assert meaning["summary"].startswith(
        "`wait` raises TimeoutError only when the loop at line 41 ends (it has no `break`), by its test"
        " `not ready()` coming out false; no `if` in `wait` guards line 44."
    )
    assert meaning["loop_else"] is not None and meaning["loop_else"]["kind"] == "while"
