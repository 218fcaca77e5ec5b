"""Calls that never return: a branch ending in one leaves its function as a `raise` does.

`self._raise_for_required(key, cls)` where the method is annotated `-> NoReturn` (or `Never`), or a call of a
function of the release whose every path raises (no `return`, its body ends in a `raise`). A method is taken
only by its annotation: an override may return, but a type checker holds it to the annotation. Only calls
that end a branch of an `if` before the raise are looked up (the release's files are read only then).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping

from errdex.pages.conditions import conjuncts
from errdex.pages.hierarchy import Classes, Symbol
from errdex.pages.inforce import in_force, negation, short, walk_scope
from errdex.pages.prior import before, read_names
from errdex.pages.source import FunctionNode, find, parse
from errdex.pages.syntax import unparse

_NEVER = frozenset({"NoReturn", "Never"})
_LEAVE = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def ending_calls(func: FunctionNode, line: int) -> list[ast.Call]:
    """The calls, made as whole statements, that end a branch of an `if` of the function before `line`."""
    ifs = [n for n in walk_scope(func) if isinstance(n, ast.If) and (n.end_lineno or n.lineno) < line]
    ends = [block[-1] for i in ifs for block in (i.body, i.orelse) if block]
    return [s.value for s in ends if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)]


def never_returning(
    calls: Iterable[ast.Call], file: str, owner: str | None, texts: Callable[[], Mapping[str, str]]
) -> frozenset[int]:
    """The lines of those `calls` (in `file`, in a method of the class `owner` or a function) whose callee
    never returns; `texts` gives the release's files by path (read only when there is a call to look up)."""
    wanted = list(calls)
    if not wanted:
        return frozenset()
    classes = Classes(texts())
    return frozenset(c.lineno for c in wanted if _never(c, file, owner, classes))


def _never(call: ast.Call, file: str, owner: str | None, classes: Classes) -> bool:
    func = call.func
    if isinstance(func, ast.Name):
        found = classes.resolve(file, func.id)
        node = _definition(classes, found) if found is not None else None
        return node is not None and (annotated_never(node) or always_raises(node))
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in ("self", "cls"):
        if owner is None:
            return False
        cls = classes.lookup(Symbol(file, owner), func.attr)
        node = _definition(classes, Symbol(cls.file, f"{cls.qualname}.{func.attr}")) if cls is not None else None
        return node is not None and annotated_never(node)
    return False


def _definition(classes: Classes, symbol: Symbol) -> FunctionNode | None:
    tree = parse(classes.texts.get(symbol.file))
    located = find(tree, symbol.qualname) if tree is not None else None
    node = located.node if located is not None else None
    return None if node is None or isinstance(node, ast.ClassDef) else node


def annotated_never(func: FunctionNode) -> bool:
    """`-> NoReturn` / `-> Never` (also `typing.NoReturn`, or as a string)."""
    returns = func.returns
    if isinstance(returns, ast.Constant) and isinstance(returns.value, str):
        return returns.value.rsplit(".", 1)[-1] in _NEVER
    name = returns.attr if isinstance(returns, ast.Attribute) else returns.id if isinstance(returns, ast.Name) else ""
    return name in _NEVER


def always_raises(func: FunctionNode) -> bool:
    """A body with no `return` or `yield` that ends in a `raise`: every call of it raises."""
    nodes = walk_scope(func)
    if any(isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom)) for n in nodes if n is not func):
        return False
    return bool(func.body) and isinstance(func.body[-1], ast.Raise)


def leaves(block: list[ast.stmt], never: frozenset[int]) -> bool:
    """Whether every path through a block leaves it (`return`, `raise`, `continue`, `break`, or a statement that
    is a call on one of the lines `never`), so that nothing after it runs."""
    for stmt in block:
        if isinstance(stmt, _LEAVE):
            return True
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and stmt.lineno in never:
            return True
        if isinstance(stmt, ast.If) and leaves(stmt.body, never) and leaves(stmt.orelse, never):
            return True
    return False


def settled(func: FunctionNode, line: int, condition: str, node: ast.expr, never: frozenset[int]) -> str:
    """The condition (`node` is `condition` parsed) with each `or` clause that holds a test an earlier `if` makes
    certain reduced to that test, as code.

    `if a: (if b: self._fail() else: return)` before the raise: only `not a` gets past it once `_fail` is known
    never to return, so a clause `not a or b` (the extractor read the call as falling through) is `not a`. Only
    an `if` that leaves because of such a call counts (plain exits are the extractor's own), and only when
    nothing its test reads is bound again before the raise."""
    certain = {unparse(test) for test in _certain(func, line, never)}
    if not certain:
        return condition
    parts = [_reduced(part, certain) for part in conjuncts(node)]
    return " and ".join(_code(condition, part) for part in parts)


def _code(condition: str, part: ast.expr) -> str:
    """A clause as written in the condition, bracketed when it would not stay whole between `and`s."""
    text = ast.get_source_segment(condition, part) or unparse(part)
    return f"({text})" if isinstance(part, (ast.BoolOp, ast.IfExp, ast.Lambda, ast.NamedExpr)) else text


def _certain(func: FunctionNode, line: int, never: frozenset[int]) -> list[ast.expr]:
    out = []
    for stmt in before(func, line):
        if not isinstance(stmt, ast.If) or any(
            _rebound_after(func, name, stmt.lineno, line) for name in read_names(stmt.test)
        ):
            continue
        for block, held in ((stmt.body, negation(stmt.test)), (stmt.orelse, stmt.test)):
            if leaves(block, never) and not leaves(block, frozenset()):
                out.append(held)
    return out


def _rebound_after(func: FunctionNode, name: str, at: int, line: int) -> bool:
    bound = in_force(func, name, line)
    return bound is not None and any(b.line > at for b in bound.bindings)


def _reduced(part: ast.expr, certain: set[str]) -> ast.expr:
    if isinstance(part, ast.BoolOp) and isinstance(part.op, ast.Or):
        return next((value for value in part.values if unparse(value) in certain), part)
    return part


def never_words(func: FunctionNode, never: frozenset[int]) -> str:
    """` Line 1743 calls `self._raise_for_required(key, cls)`, which never returns: when it runs, its error comes
    first.`"""
    calls = sorted(
        (
            n
            for n in walk_scope(func)
            if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and n.lineno in never
        ),
        key=lambda n: n.lineno,
    )
    return "".join(
        f" Line {c.lineno} calls `{short(c.value, 80)}`, which never returns (it always raises): when it runs, its"
        " error comes first."
        for c in calls
    )
