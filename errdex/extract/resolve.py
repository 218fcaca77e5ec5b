"""Evaluate constant expressions statically: literals, `+` of tuples, names bound to constants.

Only a small, safe subset of Python is understood (the way constants of allowed values are
usually written); anything else is `Unresolved`. Names are looked up through a callback, so the
same evaluator serves function locals, class attributes, module constants and imports. A value
holds at most MAX_ITEMS items, nested ones included, so names that repeat each other
(`b = (a, a, a)`, `c = (b, b, b)`) cannot build a huge one; given a `Budget`, every node
evaluated and every item of a value built costs a step.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from errdex.extract.budget import Budget

MAX_ITEMS = 2000  # items of a value, those of nested containers included
MAX_DEPTH = 12
# called with one iterable, or with none (`sorted()` then raises TypeError, as it would at run time)
_CONTAINERS: dict[str, Callable[..., Collection[Any]]] = {
    "tuple": tuple,
    "list": list,
    "set": frozenset,
    "frozenset": frozenset,
    "sorted": sorted,
}


class Unresolved(Exception):
    """The expression has no value that can be known without running the code."""


Lookup = Callable[[str, int], Any]  # (dotted name, depth) -> value, or raise Unresolved


@dataclass(frozen=True)
class _Context:
    lookup: Lookup
    budget: Budget | None
    keys: Lookup | None  # (dotted name, depth) -> the keys of the mapping it names, when they are known alone


def evaluate(
    node: ast.expr, lookup: Lookup, depth: int = 0, budget: Budget | None = None, keys: Lookup | None = None
) -> Any:
    """The value of `node`, or raise Unresolved (TooMuchWork once `budget` is spent); `keys` gives a named
    mapping's keys for `NAME.keys()` when its values cannot be known (classes, functions)."""
    return _evaluate(node, _Context(lookup, budget, keys), depth)


def _evaluate(node: ast.expr, ctx: _Context, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise Unresolved("too deep")
    if ctx.budget is not None:
        ctx.budget.spend()
    handler = _HANDLERS.get(type(node))
    if handler is None:
        raise Unresolved(type(node).__name__)
    return handler(node, ctx, depth + 1)


def dotted_name(node: ast.expr) -> str | None:
    """'a.b.c' for a Name or a chain of Attributes on a Name, else None."""
    if type(node) is ast.Name:  # most are
        return node.id
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _constant(node: ast.Constant, ctx: _Context, depth: int) -> Any:
    if isinstance(node.value, (str, bytes)) and len(node.value) > 100_000:
        raise Unresolved("string too long")
    return node.value


def _sequence(node: ast.Tuple | ast.List | ast.Set, ctx: _Context, depth: int) -> Any:
    items: list[Any] = []
    for elt in node.elts:
        if isinstance(elt, ast.Starred):
            items.extend(_iterable(_evaluate(elt.value, ctx, depth)))
        else:
            items.append(_evaluate(elt, ctx, depth))
        _check_length(items)
    if isinstance(node, ast.Tuple):
        return _sized(tuple(items), ctx)
    if isinstance(node, ast.Set):
        return _sized(frozenset(_hashable(items)), ctx)
    return _sized(items, ctx)


def _dict(node: ast.Dict, ctx: _Context, depth: int) -> Any:
    out: dict[Any, Any] = {}
    for key, value in zip(node.keys, node.values, strict=True):
        if key is None:
            out.update(_mapping(_evaluate(value, ctx, depth)))
        else:
            out[_hashable([_evaluate(key, ctx, depth)])[0]] = _evaluate(value, ctx, depth)
        _check_length(out)
    return _sized(out, ctx)


def _binop(node: ast.BinOp, ctx: _Context, depth: int) -> Any:
    left = _evaluate(node.left, ctx, depth)
    right = _evaluate(node.right, ctx, depth)
    return _sized(_operate(node.op, left, right), ctx)


def _operate(op: ast.operator, left: Any, right: Any) -> Any:
    """`left op right` for the operators constants are built with: `+` of sequences, `|` and `-` of sets."""
    same_type = type(left) is type(right)
    if isinstance(op, ast.Add) and same_type and isinstance(left, (tuple, list, str)):
        return left + right
    if isinstance(op, ast.BitOr) and same_type and isinstance(left, frozenset) and isinstance(right, frozenset):
        return left | right
    if isinstance(op, ast.BitOr) and same_type and isinstance(left, dict) and isinstance(right, dict):
        return left | right
    if isinstance(op, ast.Sub) and isinstance(left, frozenset) and isinstance(right, frozenset):
        return left - right
    raise Unresolved("operator")


def _name(node: ast.Name | ast.Attribute, ctx: _Context, depth: int) -> Any:
    name = dotted_name(node)
    if name is None:
        raise Unresolved("attribute of an expression")
    return ctx.lookup(name, depth)


def _call(node: ast.Call, ctx: _Context, depth: int) -> Any:
    func = dotted_name(node.func)
    if node.keywords or len(node.args) > 1:
        raise Unresolved("call")
    if func in _CONTAINERS:
        if not node.args:
            return _CONTAINERS[func]()
        items = _iterable(_evaluate(node.args[0], ctx, depth))
        return _sized(_CONTAINERS[func](_hashable(items) if func in ("set", "frozenset") else items), ctx)
    if isinstance(node.func, ast.Attribute) and node.func.attr in ("keys", "values", "items") and not node.args:
        named = dotted_name(node.func.value)
        if ctx.keys is not None and named is not None and node.func.attr == "keys":
            return _sized(tuple(ctx.keys(named, depth)), ctx)
        mapping = _mapping(_evaluate(node.func.value, ctx, depth))
        return _sized(tuple(getattr(mapping, node.func.attr)()), ctx)
    raise Unresolved("call")


def _iterable(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return list(value)
    if isinstance(value, (tuple, list, frozenset, str)):
        return list(value)
    raise Unresolved("not iterable")


def _mapping(value: Any) -> dict[Any, Any]:
    if not isinstance(value, dict):
        raise Unresolved("not a mapping")
    return value


def _hashable(items: list[Any]) -> list[Any]:
    for item in items:
        if isinstance(item, (list, dict)):
            raise Unresolved("unhashable")
    return items


def _check_length(value: Any) -> None:
    if len(value) > MAX_ITEMS:
        raise Unresolved("too large")


def _sized(value: Any, ctx: _Context) -> Any:
    """`value` if it holds at most MAX_ITEMS items, counting those of nested containers.

    `B = (A, A, A)` then `C = (B, B, B)` grows a value geometrically while every tuple stays
    short; each item counted costs a step, as building the value did.
    """
    if isinstance(value, str):
        _check_length(value)
        return value
    count, stack = 0, [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, (tuple, list, frozenset)):
            stack.extend(item)
        else:
            continue
        count += len(item)
        if count > MAX_ITEMS:
            raise Unresolved("too large")
    if ctx.budget is not None:
        ctx.budget.spend(count)
    return value


_HANDLERS: dict[type, Callable[[Any, _Context, int], Any]] = {
    ast.Constant: _constant,
    ast.Tuple: _sequence,
    ast.List: _sequence,
    ast.Set: _sequence,
    ast.Dict: _dict,
    ast.BinOp: _binop,
    ast.Name: _name,
    ast.Attribute: _name,
    ast.Call: _call,
}


def to_json(value: Any) -> Any:
    """A JSON-friendly copy: tuples become lists, sets sorted lists, bytes, other keys and non-finite floats strings."""
    if isinstance(value, (tuple, list)):
        return [to_json(v) for v in value]
    if isinstance(value, frozenset):
        return sorted((to_json(v) for v in value), key=repr)
    if isinstance(value, dict):
        return {k if isinstance(k, str) else repr(k): to_json(v) for k, v in value.items()}
    if isinstance(value, bytes):
        return value.decode("latin-1")
    if isinstance(value, complex) or value is Ellipsis or (isinstance(value, float) and not math.isfinite(value)):
        return repr(value)  # JSON has no such values (`inf` as text, not the non-standard `Infinity`)
    return value
