"""A call whose result is the test of an `if` (`if not is_list_like(by):`) is a predicate picking a branch, not a
step that may reject a value first; and when the branch it picks stores the checked attribute again
(`self.by = [self.by]`), the check reads that value, not the one it held when the method was called."""

from __future__ import annotations

from typing import Any

import pytest

from tests.pages.conftest import Indexer, pages_of

MODULE = """
    def is_list_like(value):
        return isinstance(value, (list, tuple))


    def check_limit(limit):
        if limit < 0:
            raise ValueError("limit must not be negative")


    class Merge:
        def __init__(self, left_by=None, right_by=None):
            self.left_by = left_by
            self.right_by = right_by
            self._validate()

        def _validate(self):
            if self.left_by is not None:
                if not is_list_like(self.left_by):
                    self.left_by = [self.left_by]
                if not is_list_like(self.right_by):
                    self.right_by = [self.right_by]
                if len(self.left_by) != len(self.right_by):
                    raise ValueError("left_by and right_by must be the same length")


    def clip(values, limit):
        check_limit(limit)
        if not is_list_like(values) and limit:
            values = [values]
        if len(values) > limit:
            raise ValueError("too many values")
"""


@pytest.fixture
def page_of(indexed: Indexer) -> Any:
    return pages_of(indexed({"pkg/__init__.py": "", "pkg/merge.py": MODULE}), "pkg")


def test_a_predicate_in_an_if_test_is_not_a_call_that_may_reject_first(page_of: Any) -> None:
    meaning = page_of("left_by and right_by must be the same length")["what_it_means"]
    assert meaning["calls_before"] == []
    assert "Before the check" not in meaning["summary"]
    clipped = page_of("too many values")["what_it_means"]  # a call made as a step is still said
    assert [(c["line"], c["call"], c["passes"]) for c in clipped["calls_before"]] == [
        (27, "check_limit(...)", ["limit"])
    ]


def test_an_attribute_stored_again_before_the_check_is_read_as_stored_again(page_of: Any) -> None:
    meaning = page_of("left_by and right_by must be the same length")["what_it_means"]
    assert [(r["name"], r["line"], r["when"]) for r in meaning["rebound"]] == [
        ("self.left_by", 19, "not is_list_like(self.left_by)"),
        ("self.right_by", 21, "not is_list_like(self.right_by)"),
    ]
    assert meaning["summary"].endswith(
        " `self.left_by` here is its value after line 19 (`self.left_by = [self.left_by]` when"
        " `not is_list_like(self.left_by)` is true), not necessarily the value it held when the function was called."
        " `self.right_by` here is its value after line 21 (`self.right_by = [self.right_by]` when"
        " `not is_list_like(self.right_by)` is true), not necessarily the value it held when the function was called."
    )
    clipped = page_of("too many values")["what_it_means"]  # a parameter keeps its words
    assert clipped["summary"].endswith(
        " `values` here is its value after line 29 (`values = [values]` when"
        " `not is_list_like(values) and limit` is true), not necessarily the argument as passed."
    )
