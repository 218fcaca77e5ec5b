"""Related errors: the few that share the function or the setting the check reads, each with a template."""

from __future__ import annotations

from errdex.pages import build_page
from tests.pages.conftest import Indexer, error_id_of

PACKAGE = {
    "app/__init__.py": "",
    "app/config.py": """
        class Config:
            def __init__(self, mode, size):
                self.mode = mode
                self.size = size

            def validate(self):
                if self.mode not in ("a", "b"):
                    raise ValueError(f"bad mode {self.mode}")
                if self.size < 0:
                    raise ValueError(f"bad size {self.size}")
                if self.size > 9:
                    raise ValueError(compute())
                for i in range(12):
                    if i == self.size:
                        raise KeyError(f"slot {i} is taken")

            def save(self):
                if self.mode == "a":
                    raise RuntimeError("mode a cannot be saved")

            def load(self, mode):
                if mode == "b":
                    raise RuntimeError("a local mode of the same name")


        class FastConfig(Config):
            def run(self):
                if self.mode == "b":
                    raise RuntimeError("fast configs do not run in mode b")


        def use(config):
            if config.mode is None:
                raise TypeError("config needs a mode")
    """,
    "app/other.py": """
        class Engine:
            def __init__(self, mode):
                self.mode = mode

            def start(self):
                if self.mode == "x":
                    raise RuntimeError("engines do not start in mode x")
    """,
}


def related_of(store, template: str) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    page = build_page(store, error_id_of(store, "app", template))
    assert len(page["related"]) <= 8 and all(r["template"] for r in page["related"])
    return [(r["relation"], r["template"]) for r in page["related"]]


def test_same_function_first_then_the_same_setting_read_as_an_attribute(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="app")
    related = related_of(store, "bad mode {}")
    assert related == [
        ("function", "bad size {}"),
        ("function", "slot {} is taken"),  # the raise with no template is left out
        ("setting", "mode a cannot be saved"),  # self.mode in the same class
        ("setting", "fast configs do not run in mode b"),  # self.mode in a subclass
        ("setting", "config needs a mode"),  # config.mode: a variable named after the class
    ]  # not the parameter `mode` of load, nor Engine's own `self.mode`


def test_a_check_of_no_setting_has_only_its_function(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="app")
    assert related_of(store, "a local mode of the same name") == []
    assert related_of(store, "engines do not start in mode x") == []


COMMANDS = {
    "app/__init__.py": "",
    "app/base.py": """
        class BaseCommand:
            def execute(self, interactive):
                self.interactive = interactive
                self._state = "ready"
                self.handle()
    """,
    "app/squash.py": """
        from app.base import BaseCommand


        class Command(BaseCommand):
            def handle(self):
                self.interactive = self.interactive
                self._state = "squashing"
                if self.interactive and self._state == "squashing":
                    raise RuntimeError("migration already exists")
    """,
    "app/collect.py": """
        from app.base import BaseCommand


        class Command(BaseCommand):
            def handle(self):
                self.interactive = self.interactive
                if self.interactive:
                    raise RuntimeError("collecting cancelled")


        class FastCommand(BaseCommand):
            def handle(self):
                self._state = "fast"
                if self._state == "fast":
                    raise RuntimeError("fast state")
    """,
}


def test_a_namesake_class_a_sibling_and_a_private_attribute_share_no_setting(indexed: Indexer) -> None:
    """Two `Command` classes in two files are two classes (siblings under one base, not one hierarchy), and a
    private `self._state` is bookkeeping: none of them relates the errors as sharing a setting."""
    store = indexed(COMMANDS, name="app")
    assert related_of(store, "migration already exists") == []
    assert related_of(store, "collecting cancelled") == []


COMPUTED = {
    "blk/__init__.py": """
        class Block:
            def __init__(self, values, weights=None, **kwargs):
                self.values = values
                self.weights = weights or []
                self.mode = kwargs.pop("mode", None)
                self.size = len(values)

            @property
            def dtype(self):
                return self.values.dtype

            def where(self):
                if self.dtype == object and self.weights and self.mode and self.size:
                    raise TypeError("cannot downcast object blocks")

            def fill(self):
                if self.dtype == object:
                    raise TypeError("cannot fill object blocks")

            def weigh(self):
                if not self.weights:
                    raise ValueError("no weights to weigh")

            def choose(self):
                if self.mode is None:
                    raise ValueError("no mode to choose")

            def measure(self):
                if self.size == 0:
                    raise ValueError("nothing to measure")
    """,
}


def test_a_setting_is_only_an_attribute_stored_from_a_constructor_argument_of_its_name(indexed: Indexer) -> None:
    """`dtype` (a property) and `size` (computed from `values`) are the package's own: checks reading them are
    not related by a setting; `weights` (from the parameter) and `mode` (from the `mode` keyword) are."""
    store = indexed(COMPUTED, name="blk")
    page = build_page(store, error_id_of(store, "blk", "cannot downcast object blocks"))
    assert sorted((r["relation"], r["template"]) for r in page["related"]) == [
        ("setting", "no mode to choose"),
        ("setting", "no weights to weigh"),
    ]


OPTIONS = {
    "prs/__init__.py": "",
    "prs/base.py": """
        class ParserBase:
            def __init__(self, kwds):
                self.index_col = kwds.get("index_col", None)
                self.rows = 0

            def validate(self):
                if self.index_col is True:
                    raise ValueError("index_col cannot be True")
                if self.rows < 0:
                    raise ValueError("rows went below zero")
    """,
    "prs/python.py": """
        from prs.base import ParserBase


        class PythonParser(ParserBase):
            def infer(self):
                self.index_col = [0]
                self.rows = 1

            def alert(self):
                if self.index_col is not False and self.rows > 9:
                    raise ValueError("too many columns for the index")
    """,
}


def test_a_setting_stored_from_an_options_parameter_by_a_base_in_another_file_is_kept(indexed: Indexer) -> None:
    """`self.index_col = kwds.get("index_col")` in the base's own file makes `index_col` a setting (the caller's
    option); `rows`, which the base computes, is not one."""
    store = indexed(OPTIONS, name="prs")
    page = build_page(store, error_id_of(store, "prs", "too many columns for the index"))
    assert [(r["relation"], r["template"]) for r in page["related"]] == [("setting", "index_col cannot be True")]
