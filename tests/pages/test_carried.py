"""A parameter that a public function hands down unchanged to a private one: the user's keyword is the way in, and
the example fix is written as the user's call."""

from __future__ import annotations

from typing import Any

from errdex.pages import build_page
from tests.pages.conftest import Indexer, error_id_of

FILES = {
    "bins/__init__.py": "from .api import cut, cut_all, cut_twice\n",
    "bins/api.py": """
        from ._core import _to_cuts


        def cut(x, edges, duplicates="raise"):
            return _to_cuts(x, edges, duplicates=duplicates)


        def cut_all(x, edges, **kwargs):
            return _to_cuts(x, edges, **kwargs)


        def cut_sorted(x, edges, duplicates="raise"):
            duplicates = duplicates.lower()
            return _to_cuts(x, edges, duplicates)


        def cut_twice(x, edges, duplicates):
            found = cut(x, edges, duplicates)
            return found
    """,
    "bins/_core.py": """
        def _to_cuts(x, edges, duplicates="raise", clear=False):
            if duplicates not in ["raise", "drop"]:
                raise ValueError("duplicates must be raise or drop")
            if len(set(edges)) < len(edges) and duplicates == "raise":
                raise ValueError("edges must be unique")
            return x
    """,
}


def _page(store: Any, template: str) -> Any:
    return build_page(store, error_id_of(store, "bins", template))


def _ways(page: Any, code: str) -> list[Any]:
    return next(i for i in page["when_it_happens"]["inputs"] if i["code"] == code)["ways_in"]


def test_a_keyword_handed_down_unchanged_is_the_users_way_in(indexed: Indexer) -> None:
    store = indexed(FILES, name="bins")
    page = _page(store, "edges must be unique")
    ways = {w["via"]: w for w in _ways(page, "duplicates")}
    # by keyword, and inside `**kwargs` (whose default is then the function's that names it); `cut_twice` passes its
    # own parameter by position to `cut`, which hands it on
    assert set(ways) == {"cut", "cut_all", "cut_twice"}
    assert ways["cut"]["call"] == "cut(duplicates=...)" and ways["cut"]["import_from"] == "bins"
    assert ways["cut"]["default"] == "'raise'" and ways["cut"]["required"] == ["x", "edges"]
    assert ways["cut_all"]["default"] == "'raise'"
    assert ways["cut_twice"]["default"] is None and [s["function"] for s in ways["cut_twice"]["through"]] == [
        "cut_twice",
        "cut",
    ]
    assert all(not w["reaches_check"] for w in ways.values())  # whether a call gets to the check is not decided
    assert page["triggers"] == []  # so no call is said to raise
    # `edges` is handed down too, but the check also reads what no call sets certainly: the fix is the keyword the
    # earlier check of the same function lists, which passes it
    fix = page["example_fix"]
    assert fix["after"] == "from bins import cut\n\ncut(x=..., edges=..., duplicates='drop')"
    assert "passes it on unchanged to the check's function: `_to_cuts` (bins/api.py:5)" in fix["note"]
    assert "line 3" not in fix["note"]  # 'drop' certainly passes the earlier check: it is not said to fail there
    assert "You pass `edges` and `duplicates` to `bins.cut(...)`" in page["what_it_means"]["plain"]


def test_a_value_changed_on_the_way_is_no_way_in(indexed: Indexer) -> None:
    files = {
        **FILES,
        "bins/__init__.py": "from .api import cut, cut_all, cut_sorted\n",
        "bins/api.py": """
            from ._core import _to_cuts


            def cut(x, edges, duplicates="raise"):
                if x is None:
                    duplicates = "drop"
                return _to_cuts(x, edges, duplicates=duplicates)


            def cut_all(x, edges, **kwargs):
                kwargs["clear"] = True
                return _to_cuts(x, edges, **kwargs)


            def cut_sorted(x, edges, duplicates="raise"):
                return _to_cuts(x, edges, duplicates.lower())
        """,
    }
    store = indexed(files, name="bins")
    page = _page(store, "edges must be unique")
    assert {e["function"] for e in page["when_it_happens"]["entries"]} == {"cut", "cut_all", "cut_sorted"}
    # a binding on one path, a change of the `**kwargs` it travels in, an expression of it: none is what was passed
    assert _ways(page, "duplicates") == []
    assert page["example_fix"] is None
