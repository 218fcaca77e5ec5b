"""Whether users reach a definition by name, and where they import it from: the shortest public module that
re-exports it (`from transformers import GenerationConfig`), not the module that defines it.

A call of `_Loader._read(path=...)` is no way in a user takes: only the package's own callers (the callers table
lists them) reach a private method. A module re-exports a name by importing it (in any branch, `if TYPE_CHECKING:`
included; `import *` too) or by a lazy-import table at its top level, in either shape packages use: name -> module
(`{'BaseModel': (__spec__.parent, '.main')}`) or module -> names (`{'generation': ['GenerationConfig']}`). A
module counts only when the chain of re-exports from it ends at the very definition; only the files on the way
are read.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from errdex.pages.hierarchy import absolute_module, summarise
from errdex.pages.receives import private_name
from errdex.pages.source import TreeOf, module_name, module_tree

MAX_HOPS = 8


def called_by_users(file: str, qualname: str, tree_of: TreeOf) -> bool:
    """No leading underscore on the function or its class, and a public module users import its top-level name
    from (its own, or one that re-exports it)."""
    if "<locals>" in qualname or private_name(qualname):
        return False
    return public_module(file, qualname.split(".", 1)[0], tree_of) is not None


def public_module(file: str, name: str, tree_of: TreeOf) -> str | None:
    """The shortest public module from which `name` imports as the top-level definition of that name in `file`; the
    defining module itself when it is public; None when every way to it passes a private name (`_utils`)."""
    defining = module_name(file)
    parts = defining.split(".")
    for depth in range(1, len(parts) + 1):
        module = ".".join(parts[:depth])
        if not _public(module):
            return None
        if depth == len(parts) or _reaches(module, name, (defining, name), tree_of, 0):
            return module
    return None


def _reaches(module: str, name: str, wanted: tuple[str, str], tree_of: TreeOf, hops: int) -> bool:
    """Whether `from module import name` ends at the definition `wanted` (module, name), through re-exports."""
    if (module, name) == wanted:
        return True
    found = module_tree(module, tree_of)
    if found is None or hops > MAX_HOPS:
        return False
    path, tree = found
    info = summarise(path, tree)
    if name in info.classes or name in info.functions:
        return False  # defined here: another definition
    origin = info.imports.get(name)
    sources = [tuple(origin.rsplit(".", 1))] if origin and "." in origin else []
    stars = [m for m in _star_sources(path, tree) if _toward(m, wanted[0]) and _star_exports(m, name, tree_of)]
    sources += [(m, name) for m in stars]
    sources += [(m, name) for m in _lazy_sources(module, path, tree, name)]
    return any(_reaches(m, n, wanted, tree_of, hops + 1) for m, n in sources)


def _toward(source: str, defining: str) -> bool:
    """Whether a star import can lead to the definition without a search of the whole package: it imports from the
    defining module, a package holding it, or a module beside it (`from pkg.core.api import *` for `pkg.core.frame`).
    A star import of every subpackage (`from .models import *` in a package of hundreds) is not followed."""
    return f"{defining}.".startswith(f"{source}.") or source.rpartition(".")[0] == defining.rpartition(".")[0]


def _star_exports(module: str, name: str, tree_of: TreeOf) -> bool:
    """Whether `from module import *` binds `name`: listed in the module's `__all__`, or, with no `__all__`, a public
    name. An `__all__` not written as a list of strings (built at import time) is not read: no claim through it."""
    found = module_tree(module, tree_of)
    declared = [stmt for stmt in found[1].body if _assigns_all(stmt)] if found is not None else []
    if not declared:
        return not name.startswith("_")
    listed: list[str] = []
    for stmt in declared:
        value = stmt.value if isinstance(stmt, (ast.Assign, ast.AugAssign)) else None
        items = value.elts if isinstance(value, (ast.List, ast.Tuple)) else None
        if items is None or not all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in items):
            return False
        listed += [str(e.value) for e in items if isinstance(e, ast.Constant)]
    return name in listed


def _assigns_all(stmt: ast.stmt) -> bool:
    """`__all__ = [...]` or `__all__ += [...]` at the module's top level."""
    if isinstance(stmt, ast.Assign):
        return any(isinstance(t, ast.Name) and t.id == "__all__" for t in stmt.targets)
    return isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == "__all__"


def _star_sources(path: str, tree: ast.Module) -> Iterator[str]:
    """The modules a file imports everything from (`from .main import *`)."""
    for stmt in ast.walk(tree):
        if isinstance(stmt, ast.ImportFrom) and any(a.name == "*" for a in stmt.names):
            yield absolute_module(path, stmt.module or "", stmt.level)


def _lazy_sources(module: str, path: str, tree: ast.Module, name: str) -> Iterator[str]:
    """The modules a top-level lazy-import table names for `name`: `{'name': '.mod'}`, `{'name': (pkg, '.mod')}`
    or `{'mod': [..., 'name', ...]}` (a table filled later by `table['mod'] = [...]` counts too)."""
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Dict):
            for key, value in zip(stmt.value.keys, stmt.value.values, strict=True):
                yield from _table_entry(module, path, key, value, name)
        elif isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Subscript):
            yield from _table_entry(module, path, stmt.targets[0].slice, stmt.value, name)


def _table_entry(module: str, path: str, key: ast.expr | None, value: ast.expr, name: str) -> Iterator[str]:
    key_text = key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None
    if key_text == name:  # name -> module, or name -> (package, module)
        strings = [value] if isinstance(value, ast.Constant) else getattr(value, "elts", [])
        for item in strings:
            if isinstance(item, ast.Constant) and isinstance(item.value, str) and item.value.strip("."):
                level = len(item.value) - len(item.value.lstrip("."))
                yield absolute_module(path, item.value.lstrip("."), level) if level else item.value
    elif key_text and isinstance(value, (ast.List, ast.Tuple)):  # module -> names
        if any(isinstance(e, ast.Constant) and e.value == name for e in value.elts):
            yield f"{module}.{key_text}"


def _public(module: str) -> bool:
    return not any(part.startswith("_") for part in module.split("."))
