"""Whether the definition a raise is in exists only on one branch of its module, class or function.

`try: from urllib3.contrib.socks import SOCKSProxyManager` / `except ImportError: def SOCKSProxyManager(...):
raise InvalidSchema(...)` defines the raising function only when the import fails: otherwise the name is the
imported one and the raise is never reached through it. The page says so beside "whenever line N runs".
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass

from errdex.pages.handlers import Handler, caught_words, handler_around
from errdex.pages.inforce import block_holds, short, walk_scope
from errdex.pages.model import DefinedWhenJson

_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@dataclass(frozen=True)
class DefinedWhen:
    """A definition holding the raise that sits in an `except`/`else:` block of a `try`, or a branch of an `if`,
    of the code around it: it is made only when that block runs."""

    name: str
    line: int  # its `def` or `class` line
    at: int  # the line of the `try` or `if` it is under
    handler: Handler | None  # the `except` (or `else:`) block it is in; None for an `if` branch
    branch: ast.If | None  # the `if` whose branch it is in
    orelse: bool  # in that `if`'s `else:` branch
    imported: str | None  # the module an import in the `try` body binds the same name from (an `except` block's)

    def json(self) -> DefinedWhenJson:
        return {
            "name": self.name,
            "line": self.line,
            "at": self.at,
            "when": self.when(),
            "imported": self.imported,
        }

    def when(self) -> str:
        """`the code in the `try` at line 60 (...) raises `ImportError``: what must happen for the definition."""
        if self.handler is not None:
            return caught_words(self.handler)
        assert self.branch is not None
        value = "false" if self.orelse else "true"
        return f"`{short(self.branch.test)}` is {value} (the `if` at line {self.branch.lineno})"


def defined_when(tree: ast.Module, line: int) -> DefinedWhen | None:
    """The innermost definition holding `line` that is made only on one branch of the code around it (an `except`
    or `else:` block of a `try`, an `if` or `else:` branch), at module, class or function level."""
    chain = [n for n in _definitions(tree) if n.lineno <= line <= (n.end_lineno or n.lineno)]
    scopes: list[ast.AST] = [tree, *chain[:-1]] if chain else []  # where each definition is made
    for scope, definition in reversed(list(zip(scopes, chain, strict=True))):
        found = _branch_around(scope, definition)
        if found is not None:
            return found
    return None


@functools.lru_cache(maxsize=2)  # one per module tree: each of its errors' pages asks again
def _definitions(tree: ast.Module) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, ...]:
    """Every function and class defined in the module, at any depth, by line."""
    return tuple(sorted((n for n in ast.walk(tree) if isinstance(n, _DEFINITIONS)), key=lambda n: n.lineno))


def defined_words(found: DefinedWhen | None) -> str:
    """` `SOCKSProxyManager` is defined at line 63 only when ...: otherwise the name is the one imported from ...`"""
    if found is None:
        return ""
    otherwise = (
        f"the name is the one imported from `{found.imported}`, and this raise is not reached through it"
        if found.imported
        else "this definition is not made, and this raise is not reached through it"
    )
    return f" `{found.name}` is defined at line {found.line} only when {found.when()}: otherwise {otherwise}."


def _branch_around(scope: ast.AST, definition: ast.stmt) -> DefinedWhen | None:
    """The innermost `except`/`else:` block or `if` branch of `scope` (not entering nested definitions) that holds
    `definition`."""
    at = definition.lineno
    handler = handler_around(scope, at)
    ifs = [
        (node, orelse)
        for node in walk_scope(scope)
        if isinstance(node, ast.If)
        for orelse, block in ((False, node.body), (True, node.orelse))
        if block_holds(block, at) and not _run_time_branch(node.test, orelse)
    ]
    branch, orelse = max(ifs, key=lambda pair: pair[0].lineno) if ifs else (None, False)
    name = getattr(definition, "name", "")
    if handler is not None and (branch is None or handler.line > branch.lineno):
        return DefinedWhen(name, at, handler.line, handler, None, False, _imported(scope, handler, name))
    if branch is not None:
        return DefinedWhen(name, at, branch.lineno, None, branch, orelse, None)
    return None


def _run_time_branch(test: ast.expr, orelse: bool) -> bool:
    """Whether the branch is the one Python always takes when it runs the code: the `else:` of `if TYPE_CHECKING:`,
    the body of `if not TYPE_CHECKING:` (only a type checker takes the other)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, orelse = test.operand, not orelse
    checking = isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"
    return orelse and (checking or isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imported(scope: ast.AST, handler: Handler, name: str) -> str | None:
    """The module an import in the `try` body of `handler` binds `name` from (`urllib3.contrib.socks`), when that
    body holds only imports and the block is an `except` one: then the definition is made exactly when the import
    fails (in an `else:` block the import succeeded and the definition replaces it)."""
    tried = next(n for n in walk_scope(scope) if isinstance(n, (ast.Try, ast.TryStar)) and n.lineno == handler.line)
    imports = [s for s in tried.body if isinstance(s, (ast.Import, ast.ImportFrom))]
    if handler.orelse or len(imports) < len(tried.body):
        return None
    for node in imports:
        for alias in node.names:
            if (alias.asname or alias.name.split(".")[0]) == name:
                return "." * node.level + (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
    return None
