"""Decide statically whether a condition holds for given input values, in three-valued logic.

Values are JSON data (what the extractor resolved, or what a user's message showed) plus five
markers: `Instance("T")`, some instance of class T, `Built("tuple")`, a value of exactly a builtin type whose
contents are not known (a caller's display: `(x,)`, `f"{a}"`), `Truth(True)`, some value known only to be true
(or false), `Keyed({"a"})`, a dict of exactly those keys (a call's `**kwargs`), and `OPAQUE`, a plain `object()`.
Anything the evaluator cannot decide is `UNKNOWN`, and `and`/`or`/`not` follow Kleene's rules, so a
trigger is only claimed when the condition is *certainly* true, and a fix only when it is
certainly false. Nothing of the package is run: only comparisons of plain data are.
"""

from __future__ import annotations

import ast
import builtins
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from errdex.extract.resolve import dotted_name


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()


@dataclass(frozen=True)
class Instance:
    """Some instance of the class named `cls` (written `cls(...)` in examples)."""

    cls: str


@dataclass(frozen=True)
class Built:
    """A value of exactly the builtin type named `type` (tuple, list, dict, set, str, bool), contents unknown: what a
    display, an f-string or a comparison written in a call gives."""

    type: str


@dataclass(frozen=True)
class Truth:
    """Some value known only to be true (`held`) or false: a name an `if name:` around a call has tested."""

    held: bool


@dataclass(frozen=True)
class Keyed:
    """A dict with exactly these keys, values unknown: what `**kwargs` collects from a call's keywords as written."""

    keys: frozenset[str]


class _Opaque:
    def __repr__(self) -> str:
        return "object()"


OPAQUE: Any = _Opaque()

_TYPES: dict[str, type] = {
    name: getattr(builtins, name)
    for name in (
        "bool",
        "int",
        "float",
        "complex",
        "str",
        "bytes",
        "list",
        "tuple",
        "dict",
        "set",
        "frozenset",
        "object",
    )
}
_COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}
MAX_LEN = 10_000


def truth(node: ast.expr, env: Mapping[str, Any]) -> Any:
    """True, False or UNKNOWN: whether `node` holds when names have the values in `env`."""
    if isinstance(node, ast.BoolOp):
        return _boolop(node, env)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        value = truth(node.operand, env)
        return UNKNOWN if value is UNKNOWN else not value
    if isinstance(node, ast.Compare):
        return _compare(node, env)
    if isinstance(node, ast.Call):
        return _call_truth(node, env)
    return _bool(value_of(node, env))


def value_of(node: ast.expr, env: Mapping[str, Any]) -> Any:
    """The value of a small expression (constant, name, literal container, `len`, `int` or `float` of a number, `-x`),
    or UNKNOWN."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, (ast.Name, ast.Attribute)):
        name = dotted_name(node)
        return UNKNOWN if name is None else env.get(name, UNKNOWN)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        items = [value_of(elt, env) for elt in node.elts]
        return (
            UNKNOWN
            if any(i is UNKNOWN or isinstance(elt, ast.Starred) for i, elt in zip(items, node.elts, strict=True))
            else items
        )
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = value_of(node.operand, env)
        return -inner if _is_number(inner) else UNKNOWN
    if isinstance(node, ast.Call) and _name(node.func) == "len" and len(node.args) == 1:
        inner = value_of(node.args[0], env)
        if isinstance(inner, Keyed):
            return len(inner.keys)
        return len(inner) if isinstance(inner, (str, list, dict)) else UNKNOWN
    if (
        isinstance(node, ast.Call)
        and _name(node.func) in ("int", "float")
        and len(node.args) == 1
        and not node.keywords
    ):
        inner = value_of(node.args[0], env)  # of a number only: `int('x')` raises, `int(obj)` calls its method
        return _converted(int if _name(node.func) == "int" else float, inner)
    if isinstance(node, ast.BoolOp) or isinstance(node, ast.Compare):
        return truth(node, env)
    return UNKNOWN


def _boolop(node: ast.BoolOp, env: Mapping[str, Any]) -> Any:
    is_and = isinstance(node.op, ast.And)
    result: Any = is_and
    for value in node.values:
        t = truth(value, env)
        if t is UNKNOWN:
            result = UNKNOWN
        elif t != is_and:  # a false part of an `and`, a true part of an `or`, decides it
            return t
    return result


def _compare(node: ast.Compare, env: Mapping[str, Any]) -> Any:
    exact = _type_test(node, env)
    if exact is not UNKNOWN:
        return exact
    left = value_of(node.left, env)
    result: Any = True
    for op, right_node in zip(node.ops, node.comparators, strict=True):
        right = value_of(right_node, env)
        t = _pair(op, left, right)
        if t is False:
            return False
        if t is UNKNOWN:
            result = UNKNOWN
        left = right
    return result


def _type_test(node: ast.Compare, env: Mapping[str, Any]) -> Any:
    """`type(x) is tuple` (or `==`, `is not`, `!=`) for a value of known exact type (a display); else UNKNOWN."""
    left, right = node.left, node.comparators[0]
    if not (len(node.ops) == 1 and type(node.ops[0]) in (ast.Is, ast.Eq, ast.IsNot, ast.NotEq)):
        return UNKNOWN
    if not (isinstance(left, ast.Call) and _name(left.func) == "type" and len(left.args) == 1 and not left.keywords):
        return UNKNOWN
    value = value_of(left.args[0], env)
    if not isinstance(value, Built) or _name(right) not in _TYPES:
        return UNKNOWN
    return (value.type == _name(right)) is isinstance(node.ops[0], (ast.Is, ast.Eq))


def _pair(op: ast.cmpop, left: Any, right: Any) -> Any:
    if left is UNKNOWN or right is UNKNOWN:
        return UNKNOWN
    kind = type(op)
    if kind in (ast.Is, ast.IsNot):
        same = _identical(left, right)
        return same if same is UNKNOWN or kind is ast.Is else not same
    if kind in (ast.In, ast.NotIn):
        inside = _contains(right, left)
        return inside if inside is UNKNOWN or kind is ast.In else not inside
    if _is_marker(left) or _is_marker(right):
        return _marker_equality(kind, left, right)
    try:
        return bool(_COMPARE[kind](left, right))
    except TypeError:  # `"a" < 1` raises rather than being true
        return UNKNOWN


def _identical(left: Any, right: Any) -> Any:
    """`is`: decidable for None, True and False (singletons); UNKNOWN for anything else."""
    singletons = (None, True, False)
    if not any(v is s for v in (left, right) for s in singletons):
        return UNKNOWN
    marker = left if _is_marker(left) else right if _is_marker(right) else None
    if isinstance(marker, (Built, Truth)):
        other = right if marker is left else left
        # a display is never a singleton, a comparison never None; a true value is never None nor False
        never = (
            other is None or marker.type != "bool"
            if isinstance(marker, Built)
            else other is (not marker.held) or (marker.held and other is None)
        )
        return False if never else UNKNOWN
    return left is right


def _contains(container: Any, item: Any) -> Any:
    if isinstance(container, Keyed):
        return item in container.keys if isinstance(item, str) else UNKNOWN
    if not isinstance(container, (list, dict, str)) or len(container) > MAX_LEN:
        return UNKNOWN
    if _is_marker(item):
        return False if item is OPAQUE else UNKNOWN
    if isinstance(container, str):
        return item in container if isinstance(item, str) else UNKNOWN
    try:
        return item in container
    except TypeError:  # an unhashable item looked up in a dict
        return UNKNOWN


def _marker_equality(kind: type, left: Any, right: Any) -> Any:
    if kind in (ast.Eq, ast.NotEq) and (left is OPAQUE or right is OPAQUE):
        return kind is ast.NotEq  # a fresh object() equals nothing else
    built, other = (left, right) if isinstance(left, Built) else (right, left)
    if kind in (ast.Eq, ast.NotEq) and isinstance(built, Built) and _never_equal(built, other):
        return kind is ast.NotEq
    return UNKNOWN


def _never_equal(built: Built, other: Any) -> bool:
    """A display never equals a plain value of another kind: `(x,) == "*"` is false, whatever `x` is (a comparison
    may equal a number, `True == 1`; containers are left: a tuple written in a condition is read as a list)."""
    if isinstance(other, str):
        return built.type != "str"
    if other is None:
        return True
    return built.type != "bool" if _is_number(other) or isinstance(other, bool) else False


def _call_truth(node: ast.Call, env: Mapping[str, Any]) -> Any:
    name = _name(node.func)
    if name == "isinstance" and len(node.args) == 2:
        return _isinstance(value_of(node.args[0], env), _type_names(node.args[1]))
    if name == "len" and len(node.args) == 1:
        return _bool(value_of(node, env))
    if name == "hasattr" and len(node.args) == 2:
        return _hasattr(value_of(node.args[0], env), value_of(node.args[1], env))
    return UNKNOWN


def _hasattr(value: Any, attribute: Any) -> Any:
    """`hasattr(None, "stream")` is false: known for a plain value, never for an instance of a class."""
    if value is UNKNOWN or _is_marker(value) or not isinstance(attribute, str):
        return UNKNOWN
    return hasattr(value, attribute)


def _isinstance(value: Any, types: list[str]) -> Any:
    if value is UNKNOWN or not types:
        return UNKNOWN
    if value is OPAQUE:
        return "object" in types
    if isinstance(value, Instance):
        return True if value.cls in types else UNKNOWN
    if isinstance(value, Truth):
        return UNKNOWN
    if isinstance(value, Built):  # exactly this builtin type: a class of the package (an ABC) may still match it
        matched = any(issubclass(_TYPES[value.type], _TYPES[t]) for t in types if t in _TYPES)
        return True if matched else False if all(t in _TYPES for t in types) else UNKNOWN
    known = [_TYPES[t] for t in types if t in _TYPES]
    if len(known) < len(types):  # some class of the package: a str subclass would still match
        return True if isinstance(value, tuple(known)) else UNKNOWN
    return isinstance(value, tuple(known))


def _bool(value: Any) -> Any:
    if value is UNKNOWN:
        return UNKNOWN
    if value is OPAQUE or isinstance(value, Instance):
        return UNKNOWN if isinstance(value, Instance) else True
    if isinstance(value, (Built, Truth)):
        return value.held if isinstance(value, Truth) else UNKNOWN
    if isinstance(value, Keyed):
        return bool(value.keys)
    return bool(value)


def _is_marker(value: Any) -> bool:
    return value is OPAQUE or isinstance(value, (Instance, Built, Truth, Keyed))


def _converted(kind: type[int] | type[float], value: Any) -> Any:
    if not _is_number(value):
        return UNKNOWN
    try:
        return kind(value)
    except (OverflowError, ValueError):  # `int(inf)`, `int(nan)`
        return UNKNOWN


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _type_names(node: ast.expr) -> list[str]:
    elts = node.elts if isinstance(node, ast.Tuple) else [node]
    names = [dotted_name(e) for e in elts]
    return [n.rsplit(".", 1)[-1] for n in names if n] if all(names) else []


def _name(node: ast.expr) -> str | None:
    return node.id if isinstance(node, ast.Name) else None


def verdict(node: ast.expr, env: Mapping[str, Any], code: str, readings: list[Any]) -> str:
    """`raises` if some reading of an input's value makes the condition certainly true, `accepted`
    if every reading makes it certainly false, else `unknown`."""
    results = [truth(node, {**env, code: value}) for value in readings]
    if True in results:
        return "raises"
    return "accepted" if results and all(r is False for r in results) else "unknown"
