"""A function under `@functools.cache` / `lru_cache`: an unhashable argument raises TypeError in the cache first."""

from __future__ import annotations

from errdex.pages import build_page
from tests.pages.conftest import Indexer, error_id_of

PACKAGE = {
    "lib/__init__.py": "",
    "lib/views.py": """
        import functools
        from functools import lru_cache as memo


        @functools.cache
        def get_callable(view):
            if not isinstance(view, str):
                raise LookupError(f"{view} is not a path")


        @memo(maxsize=None)
        def resolve(view):
            if not view:
                raise LookupError(f"empty view {view}")


        def plain(view):
            if not view:
                raise LookupError(f"plain view {view}")
    """,
}


def test_a_cached_function_says_its_arguments_are_hashed_first(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    meaning = build_page(store, error_id_of(store, "lib", "{} is not a path"))["what_it_means"]
    assert meaning["summary"].endswith(
        " `get_callable` is wrapped by `@functools.cache`: an unhashable argument raises TypeError there, before the"
        " body runs; what this page says holds for hashable arguments."
    )
    aliased = build_page(store, error_id_of(store, "lib", "empty view {}"))["what_it_means"]
    assert "is wrapped by `@memo`: an unhashable argument raises TypeError" in aliased["summary"]
    plain = build_page(store, error_id_of(store, "lib", "plain view {}"))["what_it_means"]
    assert "unhashable" not in plain["summary"]
