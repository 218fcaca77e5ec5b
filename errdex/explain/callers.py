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
import bisect
import functools
import json
import re
from dataclasses import dataclass
from typing import Any

from errdex.explain.source import instance_name, module_name, parse
from errdex.model import ReleaseRecord, normalize_name
from errdex.store import Store

CACHE_VERSION = 2
MAX_PARSE_CHARS = 3_000_000  # source parsed per search, beyond the function's own file
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

    @functools.cached_property
    def instance(self) -> str:
        return instance_name(self.owner or "")

    @property
    def called_as(self) -> str | None:
        """The name in a call expression: the method or function name, or the class for `__init__`."""
        if "<locals>" in self.function or self.function == "<module>":
            return None
        last = self.function.rsplit(".", 1)[-1]
        return self.owner if last == "__init__" else last

    def worth_parsing(self, text: str) -> bool:
        """Whether a file that calls the name may call *this* function: it names the class, or imports the function."""
        owner = self.owner
        if owner is not None:
            return owner in text or self.instance in text
        name = re.escape(self.called_as or "")
        module = module_name(self.file).rsplit(".", 1)[-1]
        return module in text or re.search(rf"^(?:from|import)\b[^\n]*\b{name}\b|^[ \t]+{name},?[ \t]*$", text, re.M) is not None


def callers(store: Store, release: ReleaseRecord, target: Target, tree: ast.Module | None = None) -> dict[str, Any]:
    """`{"callers": [...], "files_searched", "files_parsed", "files_not_followed", "truncated"}`, cached.

    `files_not_followed` call the name but neither mention the class nor import the function (so
    their calls are of other objects' methods of the same name, most likely), or were beyond the budget.
    """
    key = f"explain:callers:v{CACHE_VERSION}:{normalize_name(release.package)}:{release.version}:{target.file}:{target.function}"
    cached = store.cache_get(key)
    if cached is not None:
        return json.loads(cached)
    result = _search(store, release, target, tree)
    store.cache_put(key, json.dumps(result).encode())
    return result


def _search(store: Store, release: ReleaseRecord, target: Target, tree: ast.Module | None) -> dict[str, Any]:
    """Parse the function's own file, then the files that call the name and mention the class (or import the function)."""
    name = target.called_as
    found: list[dict[str, Any]] = []
    searched = parsed = unfollowed = budget = 0
    over_budget = False
    if name is not None:
        token = f"{name}("
        found += _calls_in(target, name, target.file, store.source(release, target.file) or "", tree)
        parsed = 1
        sources = store.release_sources(release)
        for path, text in sources:
            searched += 1
            if path == target.file or token not in text:
                continue
            if not target.worth_parsing(text) or budget + len(text) > MAX_PARSE_CHARS:
                over_budget = over_budget or target.worth_parsing(text)
                unfollowed += 1
                continue
            budget += len(text)
            parsed += 1
            found += _calls_in(target, name, path, text)
        sources.close()  # finish the read before the cache is written
    found.sort(key=lambda c: (_RANK[c["match"]], c["file"] != target.file, c["file"], c["line"]))
    return {
        "callers": found[:MAX_CALLERS], "files_searched": searched, "files_parsed": parsed,
        "files_not_followed": unfollowed, "truncated": over_budget or len(found) > MAX_CALLERS,
    }


def _calls_in(target: Target, name: str, path: str, text: str, tree: ast.Module | None = None) -> list[dict[str, Any]]:
    tree = tree if tree is not None else parse(text)
    if tree is None:
        return []
    token = f"{name}("
    lines = _line_numbers(text, _occurrences(text, token))
    try:
        return _CallFinder(target, name, path, tree, lines).run()
    except RecursionError:  # an expression nested deeper than the walk can follow: no callers from this file
        return []


def _occurrences(text: str, token: str) -> list[int]:
    found, start = [], text.find(token)
    while start != -1:
        found.append(start)
        start = text.find(token, start + 1)
    return found


def _line_numbers(text: str, offsets: list[int]) -> list[int]:
    """The distinct 1-based line numbers of ascending offsets, counting newlines once."""
    out: list[int] = []
    line, at = 1, 0
    for offset in offsets:
        line += text.count("\n", at, offset)
        at = offset
        if not out or out[-1] != line:
            out.append(line)
    return out


class _CallFinder:
    """Walk the parts of one module whose lines hold the name, remembering the enclosing function."""

    def __init__(self, target: Target, name: str, path: str, tree: ast.Module, lines: list[int]) -> None:
        self.target = target
        self.name = name
        self.path = path
        self.tree = tree
        self.lines = lines
        self.found: dict[tuple[str, str], dict[str, Any]] = {}
        self._imported: bool | None = True if path == target.file else None

    def run(self) -> list[dict[str, Any]]:
        self._visit(self.tree, [])
        return list(self.found.values())

    def _visit(self, node: ast.AST, scopes: list[tuple[str, str]]) -> None:
        for child in ast.iter_child_nodes(node):
            if not self._holds_a_line(child):
                continue
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self._visit(child, [*scopes, ("class" if isinstance(child, ast.ClassDef) else "def", child.name)])
                continue
            if isinstance(child, ast.Call):
                self._record(child, scopes)
            self._visit(child, scopes)

    def _holds_a_line(self, node: ast.AST) -> bool:
        start = getattr(node, "lineno", None)
        if start is None:
            return True  # operators, contexts, arguments: small, walked through
        end = getattr(node, "end_lineno", None) or start
        i = bisect.bisect_left(self.lines, start)
        return i < len(self.lines) and self.lines[i] <= end

    def _record(self, node: ast.Call, scopes: list[tuple[str, str]]) -> None:
        match = self._match(node.func, scopes)
        caller = _qualname(scopes)
        if match is not None and not (caller == self.target.function and self.path == self.target.file):
            key = (caller, match)
            if key not in self.found:
                self.found[key] = {"function": caller, "file": self.path, "line": node.lineno, "match": match, "call": _call_text(node)}

    @property
    def imported(self) -> bool:
        if self._imported is None:
            self._imported = _imports(self.tree, self.path, self.target)
        return self._imported

    def _match(self, func: ast.expr, scopes: list[tuple[str, str]]) -> str | None:
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
            return "self" if self.path == self.target.file and _in_class(scopes, owner) else "name"
        if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name) and receiver.func.id == "super":
            return "super"
        if instance_name(owner) in _dotted(receiver).lower() or _dotted(receiver) == owner:
            return "receiver"
        return "name"



def _in_class(scopes: list[tuple[str, str]], owner: str) -> bool:
    classes = [name for kind, name in scopes if kind == "class"]
    return bool(classes) and classes[-1] == owner


def _qualname(scopes: list[tuple[str, str]]) -> str:
    if not scopes:
        return "<module>"
    parts: list[str] = []
    for i, (kind, name) in enumerate(scopes):
        parts.append(name)
        if kind == "def" and i < len(scopes) - 1:
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
