"""The `except` or `else:` block a raise is in, and the `try` of its own function that catches it.

A raise in an `except` block runs only when its `try` body raises; one in the `try`'s `else:` block only when
the body raised nothing; whatever the `if`s around say. A raise in a `try` body whose own handler catches its
class does not simply leave the function: what that handler does decides it. A raise in the `else:` block of a
`for` or `while` loop runs only when that loop ends without `break`: what leads to each `break` is said.
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass

from errdex.pages.caught import catches
from errdex.pages.inforce import block_holds, short, walk_scope

MAX_STATEMENT = 80
_TRIES = (ast.Try, ast.TryStar)


@dataclass(frozen=True)
class Handler:
    """The `except` (or `else:`) block a line is in: what it catches and the `try` body it follows."""

    types: tuple[str, ...]  # the caught classes as written; empty for a bare `except:` and an `else:` block
    line: int  # the `try` keyword's line
    try_line: int  # the `try` body's first line
    try_end: int  # and its last
    statement: str | None  # the body as code (shortened) when it is one simple statement; else only lines name it
    within: tuple[Handler, ...] = ()  # the `except` blocks this `try` itself sits in, outermost first
    orelse: bool = False  # the line is in the `try`'s `else:` block: it runs only when the body raised nothing


def handler_around(scope: ast.AST, line: int) -> Handler | None:
    """The innermost `except` (or `else:`) block holding `line` in `scope` (a function, a class, a module), if any,
    with the blocks around it (an `except` inside an `except` runs only when both `try` bodies raised, the outer
    one first)."""
    blocks: list[tuple[ast.Try | ast.TryStar, ast.ExceptHandler | list[ast.stmt]]] = [
        (node, block)
        for node in walk_scope(scope)
        if isinstance(node, _TRIES) and node.handlers
        for block in _blocks(node)
    ]
    found = sorted(((node, block) for node, block in blocks if _holds(block, line)), key=lambda pair: pair[0].lineno)
    chain: tuple[Handler, ...] = ()
    for node, block in found:
        chain = (*chain, _handler(node, block, chain))
    return chain[-1] if chain else None


def _blocks(node: ast.Try | ast.TryStar) -> list[ast.ExceptHandler | list[ast.stmt]]:
    """A `try`'s `except` blocks, then its `else:` block."""
    return [*node.handlers, node.orelse]


def _holds(block: ast.ExceptHandler | list[ast.stmt], line: int) -> bool:
    if isinstance(block, ast.ExceptHandler):
        return block.lineno <= line <= (block.end_lineno or block.lineno)
    return bool(block) and block[0].lineno <= line <= (block[-1].end_lineno or block[-1].lineno)


def _handler(
    node: ast.Try | ast.TryStar, block: ast.ExceptHandler | list[ast.stmt], within: tuple[Handler, ...]
) -> Handler:
    caught = block.type if isinstance(block, ast.ExceptHandler) else None
    types = caught.elts if isinstance(caught, ast.Tuple) else [caught] if caught else []
    body = node.body
    alone = len(body) == 1 and not isinstance(body[0], _COMPOUND)
    return Handler(
        tuple(ast.unparse(t) for t in types),
        node.lineno,
        body[0].lineno,
        body[-1].end_lineno or body[-1].lineno,
        _short(body[0]) if alone else None,
        within,
        not isinstance(block, ast.ExceptHandler),
    )


_COMPOUND = (
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.With,
    ast.AsyncWith,
    ast.Try,
    ast.TryStar,
    ast.Match,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
)  # a statement holding others: any of them may be the one that raised


def caught_words(handler: Handler) -> str:
    """`the code in the `try` at lines 819–820 raises `ProtocolError``: what must happen first (for an `except`
    inside an `except`, each `try` in turn, outermost first)."""
    return ", and then, in its `except` block, ".join(_one_caught(h) for h in (*handler.within, handler))


def _one_caught(handler: Handler) -> str:
    if handler.orelse:
        return f"{_try_code(handler)} completes without raising, which runs its `else:` block"
    return f"{_try_code(handler)} {_raised(handler)}"


def _try_code(handler: Handler) -> str:
    """`the code in the `try` at line 281 (`font.select_charmap(code)`)`."""
    start, end = handler.try_line, handler.try_end
    lines = f"line {start}" if start == end else f"lines {start}–{end}"
    named = f" (`{handler.statement}`)" if handler.statement else ""
    return f"the code in the `try` at {lines}{named}"


def _raised(handler: Handler) -> str:
    """What the `try` body does for the block to run: raise one of its classes, or (`else:`) nothing."""
    if handler.orelse:
        return "raises nothing"
    return f"raises {handler_types(handler)}" if handler.types else "raises an exception"


def handler_types(handler: Handler) -> str:
    return " or ".join(f"`{t}`" for t in handler.types) or "any exception"


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


@dataclass(frozen=True)
class Catcher:
    """The `except` block of a `try` of the raise's own scope whose body holds the raise and that catches its class."""

    try_line: int
    line: int  # the `except` line
    header: str  # `except Exception as e1`
    returns: tuple[int, ...]  # the block's `return` lines
    reraises: tuple[int, ...]  # its lines that raise the caught error again (`raise`, `raise e1 from None`)
    kept: tuple[int, ...] = ()  # its other lines that read the caught error (`error = e`, `return e`), tests aside


def catcher(scope: ast.AST, line: int, raised: frozenset[str] | None) -> Catcher | None:
    """The innermost `try` of `scope` whose body holds `line` with a handler that certainly catches a class named
    `raised` (its first such handler: Python tries them in order), if any."""
    tries = [n for n in walk_scope(scope) if isinstance(n, _TRIES) and _holds(n.body, line)]
    for node in sorted(tries, key=lambda n: n.lineno, reverse=True):
        for handler in node.handlers:
            types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
            if any(catches(ast.unparse(t) if t is not None else None, raised) for t in types):
                return _catcher(node, handler)
    return None


def _catcher(node: ast.Try | ast.TryStar, handler: ast.ExceptHandler) -> Catcher:
    caught = f" {ast.unparse(handler.type)}" if handler.type is not None else ""
    name = handler.name
    returns = sorted({n.lineno for s in handler.body for n in walk_scope(s) if isinstance(n, ast.Return)})
    again = sorted(
        {n.lineno for n in _own_nodes(handler.body) if isinstance(n, ast.Raise) and n.exc is None}
        | {n.lineno for s in handler.body for n in walk_scope(s) if isinstance(n, ast.Raise) and _names(n.exc, name)}
    )
    tested = {id(r) for s in handler.body for n in walk_scope(s) if isinstance(n, ast.If) for r in ast.walk(n.test)}
    reads = {
        n.lineno
        for s in handler.body
        for n in walk_scope(s)
        if name and isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) and id(n) not in tested
    }
    return Catcher(
        node.lineno,
        handler.lineno,
        f"except{caught}" + (f" as {name}" if name else ""),
        tuple(returns),
        tuple(again),
        tuple(sorted(reads - set(again))),
    )


def _names(node: ast.expr | None, name: str | None) -> bool:
    return name is not None and isinstance(node, ast.Name) and node.id == name


def _own_nodes(body: list[ast.stmt]) -> list[ast.AST]:
    """The nodes of a handler's body outside the `except` blocks nested in it (a bare `raise` there re-raises
    the nested error, not this one) and outside nested definitions."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = list(body)
    while stack:
        current = stack.pop()
        out.append(current)
        stack += [
            c
            for c in ast.iter_child_nodes(current)
            if not isinstance(c, (ast.ExceptHandler, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda))
        ]
    return out


def catcher_words(found: Catcher, lines: list[int], function: str) -> str:
    """` Line 1641 is in the body of the `try` at line 1589, whose `except Exception as e1` (line 1708) catches it:
    the error leaves `f` from there only when that block raises it again (line 1719); it can also return (line
    1711).` (`Lines 1641 and 1705 are ...` for several places caught by the same block.)"""
    where = "the module" if function == "<module>" else f"`{function}`"
    said = " and ".join(map(str, lines))
    verb = "Lines {} are" if len(lines) > 1 else "Line {} is"
    out = (
        f" {verb.format(said)} in the body of the `try` at line {found.try_line}, whose `{found.header}` (line"
        f" {found.line}) catches it"
    )
    returns = _lines(found.returns)
    if found.reraises:
        out += f": the error leaves {where} from there only when that block raises it again ({_lines(found.reraises)})"
        return out + (f"; that block can also return ({returns})." if found.returns else ".")
    exits = f" (it can return, at {returns})" if found.returns else ""
    if found.kept:  # `error = e; return error`: the object goes on, and whoever gets it may raise it or chain to it
        return out + (
            f" and never raises the caught error again{exits}, but reads the error object ({_lines(found.kept)}):"
            f" this raise does not leave {where} as raised, though code handed that object may raise it, or another"
            " error from it, later."
        )
    return out + f" and never raises the caught error again{exits}: this raise does not reach the caller of {where}."


def _lines(lines: tuple[int, ...]) -> str:
    return f"line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))}"


MAX_BREAKS = 3  # `break` statements of a loop said; the rest are counted
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


@dataclass(frozen=True)
class LoopBreak:
    """A `break` of the loop, and what must hold for a pass to reach it, outermost first, in words."""

    line: int
    when: tuple[str, ...]


@dataclass(frozen=True)
class LoopElse:
    """The `else:` block of a `for` or `while` loop a line is in: it runs only when the loop ends without `break`."""

    line: int  # the loop's
    kind: str  # "for" | "while"
    test: str | None  # a `while` loop's test, as code
    breaks: tuple[LoopBreak, ...]


def loop_else_around(scope: ast.AST, line: int) -> LoopElse | None:
    """The innermost loop of `scope` whose `else:` block holds `line`, with the `break`s that end it, if any."""
    loops = [n for n in walk_scope(scope) if isinstance(n, _LOOPS) and block_holds(n.orelse, line)]
    if not loops:
        return None
    loop = max(loops, key=lambda n: n.lineno)
    test = short(loop.test) if isinstance(loop, ast.While) else None
    return LoopElse(loop.lineno, "while" if test is not None else "for", test, tuple(_breaks(loop.body, ())))


def _breaks(block: list[ast.stmt], path: tuple[str, ...]) -> list[LoopBreak]:
    """The `break`s of a loop's body that end that loop (a nested loop's own are not; one in its `else:` is), each
    with the branches taken to reach it."""
    out: list[LoopBreak] = []
    for stmt in block:
        if isinstance(stmt, ast.Break):
            out.append(LoopBreak(stmt.lineno, path))
        elif isinstance(stmt, ast.If):
            out += _breaks(stmt.body, (*path, f"`{short(stmt.test)}` is true (line {stmt.lineno})"))
            out += _breaks(stmt.orelse, (*path, f"`{short(stmt.test)}` is false (line {stmt.lineno})"))
        elif isinstance(stmt, _LOOPS):
            out += _breaks(stmt.orelse, (*path, f"the loop at line {stmt.lineno} ends without `break`"))
        elif isinstance(stmt, _TRIES):
            out += _breaks(stmt.body, path) + _breaks(stmt.finalbody, path)
            for handled in _blocks(stmt):
                body = handled.body if isinstance(handled, ast.ExceptHandler) else handled
                caught = _handler(stmt, handled, ())
                out += _breaks(body, (*path, f"{_try_code(caught)} {_raised(caught)}"))
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            out += _breaks(stmt.body, path)
        elif isinstance(stmt, ast.Match):
            for case in stmt.cases:
                out += _breaks(case.body, (*path, f"`case {short(case.pattern)}` matches (line {stmt.lineno})"))
    return out


def loop_else_words(found: LoopElse) -> str:
    """`the loop at line 276 ends without `break`, by running out of items with no pass reaching the `break` at line
    285 (reached when ...)`: what must happen for the loop's `else:` block to run."""
    ends = f"its test `{found.test}` coming out false" if found.test is not None else "running out of items"
    if not found.breaks:
        return f"the loop at line {found.line} ends (it has no `break`), by {ends}"
    said = [f"line {b.line}" + (f" (reached when {' and '.join(b.when)})" if b.when else "") for b in found.breaks]
    shown = said[:MAX_BREAKS]
    if len(said) > len(shown):
        shown.append(f"{len(said) - len(shown)} more")
    breaks = f"the `break` at {shown[0]}" if len(shown) == 1 else f"any of the `break`s at {'; '.join(shown)}"
    return f"the loop at line {found.line} ends without `break`, by {ends} with no pass reaching {breaks}"
