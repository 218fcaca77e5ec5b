"""A call of a function that never returns ends its branch like a `raise`: the condition keeps only what gets past."""

from __future__ import annotations

from errdex.pages import build_page
from tests.pages.conftest import Indexer, error_id_of

PACKAGE = {
    "lib/__init__.py": "",
    "lib/base.py": """
        from typing import NoReturn


        class Required:
            def _fail(self, key) -> NoReturn:
                raise ValueError(f"{key} is required")

            def _maybe(self, key):
                raise ValueError(f"{key} may be required")
    """,
    "lib/prop.py": """
        from .base import Required


        def stop(key):
            raise KeyError(key)


        class Prop(Required):
            def scan(self, key, annotation, kind):
                if annotation is None:
                    if self.argument is None:
                        self._fail(key)
                    else:
                        return
                if kind < 0:
                    raise TypeError(f"negative kind {kind}")

            def loose(self, key, annotation, kind):
                if annotation is None:
                    if self.argument is None:
                        self._maybe(key)
                    else:
                        return
                if kind < 0:
                    raise TypeError(f"loose kind {kind}")

            def plain(self, key, annotation, kind):
                if annotation is None:
                    if self.argument is None:
                        stop(key)
                    else:
                        return
                if kind < 0:
                    raise TypeError(f"plain kind {kind}")
    """,
}


def test_a_no_return_method_ends_its_branch(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    page = build_page(store, error_id_of(store, "lib", "negative kind {}"))
    meaning = page["what_it_means"]
    assert page["condition"] == "not annotation is None and kind < 0"
    assert [c["code"] for c in meaning["clauses"]] == ["not annotation is None", "kind < 0"]
    assert "self.argument" not in meaning["summary"]
    assert (
        " Line 12 calls `self._fail(key)`, which never returns (it always raises): when it runs, its error comes first."
    ) in meaning["summary"]
    assert "self.argument" not in [i["code"] for i in page["when_it_happens"]["inputs"]]


def test_a_function_whose_body_raises_ends_its_branch_and_an_unannotated_method_does_not(indexed: Indexer) -> None:
    """An override of a method may return; a type checker holds it to `NoReturn` only when annotated."""
    store = indexed(PACKAGE, name="lib")
    plain = build_page(store, error_id_of(store, "lib", "plain kind {}"))
    assert plain["condition"] == "not annotation is None and kind < 0"
    loose = build_page(store, error_id_of(store, "lib", "loose kind {}"))
    assert loose["condition"] == "(not annotation is None or self.argument is None) and kind < 0"
    assert "never returns" not in loose["what_it_means"]["summary"]
