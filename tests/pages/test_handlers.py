"""A raise in an `except` block: it needs its `try` body to raise, whatever the `if` around it says."""

from __future__ import annotations

from errdex.pages import build_page
from errdex.pages.model import WhatItMeans
from tests.pages.conftest import Indexer, error_id_of

PACKAGE = {
    "lib/__init__.py": "",
    "lib/stream.py": """
        import time

        MODES = ("fast", "slow")


        class StreamError(Exception):
            pass


        def read_all(raw, size):
            if hasattr(raw, "stream"):
                try:
                    for chunk in raw.stream(size):
                        print(chunk)
                except ValueError as e:
                    raise StreamError(f"stream failed: {e}")


        def max_age(morsel):
            if morsel["max-age"]:
                try:
                    return int(time.time() + int(morsel["max-age"]))
                except (ValueError, OverflowError):
                    raise TypeError(f"max-age: {morsel['max-age']} must be integer")


        def pick(mode):
            if mode not in MODES:
                try:
                    return int(mode)
                except ValueError:
                    raise KeyError(f"no mode {mode}")


        def close(handle):
            try:
                handle.flush()
            except:
                raise RuntimeError("could not close the handle")


        def check_size(size):
            if size < 0:
                raise ValueError(f"size {size} is negative")
    """,
}


def _meaning(indexed: Indexer, template: str) -> WhatItMeans:
    store = indexed(PACKAGE, name="lib")
    return build_page(store, error_id_of(store, "lib", template))["what_it_means"]


def test_the_summary_says_the_try_body_must_raise_first(indexed: Indexer) -> None:
    meaning = _meaning(indexed, "max-age: {} must be integer")
    assert meaning["summary"] == (
        "`max_age` raises TypeError when the code in the `try` at line 22"
        " (`return int(time.time() + int(morsel['max-age']))`) raises `ValueError` or `OverflowError`,"
        " and `morsel['max-age']` is true."
    )
    assert meaning["handler"] == {
        "exceptions": ["ValueError", "OverflowError"],
        "try_line": 22,
        "try_end": 22,
        "first": "return int(time.time() + int(morsel['max-age']))",
    }
    assert meaning["condition"] == "morsel['max-age']"  # the check the matcher reads is unchanged
    assert [c["code"] for c in meaning["clauses"]] == ["morsel['max-age']"]


def test_a_long_try_body_is_named_by_its_lines_and_first_statement(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    page = build_page(store, error_id_of(store, "lib", "stream failed: {}"))
    summary = page["what_it_means"]["summary"]
    assert "the code in the `try` at lines 13–14 (`for chunk in raw.stream(size):`) raises `ValueError`" in summary
    assert summary.endswith("and `raw` has an attribute `stream`.")


def test_no_solution_tells_to_avoid_only_the_if(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    for template in ("stream failed: {}", "max-age: {} must be integer", "no mode {}"):
        page = build_page(store, error_id_of(store, "lib", template))
        assert not any(s["kind"] == "use_allowed_value" for s in page["solutions"]), template
        assert page["triggers"] == [] and page["example_fix"] is None, template
    plain = build_page(store, error_id_of(store, "lib", "size {} is negative"))
    assert plain["what_it_means"]["handler"] is None
    assert plain["solutions"] == []
    assert plain["triggers"]


def test_a_user_value_that_passes_the_if_is_not_said_to_raise(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    page = build_page(store, error_id_of(store, "lib", "no mode {}"), values=["'fats'"])
    assert page["user_input"] is not None
    assert [c["result"] for c in page["user_input"]["checked"]] == ["unknown"]


def test_an_unguarded_raise_in_a_bare_except(indexed: Indexer) -> None:
    meaning = _meaning(indexed, "could not close the handle")
    assert meaning["summary"] == (
        "`close` raises RuntimeError when the code in the `try` at line 37 (`handle.flush()`) raises an exception"
        " (no `if` in `close` guards line 39)."
    )
    assert meaning["context"] == "it is raised while handling any exception from the `try` block at line 36"
