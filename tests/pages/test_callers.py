"""The static call graph by name and the ways in: who reaches a check, and how a user sets its input."""

from __future__ import annotations

import json
from pathlib import Path

from errdex.caches import CALLERS
from errdex.indexing import index
from errdex.pages import build_page
from errdex.pages.callers import CalledFunction, callers, release_callers
from errdex.store import Store
from tests.pages.conftest import Indexer, error_id_of

FILES = {
    "app/__init__.py": "from .settings import Settings\n",
    "app/settings.py": """
        KINDS = ("a", "b")


        class Base:
            def __init__(self, kind="a"):
                self.kind = kind


        class Settings(Base):
            def __init__(self, kind="a", strict=False):
                super().__init__(kind)
                self.strict = strict
                self.check()

            def update(self, **kwargs):
                for key, value in kwargs.items():
                    setattr(self, key, value)
                self._refresh()

            def _refresh(self):
                self.check()

            def check(self):
                if self.kind not in KINDS:
                    raise ValueError(f"unknown kind {self.kind}")
    """,
    "app/use.py": """
        from app import Settings
        from app.settings import KINDS


        def make(kind):
            settings = Settings(kind=kind)
            settings.check()
            return settings


        class Other:
            def check(self):
                return KINDS

            def run(self, thing):
                thing.check()
    """,
}


def test_callers_by_name_with_how_sure_each_is(indexed: Indexer) -> None:
    store = indexed(FILES, name="app")
    release = store.release("app")
    found = callers(store, release, CalledFunction("app/settings.py", "Settings.check"))
    got = [(c["function"], c["match"]) for c in found["callers"]]
    assert got == [
        ("Settings.__init__", "self"),
        ("Settings._refresh", "self"),
        ("make", "receiver"),
        ("Other.run", "name"),
    ]
    assert found["files_searched"] == 3 and found["files_parsed"] == 2 and not found["truncated"]
    constructed = callers(store, release, CalledFunction("app/settings.py", "Settings.__init__"))
    assert [(c["function"], c["match"]) for c in constructed["callers"]] == [("make", "constructor")]


def test_callers_are_cached_per_release_and_function(indexed: Indexer) -> None:
    store = indexed(FILES, name="app")
    release = store.release("app")
    target = CalledFunction("app/settings.py", "Settings.check")
    first = callers(store, release, target)
    key = CALLERS.key("app", "1.0", target.file, target.function)
    assert json.loads(store.cache_get(key) or b"null") == first
    store.cache_put(key, json.dumps({**first, "callers": []}).encode())
    assert callers(store, release, target)["callers"] == []  # served from the cache


def test_ways_in_through_init_a_base_class_and_a_generic_setattr(indexed: Indexer) -> None:
    store = indexed(FILES, name="app")
    page = build_page(store, error_id_of(store, "app", "unknown kind {}"))
    (item,) = page["when_it_happens"]["inputs"]
    assert (item["code"], item["kind"]) == ("self.kind", "attribute")
    ways = {w["via"]: w for w in item["ways_in"]}
    assert item["ways_in"][0] is ways["Settings.__init__"]
    assert ways["Settings.__init__"]["call"] == "Settings(kind=...)"
    assert ways["Settings.__init__"]["how"].startswith(
        "`Settings.__init__` passes `kind` on to `Base.__init__` (line 11);"
    )
    assert ways["Settings.__init__"]["how"].endswith("and then reaches the check by calling `self.check()` (line 13)")
    assert ways["Settings.update"]["call"] == "settings.update(kind=...)"
    assert ways["Settings.update"]["reaches_check"]
    assert "by calling `self._refresh()`" in ways["Settings.update"]["how"]
    assert ways["Base.__init__"]["call"] == "Base(kind=...)" and not ways["Base.__init__"]["reaches_check"]
    summary = page["when_it_happens"]["summary"]
    assert "reached from `Settings.__init__`, `Settings._refresh`, `make`, `Other.run`" in summary
    assert page["triggers"][0]["code"] == "from app.settings import Settings\n\nSettings(kind='invalid')"


def test_one_pass_over_the_release_finds_what_each_search_finds(indexed: Indexer, tmp_path: Path) -> None:
    store = indexed(FILES, name="app")
    release = store.release("app")
    functions = [(e.site.file, e.site.function) for e in store.release_sites(release)]
    functions += [("app/settings.py", "Settings.__init__"), ("app/use.py", "make"), ("app/use.py", "Other.check")]
    assert release_callers(store, release, functions) == len(set(functions))
    assert release_callers(store, release, functions) == 0  # all cached now
    with Store(tmp_path / "each.db") as each:
        index(str(tmp_path / "app-1.0"), each, name="app", version="1.0", workers=1)
        for file, function in set(functions):
            alone = callers(each, each.release("app"), CalledFunction(file, function))
            assert callers(store, release, CalledFunction(file, function)) == alone, function
