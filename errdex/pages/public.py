"""Whether a user calls a function of the package by name, or only the package itself does.

A call of `_Loader._read(path=...)` is no way in a user takes: only the package's own callers (the callers
table lists them) reach a private method. A function of a private module (`matplotlib/axes/_axes.py`) is
public when the folder's `__init__.py` imports its name (or `*`) from that module: `from ._axes import Axes`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from errdex.pages.receives import private_name

TreeOf = Callable[[str], ast.Module | None]


def called_by_users(file: str, qualname: str, tree_of: TreeOf) -> bool:
    """No leading underscore on the function, its class and its module path, or the outermost private module is
    imported from by its folder's `__init__.py` for the function's top-level name (an unreadable one says no)."""
    if "<locals>" in qualname or private_name(qualname):
        return False
    parts = file.removesuffix(".py").split("/")
    private = next((i for i, p in enumerate(parts) if p.startswith("_") and not p.endswith("__")), None)
    if private is None:
        return True
    if private == 0:
        return False
    init = tree_of("/".join([*parts[:private], "__init__.py"]))
    module = ".".join(parts[: private + 1])
    top = qualname.split(".", 1)[0]
    return init is not None and any(
        _imports_from(node, ".".join(parts[:private]), module) and any(a.name in (top, "*") for a in node.names)
        for node in ast.walk(init)
        if isinstance(node, ast.ImportFrom)
    )


def _imports_from(node: ast.ImportFrom, package: str, module: str) -> bool:
    """`from ._axes import ...` or `from matplotlib.axes._axes.sub import ...` in `package`'s `__init__.py`."""
    if node.level > 1:
        return False
    named = node.module or ""
    absolute = f"{package}.{named}" if node.level == 1 else named
    return absolute == module or absolute.startswith(f"{module}.")
