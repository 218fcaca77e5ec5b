"""Tie a user's captured values to the expressions that filled the message's `{}` holes.

`Invalid `cache_implementation` ({}). Choose one of: {}` was built by an f-string whose holes are
`self.cache_implementation` and `valid_cache_implementations`; the matcher captured the text of
each hole, and this module reads that text back into candidate Python values.
"""

from __future__ import annotations

import ast
from typing import Any

MAX_VALUE_CHARS = 2000


def hole_expressions(message_source: str, template: str | None) -> list[str] | None:
    """The code of each `{}` of the template, in order; None when they cannot be told apart."""
    if not message_source or template is None or len(message_source) > 20_000:
        return None
    try:
        node = ast.parse(message_source, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    exprs = _holes(node)
    if exprs is None or len(exprs) != template.count("{}"):
        return None
    return exprs


def _holes(node: ast.expr) -> list[str] | None:
    if isinstance(node, ast.JoinedStr):
        return [ast.unparse(v.value) for v in node.values if isinstance(v, ast.FormattedValue)]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return []
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _holes(node.left), _holes(node.right)
        return None if left is None or right is None else left + right
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant):
        args = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
        return [ast.unparse(a) for a in args]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        if isinstance(node.func.value, ast.Constant) and not node.keywords:
            return [ast.unparse(a) for a in node.args]
    return None


def readings(text: str) -> list[Any]:
    """What a captured hole may have been: the text itself, and the Python literal it spells.

    An f-string shows `str(value)` (or `repr` with `!r`), so `static` was the string 'static',
    `'static'` was too, and `0` was the int 0 or the string '0': the condition decides which.
    """
    text = text[:MAX_VALUE_CHARS]
    out: list[Any] = []
    try:
        literal = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        literal = text
    if isinstance(literal, (tuple, set, frozenset)):
        literal = list(literal)
    if isinstance(literal, (str, int, float, bool, list, dict)) or literal is None:
        out.append(literal)
    if text not in out:
        out.append(text)
    return out


def user_values(holes: list[str] | None, values: list[str] | None) -> dict[str, list[Any]]:
    """Hole expression -> its possible readings, for the holes the user gave a value for."""
    if not holes or not values:
        return {}
    return {expr: readings(value) for expr, value in zip(holes, values) if isinstance(value, str)}
