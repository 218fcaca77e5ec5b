"""What a call must pass besides the checked value: a module function's `cls` is a parameter like any other (it was
left out as if it were a method's), and a positional-only one is passed by position (`errdex verify` found both:
`check_parameters_count(parameters='x')` and `create_model(model_name='x', ...)` in pydantic raised TypeError)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.pages.conftest import Indexer, pages_of

MODULE = """
    def check_count(cls, parameters):
        if len(parameters) != 2:
            raise TypeError("need two parameters")


    def make(name, /, *, strict=False):
        if strict and name != "ok":
            raise ValueError("a strict name must be ok")


    class Maker:
        @classmethod
        def build(cls, name, strict=False):
            if strict and name != "ok":
                raise ValueError("a strict build must be ok")
"""


@pytest.fixture
def page_of(indexed: Indexer) -> Any:
    store = indexed({"pkg/__init__.py": "from pkg.core import Maker, check_count, make\n", "pkg/core.py": MODULE})
    return pages_of(store, "pkg")


def _way(page: dict[str, Any], name: str) -> dict[str, Any]:
    item = next(i for i in page["when_it_happens"]["inputs"] if i["name"] == name)
    return next(w for w in item["ways_in"] if w["call"])


def test_a_module_function_s_cls_must_be_passed(page_of: Any) -> None:
    page = page_of("need two parameters")
    assert _way(page, "parameters")["required"] == ["cls"]
    assert page["candidates"][0]["code"].startswith("from pkg import check_count\n\ncheck_count(cls='x', parameters=")


def test_a_positional_only_parameter_is_passed_by_position(page_of: Any) -> None:
    page = page_of("a strict name must be ok")
    assert _way(page, "strict")["required"] == ["name", "/"]
    assert page["triggers"][0]["code"] == "from pkg import make\n\nmake('invalid', strict=True)"
    assert page["example_fix"] is not None and page["example_fix"]["after"].endswith("make('invalid', strict=False)")


def test_a_class_method_s_cls_is_not_passed(page_of: Any) -> None:
    page = page_of("a strict build must be ok")
    assert _way(page, "strict")["required"] == ["name"]
