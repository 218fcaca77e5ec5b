"""Triggers use only values the code can be given: who sets the input, its annotation, its default's type."""

from __future__ import annotations

import ast
from typing import Any, Literal

import pytest

from errdex.pages.receives import annotation_types, fits
from tests.pages.conftest import Indexer, pages_of

SOURCE = """
    from typing import Literal, Optional

    class Stream:
        def __init__(self, chunk=512):
            self._consumed = False
            self.chunk = chunk

        def read(self):
            if self._consumed:
                raise RuntimeError("already consumed")

        def size(self):
            if self.chunk < 1:
                raise ValueError("chunk must be positive")


    def pick(axis: Axis = 0):
        if axis > 1:
            raise ValueError(f"No axis named {axis}")


    def mode(how: Literal["left", "right"] = "left"):
        if how == "inner":
            raise ValueError("inner is not supported")


    def limit(size: Optional[int] = None):
        if size is not None and size > 1024:
            raise ValueError("too large")


    def _encode(files, data):
        if not files:
            raise ValueError("Files must be provided.")


    def period(freq=None):
        if freq is None:
            freq = infer()
            if freq is None:
                raise ValueError("no freq")


    def check(value: int = 0):
        if not isinstance(value, int):
            raise TypeError("value must be an int")


    class Runner:
        def __init__(self, mode="fast"):
            self.mode = mode
            if self.mode == "":
                raise ValueError("empty mode")

        def run(self):
            self.mode = normalize(self.mode)
            if self.mode not in ("fast", "slow"):
                raise ValueError("bad mode")


    def fall(kind, strict=False):
        if kind == "a":
            return 1
        elif kind == "b":
            return 2
        raise ValueError(f"unknown kind {kind}")
"""


@pytest.fixture
def page_of(indexed: Indexer) -> Any:
    return pages_of(indexed({"pkg/__init__.py": "", "pkg/stream.py": SOURCE}), "pkg")


def trigger_values(page: dict[str, Any]) -> list[dict[str, str]]:
    return [t["values"] for t in page["triggers"]]


def test_a_private_attribute_is_not_a_user_input(page_of: Any) -> None:
    page = page_of("already consumed")
    assert page["when_it_happens"]["inputs"][0]["receives"]["user_set"] is False
    assert page["triggers"] == []


def test_a_private_function_s_parameter_is_not_a_user_input(page_of: Any) -> None:
    page = page_of("Files must be provided.")
    assert page["when_it_happens"]["inputs"][0]["receives"]["user_set"] is False
    assert page["triggers"] == []


def test_a_parameter_bound_again_before_the_check_is_not_what_the_caller_passed(page_of: Any) -> None:
    page = page_of("no freq")
    assert page["condition"] == "freq is None"  # (said once)
    assert page["when_it_happens"]["inputs"][0]["receives"]["user_set"] is False
    assert page["triggers"] == []


def test_an_attribute_the_checking_method_stores_again_is_not_what_the_constructor_took(page_of: Any) -> None:
    """`self.mode = normalize(self.mode)` before the check: 'invalid' passed to the constructor is not what is checked;
    the constructor's own `self.mode = mode` is the argument itself."""
    page = page_of("bad mode")
    assert page["when_it_happens"]["inputs"][0]["receives"]["user_set"] is False
    assert page["triggers"] == []
    assert trigger_values(page_of("empty mode")) == [{"self.mode": "''"}]


def test_the_default_s_type_bounds_the_values(page_of: Any) -> None:
    page = page_of("chunk must be positive")
    assert page["when_it_happens"]["inputs"][0]["receives"]["types"] == ["int"]
    assert trigger_values(page) == [{"self.chunk": "0"}]


def test_an_alias_annotation_lets_no_plain_value_through(page_of: Any) -> None:
    page = page_of("No axis named {}")
    assert page["when_it_happens"]["inputs"][0]["receives"]["types"] == ["Axis"]
    assert page["triggers"] == []


def test_a_literal_annotation_allows_only_its_values(page_of: Any) -> None:
    page = page_of("inner is not supported")
    assert page["when_it_happens"]["inputs"][0]["receives"]["values"] == ["left", "right"]
    assert page["triggers"] == []  # 'inner' is not a value `how` can be given


def test_an_optional_annotation(page_of: Any) -> None:
    page = page_of("too large")
    assert page["when_it_happens"]["inputs"][0]["receives"]["types"] == ["None", "int"]
    assert trigger_values(page) == [{"size": "1025"}]


def test_a_type_check_accepts_any_type(page_of: Any) -> None:
    assert trigger_values(page_of("value must be an int")) == [{"value": "'text'"}]


def test_a_fall_through_raise_reads_the_negated_branches(page_of: Any) -> None:
    page = page_of("unknown kind {}")
    assert page["condition"] == "not (kind == 'a') and not (kind == 'b')"
    assert page["what_it_means"]["summary"].endswith("when `kind` does not equal 'a' and `kind` does not equal 'b'.")
    assert trigger_values(page) and page["triggers"][0]["code"].endswith("fall(kind='invalid')")


@pytest.mark.parametrize(
    ("annotation", "value", "fit"),
    [
        ("int", 3, True),
        ("int", "3", False),
        ("int | None", None, True),
        ("'Optional[str]'", "x", True),
        ("float", 2, True),
        ("bool", 0, False),
        ("Any", "x", True),
        ("Literal['a', 'b']", "a", True),
        ("Literal['a', 'b']", "c", False),
        ("Literal[1]", True, False),
    ],
)
def test_what_an_annotation_allows(annotation: str, value: object, fit: bool) -> None:
    types, values = annotation_types(ast.parse(annotation, mode="eval").body)
    assert fits(value, {"user_set": True, "types": types, "values": values}) is fit


def test_nothing_fits_an_input_no_user_sets() -> None:
    kind: Literal["x"] = "x"
    assert not fits(kind, {"user_set": False, "types": None, "values": []})
