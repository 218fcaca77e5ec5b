"""A parameter that a public function hands down unchanged to a private one: the user's keyword is the way in, and
the example fix is written as the user's call."""

from __future__ import annotations

from typing import Any

from errdex.pages import build_page
from errdex.pages.entries import entry_line
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


def test_a_packed_parameter_is_no_keyword(indexed: Indexer) -> None:
    files = {
        "tbl/__init__.py": "from .schema import Table\n",
        "tbl/schema.py": """
            class Table:
                def __new__(cls, *args, **kw):
                    return cls._new(*args, **kw)

                @classmethod
                def _new(cls, *args, **kw):
                    if not args and not kw:
                        raise TypeError("Table needs a name")
        """,
    }
    store = indexed(files, name="tbl")
    page = build_page(store, error_id_of(store, "tbl", "Table needs a name"))
    # `kw` is what the call passes beyond its named parameters: no `Table(kw=...)`
    assert all(w["call"] != "Table(kw=...)" for i in page["when_it_happens"]["inputs"] for w in i["ways_in"])


def test_a_keyword_taken_out_of_kwargs_is_the_users_keyword(indexed: Indexer) -> None:
    files = {
        "auto/__init__.py": "from .loader import AutoLoader\n",
        "auto/loader.py": """
            class AutoLoader:
                @classmethod
                def load(cls, name, **kwargs):
                    use_fast = kwargs.pop("use_fast", None)
                    return _resolve(name, use_fast=use_fast, **kwargs)

                @classmethod
                def load_late(cls, name, **kwargs):
                    kwargs.setdefault("use_fast", True)
                    use_fast = kwargs.pop("use_fast", None)
                    return _resolve(name, use_fast=use_fast)


            def _resolve(name, use_fast=False, backend=None):
                if use_fast is not None and backend is None:
                    raise ValueError("use_fast is deprecated, pass backend")
        """,
    }
    store = indexed(files, name="auto")
    page = build_page(store, error_id_of(store, "auto", "use_fast is deprecated, pass backend"))
    ways = {w["via"]: w for i in page["when_it_happens"]["inputs"] for w in i["ways_in"] if i["code"] == "use_fast"}
    # `load_late` sets the key before it takes it out: what the user passed is not what arrives
    assert list(ways) == ["AutoLoader.load"]
    assert (
        ways["AutoLoader.load"]["call"] == "AutoLoader.load(use_fast=...)"
        and ways["AutoLoader.load"]["default"] == "None"
    )
    # `backend` travels in `**kwargs`, a keyword of the user's call whose default is `_resolve`'s
    backend = [w for i in page["when_it_happens"]["inputs"] for w in i["ways_in"] if i["code"] == "backend"]
    assert [(w["call"], w["default"]) for w in backend] == [("AutoLoader.load(backend=...)", "None")]


def test_a_private_class_s_method_is_called_on_the_public_class_that_inherits_it(indexed: Indexer) -> None:
    files = {
        "plots/__init__.py": "from ._axes import Axes, Polar\n",
        "plots/_base.py": """
            class _AxesBase:
                def __init__(self, shared=None):
                    self._shared = shared

                def share(self, other):
                    if self._shared is not None and other is not self._shared:
                        raise ValueError("already shared with another axes")
                    self._shared = other
        """,
        "plots/_axes.py": """
            from ._base import _AxesBase


            class Polar(_AxesBase):
                def share(self, other):
                    self._shared = other


            class Axes(_AxesBase):
                pass
        """,
    }
    store = indexed(files, name="plots")
    page = build_page(store, error_id_of(store, "plots", "already shared with another axes"))
    # `Polar` defines it again: only `Axes` has this one
    (entry,) = page["when_it_happens"]["entries"]
    assert (entry["function"], entry["import_from"], entry["steps"]) == ("Axes.share", "plots", [])
    assert entry_line(entry, page["function"]).startswith("`plots.Axes.share`")
    assert entry_line(entry, page["function"]).endswith("(the function itself, inherited from `_AxesBase`)")
    ways = [w for i in page["when_it_happens"]["inputs"] for w in i["ways_in"] if i["code"] == "other"]
    assert [(w["call"], w["via"], w["reaches_check"]) for w in ways] == [("axes.share(other=...)", "Axes.share", True)]
    assert page["what_it_means"]["plain"].startswith("You pass `other` to `axes.share(...)`.")
