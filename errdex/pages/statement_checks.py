"""The checks before a failing statement that test its value (`if x is None:`): the scope's tests, not its bindings."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Literal

from errdex.pages.statement_model import CheckForm, NearbyCheck
from errdex.pages.statement_origin import MAX_SHOWN, SCOPES, is_none, own_nodes, source_text

_FORMS: dict[type[ast.stmt], CheckForm] = {ast.While: "while", ast.Assert: "assert"}


def nearby_checks(
    body: list[ast.stmt], statement: ast.AST, value: ast.AST, instance: str | None
) -> tuple[NearbyCheck, ...]:
    """The `if`/`elif`/`while`/`assert` tests and `is None` comparisons of a scope before the statement that mention
    the value or what it is read from (`a.b` for `a.b.c`; `a`, but not a method's `self`), with the branch the
    statement is in when one holds it."""
    read = _read_from(value, instance)
    out: list[NearbyCheck] = []
    start = getattr(statement, "lineno", 0)
    for stmt, form in _tested(body):
        if stmt.lineno >= start:
            break
        test = _test_of(stmt)
        mentioned = _mentioned(test, read) if test is not None else None
        if test is not None and mentioned is not None:
            out.append(NearbyCheck(test.lineno, form, source_text(test), _branch(stmt, statement), mentioned))
        elif test is None:
            for node in own_nodes(stmt):
                if isinstance(node, ast.Compare) and _none_comparison(node):
                    mentioned = _mentioned(node, read)
                    if mentioned is not None:
                        out.append(NearbyCheck(node.lineno, form, source_text(node), None, mentioned))
    return tuple(out[:MAX_SHOWN])


def _read_from(value: ast.AST, instance: str | None) -> list[str]:
    """The value's source, then each one it is read from through attributes and subscripts, outermost last."""
    out: list[str] = []
    node = value
    while True:
        text = source_text(node)
        if not (isinstance(node, ast.Name) and node.id == instance):
            out.append(text)
        if not isinstance(node, ast.Attribute | ast.Subscript):
            return out
        node = node.value


def _tested(body: list[ast.stmt], elif_: bool = False) -> Iterator[tuple[ast.stmt, CheckForm]]:
    """Every statement of a body in source order (nested functions and classes not entered), with the kind of test
    it is: `if`, `elif`, `while`, `assert`, or "comparison" for one that has no test of its own."""
    for stmt in body:
        if isinstance(stmt, ast.If):
            yield stmt, "elif" if elif_ else "if"
            yield from _tested(stmt.body)
            chained = len(stmt.orelse) == 1 and isinstance(stmt.orelse[0], ast.If)
            yield from _tested(stmt.orelse, elif_=chained and stmt.orelse[0].col_offset == stmt.col_offset)
            continue
        yield (
            stmt,
            "while" if isinstance(stmt, ast.While) else "assert" if isinstance(stmt, ast.Assert) else "comparison",
        )
        if isinstance(stmt, SCOPES):
            continue
        for field in ("body", "orelse", "finalbody"):
            yield from _tested(getattr(stmt, field, []))
        for handler in getattr(stmt, "handlers", []):
            yield from _tested(handler.body)


def _test_of(stmt: ast.stmt) -> ast.expr | None:
    return stmt.test if isinstance(stmt, ast.If | ast.While | ast.Assert) else None


def _none_comparison(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Compare)
        and any(isinstance(op, ast.Is | ast.IsNot) for op in node.ops)
        and any(is_none(c) for c in [node.left, *node.comparators])
    )


def _mentioned(test: ast.AST, read: list[str]) -> str | None:
    """The first of `read` (the value, then what it is read from) that the test has as a sub-expression."""
    found = {source_text(n) for n in ast.walk(test) if isinstance(n, ast.expr)}
    return next((r for r in read if r in found), None)


def _branch(stmt: ast.stmt, statement: ast.AST) -> Literal["body", "else"] | None:
    if not isinstance(stmt, ast.If | ast.While):
        return None
    if any(statement in ast.walk(s) for s in stmt.body):
        return "body"
    if any(statement in ast.walk(s) for s in stmt.orelse):
        return "else"
    return None
