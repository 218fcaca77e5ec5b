"""A trigger through a function the package's own decorator wraps is said with that decorator's scope: its wrapper
runs first (it may validate the value and raise another error) and is not followed."""

from __future__ import annotations

from typing import Any

import pytest

from tests.pages.conftest import Indexer, pages_of

BASE = """
    import functools


    def validating(method):
        @functools.wraps(method)
        def wrapper(self, *args, **kwargs):
            self.validate()
            return method(self, *args, **kwargs)

        return wrapper
"""

MODEL = """
    import functools

    from .base import validating

    REGISTRY = {}


    def registered(func):
        REGISTRY[func.__name__] = func
        return func


    class Model:
        def __init__(self, algorithm="a"):
            self.algorithm = algorithm

        @validating
        def fit(self):
            self._check()

        def _check(self):
            if self.algorithm != "a":
                raise ValueError("algorithm is not supported")


    @registered
    def scale(mode="linear"):
        if mode != "linear":
            raise ValueError("mode is not supported")


    @functools.lru_cache
    def shift(step=1):
        if step > 10:
            raise ValueError("step is too large")
"""


@pytest.fixture
def page_of(indexed: Indexer) -> Any:
    return pages_of(indexed({"pkg/__init__.py": "", "pkg/base.py": BASE, "pkg/model.py": MODEL}), "pkg")


def test_a_trigger_through_a_package_decorator_is_scoped_by_it(page_of: Any) -> None:
    page = page_of("algorithm is not supported")
    assert page["when_it_happens"]["wrapped_by"] == ["validating"]
    (trigger,) = page["triggers"]
    assert trigger["text"].startswith("The check is true when `algorithm` is ")
    assert ", if the decorator" in trigger["text"]  # not certainly: the decorator may reject
    assert trigger["text"].endswith(", if the decorator `@validating` (not followed here) lets the call through.")


def test_a_registering_or_foreign_decorator_adds_no_scope(page_of: Any) -> None:
    for template in ("mode is not supported", "step is too large"):
        page = page_of(template)
        assert page["when_it_happens"]["wrapped_by"] == []
        assert page["triggers"] and "unless" not in page["triggers"][0]["text"]
