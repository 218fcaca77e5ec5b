"""The static call graph, names resolved, and the ways in: who reaches a check, and how a user sets its input."""

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


def test_callers_resolved_with_how_sure_each_is(indexed: Indexer) -> None:
    store = indexed(FILES, name="app")
    release = store.release("app")
    found = callers(store, release, CalledFunction("app/settings.py", "Settings.check"))
    got = [(c["function"], c["match"], c["use"]) for c in found["callers"]]
    assert got == [
        ("Settings.__init__", "self", "call"),
        ("Settings._refresh", "self", "call"),
        ("make", "typed", "call"),  # `settings = Settings(...)`: the class is known
    ]
    assert found["unresolved"] == 1  # `thing.check()` in `Other.run`: its class is not known, so not claimed
    assert found["files_searched"] == 3 and found["files_parsed"] == 2 and not found["truncated"]
    constructed = callers(store, release, CalledFunction("app/settings.py", "Settings.__init__"))
    assert [(c["function"], c["match"]) for c in constructed["callers"]] == [("make", "constructor")]


SHAPES = {
    "shapes/__init__.py": "",
    "shapes/base.py": """
        class BaseCommand:
            def execute(self):
                return self.handle()

            def handle(self):
                raise NotImplementedError("subclasses of BaseCommand must provide handle()")


        class TemplateCommand(BaseCommand):
            def handle(self, name=None):
                if name is None:
                    raise ValueError("a template needs a name")
    """,
    "shapes/changepw.py": """
        from shapes.base import BaseCommand


        class Command(BaseCommand):
            def handle(self, user=None):
                if user is None:
                    raise KeyError("user does not exist")
    """,
    "shapes/startapp.py": """
        from shapes.base import TemplateCommand


        class Command(TemplateCommand):
            def handle(self, **options):
                super().handle(**options)


        def run(thing):
            thing.handle()
    """,
    "shapes/resolvers.py": """
        import functools


        class Resolver:
            @property
            def url_patterns(self):
                patterns = getattr(self, "module", None)
                if patterns is None:
                    raise ValueError("the module has no patterns")
                return patterns

            def resolve(self, path):
                return [p for p in self.url_patterns if p == path]

            def check(self):
                return list(self.url_patterns)


        class Arguments:
            @functools.cached_property
            def _setup_devices(self):
                if self.count < 0:
                    raise RuntimeError("the device count is negative")
                return "cpu"

            @property
            def device(self):
                return self._setup_devices
    """,
    "shapes/config.py": """
        class Config:
            def __init__(self, mode=None, fast=False):
                if fast:
                    self.mode = None
                else:
                    self.validate()

            def validate(self):
                if self.mode not in ("a", "b"):
                    raise ValueError("unknown mode")
    """,
    "shapes/model.py": """
        import framework


        class Model(framework.Module):
            def forward(self, x):
                if x is None:
                    raise ValueError("x is required")
    """,
    "shapes/registry.py": """
        from dataclasses import dataclass


        def parse_text(text):
            if not text:
                raise ValueError("the text is empty")
            return text


        def split(url):
            return url.partition(":")[::2]


        HANDLERS = {"text": parse_text}


        def prepare(url):
            scheme, host = split(url)
            if not host:
                raise ValueError("no host supplied")
            return scheme


        @dataclass
        class Options:
            size: int = 0

            def __post_init__(self):
                if self.size < 0:
                    raise ValueError("the size is negative")


        def make_options():
            return Options(size=1)


        def register(function):
            HANDLERS[function.__name__] = function
            return function


        @register
        def parse_number(text):
            if not text.isdigit():
                raise ValueError("not a number")
            return int(text)


        def outer(values):
            def inner(value):
                if value is None:
                    raise TypeError("a value is None")

            return [inner(v) for v in values]


        def documented_like(other):
            def copy_doc(function):
                function.__doc__ = other.__doc__
                return function

            return copy_doc


        class Reader:
            def read(self, text):
                if not text:
                    raise ValueError("nothing to read")
                return text


        class Words(Reader):
            @documented_like(Reader.read)
            def read(self, text):
                return text.split()
    """,
}


def _found(store: Store, file: str, function: str) -> list[tuple[str, str, str, str]]:
    search = callers(store, store.release("shapes"), CalledFunction(file, function))
    return [(c["file"].split("/")[-1], c["function"], c["match"], c["use"]) for c in search["callers"]]


def test_overrides_super_and_inheritance_resolved_by_class_not_by_name(indexed: Indexer) -> None:
    store = indexed(SHAPES, name="shapes")
    # `BaseCommand.execute` calls `self.handle()`: on a changepw `Command` that is its override.
    assert _found(store, "shapes/changepw.py", "Command.handle") == [
        ("base.py", "BaseCommand.execute", "override", "call")
    ]
    # startapp's `super().handle()` reaches the `handle` of its own base, never changepw's.
    assert ("startapp.py", "Command.handle", "super", "call") in _found(
        store, "shapes/base.py", "TemplateCommand.handle"
    )
    search = callers(store, store.release("shapes"), CalledFunction("shapes/changepw.py", "Command.handle"))
    assert search["unresolved"] == 1  # `thing.handle()`: counted, never claimed
    assert "uses of the name on objects whose class is not known (1)" in search["not_followed"]
    # the page counts it, naming no example (its class is not known: it may well be another `handle`)
    maybe = "Not examined: 1 use of the name `handle` on objects whose class was not resolved; a call of"
    assert maybe in _summary(store, "user does not exist")


def test_property_and_cached_property_reads_are_uses(indexed: Indexer) -> None:
    store = indexed(SHAPES, name="shapes")
    assert _found(store, "shapes/resolvers.py", "Resolver.url_patterns") == [
        ("resolvers.py", "Resolver.resolve", "self", "read"),
        ("resolvers.py", "Resolver.check", "self", "read"),
    ]
    assert _found(store, "shapes/resolvers.py", "Arguments._setup_devices") == [
        ("resolvers.py", "Arguments.device", "self", "read")
    ]


def test_registrations_unpacking_dataclass_init_and_nested_functions(indexed: Indexer) -> None:
    store = indexed(SHAPES, name="shapes")
    assert _found(store, "shapes/registry.py", "parse_text") == [("registry.py", "<module>", "module", "reference")]
    # the decorator `@documented_like(Reader.read)` is handed Reader.read as a value: not a use of it
    assert _found(store, "shapes/registry.py", "Reader.read") == []
    assert _found(store, "shapes/registry.py", "split") == [("registry.py", "prepare", "module", "call")]
    assert _found(store, "shapes/registry.py", "Options.__post_init__") == [
        ("registry.py", "make_options", "constructor", "call")
    ]
    assert _found(store, "shapes/registry.py", "outer.<locals>.inner") == [("registry.py", "outer", "local", "call")]
    # its own `@register` is handed it when defined: said apart, never listed or counted as a use
    assert _found(store, "shapes/registry.py", "parse_number") == []
    search = callers(store, store.release("shapes"), CalledFunction("shapes/registry.py", "parse_number"))
    assert [(c["line"], c["use"]) for c in search["decorated_by"]] == [(42, "decorated")]


def test_what_a_base_from_outside_the_package_calls_is_said_not_followed(indexed: Indexer) -> None:
    store = indexed(SHAPES, name="shapes")
    search = callers(store, store.release("shapes"), CalledFunction("shapes/model.py", "Model.forward"))
    assert search["callers"] == []
    outside = "calls made by the code of its class's bases from outside the package (framework.Module)"
    assert outside in search["not_followed"]


def _summary(store: Store, template: str) -> str:
    return build_page(store, error_id_of(store, "shapes", template))["when_it_happens"]["summary"]


def test_pages_say_what_the_search_covered_and_trace_unpacked_locals(indexed: Indexer) -> None:
    store = indexed(SHAPES, name="shapes")
    reached = "`Resolver.url_patterns` is called from `Resolver.resolve`, `Resolver.check`;"
    assert reached in _summary(store, "the module has no patterns")
    referenced = "`parse_text` is referenced (passed or registered, not called by name) in `<module>`"
    assert referenced in _summary(store, "the text is empty")
    decorated = "`parse_number` is passed to its decorator `@register` when defined (line 42); what the decorator does"
    assert decorated in _summary(store, "not a number")
    summary = _summary(store, "no host supplied")
    assert "`host` is unpacked in `prepare` from `split(url)` (item 2 of 2, line 18)" in summary
    assert (
        "No caller of `prepare` was found among the 8 files of the package; searched: calls, attribute/property reads,"
        " super(), references (dicts, arguments, decorators); not followed: getattr() by string" in summary
    )


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
    assert "called from `Settings.__init__`, `Settings._refresh`, `make`;" in summary
    assert page["triggers"][0]["code"] == "from app import Settings\n\nSettings(kind='invalid')"  # as re-exported


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


def test_a_store_in_one_branch_does_not_reach_a_check_called_in_the_other(indexed: Indexer) -> None:
    store = indexed(SHAPES, name="shapes")
    page = build_page(store, error_id_of(store, "shapes", "unknown mode"))
    (item,) = page["when_it_happens"]["inputs"]
    (bound,) = item["bound"]  # a store without an argument: where it is bound, no way in
    assert bound["how"] == "`Config.__init__` stores `None` in `self.mode` (line 4)" and not item["ways_in"]


DEFAULTS = {
    "cache/__init__.py": "",
    "cache/data.py": """
        class Data:
            def map(self, function, keep_in_memory=False, cache_file_name=None):
                if keep_in_memory and cache_file_name is not None:
                    raise ValueError("keep_in_memory and cache_file_name cannot both be used")
                return function(self)

            def batch(self, size):
                return self.map(lambda d: d, cache_file_name="x.arrow")

            def load(self, keep):
                return self.map(len, keep_in_memory=keep, cache_file_name="y.arrow")

            def copy(self):
                return self.map(len, keep_in_memory=True, cache_file_name=None)
    """,
}


def test_a_call_whose_literals_and_defaults_pass_the_check_is_no_way_in(indexed: Indexer) -> None:
    store = indexed(DEFAULTS, name="cache")
    summary = build_page(store, error_id_of(store, "cache", "keep_in_memory and cache_file_name cannot both be used"))[
        "when_it_happens"
    ]["summary"]
    # batch leaves keep_in_memory False: whatever cache_file_name it passes, the check is false; copy passes None
    assert "`Data.map` is called from `Data.load`;" in summary
    assert "`Data.batch`, `Data.copy` call it with values that make the check false" in summary
    no_way = "call it with values that make the check false (the literals as written, the defaults of what"
    assert no_way in summary


MODULES = {
    "paint/__init__.py": "",
    "paint/colors.py": """
        def to_rgba(color):
            return (0, 0, 0, 1)
    """,
    "paint/palette.py": """
        class Palette:
            def to_rgba(self, color):
                if color not in ("red", "blue"):
                    raise ValueError(f"unknown color {color}")
                return (1, 0, 0, 1)
    """,
    "paint/draw.py": """
        import paint.colors as mcolors
        from paint.palette import Palette


        def draw(color):
            return mcolors.to_rgba(color)


        def fill(color):
            return Palette().to_rgba(color)
    """,
}


def test_a_function_of_an_imported_module_is_not_a_use_of_a_method_of_that_name(indexed: Indexer) -> None:
    store = indexed(MODULES, name="paint")
    search = callers(store, store.release("paint"), CalledFunction("paint/palette.py", "Palette.to_rgba"))
    assert [c["function"] for c in search["callers"]] == ["fill"]
    assert search["unresolved"] == 0  # `mcolors.to_rgba(...)` is the module's own function
