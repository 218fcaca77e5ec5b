"""What runs before a check in its function and may stop a call first: a call passed a checked input may reject it
with its own error, a `return` may leave before the check, the function's own package decorator runs before its
body. A trigger certainly fires only when none of these can intervene; the summary names them."""

from __future__ import annotations

from typing import Any

import pytest

from tests.pages.conftest import Indexer, pages_of

MODULE = """
    import functools
    import os
    import warnings

    REGISTRY = {}


    def check_in_list(values, **kwargs):
        for key, value in kwargs.items():
            if value not in values:
                raise ValueError("not a valid value")


    def validating(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)

        return wrapper


    def offset(units="dots", fig=None):
        check_in_list(["dots", "points", "inches"], units=units)
        if isinstance(units, str):
            pass
        if units != "dots" and fig is None:
            raise ValueError("fig is required")


    def inspect(subject, errors="raise"):
        for cls in type(subject).__mro__:
            if cls in REGISTRY:
                return REGISTRY[cls](subject)
        if errors == "raise":
            raise TypeError("no inspection available")


    def pick(mode=None, tries=2):
        for _ in range(tries):
            if mode is None:
                return "a"
        if mode not in ("a", "b"):
            raise ValueError("mode is not supported")


    @validating
    def scale(step=1):
        if step > 10:
            raise ValueError("step is too large")


    def verify(expected=None, recorded=None):
        if expected is None:
            return
        if len(set(expected) - set(recorded)) > 0:
            raise KeyError(str(set(expected) - set(recorded)))
        check_in_list([["a"]], expected=expected)
        if len(expected) > 3 and recorded:
            raise ValueError("too many splits")


    def upload(path, delete=None, every=None):
        if os.path.isfile(path):
            check_in_list([["a"]], delete=delete)
        if every is not None:
            if os.path.isfile(path):
                pass
            else:
                if delete:
                    warnings.warn("delete is ignored with every")


    def trim(size, limit=None):
        if limit is None:
            check_in_list([1, 2], size=size)
            return size
        try:
            return check_in_list([3], size=size)
        except ValueError:
            pass
        if size > limit:
            raise ValueError("size is over the limit")
"""


@pytest.fixture
def page_of(indexed: Indexer) -> Any:
    return pages_of(indexed({"pkg/__init__.py": "", "pkg/tools.py": MODULE}), "pkg")


def test_a_call_passed_the_input_first_scopes_the_trigger_and_lends_its_list(page_of: Any) -> None:
    page = page_of("fig is required")
    meaning = page["what_it_means"]
    assert [(c["line"], c["call"], c["passes"]) for c in meaning["calls_before"]] == [
        (23, "check_in_list(...)", ["units"])
    ]  # `isinstance(units, str)` never rejects a value
    assert meaning["summary"].endswith(  # `units` is not rebound: nothing is said after it
        " Before the check, `offset` passes `units` to `check_in_list(...)` (line 23), which may reject it first"
        " with another error (what it does is not followed here)."
    )
    (trigger,) = page["triggers"]
    assert trigger["values"]["units"] in ("'points'", "'inches'")  # from the call's list, not a made-up value
    assert trigger["text"].startswith("The check is true when ")
    assert trigger["text"].endswith(
        ", unless `check_in_list(...)` (passed `units` at line 23, not followed here) rejects it first."
    )


def test_an_earlier_return_the_values_do_not_rule_out_scopes_the_trigger(page_of: Any) -> None:
    page = page_of("no inspection available")
    assert [e["line"] for e in page["what_it_means"]["exits"]] == [33]
    (trigger,) = page["triggers"]
    assert (
        trigger["text"]
        == "The check is true when `errors` is 'raise': a call that gets to it with these values raises, if `inspect`"
        " has not returned earlier (line 33)."
    )


def test_an_earlier_return_the_values_rule_out_leaves_the_trigger_certain(page_of: Any) -> None:
    page = page_of("mode is not supported")
    assert page["what_it_means"]["exits"] == [{"line": 41, "when": ["mode is None"]}]
    (trigger,) = page["triggers"]
    assert trigger["text"].startswith("The check is true when `mode` is ")
    assert trigger["text"].endswith(": a call that gets to it with these values raises.")
    assert trigger["values"]["mode"] != "None"


def test_the_functions_own_package_decorator_is_said_in_the_summary(page_of: Any) -> None:
    summary = page_of("step is too large")["what_it_means"]["summary"]
    assert summary.endswith(
        " `scale` is decorated with the package's `@validating`, which is not followed here: a decorator that wraps"
        " the function runs its wrapper before the body on every call; one that only registers it or rewrites its"
        " docstring does not."
    )
    no_decorator = page_of("mode is not supported")["what_it_means"]["summary"]
    assert "decorated with" not in no_decorator and "Before the check" not in no_decorator


def test_calls_in_an_earlier_raise_statement_are_not_on_the_way_to_the_check(page_of: Any) -> None:
    """`set(expected)` in the message of the raise at line 56 runs only when that raise fires, never before line
    59; the `set(...)` calls of its `if` test are said with that check, not again as calls before."""
    meaning = page_of("too many splits")["what_it_means"]
    assert [(c["line"], c["call"]) for c in meaning["calls_before"]] == [(57, "check_in_list(...)")]


def test_calls_in_a_branch_the_condition_rules_out_are_not_on_the_way_to_the_check(page_of: Any) -> None:
    """The warning needs `os.path.isfile(path)` false (the `else` at line 68): the call in the body of the earlier
    `if os.path.isfile(path):` (line 64) never runs on the way to it; that `if`'s test (line 63) does, but a call
    whose result is the test is a predicate picking a branch, not a step that rejects: nothing is said."""
    meaning = page_of("delete is ignored with every")["what_it_means"]
    assert meaning["calls_before"] == []


def test_calls_in_a_block_that_always_leaves_are_not_on_the_way_to_the_check(page_of: Any) -> None:
    """The body of `if limit is None:` always returns, so its call never precedes the raise; a call in a `try`
    body whose `except ValueError:` block goes on does not stop the function with that error: neither is said."""
    meaning = page_of("size is over the limit")["what_it_means"]
    assert meaning["calls_before"] == []
