"""The package's own decorators around the raising function and its callers in the same file.

`@_fit_context` wraps `fit` in a function that validates the estimator's parameters before calling
it: a value that fires the check may be rejected by that wrapper first, with another error; another
decorator only documents or registers. Wrappers are not followed here, so a trigger through a
decorated function is said with that scope (if the decorator lets the call through), and no more.
A decorator counts when the package defines it: imported from the package (`from ..base import
_fit_context`), or defined in the module with a nested function (a wrapper; a decorator that only
registers the function and returns it has none). Builtins and other libraries' decorators
(`property`, `functools.wraps`) are not the package's.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable

from errdex.pages.hierarchy import decorator_name
from errdex.pages.model import PageCaller
from errdex.pages.source import find


def wrapped_by(tree: ast.Module, file: str, function: str, callers: Iterable[PageCaller]) -> list[str]:
    """The package decorators (as written, without their arguments) of the function `function` of `file` and of
    its callers defined in that file, in order and once each."""
    names = [function] + [c["function"] for c in callers if c["file"] == file and c["use"] == "call"]
    own = _package_names(tree, file.split("/", 1)[0])
    return list(dict.fromkeys(d for name in names for d in _decorators(tree, name, own)))


def own_decorators(tree: ast.Module, file: str, function: str) -> list[str]:
    """The package decorators of the function `function` itself (those that wrap it run before its body)."""
    return _decorators(tree, function, _package_names(tree, file.split("/", 1)[0]))


def decorated_words(function: str, decorators: list[str]) -> str:
    """` `f` is decorated with the package's `@validate_params`, which is not followed here: if it wraps the function,
    its wrapper runs before the body on every call.` Not that it wraps, nor that it may reject: many decorators only
    register the function or rewrite its docstring and return it unchanged."""
    if not decorators:
        return ""
    named = " and ".join(f"`@{d}`" for d in decorators)
    which = "which are" if len(decorators) > 1 else "which is"
    return (
        f" `{function}` is decorated with the package's {named}, {which} not followed here: a decorator that wraps"
        " the function runs its wrapper before the body on every call; one that only registers it or rewrites its"
        " docstring does not."
    )


_CACHES = frozenset({"cache", "lru_cache"})


def cached_words(tree: ast.Module, function: str) -> str:
    """` `f` is wrapped by `@functools.cache`: an unhashable argument raises TypeError there, before the body runs;
    what this page says holds for hashable arguments.` (`cache` / `lru_cache` imported from functools too.)"""
    located = find(tree, function)
    if located is None or isinstance(located.node, ast.ClassDef):
        return ""
    imported = {
        a.asname or a.name
        for stmt in tree.body
        if isinstance(stmt, ast.ImportFrom) and stmt.module == "functools"
        for a in stmt.names
        if a.name in _CACHES
    }
    for node in located.node.decorator_list:
        name = decorator_name(node)
        if name in imported or (name.startswith("functools.") and name.split(".", 1)[1] in _CACHES):
            return (
                f" `{function}` is wrapped by `@{name}`: an unhashable argument raises TypeError there, before the"
                " body runs; what this page says holds for hashable arguments."
            )
    return ""


def _decorators(tree: ast.Module, name: str, own: frozenset[str]) -> list[str]:
    located = find(tree, name)
    if located is None or isinstance(located.node, ast.ClassDef):
        return []
    return [decorator_name(d) for d in located.node.decorator_list if decorator_name(d).split(".", 1)[0] in own]


@functools.lru_cache(maxsize=2)  # one per module tree: each of its errors' pages asks again
def _package_names(tree: ast.Module, package: str) -> frozenset[str]:
    """The module's names that are decorators of the package: imported from it, or defined here with a wrapper."""
    out = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.Import):
            out |= {alias.asname or package for alias in stmt.names if alias.name.split(".")[0] == package}
        elif isinstance(stmt, ast.ImportFrom) and (stmt.level > 0 or (stmt.module or "").split(".")[0] == package):
            out |= {alias.asname or alias.name for alias in stmt.names}
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
            isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in ast.walk(stmt) if n is not stmt
        ):
            out.add(stmt.name)
    return frozenset(out)
