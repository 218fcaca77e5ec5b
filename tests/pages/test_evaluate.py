"""The three-valued evaluator and the trigger/fix search: certain answers only, never a wrong claim."""

from __future__ import annotations

import ast

from hypothesis import given
from hypothesis import strategies as st

from errdex.pages.conditions import parse_condition
from errdex.pages.evaluate import OPAQUE, UNKNOWN, Built, Instance, Truth, truth, verdict
from errdex.pages.triggers import (
    TriggerValue,
    find_fix,
    find_trigger,
    fresh_outside,
    pools,
)
from errdex.pages.values import ShownHole, holes, readings


def cond(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


def test_kleene_and_or_not() -> None:
    assert truth(cond("x and y"), {"x": False}) is False  # decided without y
    assert truth(cond("x and y"), {"x": True}) is UNKNOWN
    assert truth(cond("x or y"), {"y": 1}) is True
    assert truth(cond("not (x or y)"), {"x": 0}) is UNKNOWN
    assert truth(cond("not (x or y)"), {"x": 0, "y": ""}) is True


def test_comparisons_and_membership() -> None:
    env = {"L": ["a", "b"], "N": 3}
    assert truth(cond("x not in L"), {**env, "x": "c"}) is True
    assert truth(cond("x not in L"), {**env, "x": "a"}) is False
    assert truth(cond("0 < x < N"), {**env, "x": 3}) is False
    assert truth(cond("x < 1"), {"x": "text"}) is UNKNOWN  # would raise TypeError, not be true
    assert truth(cond("x is None"), {"x": 0}) is False
    assert truth(cond("len(x) == 0"), {"x": []}) is True
    assert truth(cond("x != int(x)"), {"x": 2.5}) is True and truth(cond("x != int(x)"), {"x": 3}) is False
    assert truth(cond("x != int(x)"), {"x": "3"}) is UNKNOWN  # `int` of a string may raise, or call a method
    assert truth(cond("x != int(x)"), {"x": float("inf")}) is UNKNOWN  # `int(inf)` raises OverflowError


def test_isinstance_with_builtin_and_package_classes() -> None:
    assert truth(cond("isinstance(x, int)"), {"x": "1"}) is False
    assert truth(cond("isinstance(x, (int, float))"), {"x": 1.5}) is True
    assert truth(cond("isinstance(x, Config)"), {"x": "1"}) is UNKNOWN  # Config might subclass str
    assert truth(cond("isinstance(x, Config)"), {"x": OPAQUE}) is False
    assert truth(cond("isinstance(x, Config)"), {"x": Instance("Config")}) is True


def test_conditions_too_long_or_too_deep_are_not_read() -> None:
    assert parse_condition("not " * 50 + "x") is not None
    assert parse_condition("not " * 500 + "x") is None
    assert parse_condition(" and ".join(["a"] * 2000)) is None


def test_verdict_of_readings() -> None:
    node, env = cond("x is not None and x not in L"), {"L": ["static", "dynamic"]}
    assert verdict(node, env, "x", readings("dynamic")) == "accepted"
    assert verdict(node, env, "x", readings("flash")) == "raises"
    assert verdict(node, env, "x", readings("None")) == "raises"  # the text 'None' (None itself passes)


def test_holes_of_each_message_form() -> None:
    assert holes("f'Invalid {self.x!r}. Choose one of: {OPTIONS}'", "Invalid {}. Choose one of: {}") == [
        ShownHole("self.x", "repr"),
        ShownHole("OPTIONS", "str"),
    ]
    assert holes("'bad %r (%d%%)' % (name, n)", "bad {} ({}%)") == [ShownHole("name", "repr"), ShownHole("n", "str")]
    assert holes("'bad {!r}'.format(name)", "bad {}") == [ShownHole("name", "repr")]
    assert holes("'a ' + f'{x}{y}'", "a {}") is None  # merged holes cannot be told apart


def test_readings_of_captured_text() -> None:
    assert readings("static") == ["static"]
    assert readings("'static'", "repr") == ["static"]
    assert readings("'static'") == ["'static'"]  # shown with str: the quotes were part of the value
    assert readings("0") == ["0", 0]
    assert readings("('a', 'b')") == ["('a', 'b')", ["a", "b"]]


@given(st.lists(st.text(max_size=8), max_size=12), st.text(max_size=8))
def test_a_listed_value_is_never_a_trigger_and_a_fix_is_always_listed(allowed: list[str], user: str) -> None:
    node = cond("x is not None and x not in ALLOWED")
    env = {"ALLOWED": allowed}
    pool = pools(node, ["x"], env, {"x": [TriggerValue(user, "user")]})
    trigger = find_trigger(node, pool, env, [])
    assert trigger is not None
    assert trigger["x"].value not in allowed and trigger["x"].value is not None
    fix = find_fix(node, None, trigger, pool, env, [])
    if allowed:
        assert fix is not None and (fix[1].value in allowed or fix[1].value is None)
    assert fresh_outside(allowed) not in allowed


@given(st.integers(-50, 50), st.integers(-50, 50))
def test_numeric_triggers_and_fixes_are_certain(low: int, high: int) -> None:
    node = cond(f"not ({low} <= x <= {high})")
    pool = pools(node, ["x"], {}, {})
    trigger = find_trigger(node, pool, {}, [])
    assert trigger is not None and not (low <= trigger["x"].value <= high)
    fix = find_fix(node, None, trigger, pool, {}, [])
    if low <= high:
        assert fix is not None and low <= fix[1].value <= high
    else:
        assert fix is None  # the check fires for every number


def test_a_display_has_its_exact_type_whatever_its_items() -> None:
    tuple_ = {"w": Built("tuple")}
    assert truth(cond("isinstance(w, (tuple, list))"), tuple_) is True
    assert truth(cond("isinstance(w, str)"), tuple_) is False
    assert truth(cond("isinstance(w, Sequence)"), tuple_) is UNKNOWN  # a class not known: an ABC may match it
    assert truth(cond("type(w) is tuple"), tuple_) is True
    assert truth(cond("type(w) != tuple"), tuple_) is False
    assert truth(cond("w == '*'"), tuple_) is False
    assert truth(cond("w == '*'"), {"w": Built("str")}) is UNKNOWN  # an f-string may be "*"
    assert truth(cond("w == (1,)"), tuple_) is UNKNOWN  # a tuple written in a condition is read as a list
    assert truth(cond("w is None"), tuple_) is False
    assert truth(cond("w == 1"), {"w": Built("bool")}) is UNKNOWN  # `True == 1`
    assert truth(cond("w"), tuple_) is UNKNOWN


def test_a_value_known_only_to_be_true_or_false() -> None:
    assert truth(cond("not reset"), {"reset": Truth(True)}) is False
    assert truth(cond("reset is None"), {"reset": Truth(True)}) is False
    assert truth(cond("reset is True"), {"reset": Truth(True)}) is UNKNOWN
    assert truth(cond("reset is None"), {"reset": Truth(False)}) is UNKNOWN
    assert truth(cond("reset is True"), {"reset": Truth(False)}) is False
    assert truth(cond("reset == 1"), {"reset": Truth(True)}) is UNKNOWN
    assert truth(cond("isinstance(reset, bool)"), {"reset": Truth(True)}) is UNKNOWN
