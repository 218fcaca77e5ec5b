"""Who calls the function that raises: a static call graph by name over the files of the release.

Only files whose text mentions `name(` are parsed. Calls are matched by name, so each caller
says how sure the match is: `self` (a method of the same class calling `self.name()`), `super`,
`import` (a function imported from the module, or called in it), `receiver` (the receiver's
name spells the class, as `generation_config.validate()`), `constructor` (`Cls(...)` for an
`__init__`), or `name` (only the name matches: another class may define it too). The result
is cached in the store per release and function, since every error of a function shares it.

`release_callers` finds the callers of many functions in one pass over the release (each file
read, parsed and walked once per name it calls, for every function of that name), with the same
result as one search per function: what a release's pages need, computed before they are asked for.
"""

from __future__ import annotations

import ast
import bisect
import functools
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import cast

from errdex.caches import CALLERS
from errdex.model import ReleaseRecord, normalize_name
from errdex.pages.model import Caller, CallerSearch
from errdex.pages.source import instance_name, module_name, parse
from errdex.store import Store

MAX_PARSE_CHARS = 3_000_000  # source parsed per search, beyond the function's own file
MAX_CALLERS = 200
_RANK = {"self": 0, "super": 1, "constructor": 2, "import": 2, "receiver": 3, "name": 4}
_CALLED = re.compile(r"\b(\w+)\(")  # a run of name characters right before `(`; linear: each run starts at a boundary
_NAME_RUN = re.compile(r"\w+")
DIRECT_LOOKUPS = 8  # names looked up in a file's text before its distinct name runs are searched instead


@dataclass(frozen=True)
class CalledFunction:
    """The function whose callers are wanted: its file, qualified name and the name it is called by."""

    file: str
    function: str

    @functools.cached_property
    def owner(self) -> str | None:
        parts = [p for p in self.function.split(".") if p != "<locals>"]
        return parts[-2] if len(parts) >= 2 else None

    @functools.cached_property
    def instance(self) -> str:
        return instance_name(self.owner or "")

    @functools.cached_property
    def called_as(self) -> str | None:
        """The name in a call expression: the method or function name, or the class for `__init__`."""
        if "<locals>" in self.function or self.function == "<module>":
            return None
        last = self.function.rsplit(".", 1)[-1]
        return self.owner if last == "__init__" else last

    def worth_parsing(self, module: Module) -> bool:
        """Whether a file that calls the name may call *this* function: it names the class, or imports the function."""
        owner = self.owner
        if owner is not None:
            return module.mentions(owner) or module.mentions(self.instance)
        name = re.escape(self.called_as or "")
        last = module_name(self.file).rsplit(".", 1)[-1]
        return (
            module.mentions(last)
            or re.search(rf"^(?:from|import)\b[^\n]*\b{name}\b|^[ \t]+{name},?[ \t]*$", module.text, re.M) is not None
        )


class Module:
    """One file of the release as the search reads it.

    Its text, its tree (parsed once), the calls of each name in it.
    """

    def __init__(self, path: str, text: str, tree: ast.Module | None = None) -> None:
        self.path = path
        self.text = text
        self._tree = tree
        self._calls: dict[str, list[tuple[ast.Call, tuple[tuple[str, str], ...]]]] = {}
        self._mentioned: dict[str, bool] = {}

    @functools.cached_property
    def tree(self) -> ast.Module | None:
        return self._tree if self._tree is not None else parse(self.text)

    @functools.cached_property
    def _names(self) -> str:
        """The file's distinct name runs, joined: a name occurs in one of them exactly when it occurs in the text."""
        return "\x00".join(set(_NAME_RUN.findall(self.text)))

    def mentions(self, name: str) -> bool:
        """Whether the name (letters, digits, `_`) occurs in the text, as a name or inside a longer one."""
        if name not in self._mentioned:
            many = len(self._mentioned) >= DIRECT_LOOKUPS
            self._mentioned[name] = name in (self._names if many else self.text)
        return self._mentioned[name]

    @functools.cached_property
    def imports(self) -> list[ast.ImportFrom]:
        """The `from ... import` statements, wherever they are (walking only the parts whose lines say `from`)."""
        lines = _line_numbers(self.text, _occurrences(self.text, "from"))
        found: list[ast.ImportFrom] = []
        stack: list[ast.AST] = [self.tree] if self.tree is not None else []
        while stack:
            for child in ast.iter_child_nodes(stack.pop()):
                if isinstance(child, ast.ImportFrom):
                    found.append(child)
                elif _holds_a_line(child, lines):
                    stack.append(child)
        return found

    def calls(self, name: str) -> list[tuple[ast.Call, tuple[tuple[str, str], ...]]]:
        """The calls of `name(...)` or `x.name(...)` with their enclosing scopes.

        Only the parts of the tree whose lines hold `name(` are walked.
        """
        if name not in self._calls:
            lines = _line_numbers(self.text, _occurrences(self.text, f"{name}("))
            found: list[tuple[ast.Call, tuple[tuple[str, str], ...]]] = []
            try:
                _walk(self.tree, (), lines, name, found) if self.tree is not None else None
            except RecursionError:  # an expression nested deeper than the walk can follow: no callers from this file
                found = []
            self._calls[name] = found
        return self._calls[name]


def callers(
    store: Store, release: ReleaseRecord, target: CalledFunction, tree: ast.Module | None = None
) -> CallerSearch:
    """`{"callers": [...], "files_searched", "files_parsed", "files_not_followed", "truncated"}`, cached.

    `files_not_followed` call the name but neither mention the class nor import the function (so
    their calls are of other objects' methods of the same name, most likely), or were beyond the budget.
    """
    cached = store.cache_get(_key(release, target))
    if cached is not None:
        return cast(CallerSearch, json.loads(cached))
    result = _search(store, release, target, tree)
    store.cache_put(_key(release, target), json.dumps(result).encode())
    return result


def release_callers(store: Store, release: ReleaseRecord, functions: Iterable[tuple[str, str]]) -> int:
    """Find and cache the callers of every (file, function) not cached yet, in one pass over the release; how many."""
    searches = [
        _Search(t)
        for t in dict.fromkeys(CalledFunction(f, fn) for f, fn in functions)
        if store.cache_get(_key(release, t)) is None
    ]
    named = [(s.name, s) for s in searches if s.name is not None]
    own: dict[str, list[_Search]] = {}
    by_name: dict[str, list[_Search]] = {}
    for name, search in named:
        own.setdefault(search.target.file, []).append(search)
        by_name.setdefault(name, []).append(search)
    longest = max((len(n) for n in by_name), default=0)
    searched = 0
    sources = store.release_sources(release)
    for source in sources:
        searched += 1
        module = Module(source.path, source.text)
        for search in own.pop(source.path, []):
            search.own_file(module)
        for name in _called_names(source.text, longest) & by_name.keys():
            for search in by_name[name]:
                if search.wants(module):
                    search.add(module)
    sources.close()  # finish the read before the cache is written
    for file, left in own.items():  # a function's file the release did not analyse
        for search in left:
            search.own_file(Module(file, store.source(release, file) or ""))
    for search in searches:
        store.cache_put(
            _key(release, search.target), json.dumps(search.result(searched if search.name else 0)).encode()
        )
    return len(searches)


def _key(release: ReleaseRecord, target: CalledFunction) -> str:
    return CALLERS.key(normalize_name(release.package), release.version, target.file, target.function)


def _called_names(text: str, longest: int) -> set[str]:
    """Every name `n` such that `n(` occurs in the text, up to `longest` characters.

    They are the ends of the name runs before a `(`.
    """
    return {run[-k:] for run in set(_CALLED.findall(text)) for k in range(1, min(len(run), longest) + 1)}


@dataclass
class _Search:
    """The callers of one function found so far, and what was read to find them."""

    target: CalledFunction
    found: list[Caller] = field(default_factory=list)
    parsed: int = 0
    unfollowed: int = 0
    budget: int = 0
    over_budget: bool = False

    @property
    def name(self) -> str | None:
        return self.target.called_as

    def own_file(self, module: Module) -> None:
        """The calls in the function's own file (always parsed)."""
        self.add(module)
        self.parsed += 1

    def wants(self, module: Module) -> bool:
        """Whether a file that calls the name is parsed.

        It is when it names the class or imports the function, within the budget.
        """
        if module.path == self.target.file:
            return False
        worth = self.target.worth_parsing(module)
        if not worth or self.budget + len(module.text) > MAX_PARSE_CHARS:
            self.over_budget = self.over_budget or worth
            self.unfollowed += 1
            return False
        self.budget += len(module.text)
        self.parsed += 1
        return True

    def add(self, module: Module) -> None:
        self.found += _calls_in(self.target, module)

    def result(self, searched: int) -> CallerSearch:
        found = sorted(
            self.found, key=lambda c: (_RANK[c["match"]], c["file"] != self.target.file, c["file"], c["line"])
        )
        return {
            "callers": found[:MAX_CALLERS],
            "files_searched": searched,
            "files_parsed": self.parsed,
            "files_not_followed": self.unfollowed,
            "truncated": self.over_budget or len(found) > MAX_CALLERS,
        }


def _search(store: Store, release: ReleaseRecord, target: CalledFunction, tree: ast.Module | None) -> CallerSearch:
    """Parse the function's own file, then the files that call the name.

    Of those, only the ones that mention the class (or import the function).
    """
    search = _Search(target)
    if search.name is None:
        return search.result(0)
    token = f"{search.name}("
    search.own_file(Module(target.file, store.source(release, target.file) or "", tree))
    searched = 0
    sources = store.release_sources(release)
    for source in sources:
        searched += 1
        if token in source.text:
            module = Module(source.path, source.text)
            if search.wants(module):
                search.add(module)
    sources.close()  # finish the read before the cache is written
    return search.result(searched)


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


def _walk(
    node: ast.AST,
    scopes: tuple[tuple[str, str], ...],
    lines: list[int],
    name: str,
    found: list[tuple[ast.Call, tuple[tuple[str, str], ...]]],
) -> None:
    """Collect the calls of `name` under `node`, entering only the parts whose lines hold `name(`."""
    for child in ast.iter_child_nodes(node):
        if not _holds_a_line(child, lines):
            continue
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            _walk(
                child,
                (*scopes, ("class" if isinstance(child, ast.ClassDef) else "def", child.name)),
                lines,
                name,
                found,
            )
            continue
        if isinstance(child, ast.Call) and _called_name(child.func) == name:
            found.append((child, scopes))
        _walk(child, scopes, lines, name, found)


def _holds_a_line(node: ast.AST, lines: list[int]) -> bool:
    start = getattr(node, "lineno", None)
    if start is None:
        return True  # operators, contexts, arguments: small, walked through
    end = getattr(node, "end_lineno", None) or start
    i = bisect.bisect_left(lines, start)
    return i < len(lines) and lines[i] <= end


def _called_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def _calls_in(target: CalledFunction, module: Module) -> list[Caller]:
    """The target's callers among the calls of its name in one file, one per (calling function, how sure)."""
    found: dict[tuple[str, str], Caller] = {}
    matcher = _Matcher(target, module)
    for call, scopes in module.calls(target.called_as or ""):
        match = matcher.match(call.func, scopes)
        caller = _qualname(scopes)
        if match is not None and not (caller == target.function and module.path == target.file):
            found.setdefault(
                (caller, match),
                {
                    "function": caller,
                    "file": module.path,
                    "line": call.lineno,
                    "match": match,
                    "call": _call_text(call),
                },
            )
    return list(found.values())


class _Matcher:
    """How surely one call of the name in a file calls the target."""

    def __init__(self, target: CalledFunction, module: Module) -> None:
        self.target = target
        self.module = module
        self._imported: bool | None = True if module.path == target.file else None

    @property
    def imported(self) -> bool:
        if self._imported is None:
            self._imported = _imports(self.module, self.target)
        return self._imported

    def match(self, func: ast.expr, scopes: tuple[tuple[str, str], ...]) -> str | None:
        owner = self.target.owner
        is_init = self.target.function.endswith(".__init__")
        if isinstance(func, ast.Name):
            if is_init:
                return "constructor" if self.imported else None
            return "import" if owner is None and self.imported else None
        if not isinstance(func, ast.Attribute):  # calls are found by a name or an attribute only
            return None
        receiver = func.value
        if is_init:
            return "constructor"
        if owner is None:
            return (
                "import"
                if _dotted(receiver).rsplit(".", 1)[-1] == module_name(self.target.file).rsplit(".", 1)[-1]
                else None
            )
        if isinstance(receiver, ast.Name) and receiver.id in ("self", "cls"):
            return "self" if self.module.path == self.target.file and _in_class(scopes, owner) else "name"
        if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name) and receiver.func.id == "super":
            return "super"
        if instance_name(owner) in _dotted(receiver).lower() or _dotted(receiver) == owner:
            return "receiver"
        return "name"


def _in_class(scopes: tuple[tuple[str, str], ...], owner: str) -> bool:
    classes = [name for kind, name in scopes if kind == "class"]
    return bool(classes) and classes[-1] == owner


def _qualname(scopes: tuple[tuple[str, str], ...]) -> str:
    if not scopes:
        return "<module>"
    parts: list[str] = []
    for i, (kind, name) in enumerate(scopes):
        parts.append(name)
        if kind == "def" and i < len(scopes) - 1:
            parts.append("<locals>")
    return ".".join(parts)


def _imports(module: Module, target: CalledFunction) -> bool:
    """Whether a module imports the target's function or class by name from its module or a parent package."""
    wanted = module_name(target.file)
    here = module_name(module.path).split(".")
    if not module.path.endswith("__init__.py"):
        here = here[:-1]
    for node in module.imports:
        if any(a.name == target.called_as for a in node.names):
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
