"""The `except` block a raise is in: it runs only when its `try` body raises, whatever the `if`s around say."""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass

MAX_STATEMENT = 80


@dataclass(frozen=True)
class Handler:
    """The `except` block a line is in: what it catches and the `try` body whose exception it handles."""

    types: tuple[str, ...]  # the caught classes as written; empty for a bare `except:`
    line: int  # the `try` keyword's line
    try_line: int  # the `try` body's first line
    try_end: int  # and its last
    first: str  # the body's first statement, as code (shortened)
    within: tuple[Handler, ...] = ()  # the `except` blocks this `try` itself sits in, outermost first


def handler_around(func: ast.AST, line: int) -> Handler | None:
    """The innermost `except` block holding `line`, if any, with the `except` blocks around it (an `except`
    inside an `except` runs only when both `try` bodies raised, the outer one first)."""
    found = sorted(
        (
            (node, handler)
            for node in ast.walk(func)
            if isinstance(node, ast.Try)
            for handler in node.handlers
            if handler.lineno <= line <= (handler.end_lineno or handler.lineno)
        ),
        key=lambda pair: pair[0].lineno,
    )
    chain: tuple[Handler, ...] = ()
    for node, handler in found:
        chain = (*chain, _handler(node, handler, chain))
    return chain[-1] if chain else None


def _handler(node: ast.Try, handler: ast.ExceptHandler, within: tuple[Handler, ...]) -> Handler:
    caught = handler.type
    types = caught.elts if isinstance(caught, ast.Tuple) else [caught] if caught else []
    body = node.body
    return Handler(
        tuple(ast.unparse(t) for t in types),
        node.lineno,
        body[0].lineno,
        body[-1].end_lineno or body[-1].lineno,
        _short(body[0]),
        within,
    )


def _short(stmt: ast.stmt) -> str:
    """A statement's first line as code; a long one with its calls' arguments written `...`."""
    text = ast.unparse(stmt).splitlines()[0]
    if len(text) <= MAX_STATEMENT:
        return text
    shortened = ast.unparse(_ElideArguments().visit(copy.deepcopy(stmt))).splitlines()[0]
    return shortened if len(shortened) <= MAX_STATEMENT else shortened[: MAX_STATEMENT - 3] + "..."


class _ElideArguments(ast.NodeTransformer):
    """Replaces every call's arguments with one `...`."""

    def visit_Call(self, node: ast.Call) -> ast.Call:
        node.func = self.visit(node.func)
        node.args = [ast.Constant(value=...)] if node.args or node.keywords else []
        node.keywords = []
        return node
