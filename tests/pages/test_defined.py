"""A raise whose definition is made only in one block of the code around it (an `except` block of a `try`, an
`if` branch, at module, class or function level): the page says when the definition exists, beside "whenever
line N runs", and a fallback for a failed import says the import decides it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.pages.conftest import Indexer, pages_of

MODULE = """
    import sys

    try:
        from pkg.socks import ProxyManager
    except ImportError:

        def ProxyManager(*args, **kwargs):
            raise ValueError("Missing dependencies for proxy support.")


    if sys.version_info >= (3, 8):

        class Fast:
            def run(self):
                raise RuntimeError("fast path failed")


    def outer(flag):
        if flag:

            def inner():
                raise KeyError("inner failed")

            return inner
        return None


    def plain():
        raise TypeError("plain failed")


    import typing

    if not typing.TYPE_CHECKING:

        class Runtime:
            def go(self):
                raise OSError("runtime only")
"""


@pytest.fixture
def page_of(indexed: Indexer) -> Any:
    return pages_of(indexed({"pkg/__init__.py": "", "pkg/tools.py": MODULE}), "pkg")


def test_a_fallback_for_a_failed_import_says_the_import_decides_it(page_of: Any) -> None:
    page = page_of("Missing dependencies for proxy support.")
    meaning = page["what_it_means"]
    assert meaning["defined_when"] == {
        "name": "ProxyManager",
        "line": 7,
        "at": 3,
        "when": "the code in the `try` at line 4 (`from pkg.socks import ProxyManager`) raises `ImportError`",
        "imported": "pkg.socks",
    }
    assert meaning["summary"].endswith(
        " `ProxyManager` is defined at line 7 only when the code in the `try` at line 4 (`from pkg.socks import"
        " ProxyManager`) raises `ImportError`: otherwise the name is the one imported from `pkg.socks`, and this"
        " raise is not reached through it."
    )
    assert [s["kind"] for s in page["solutions"]] == ["import_fallback"]
    assert (
        "defined only when the import of it from `pkg.socks` in the `try` at line 3 fails"
        in page["solutions"][0]["text"]
    )


def test_a_class_defined_in_an_if_branch_is_said_to_exist_only_then(page_of: Any) -> None:
    page = page_of("fast path failed")
    meaning = page["what_it_means"]
    assert meaning["defined_when"] is not None
    assert meaning["defined_when"]["name"] == "Fast"
    assert (
        " `Fast` is defined at line 13 only when `sys.version_info >= (3, 8)` is true (the `if` at line 11)"
        in (meaning["summary"])
    )
    assert "import_fallback" not in [s["kind"] for s in page["solutions"]]


def test_a_function_defined_in_an_if_of_another_function_is_said_to_exist_only_then(page_of: Any) -> None:
    summary = page_of("inner failed")["what_it_means"]["summary"]
    assert summary.endswith(
        " `inner` is defined at line 21 only when `flag` is true (the `if` at line 19): otherwise this definition"
        " is not made, and this raise is not reached through it."
    )


def test_an_unconditional_definition_says_nothing_of_it(page_of: Any) -> None:
    meaning = page_of("plain failed")["what_it_means"]
    assert meaning["defined_when"] is None
    assert "is defined at line" not in meaning["summary"]


def test_the_branch_python_always_takes_at_run_time_says_nothing_of_it(page_of: Any) -> None:
    """The body of `if not typing.TYPE_CHECKING:` always runs: only a type checker skips it."""
    meaning = page_of("runtime only")["what_it_means"]
    assert meaning["defined_when"] is None
    assert "is defined at line" not in meaning["summary"]
