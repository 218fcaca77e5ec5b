"""Decide statically whether a condition holds for given input values, in three-valued logic.

Values are JSON data (what the extractor resolved, or what a user's message showed) plus two
markers: `Instance("T")`, some instance of class T, and `OPAQUE`, a plain `object()`. Anything
the evaluator cannot decide is `UNKNOWN`, and `and`/`or`/`not` follow Kleene's rules, so a
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
    """The value of a small expression (constant, name, literal container, `len`, `-x`), or UNKNOWN."""
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
        return len(inner) if isinstance(inner, (str, list, dict)) else UNKNOWN
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
    if any(left is s for s in singletons) or any(right is s for s in singletons):
        return left is right
    return UNKNOWN


def _contains(container: Any, item: Any) -> Any:
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
    return UNKNOWN


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
    known = [_TYPES[t] for t in types if t in _TYPES]
    if len(known) < len(types):  # some class of the package: a str subclass would still match
        return True if isinstance(value, tuple(known)) else UNKNOWN
    return isinstance(value, tuple(known))


def _bool(value: Any) -> Any:
    if value is UNKNOWN:
        return UNKNOWN
    if value is OPAQUE or isinstance(value, Instance):
        return UNKNOWN if isinstance(value, Instance) else True
    return bool(value)


def _is_marker(value: Any) -> bool:
    return value is OPAQUE or isinstance(value, Instance)


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
