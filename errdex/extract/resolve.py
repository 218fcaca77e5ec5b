"""Evaluate constant expressions statically: literals, `+` of tuples, names bound to constants.

Only a small, safe subset of Python is understood (the way constants of allowed values are
usually written); anything else is `Unresolved`. Names are looked up through a callback, so the
same evaluator serves function locals, class attributes, module constants and imports.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

MAX_ITEMS = 2000
MAX_DEPTH = 12
_CONTAINERS = {"tuple": tuple, "list": list, "set": frozenset, "frozenset": frozenset, "sorted": sorted}


class Unresolved(Exception):
    """The expression has no value that can be known without running the code."""


Lookup = Callable[[str, int], Any]  # (dotted name, depth) -> value, or raise Unresolved


def evaluate(node: ast.expr, lookup: Lookup, depth: int = 0) -> Any:
    """The value of `node`, or raise Unresolved."""
    if depth > MAX_DEPTH:
        raise Unresolved("too deep")
    handler = _HANDLERS.get(type(node))
    if handler is None:
        raise Unresolved(type(node).__name__)
    return handler(node, lookup, depth + 1)


def dotted_name(node: ast.expr) -> str | None:
    """'a.b.c' for a Name or a chain of Attributes on a Name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _constant(node: ast.Constant, lookup: Lookup, depth: int) -> Any:
    if isinstance(node.value, (str, bytes)) and len(node.value) > 100_000:
        raise Unresolved("string too long")
    return node.value


def _sequence(node: ast.Tuple | ast.List | ast.Set, lookup: Lookup, depth: int) -> Any:
    items: list[Any] = []
    for elt in node.elts:
        if isinstance(elt, ast.Starred):
            items.extend(_iterable(evaluate(elt.value, lookup, depth)))
        else:
            items.append(evaluate(elt, lookup, depth))
        _check_size(items)
    if isinstance(node, ast.Tuple):
        return tuple(items)
    if isinstance(node, ast.Set):
        return frozenset(_hashable(items))
    return items


def _dict(node: ast.Dict, lookup: Lookup, depth: int) -> Any:
    out: dict[Any, Any] = {}
    for key, value in zip(node.keys, node.values):
        if key is None:
            out.update(_mapping(evaluate(value, lookup, depth)))
        else:
            out[_hashable([evaluate(key, lookup, depth)])[0]] = evaluate(value, lookup, depth)
        _check_size(out)
    return out


def _binop(node: ast.BinOp, lookup: Lookup, depth: int) -> Any:
    left = evaluate(node.left, lookup, depth)
    right = evaluate(node.right, lookup, depth)
    if isinstance(node.op, ast.Add) and type(left) is type(right) and isinstance(left, (tuple, list, str)):
        result = left + right
    elif isinstance(node.op, ast.BitOr) and isinstance(left, (frozenset, dict)) and type(left) is type(right):
        result = left | right
    elif isinstance(node.op, ast.Sub) and isinstance(left, frozenset) and isinstance(right, frozenset):
        result = left - right
    else:
        raise Unresolved("operator")
    _check_size(result)
    return result


def _name(node: ast.Name | ast.Attribute, lookup: Lookup, depth: int) -> Any:
    name = dotted_name(node)
    if name is None:
        raise Unresolved("attribute of an expression")
    return lookup(name, depth)


def _call(node: ast.Call, lookup: Lookup, depth: int) -> Any:
    func = dotted_name(node.func)
    if node.keywords or len(node.args) > 1:
        raise Unresolved("call")
    if func in _CONTAINERS:
        if not node.args:
            return _CONTAINERS[func]()
        items = _iterable(evaluate(node.args[0], lookup, depth))
        return _CONTAINERS[func](_hashable(items) if func in ("set", "frozenset") else items)
    if isinstance(node.func, ast.Attribute) and node.func.attr in ("keys", "values", "items") and not node.args:
        mapping = _mapping(evaluate(node.func.value, lookup, depth))
        return tuple(getattr(mapping, node.func.attr)())
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


def _check_size(value: Any) -> None:
    if len(value) > MAX_ITEMS:
        raise Unresolved("too large")


_HANDLERS: dict[type, Callable[[Any, Lookup, int], Any]] = {
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
    """A JSON-friendly copy: tuples become lists, sets sorted lists, bytes and other keys strings."""
    if isinstance(value, (tuple, list)):
        return [to_json(v) for v in value]
    if isinstance(value, frozenset):
        return sorted((to_json(v) for v in value), key=repr)
    if isinstance(value, dict):
        return {k if isinstance(k, str) else repr(k): to_json(v) for k, v in value.items()}
    if isinstance(value, bytes):
        return value.decode("latin-1")
    if isinstance(value, complex) or value is Ellipsis:
        return repr(value)
    return value
