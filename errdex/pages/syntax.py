"""Small shared words and helpers for reading conditions: comparison operators in words, safe unparsing."""

from __future__ import annotations

import ast

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
MIRRORED_OP: dict[type, type] = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE}
OP_WORDS: dict[type, str] = {
    ast.In: "is one of",
    ast.NotIn: "is not one of",
    ast.Eq: "equals",
    ast.NotEq: "does not equal",
    ast.Lt: "is less than",
    ast.LtE: "is at most",
    ast.Gt: "is greater than",
    ast.GtE: "is at least",
    ast.Is: "is",
    ast.IsNot: "is not",
}


def unparse(node: ast.AST) -> str:
    """The source of a node, or a placeholder when it nests too deeply to write back."""
    try:
        return ast.unparse(node)
    except (RecursionError, ValueError):
        return "<expression too deep>"
