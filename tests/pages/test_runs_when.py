"""A generator's or a coroutine's body, and its check, run only when what a call returns is iterated or awaited: a
trigger runs it (`list(...)`, `asyncio.run(...)`) and says so, and a call through another function, which may never
iterate it, is no trigger (`errdex verify` disproved `do_items(value=object())` in jinja2 3.1.6)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.pages.conftest import Indexer, pages_of

MODULE = """
    def items(value, strict=True):
        if strict and not isinstance(value, dict):
            raise TypeError("can only get item pairs from a mapping")
        yield from value.items()


    async def fetch(url, retries=1):
        if retries < 0:
            raise ValueError("retries must be non-negative")
        return url


    def pairs(value, strict=True):
        def inner():
            yield 1

        if strict and not isinstance(value, dict):
            raise TypeError("pairs need a mapping")
        return inner()
"""


@pytest.fixture
def page_of(indexed: Indexer) -> Any:
    store = indexed({"pkg/__init__.py": "from pkg.gen import fetch, items, pairs\n", "pkg/gen.py": MODULE})
    return pages_of(store, "pkg")


def test_a_generator_is_iterated_by_its_trigger(page_of: Any) -> None:
    page = page_of("can only get item pairs from a mapping")
    assert page["what_it_means"]["runs_when"] == "iterated"
    trigger = page["triggers"][0]
    assert trigger["code"] == "from pkg import items\n\nlist(items(strict=True, value='text'))"
    assert "a call runs its body, and the check, only when what it returns is iterated" in trigger["text"]


def test_a_coroutine_is_awaited_by_its_trigger(page_of: Any) -> None:
    page = page_of("retries must be non-negative")
    assert page["what_it_means"]["runs_when"] == "awaited"
    code = page["triggers"][0]["code"]
    assert code is not None and code.startswith("import asyncio\nfrom pkg import fetch\n\nasyncio.run(fetch(")


def test_a_function_that_returns_a_generator_it_defines_runs_when_called(page_of: Any) -> None:
    page = page_of("pairs need a mapping")
    assert page["what_it_means"]["runs_when"] is None
    assert page["triggers"][0]["code"] is not None and "list(" not in page["triggers"][0]["code"]
