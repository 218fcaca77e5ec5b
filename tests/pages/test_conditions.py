"""Pages of fixture packages, one kind of condition each: the words, the trigger, the fix, the solutions."""

from __future__ import annotations

import ast
import textwrap
from typing import Any

import pytest

from errdex.pages import build_page
from errdex.pages.conditions import describe, either
from tests.pages.conftest import Indexer, pages_of, said

CONFIG = """
    MODES = ("fast", "slow")
    BANNED = ("root", "admin")
    LIMIT = 10


    class Config:
        def __init__(self, mode=None, size=1, user="guest", **kwargs):
            self.mode = mode
            self.size = size
            self.user = user
            self.level = kwargs.pop("level", 0)
            self.validate()

        def validate(self):
            if self.mode is not None and self.mode not in MODES:
                raise ValueError(f"Invalid mode {self.mode}, choose from {MODES}")
            if self.size <= 0:
                raise ValueError(f"size must be positive, got {self.size}")
            if not isinstance(self.level, int):
                raise TypeError(f"level must be an int, got {type(self.level)}")
            if not (0 < self.size < LIMIT):
                raise ValueError("size out of range")
            if self.user in BANNED:
                raise PermissionError(f"user {self.user} may not run this")


    def load(path, strict=False):
        if not path:
            raise ValueError("path is empty")
        if strict or path.endswith(".tmp"):
            raise RuntimeError(f"cannot load {path}")
        try:
            open(path)
        except OSError:
            raise FileNotFoundError(f"no file at {path}")
        raise NotImplementedError(compute())
"""


@pytest.fixture
def page_of(indexed: Indexer) -> Any:
    return pages_of(indexed({"pkg/__init__.py": "", "pkg/config.py": CONFIG}), "pkg")


def fix_values(page: dict[str, Any]) -> tuple[str, str]:
    fix = page["example_fix"]
    return fix["value_before"], fix["value_after"]


def test_membership_not_in_a_resolved_list(page_of: Any) -> None:
    page = page_of("Invalid mode {}, choose from {}")
    meaning = page["what_it_means"]
    assert meaning["summary"] == (
        "`Config.validate` raises ValueError when `self.mode` is set (not None)"
        " and `self.mode` is not one of `MODES` (2 values)."
    )
    assert [c["kind"] for c in meaning["clauses"]] == ["identity", "membership"]
    assert meaning["lists"] == [
        {"subject": "self.mode", "name": "MODES", "role": "allowed", "values": ["fast", "slow"]}
    ]
    assert meaning["values"][0]["defined_at"] == "pkg/config.py:1"
    assert page["triggers"][0]["code"].endswith("Config(mode='invalid')")
    assert page["triggers"][0]["code"].startswith("from pkg.config import Config\n")
    assert fix_values(page) == ("'invalid'", "None")  # `Config()` leaves `mode` None: no listed value picked
    first = page["solutions"][0]
    assert first["kind"] == "use_allowed_value" and first["values"] == ["fast", "slow"]
    assert "`mode` = None also passes this check (what runs before it may still reject None)." in first["text"]


def test_membership_in_a_forbidden_list(page_of: Any) -> None:
    page = page_of("user {} may not run this")
    summary = page["what_it_means"]["summary"]
    assert (
        "raises PermissionError when `self.user` is one of `BANNED` (2 values),"
        " once the `raise` statements before it in this function" in summary
    )
    assert page["what_it_means"]["lists"][0]["role"] == "forbidden"
    assert page["triggers"][0]["values"] == {"self.user": "'root'"}
    assert page["solutions"][0]["kind"] == "avoid_value"
    fix = page["example_fix"]  # no value of the list is allowed; what `Config` gives `user` when left out is
    assert fix is not None and fix["value_after"] == "'guest'" and fix["value_source"] == "default"


def test_comparison_with_a_number(page_of: Any) -> None:
    page = page_of("size must be positive, got {}")
    assert page["what_it_means"]["clauses"] == [
        {
            "code": "self.size <= 0",
            "text": "`self.size` is at most 0",
            "negated": "`self.size` is greater than 0",
            "kind": "comparison",
        }
    ]
    assert fix_values(page) == ("0", "1")
    assert page["solutions"] == []  # its negation is no fix: the condition above says what makes it fire


def test_negated_chained_comparison(page_of: Any) -> None:
    page = page_of("size out of range")
    meaning = page["what_it_means"]
    assert said(meaning["summary"], "when `self.size` is at most 0 or `self.size` is at least `LIMIT` (= 10)")
    # size 0 would be refused first by the earlier `self.size <= 0` raise: the trigger is the upper bound
    assert page["triggers"][0]["values"] == {"self.size": "10"}
    assert fix_values(page)[1] in ("1", "5")
    assert page["solutions"] == []


def test_isinstance(page_of: Any) -> None:
    page = page_of("level must be an int, got {}")
    assert page["what_it_means"]["clauses"][0]["kind"] == "isinstance"
    assert said(page["what_it_means"]["summary"], "when `self.level` is not an instance of `int`")
    way = page["when_it_happens"]["inputs"][0]["ways_in"][0]
    assert way["call"] == "Config(level=...)" and "kwargs.pop('level', 0)" in way["how"]
    assert fix_values(page) == ("'text'", "0")  # the default `kwargs.pop` gives, not a made-up int
    assert page["solutions"] == []  # no advice chosen by the class TypeError, none from negating the check


def test_not_x_on_a_parameter(page_of: Any) -> None:
    page = page_of("path is empty")
    assert page["what_it_means"]["clauses"][0] == {
        "code": "not path",
        "text": "`path` is empty, zero, False or None",
        "negated": "`path` is set to a true value (not empty, zero, False or None)",
        "kind": "truthiness",
    }
    assert page["when_it_happens"]["inputs"][0]["kind"] == "parameter"
    assert page["triggers"][0]["code"].endswith("load(path='')")
    assert page["example_fix"] is None  # a non-empty path would have to be invented


def test_or_of_a_flag_and_a_method_call(page_of: Any) -> None:
    page = page_of("cannot load {}")
    meaning = page["what_it_means"]
    assert meaning["clauses"][0]["kind"] == "combined"
    assert said(
        meaning["summary"],
        "when either `strict` is set to a true value (not empty, zero, False or None)"
        " or `path.endswith('.tmp')` returns a true value",
    )
    assert page["triggers"][0]["code"].endswith("load(path=..., strict=True)")  # path is required: left to the user
    assert meaning["clauses"][0]["negated"] == (
        "`strict` is empty, zero, False or None and `path.endswith('.tmp')` returns a false value"
    )
    assert page["solutions"] == []


def test_unguarded_raise_in_an_except_block(page_of: Any) -> None:
    page = page_of("no file at {}")
    meaning = page["what_it_means"]
    assert not meaning["derivable"] and meaning["clauses"] == []
    lines = textwrap.dedent(CONFIG).lstrip("\n").splitlines()
    try_line = lines.index("    try:") + 1
    assert (
        f"when the code in the `try` at line {try_line + 1} (`open(path)`) raises `OSError`"
        " (no `if` in `load` guards line"
    ) in meaning["summary"]
    assert ", once the `raise` statements before it in this function do not fire (lines " in meaning["summary"]
    assert meaning["context"] == f"it is raised while handling `OSError` from the `try` block at line {try_line}"
    assert page["triggers"] == [] and page["example_fix"] is None
    assert page["solutions"] == []  # nothing in the code supports advice: none is given


def test_nothing_derivable(indexed: Indexer) -> None:
    store = indexed({"bare/__init__.py": "def f():\n    raise RuntimeError(compute())\n"}, name="bare")
    (error,) = store.errors("bare")
    page = build_page(store, error.error_id)
    assert page["template"] is None
    assert page["what_it_means"]["summary"] == (
        "`f` raises RuntimeError whenever line 2 runs (no `if` in `f` guards line 2)."
    )
    assert page["when_it_happens"]["inputs"] == []
    assert page["triggers"] == [] and page["example_fix"] is None
    summary = page["when_it_happens"]["summary"]
    assert "No caller of `f` was found in the package's only file; searched: calls," in summary


def test_user_values_fill_the_page(page_of: Any) -> None:
    page = page_of("Invalid mode {}, choose from {}", values=["fsat", "('fast', 'slow')"])
    assert page["user_input"]["checked"][0] == {"code": "self.mode", "value": "fsat", "result": "raises"}
    assert page["user_input"]["checked"][1]["result"] == "same as this release"
    assert page["triggers"][0]["from_user"] and page["triggers"][0]["code"].endswith("Config(mode='fsat')")
    assert page["solutions"][0]["text"].startswith("Use 'fast', the closest accepted value.")
    assert fix_values(page) == ("'fsat'", "'fast'")


def test_suggestions_from_the_matcher_are_used_first(page_of: Any) -> None:
    page = page_of(
        "Invalid mode {}, choose from {}", values=["quick", "('fast', 'slow')"], suggestions={"mode": ["slow"]}
    )
    assert page["solutions"][0]["closest"] == ["slow"]
    assert fix_values(page) == ("'quick'", "'slow'")


def test_an_allowed_value_is_never_called_invalid(page_of: Any) -> None:
    page = page_of("Invalid mode {}, choose from {}", values=["fast", "x"])
    assert page["user_input"]["checked"][0]["result"] == "accepted"
    assert not page["triggers"][0]["from_user"] and "'fast'" not in page["triggers"][0]["code"]
    assert page["solutions"][0]["kind"] == "version_drift"
    assert page["solutions"][0]["text"].startswith("'fast' is accepted by this check in pkg 1.0")


@pytest.mark.parametrize(
    ("condition", "words"),
    [
        ("a and (b or c)", "`a` is true and (either `b` is true or `c` is true)"),
        ("not (a and (b or c))", "either `a` is false or (`b` is false and `c` is false)"),
        (
            "(a or b) and not (0 < y < 1)",
            "(either `a` is true or `b` is true) and (`y` is at most 0 or `y` is at least 1)",
        ),
    ],
)
def test_nested_conditions_keep_their_grouping_in_words(condition: str, words: str) -> None:
    """One part of an `or` inside an `and` must not read as enough on its own."""
    node = ast.parse(condition, mode="eval").body
    short = describe(node, {}).replace(" is set to a true value (not empty, zero, False or None)", " is true")
    assert short.replace(" is empty, zero, False or None", " is false") == words


def test_an_either_inside_two_parts_is_no_either_either() -> None:
    assert either(["`a` is set", "`b` is set"]) == "either `a` is set or `b` is set"
    assert either(["either `a` or `b` is set", "`c` is set"]) == "any of: either `a` or `b` is set; `c` is set"
