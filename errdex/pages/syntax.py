"""Small shared words and helpers for reading conditions: comparison operators in words, safe unparsing; where a
sentence of quoted prose ends."""

from __future__ import annotations

import ast
from collections.abc import Mapping

from errdex.model import JsonValue

NEGATED_OP: dict[type, type] = {
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
}
SENTENCE_END = r"(?<=[.!?])(?<!e\.g\.)(?<!i\.e\.)\s+"  # after `.`, `!` or `?` and space, but not `e.g.` or `i.e.`
MIRRORED_OP: dict[type, type] = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE}
OP_WORDS: dict[type, str] = {
    ast.In: "is in",
    ast.NotIn: "is not in",
    ast.Eq: "equals",
    ast.NotEq: "does not equal",
    ast.Lt: "is less than",
    ast.LtE: "is at most",
    ast.Gt: "is greater than",
    ast.GtE: "is at least",
    ast.Is: "is",
    ast.IsNot: "is not",
}


_COLLECTION_NODES = (
    ast.List,
    ast.Tuple,
    ast.Set,
    ast.Dict,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)
_COLLECTION_CALLS = frozenset({"list", "tuple", "set", "frozenset", "dict", "sorted"})


def container_kind(node: ast.expr, resolved: Mapping[str, JsonValue]) -> str:
    """What the right side of `in` is known to be: "collection", "string", or "unknown" (`x in y` is a
    membership test for a collection, a substring test for a string, and either for a name not resolved)."""
    value = resolved.get(unparse(node), None) if isinstance(node, (ast.Name, ast.Attribute)) else None
    if isinstance(node, _COLLECTION_NODES) or isinstance(value, (list, dict)):
        return "collection"
    if isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return "string"
    if isinstance(value, str):
        return "string"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id == "str":
            return "string"
        if node.func.id in _COLLECTION_CALLS:
            return "collection"
    return "unknown"


def membership(subject: str, op: type, container: str, kind: str) -> str:
    """`x in y` in words, as its container's kind allows: "is one of" only for a collection, "contains" for a
    string, else the neutral "is in" (`subject` and `container` are already written for the page)."""
    inside = op is ast.In
    if kind == "string":
        return f"{container} {'contains' if inside else 'does not contain'} {subject}"
    if kind == "collection":
        return f"{subject} {'is one of' if inside else 'is not one of'} {container}"
    return f"{subject} {OP_WORDS[op]} {container}"


def unparse(node: ast.AST) -> str:
    """The source of a node, or a placeholder when it nests too deeply to write back."""
    try:
        return ast.unparse(node)
    except (RecursionError, ValueError):
        return "<expression too deep>"
