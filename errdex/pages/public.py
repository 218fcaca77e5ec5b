"""Where users import a definition from: the shortest public module that re-exports it (`from transformers import
GenerationConfig`), not the module that defines it (`transformers.generation.configuration_utils`).

A module re-exports a name by importing it (in any branch, `if TYPE_CHECKING:` included; `import *` too) or by a
lazy-import table at its top level, in either shape packages use: name -> module (`{'BaseModel': (__spec__.parent,
'.main')}`) or module -> names (`{'generation': ['GenerationConfig']}`). Only the files on the way are read, and a
module counts only when the chain of re-exports from it ends at the very definition.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Iterator

from errdex.model import ReleaseRecord
from errdex.pages.hierarchy import summarise
from errdex.pages.source import module_name, parse
from errdex.store import Store

MAX_HOPS = 8


def public_module(store: Store, release: ReleaseRecord, file: str, name: str) -> str | None:
    """The shortest public module from which `name` imports as the top-level definition of that name in `file`; the
    defining module itself when it is public; None when every way to it passes a private name (`_utils`)."""
    paths = {module_name(f.path): f.path for f in store.release_paths(release) if f.path.endswith(".py")}
    tree_of = functools.cache(lambda path: parse(store.source(release, path)))
    defining = module_name(file)
    parts = defining.split(".")
    for depth in range(1, len(parts) + 1):
        module = ".".join(parts[:depth])
        if not _public(module):
            return None
        if depth == len(parts) or _reaches(module, name, (defining, name), paths, tree_of, 0):
            return module
    return None


def _reaches(
    module: str,
    name: str,
    wanted: tuple[str, str],
    paths: dict[str, str],
    tree_of: Callable[[str], ast.Module | None],
    hops: int,
) -> bool:
    """Whether `from module import name` ends at the definition `wanted` (module, name), through re-exports."""
    if (module, name) == wanted:
        return True
    path = paths.get(module)
    if path is None or hops > MAX_HOPS:
        return False
    tree = tree_of(path)
    info = summarise(path, tree)
    if name in info.classes or name in info.functions:
        return False  # defined here: another definition
    origin = info.imports.get(name)
    sources = [origin.rpartition(".")[::2]] if origin else []
    sources += [(m, name) for m in _star_sources(path, tree)]
    sources += [(m, name) for m in _lazy_sources(module, path, tree, name)]
    return any(_reaches(m, n, wanted, paths, tree_of, hops + 1) for m, n in sources if m)


def _star_sources(path: str, tree: ast.Module | None) -> Iterator[str]:
    """The modules a file imports everything from (`from .main import *`)."""
    for stmt in ast.walk(tree) if tree is not None else ():
        if isinstance(stmt, ast.ImportFrom) and any(a.name == "*" for a in stmt.names):
            yield _absolute(path, stmt.module or "", stmt.level)


def _lazy_sources(module: str, path: str, tree: ast.Module | None, name: str) -> Iterator[str]:
    """The modules a top-level lazy-import table names for `name`: `{'name': '.mod'}`, `{'name': (pkg, '.mod')}`
    or `{'mod': [..., 'name', ...]}` (a table filled later by `table['mod'] = [...]` counts too)."""
    for stmt in tree.body if tree is not None else ():
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
                relative = item.value.startswith(".")
                level = len(item.value) - len(item.value.lstrip("."))
                yield _absolute(path, item.value.lstrip("."), level) if relative else item.value
    elif key_text and isinstance(value, (ast.List, ast.Tuple)):  # module -> names
        if any(isinstance(e, ast.Constant) and e.value == name for e in value.elts):
            yield f"{module}.{key_text}"


def _absolute(path: str, relative: str, level: int) -> str:
    """The module a relative import in the file names (`from .main import x` in `pydantic/__init__.py`)."""
    package = module_name(path).split(".")
    if not path.endswith("__init__.py"):
        package = package[:-1]
    base = package[: len(package) - level + 1] if level else []
    return ".".join([*base, *(relative.split(".") if relative else [])])


def _public(module: str) -> bool:
    return not any(part.startswith("_") for part in module.split("."))
