"""A raise reached only after earlier raising checks of its function: the page says so, and claims a trigger
only when the trigger's values certainly pass the earlier checks that read them."""

from __future__ import annotations

from errdex.pages import build_page
from errdex.store import Store
from tests.pages.conftest import Indexer, error_id_of

SAME_INPUT = """
def check(method=None, limit=None, tolerance=None):
    if method is None:
        if tolerance is not None:
            raise ValueError("tolerance needs a method")
        if limit is not None:
            raise ValueError("limit needs a method")
    return method
"""

SUM_FIRST = """
class Collator:
    def __init__(self, mask: float = 0.8, random: float = 0.1):
        self.mask = mask
        self.random = random
        if self.mask + self.random > 1:
            raise ValueError("the probabilities add up to more than 1")
        if self.random > 1:
            raise ValueError("random is more than 1")
"""

OTHER_INPUT = """
MODES = ["fast", "slow"]


class Config:
    def __init__(self, size: int = 1, mode: str = "fast"):
        self.size = size
        self.mode = mode
        self.check()

    def check(self):
        if self.size < 0:
            raise ValueError("size is negative")
        if self.mode not in MODES:
            raise ValueError("unknown mode")
"""


def _page(indexed: Indexer, source: str, template: str) -> dict:
    store: Store = indexed({"pkg/mod.py": source})
    return dict(build_page(store, error_id_of(store, "pkg", template)))


def test_an_earlier_raise_on_the_same_input_under_the_same_guard_is_said_and_blocks_no_trigger_it_passes(
    indexed: Indexer,
) -> None:
    page = _page(indexed, SAME_INPUT, "limit needs a method")
    assert page["prior_checks"] == [{"line": 3, "test": "tolerance is not None"}]
    summary = page["what_it_means"]["summary"]
    assert "once the `raise` statements before it in this function do not fire (line 3)" in summary
    assert "an earlier raise fires first when `tolerance` is set (not None) (line 3)" in summary
    # a trigger sets only `limit` (and `method`): `tolerance` keeps no value the page knows, so the earlier
    # check reads none of the trigger's inputs; the trigger stands
    for trigger in page["triggers"]:
        assert "tolerance" not in trigger["values"]


def test_no_trigger_where_an_earlier_check_of_the_same_input_fires_first(indexed: Indexer) -> None:
    page = _page(indexed, SUM_FIRST, "random is more than 1")
    assert [c["line"] for c in page["prior_checks"]] == [5]
    # any `random` above 1 makes the sum above 1 too (unless `mask` is negative): no value certainly passes
    assert page["triggers"] == [] and page["example_fix"] is None
    assert (
        "once the `raise` statements before it in this function do not fire (line 5)"
        in page["what_it_means"]["summary"]
    )


def test_an_earlier_check_of_another_input_leaves_the_trigger(indexed: Indexer) -> None:
    page = _page(indexed, OTHER_INPUT, "unknown mode")
    assert page["prior_checks"] == [{"line": 11, "test": "self.size < 0"}]
    assert "an earlier raise fires first when `self.size` is less than 0 (line 11)" in page["what_it_means"]["summary"]


def test_nested_earlier_checks_are_joined_with_their_guard(indexed: Indexer) -> None:
    page = _page(indexed, SAME_INPUT, "limit needs a method")
    store_page = _page(indexed, SAME_INPUT.replace("return method", "raise ValueError('last')"), "last")
    assert page["condition"] == "method is None and limit is not None"
    assert [c["test"] for c in store_page["prior_checks"]] == [
        "method is None and tolerance is not None",
        "method is None and limit is not None",
    ]


IN_A_LOOP = """
import json


def export(entries, check):
    seen = set()
    index = None
    for name, content in entries:
        if name in seen:
            raise ValueError("duplicate entry")
        seen.add(name)
        try:
            index = json.loads(content)
        except json.JSONDecodeError as e:
            raise ValueError("bad index") from e
        try:
            if not name:
                raise KeyError("caught below")
        except KeyError:
            pass

        def nested():
            raise RuntimeError("not this function's path")

    check(index)
    if index is None:
        raise ValueError("missing index")
    try:
        check(seen)
    except LookupError as e:
        raise ValueError("invalid structure") from e
"""


def test_raises_inside_earlier_loops_are_said_to_may_fire_first_but_not_caught_ones_nor_nested_defs(
    indexed: Indexer,
) -> None:
    summary = _page(indexed, IN_A_LOOP, "invalid structure")["what_it_means"]["summary"]
    assert "once the `raise` statements before it in this function do not fire (line 25)" in summary
    assert "the `raise` statements at lines 9 and 14 in the `for` statement at line 7 may also fire first" in summary
    # the raise a `try` of the loop catches, the nested function's, and the call of `check` (a helper that may
    # raise, not a `raise` statement of this function) are not listed
    assert "17" not in summary and "22" not in summary and "24" not in summary


def test_raises_inside_earlier_blocks_alone_are_said_without_checks(indexed: Indexer) -> None:
    source = IN_A_LOOP.replace('    if index is None:\n        raise ValueError("missing index")\n', "")
    page = _page(indexed, source, "invalid structure")
    assert page["prior_checks"] == []
    assert (
        "once the `raise` statements before it in this function do not fire: the `raise` statements at lines 9 and"
        " 14 in the `for` statement at line 7 may fire first" in page["what_it_means"]["summary"]
    )


EXCLUDED_BRANCH = """
def render(doc, intro):
    if doc is None:
        if intro:
            raise ValueError("no docstring found")
        return ""
    for line in doc:
        if not line:
            raise ValueError("an empty line")
    if doc is not None and intro:
        raise ValueError("no parameters section")
"""


def test_a_raise_under_a_branch_the_condition_rules_out_is_not_said(indexed: Indexer) -> None:
    """`doc is not None` holds at the check: the raise under `if doc is None:` cannot have fired before it."""
    summary = _page(indexed, EXCLUDED_BRANCH, "no parameters section")["what_it_means"]["summary"]
    assert "the `raise` statement at line 8 in the `for` statement at line 6 may fire first" in summary
    assert "line 4" not in summary
