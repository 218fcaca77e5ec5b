"""Value claims of kinds of code: a module global that a function binds again under `global`, a closure
variable bound in the enclosing function, a local and an attribute of one name, a stored constant with which the
check's condition is false."""

from __future__ import annotations

import ast
from typing import Any

import pytest
from rich.console import Console

from errdex import terminal
from errdex.pages import build_page
from errdex.pages.evaluate import UNKNOWN, Instance, truth
from tests.pages.conftest import Indexer, error_id_of, pages_of, strings

KERNEL = """
    _KERNEL = None


    def _load():
        global _KERNEL
        if _KERNEL is not None:
            return
        if not ready():
            raise ImportError("kernel unavailable")
        _KERNEL = object()


    def use():
        if _KERNEL is None:
            raise RuntimeError("kernel not loaded")


    def ready():
        return True
"""
CLOSURE = """
    def make(args):
        first_is_bytes = args and args[0] is bytes

        def validate(value):
            if first_is_bytes and isinstance(value, str):
                raise TypeError("bytes wanted")
            return value

        return validate


    def make_late(args):
        def validate(value):
            if strict and value is None:
                raise ValueError("no value")
            return value

        strict = False
        if args:
            strict = True
        return validate


    def make_both(args):
        loose = True

        def check(value):
            if loose and value is None:
                raise ValueError("no loose value")
            return value

        loose = not args
        return check
"""


@pytest.fixture
def page_of(indexed: Indexer) -> Any:
    return pages_of(indexed({"pkg/__init__.py": "", "pkg/kernel.py": KERNEL, "pkg/closure.py": CLOSURE}), "pkg")


def test_a_global_bound_again_by_a_function_has_no_single_value(page_of: Any) -> None:
    """`_KERNEL = None` is only its first binding: `_load` binds it again under `global` (line 10)."""
    page = page_of("kernel unavailable")
    (value,) = page["what_it_means"]["values"]
    assert value["name"] == "_KERNEL" and not value["known"] and value["value"] is None
    assert value["choice"] == (
        "`_KERNEL` is bound at line 1 and then bound again by `_load` (line 10): what it holds at the check is"
        " not resolved."
    )


def test_a_global_bound_again_by_a_function_is_no_value_fixed_at_import(page_of: Any) -> None:
    page = page_of("kernel not loaded")
    assert not any("when the module is imported" in text for text in strings(page))
    assert all(test["code"] != "_KERNEL is None" for test in page["what_it_means"]["environment"])


def test_a_closure_variable_is_traced_into_the_enclosing_function(page_of: Any) -> None:
    page = page_of("bytes wanted")
    (item,) = [i for i in page["when_it_happens"]["inputs"] if i["code"] == "first_is_bytes"]
    (bound,) = item["bound"]
    assert bound["line"] == 2 and bound["how"].startswith(
        "`first_is_bytes` is computed in `make` from `args and args[0] is bytes` (line 2) (read by `validate`"
    )
    assert "could not be traced" not in page["when_it_happens"]["summary"]


def test_a_closure_variable_bound_again_after_the_nested_function_is_not_resolved(page_of: Any) -> None:
    """A closure reads the name when it is called: the bindings after its `def` may be the one it sees."""
    page = page_of("no value")
    (item,) = [i for i in page["when_it_happens"]["inputs"] if i["code"] == "strict"]
    assert [b["line"] for b in item["bound"]] == [18]
    assert item["bound"][0]["how"] == (
        "`strict` is bound in `make_late` only after `validate` is defined (line 18, 20) (read by `validate`, the"
        " function defined inside `make_late` at line 13): which value a call sees is not resolved"
    )


def test_a_closure_variable_bound_before_and_after_the_nested_function_says_both(page_of: Any) -> None:
    page = page_of("no loose value")
    (item,) = [i for i in page["when_it_happens"]["inputs"] if i["code"] == "loose"]
    assert item["bound"][0]["how"] == (
        "`loose` is computed in `make_both` from `True` (line 25) (read by `check`, the function defined inside"
        " `make_both` at line 27); `make_both` binds it again after that (line 32): which value a call sees is not"
        " resolved"
    )


PROPERTY = """
    class Prop:
        def __init__(self, argument=None):
            self.argument = argument

        def scan(self, annotation):
            argument = annotation.strip()
            if self.argument is None and argument.startswith("list"):
                raise TypeError("cannot instantiate")
"""


def test_a_local_and_an_attribute_of_one_name_are_named_apart(indexed: Indexer) -> None:
    """The local `argument` is never `self.argument`: where both are inputs, each is named by its code, so that
    `Prop(argument=...)` reads as setting `self.argument`, not the local the check also reads."""
    store = indexed({"prop/__init__.py": PROPERTY}, name="prop")
    page = build_page(store, error_id_of(store, "prop", "cannot instantiate"))
    inputs = {i["code"]: i for i in page["when_it_happens"]["inputs"]}
    assert {code: i["name"] for code, i in inputs.items()} == {"self.argument": "self.argument", "argument": "argument"}
    assert inputs["argument"]["ways_in"] == [] and inputs["argument"]["bound"][0]["line"] == 6
    console = Console(width=250, record=True)
    console.print(terminal.page_panel(page))
    assert "(prop/__init__.py:3): sets self.argument without running the check" in console.export_text()
    facts = [f["fact"] for f in page["provenance"]]
    assert "where `self.argument` is set without running the check (Prop.__init__)" in facts
    assert "where `argument` is bound" in facts


RESPONSE = """
    class Response:
        def __init__(self):
            self.raw = None

        def iter_content(self, size):
            def generate():
                if hasattr(self.raw, "stream"):
                    if size < 0:
                        raise ValueError("negative chunk size")
                return self.raw

            return generate()
"""


def test_a_stored_constant_that_makes_the_condition_false_is_not_the_value_seen(indexed: Indexer) -> None:
    """`self.raw = None` cannot reach a raise under `hasattr(self.raw, "stream")`."""
    store = indexed({"resp/__init__.py": RESPONSE}, name="resp")
    page = build_page(store, error_id_of(store, "resp", "negative chunk size"))
    (item,) = [i for i in page["when_it_happens"]["inputs"] if i["code"] == "self.raw"]
    (bound,) = item["bound"]
    assert bound["line"] == 3 and bound["how"].endswith(
        "; with `self.raw` = `None` the check's condition is false: it cannot be the value the check sees"
    )


@pytest.mark.parametrize(
    ("value", "expected"), [(None, False), ("text", True), (Instance("Raw"), UNKNOWN), (UNKNOWN, UNKNOWN)]
)
def test_hasattr_is_known_for_plain_values_only(value: object, expected: object) -> None:
    assert truth(ast.parse("hasattr(raw, 'strip')", mode="eval").body, {"raw": value}) is expected


IMAGES = """
    class Base:
        def set_data(self, data):
            self._data = normalize(data)

        def set_array(self, data):
            self.set_data(data)


    class Plain(Base):
        def set_data(self, values):
            self._data = list(values)

        def set_norm(self, norm):
            if self._data is not None:
                raise RuntimeError("cannot change colors after loading data")


    class Passing(Base):
        def set_data(self, values):
            super().set_data(values)

        def set_norm(self, norm):
            if self._data is not None:
                raise RuntimeError("cannot change norm after loading data")
"""


def _bound_lines(page: dict[str, Any], code: str) -> list[int]:
    (item,) = [i for i in page["when_it_happens"]["inputs"] if i["code"] == code]
    return sorted(w["line"] for w in item["ways_in"] + item["bound"])


def test_a_store_in_a_base_method_the_class_overrides_without_super_does_not_apply(indexed: Indexer) -> None:
    """`Plain.set_data` replaces `Base.set_data` without calling it: `Base`'s store never binds a `Plain`'s `_data`;
    `Passing.set_data` calls `super().set_data(...)`, so for `Passing` it does."""
    store = indexed({"img/__init__.py": IMAGES}, name="img")
    plain = build_page(store, error_id_of(store, "img", "cannot change colors after loading data"))
    assert _bound_lines(plain, "self._data") == [11]
    passing = build_page(store, error_id_of(store, "img", "cannot change norm after loading data"))
    assert 3 in _bound_lines(passing, "self._data")
