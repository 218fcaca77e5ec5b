"""Tie a user's captured values to the expressions that filled the message's `{}` holes.

`Invalid `cache_implementation` ({}). Choose one of: {}` was built by an f-string whose holes are
`self.cache_implementation` and `valid_cache_implementations`; the matcher captured the text of
each hole, and this module reads that text back into the Python values it can have been:
a hole shown with `!r` / `%r` holds `repr(value)`, any other `str(value)`.
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from errdex.pages.model import MessageHole

MAX_VALUE_CHARS = 2000
MAX_SOURCE_CHARS = 20_000
_PRINTF = re.compile(
    r"%(?:\([^)\n]{0,100}\))?[-+ #0]{0,5}(?:\*|\d{1,5})?(?:\.(?:\*|\d{1,5}))?[hlL]?([diouxXeEfFgGcrsa%])"
)


@dataclass(frozen=True)
class ShownHole:
    """One `{}` of a template: the code that filled it, and whether it was shown as `repr` or `str`."""

    code: str
    shown_as: str  # "repr" | "str"

    def json(self) -> MessageHole:
        return {"code": self.code, "shown_as": self.shown_as}


def holes(message_source: str, template: str | None) -> list[ShownHole] | None:
    """Each `{}` of the template, in order; None when they cannot be told apart."""
    if not message_source or template is None or len(message_source) > MAX_SOURCE_CHARS:
        return None
    try:
        node = ast.parse(message_source, mode="eval").body
        found = _holes(node)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if found is None or len(found) != template.count("{}"):
        return None
    return found


def _holes(node: ast.expr) -> list[ShownHole] | None:
    if isinstance(node, ast.JoinedStr):
        return [
            ShownHole(ast.unparse(v.value), "repr" if v.conversion in (ord("r"), ord("a")) else "str")
            for v in node.values
            if isinstance(v, ast.FormattedValue)
        ]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return []
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _holes(node.left), _holes(node.right)
        return None if left is None or right is None else left + right
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and (text := _text(node.left)) is not None:
        args = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
        kinds = [m.group(1) for m in _PRINTF.finditer(text) if m.group(1) != "%"]
        return _paired(args, ["repr" if k in "ra" else "str" for k in kinds])
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
        and (text := _text(node.func.value)) is not None
    ):
        if node.keywords:
            return None
        fields = string.Formatter().parse(text)
        kinds = [
            "repr" if conversion in ("r", "a") else "str" for _, field, _, conversion in fields if field is not None
        ]
        return _paired(node.args, kinds)
    return None


def _paired(args: list[ast.expr], kinds: list[str]) -> list[ShownHole] | None:
    if len(args) != len(kinds):
        return None
    return [ShownHole(ast.unparse(a), kind) for a, kind in zip(args, kinds, strict=True)]


def _text(node: ast.expr) -> str | None:
    """The text of a string constant, else None."""
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def readings(text: str, shown_as: str = "str") -> list[Any]:
    """The values a captured hole can have held, most likely first.

    Shown with repr, `'static'` was the string 'static'; shown with str, `static` was the
    string 'static', and `0` was the string '0' or the int 0 (the condition decides which).
    """
    text = text[:MAX_VALUE_CHARS]
    try:
        literal = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return [text]
    if isinstance(literal, (tuple, set, frozenset)):
        literal = list(literal)
    if not (isinstance(literal, (str, int, float, bool, list, dict)) or literal is None):
        return [text]
    if shown_as == "repr":
        return [literal]
    return [text] if isinstance(literal, str) else [text, literal]


def user_values(found: list[ShownHole], values: Sequence[str | None] | None) -> dict[str, list[Any]]:
    """ShownHole code -> its possible values, for the holes the user gave a value for."""
    if not found or not values:
        return {}
    return {h.code: readings(v, h.shown_as) for h, v in zip(found, values, strict=False) if isinstance(v, str)}
