"""A call of the checking function is a way in only when a user calls it by name: a private method, or a function of
a private module its folder does not re-export, is reached only through the package's own callers."""

from __future__ import annotations

from typing import Any

from errdex.pages import build_page
from tests.pages.conftest import Indexer, error_id_of

FILES = {
    "loader/__init__.py": "from ._impl import Loader\n",
    "loader/_impl.py": """
        class Loader:
            def load(self, path):
                if not path:
                    raise ValueError("load needs a path")
                return self._read(path)

            def _read(self, path):
                if path.endswith("/"):
                    raise ValueError("a folder is no file")
                return path
    """,
    "loader/_hidden.py": """
        class Hidden:
            def run(self, size):
                if size < 0:
                    raise ValueError("negative size")
    """,
}


def _happens(store: Any, template: str) -> Any:
    return build_page(store, error_id_of(store, "loader", template))["when_it_happens"]


def test_only_a_function_a_user_calls_by_name_has_a_call_of_it_as_way_in(indexed: Indexer) -> None:
    store = indexed(FILES, name="loader")
    public = _happens(store, "load needs a path")
    assert [w["call"] for w in public["inputs"][0]["ways_in"]] == ["loader.load(path=...)"]  # re-exported by __init__
    for template, function in (("a folder is no file", "Loader._read"), ("negative size", "Hidden.run")):
        happens = _happens(store, template)
        item = happens["inputs"][0]
        assert item["kind"] == "parameter" and [w for w in item["ways_in"] if not w["through"]] == []
        assert item["bound"][0]["how"] == f"`{item['name']}` is a parameter of `{function}`"
        assert "comes from" not in happens["summary"] and f"is a parameter of `{function}`" in happens["summary"]
    # the public method hands its own `path` on to `_read` unchanged: the user's call is the way in
    read = _happens(store, "a folder is no file")["inputs"][0]["ways_in"]
    assert [(w["call"], w["via"], w["reaches_check"]) for w in read] == [
        ("loader.load(path=...)", "Loader.load", False)
    ]
    assert [(s["function"], s["line"]) for s in read[0]["through"]] == [("Loader.load", 5)]
    assert _happens(store, "negative size")["inputs"][0]["ways_in"] == []  # a private module's: no entry
