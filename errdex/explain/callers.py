"""Who calls the function that raises: a static call graph by name over the files of the release.

Only files whose text mentions `name(` are parsed. Calls are matched by name, so each caller
says how sure the match is: `self` (a method of the same class calling `self.name()`), `super`,
`import` (a function imported from the module, or called in it), `receiver` (the receiver's
name spells the class, as `generation_config.validate()`), `constructor` (`Cls(...)` for an
`__init__`), or `name` (only the name matches: another class may define it too). The result
is cached in the store per release and function, since every error of a function shares it.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from typing import Any

from errdex.explain.source import instance_name, module_name, parse
from errdex.model import ReleaseRecord, normalize_name
from errdex.store import Store

CACHE_VERSION = 1
MAX_FILES_PARSED = 400
MAX_CALLERS = 200
_RANK = {"self": 0, "super": 1, "constructor": 2, "import": 2, "receiver": 3, "name": 4}


@dataclass(frozen=True)
class Target:
    """The function whose callers are wanted: its file, qualified name and the name it is called by."""

    file: str
    function: str

    @property
    def owner(self) -> str | None:
        parts = [p for p in self.function.split(".") if p != "<locals>"]
        return parts[-2] if len(parts) >= 2 else None

    @property
    def called_as(self) -> str | None:
        """The name in a call expression: the method or function name, or the class for `__init__`."""
        if "<locals>" in self.function or self.function == "<module>":
            return None
        last = self.function.rsplit(".", 1)[-1]
        return self.owner if last == "__init__" else last


def callers(store: Store, release: ReleaseRecord, target: Target) -> dict[str, Any]:
    """`{"callers": [...], "files_searched": n, "files_parsed": n, "truncated": bool}`, cached."""
    key = f"explain:callers:v{CACHE_VERSION}:{normalize_name(release.package)}:{release.version}:{target.file}:{target.function}"
    cached = store.cache_get(key)
    if cached is not None:
        return json.loads(cached)
    result = _search(store, release, target)
    store.cache_put(key, json.dumps(result).encode())
    return result


def _search(store: Store, release: ReleaseRecord, target: Target) -> dict[str, Any]:
    name = target.called_as
    found: list[dict[str, Any]] = []
    searched = parsed = 0
    truncated = False
    if name is not None:
        token = f"{name}("
        sources = store.release_sources(release)
        for path, text in sources:
            searched += 1
            if token not in text:
                continue
            if parsed >= MAX_FILES_PARSED:
                truncated = True
                break
            parsed += 1
            tree = parse(text)
            if tree is not None:
                found += _CallFinder(target, name, path, tree).run()
        sources.close()  # finish the read before the cache is written
    found.sort(key=lambda c: (_RANK[c["match"]], c["file"] != target.file, c["file"], c["line"]))
    truncated = truncated or len(found) > MAX_CALLERS
    return {"callers": found[:MAX_CALLERS], "files_searched": searched, "files_parsed": parsed, "truncated": truncated}


class _CallFinder(ast.NodeVisitor):
    """Walk one module, remembering the enclosing function, and collect calls of the target name."""

    def __init__(self, target: Target, name: str, path: str, tree: ast.Module) -> None:
        self.target = target
        self.name = name
        self.path = path
        self.tree = tree
        self.scopes: list[tuple[str, str]] = []
        self.found: dict[tuple[str, str], dict[str, Any]] = {}
        self.imported = path == target.file or _imports(tree, path, target)

    def run(self) -> list[dict[str, Any]]:
        self.visit(self.tree)
        return list(self.found.values())

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._scoped("class", node)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._scoped("def", node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def _scoped(self, kind: str, node: ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.scopes.append((kind, node.name))
        self.generic_visit(node)
        self.scopes.pop()

    def visit_Call(self, node: ast.Call) -> None:
        match = self._match(node.func)
        caller = self._qualname()
        if match is not None and not (caller == self.target.function and self.path == self.target.file):
            key = (caller, match)
            if key not in self.found:
                self.found[key] = {"function": caller, "file": self.path, "line": node.lineno, "match": match, "call": _call_text(node)}
        self.generic_visit(node)

    def _match(self, func: ast.expr) -> str | None:
        owner = self.target.owner
        is_init = self.target.function.endswith(".__init__")
        if isinstance(func, ast.Name) and func.id == self.name:
            if is_init:
                return "constructor" if self.imported else None
            return "import" if owner is None and self.imported else None
        if not isinstance(func, ast.Attribute) or func.attr != self.name:
            return None
        receiver = func.value
        if is_init:
            return "constructor"
        if owner is None:
            return "import" if _dotted(receiver).rsplit(".", 1)[-1] == module_name(self.target.file).rsplit(".", 1)[-1] else None
        if isinstance(receiver, ast.Name) and receiver.id in ("self", "cls"):
            return "self" if self.path == self.target.file and self._in_class(owner) else "name"
        if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name) and receiver.func.id == "super":
            return "super"
        if instance_name(owner) in _dotted(receiver).lower() or _dotted(receiver) == owner:
            return "receiver"
        return "name"

    def _in_class(self, owner: str) -> bool:
        classes = [name for kind, name in self.scopes if kind == "class"]
        return bool(classes) and classes[-1] == owner

    def _qualname(self) -> str:
        if not self.scopes:
            return "<module>"
        parts: list[str] = []
        for i, (kind, name) in enumerate(self.scopes):
            parts.append(name)
            if kind == "def" and i < len(self.scopes) - 1:
                parts.append("<locals>")
        return ".".join(parts)


def _imports(tree: ast.Module, path: str, target: Target) -> bool:
    """Whether a module imports the target's function or class by name from its module or a parent package."""
    wanted = module_name(target.file)
    here = module_name(path).split(".")
    if not path.endswith("__init__.py"):
        here = here[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any(a.name == target.called_as for a in node.names):
            base = here[: len(here) - node.level + 1] if node.level else []
            full = ".".join([*base, *(node.module.split(".") if node.module else [])])
            if full == wanted or wanted.startswith(full + "."):  # the module, or a package re-exporting it
                return True
    return False


def _dotted(node: ast.expr) -> str:
    try:
        return ast.unparse(node)
    except (RecursionError, ValueError):
        return ""


def _call_text(node: ast.Call, limit: int = 100) -> str:
    text = _dotted(node)
    return text if len(text) <= limit else text[: limit - 3] + "..."
