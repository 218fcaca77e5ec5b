"""Who calls the function that raises: a static call graph over the files of the release, resolved.

A use of the function's name is claimed as a caller only when it resolves to the function: a
plain name through the file's imports and definitions (`import`), `self.name`/`cls.name` through
the class's MRO (`self`; in a base class whose method the function overrides, `override`),
`super().name` through the MRO after the calling class (`super`), `Cls.name` and an object
whose class is known from its constructor or annotation (`class`, `typed`), `Cls(...)` for an
`__init__` or a dataclass's `__post_init__` (`constructor`), a nested function called in its
enclosing one (`local`). `receiver` is weaker: the receiver's name spells the class
(`generation_config.validate()`), and nothing the release binds to it says otherwise (a `self.x` the class binds
holds what it binds: `self.faiss_index = faiss.index_factory(...)` is no `FaissIndex`, whatever its name).
Each caller also says how the name is used: `call`, `read` (a `property` or `cached_property` read as
`obj.name`), `reference` (passed, stored in a dict) or `decorator`. Uses whose object's class is not known are
counted as unresolved, never claimed.

Only files whose text holds a searched name are parsed, and of those, the ones that can name the
function (they mention its class, a subclass of it, or import its module). The result is cached
in the store per release and function. `release_callers` finds the callers of many functions in
one pass over the release, with the same result as one search per function.
"""

from __future__ import annotations

import ast
import bisect
import functools
import json
import operator
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple, cast

from errdex.caches import CALLERS
from errdex.model import ReleaseRecord, normalize_name
from errdex.pages.guards import ruled_out
from errdex.pages.hierarchy import Classes, Symbol, decorator_name, dotted, is_builtin
from errdex.pages.model import CallArguments, Caller, CallerSearch, TryAround
from errdex.pages.receivers import Known, receivers_of
from errdex.pages.source import FunctionNode, find, instance_name, module_name, parameters, parse
from errdex.store import Store

MAX_PARSE_CHARS = 3_000_000  # source parsed per search, beyond the function's own file
MAX_CALLERS = 200
_RANK = {
    "recursive": 0,
    "alias": 2,
    "self": 0,
    "local": 0,
    "super": 1,
    "override": 1,
    "constructor": 2,
    "import": 2,
    "module": 2,
    "class": 2,
    "typed": 2,
    "receiver": 3,
}
_WORD = re.compile(r"\w+")
_BINDS_A_NAME = re.compile(r"\w+\s*=[^=]")
DIRECT_LOOKUPS = 8  # names looked up in a file's text one by one; more are looked up in its set of words
SEARCHED = ("calls", "attribute/property reads", "super()", "references (dicts, arguments, decorators)")
NOT_FOLLOWED = ("getattr() by string", "calls from outside the package")


class Scope(NamedTuple):
    """A class or function enclosing a use of the name."""

    kind: str  # class | def
    name: str
    node: ast.ClassDef | FunctionNode


Scopes = tuple[Scope, ...]


class Use(NamedTuple):
    """One occurrence of a searched name: the node, where it is, and what it is used as."""

    node: ast.Name | ast.Attribute
    scopes: Scopes
    used_as: str  # call | reference | decorator
    line: int
    text: str
    called: ast.Call | None  # the call, for a use that is one
    instance: bool = False  # the call is of what the use's call returns: `C(...)(...)`, `c = C(...); c(...)`


@dataclass(frozen=True)
class CalledFunction:
    """The function whose callers are wanted: its file and qualified name."""

    file: str
    function: str

    @functools.cached_property
    def parts(self) -> list[str]:
        return [p for p in self.function.split(".") if p != "<locals>"]

    @functools.cached_property
    def local(self) -> bool:
        return "<locals>" in self.function

    @functools.cached_property
    def owner(self) -> str | None:
        """The class the function is a method of (None for module functions and nested functions)."""
        return None if self.local or len(self.parts) < 2 else self.parts[-2]

    @functools.cached_property
    def called_as(self) -> str | None:
        """The name the function is used by: its own name (None for module-level code)."""
        return None if self.function == "<module>" else self.parts[-1]


class Module:
    """One file of the release as the search reads it: its text, its tree (parsed once), the uses of each name."""

    def __init__(
        self, path: str, text: str, tree: ast.Module | None = None, words: frozenset[str] | None = None
    ) -> None:
        self.path = path
        self.text = text
        self._tree = tree
        self.words = words  # the file's name runs, when a pass over the release has them already
        self._uses: dict[frozenset[str], list[Use]] = {}
        self._primed: frozenset[str] = frozenset()

    @functools.cached_property
    def tree(self) -> ast.Module | None:
        return self._tree if self._tree is not None else parse(self.text)

    @functools.cached_property
    def constants(self) -> dict[str, str]:
        """The module's constants: names bound once, at its top level, to a number or string built from literals
        (`CHUNK = 10 * 1024`), each with its value as a literal's text; a name bound again anywhere is none."""
        if self.tree is None:
            return {}
        stores: dict[str, int] = {}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                stores[node.id] = stores.get(node.id, 0) + 1
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                stores.update({name: 2 for name in node.names})
        out = {}
        for stmt in self.tree.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                value = _folded(stmt.value)
                if value is not None and stores.get(stmt.targets[0].id) == 1:
                    out[stmt.targets[0].id] = repr(value)
        return out

    def mentions_any(self, names: Collection[str]) -> bool:
        """Whether one of the names occurs in the text as a whole word (many names: looked up in the file's words)."""
        if self.words is None and len(names) > DIRECT_LOOKUPS:
            self.words = frozenset(_WORD.findall(self.text))
        if self.words is not None:
            return not self.words.isdisjoint(names)
        return any(self.mentions(name) for name in names)

    def mentions(self, name: str) -> bool:
        """Whether the name occurs in the text as a whole word."""
        if self.words is not None:
            return name in self.words
        start = self.text.find(name)
        while start != -1:
            end = start + len(name)
            if not _word_char(self.text, start - 1) and not _word_char(self.text, end):
                return True
            start = self.text.find(name, end)
        return False

    def prime(self, names: frozenset[str]) -> None:
        """Walk the file once for the names of every search that reads it; `uses` of fewer names filter the result."""
        self._primed = names
        self.uses(names)

    def uses(self, names: frozenset[str]) -> list[Use]:
        """Every name or attribute spelled as one of `names`, walking only the parts whose lines hold one."""
        if names not in self._uses and names < self._primed:
            self._uses[names] = [u for u in self._uses[self._primed] if _spelled(u.node) in names]
        if names not in self._uses:
            offsets = sorted(at for name in names for at in _occurrences(self.text, name))
            lines = _line_numbers(self.text, offsets)
            found: list[Use] = []
            try:
                if self.tree is not None:
                    _walk(self.tree, (), lines, names, found, self.text.splitlines())
            except RecursionError:  # an expression nested deeper than the walk can follow: no callers from this file
                found = []
            self._uses[names] = found
        return self._uses[names]


@dataclass(frozen=True)
class Target:
    """What the search looks for: the names a use is spelled with, and what decides the files parsed.

    All of it is read from the qualified name and the release's text; only `kind` needs the class's
    file parsed, so it is found when a use is resolved.
    """

    shape: str  # function | member | constructor | local
    symbol: Symbol
    owner: Symbol | None
    names: frozenset[str]
    classes: frozenset[str]  # a file naming none of these (nor a subclass, nor the module) cannot name the function
    related_files: frozenset[str]  # files of classes named as the owner's bases: their `self.name()` may reach it
    graph: Classes = field(compare=False, repr=False)

    @functools.cached_property
    def kind(self) -> str:
        """function | local | method | property | constructor (an `__init__`, or a dataclass's `__post_init__`)."""
        if self.owner is None:
            return self.shape
        info = self.graph.class_info(self.owner)
        name = self.symbol.qualname.rsplit(".", 1)[-1]
        if name == "__init__" or (self.shape == "constructor" and info is not None and info.dataclass):
            return "constructor"
        return "property" if info is not None and name in info.properties else "method"

    @functools.cached_property
    def spelled(self) -> frozenset[str]:
        """The function's name and the names its class body (or module) binds to it: `update = set_value`."""
        name = self.symbol.qualname.rsplit(".", 1)[-1]
        info = self.graph.class_info(self.owner) if self.owner is not None else None
        aliases = info.aliases if info is not None else self.graph.info(self.symbol.file).aliases
        return frozenset({name, *(new for new, old in aliases.items() if old == name)})


def target_of(function: CalledFunction, classes: Classes) -> Target | None:
    """How the function can be used, from its qualified name; None for module-level code."""
    name = function.called_as
    if name is None:
        return None
    symbol = Symbol(function.file, ".".join(function.parts))
    none: frozenset[str] = frozenset()
    if function.local:
        return Target("local", symbol, None, frozenset({name}), none, none, classes)
    spelled = frozenset({name, *classes.written_aliases(function.file, name)})
    if function.owner is None:
        return Target("function", symbol, None, spelled, none, none, classes)
    owner = Symbol(function.file, ".".join(function.parts[:-1]))
    ancestors = classes.ancestor_files(function.owner) - {function.file}
    if name in ("__init__", "__post_init__"):
        named = frozenset({function.owner, *classes.subclass_names(function.owner)})
        return Target("constructor", symbol, owner, named | {name}, named, ancestors, classes)
    named = frozenset({function.owner, instance_name(function.owner)})
    if name == "__call__":  # `C(...)(...)` calls it: the class's name (or a subclass's) is searched too
        spelled |= {function.owner, *classes.subclass_names(function.owner)}
    return Target("member", symbol, owner, spelled, named, ancestors, classes)


def callers(
    store: Store, release: ReleaseRecord, target: CalledFunction, tree: ast.Module | None = None
) -> CallerSearch:
    """The callers found, what was searched and how many files were read, cached per release and function.

    `files_not_followed` hold the name but can name neither the function's class nor its module (so
    their uses are of other objects' members of the same name), or were beyond the budget.
    """
    cached = store.cache_get(_key(release, target))
    if cached is not None:
        return cast(CallerSearch, json.loads(cached))
    code = _release_code(store, release, [target.file])
    search = _Search(target, code, _target(target, code, tree))
    search.run(code, tree)
    result = search.result()
    store.cache_put(_key(release, target), json.dumps(result).encode())
    return result


def in_tests(file: str) -> bool:
    """Whether a file of the release belongs to its test suite (`pandas/tests/...`, `test_*.py`, `conftest.py`): a
    call there shows how the tests use the function, not a way a user meets the error. (`django/test/` and
    `numpy/testing/` are public helpers, not tests.)"""
    *folders, name = file.split("/")
    return "tests" in folders or name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"


def release_callers(store: Store, release: ReleaseRecord, functions: Iterable[tuple[str, str]]) -> int:
    """Find and cache the callers of every (file, function) not cached yet, in one pass over the release; how many."""
    wanted = [
        t
        for t in dict.fromkeys(CalledFunction(f, fn) for f, fn in functions)
        if store.cache_get(_key(release, t)) is None
    ]
    if not wanted:
        return 0
    code = _release_code(store, release, [t.file for t in wanted])
    searches = [_Search(t, code, _target(t, code, None)) for t in wanted]
    live = [s for s in searches if s.target is not None]
    by_name: dict[str, list[_Search]] = {}
    by_word: dict[str, list[_Search]] = {}
    by_path: dict[str, list[_Search]] = {}
    own: dict[str, list[_Search]] = {}
    for search in live:
        own.setdefault(search.function.file, []).append(search)
        for word in search.keys():
            by_word.setdefault(word, []).append(search)
        for name in search.names:
            by_name.setdefault(name, []).append(search)
        for path in search.target.related_files if search.target is not None else ():
            by_path.setdefault(path, []).append(search)
    for path in code.analysed:
        words = frozenset(_WORD.findall(code.texts[path]))
        module = Module(path, code.texts[path], words=words)
        for holding in dict.fromkeys(s for name in words & by_name.keys() for s in by_name[name]):
            holding.holding += holding.function.file != path
        keyed = (s for word in words & by_word.keys() for s in by_word[word])
        candidates = dict.fromkeys([*own.pop(path, []), *by_path.get(path, []), *keyed])
        reading = [s for s in candidates if s.accepts(module)]
        module.prime(frozenset().union(*(s.target.names for s in reading if s.target is not None)))
        for search in reading:
            search.collect(module)
    for file, left in own.items():  # own files the release did not analyse
        for search in left:
            search.visit(Module(file, code.texts[file]))
    for search in searches:
        store.cache_put(_key(release, search.function), json.dumps(search.result()).encode())
    return len(searches)


@dataclass
class _ReleaseCode:
    """Every analysed file's text, in path order, with the release's classes resolved on demand."""

    texts: dict[str, str]
    analysed: list[str]  # in path order; `texts` also holds the searched functions' own files
    classes: Classes

    @functools.cached_property
    def texts_analysed(self) -> frozenset[str]:
        return frozenset(self.analysed)

    @functools.cached_property
    def reexports(self) -> dict[str, list[str]]:
        """Name -> the packages (`__init__.py`) that bind it by an import: where a function may be re-exported."""
        out: dict[str, list[str]] = {}
        for path in self.analysed:
            if path.endswith("__init__.py"):
                for name in self.classes.info(path).imports:
                    out.setdefault(name, []).append(path)
        return out


def _release_code(store: Store, release: ReleaseRecord, own_files: list[str]) -> _ReleaseCode:
    """The analysed files' texts, and the searched functions' own files (which the release may not have analysed)."""
    sources = store.release_sources(release)
    texts = {s.path: s.text for s in sources}
    sources.close()  # finish the read before the cache is written
    analysed = sorted(texts)
    for path in own_files:
        if path not in texts:
            texts[path] = store.source(release, path) or ""
    return _ReleaseCode(texts, analysed, Classes(texts))


def _target(function: CalledFunction, code: _ReleaseCode, tree: ast.Module | None) -> Target | None:
    if tree is not None:
        code.classes.info(function.file, tree)
    return target_of(function, code.classes)


def _key(release: ReleaseRecord, target: CalledFunction) -> str:
    return CALLERS.key(normalize_name(release.package), release.version, target.file, target.function)


@dataclass(eq=False)  # compared and hashed by identity: one per function searched
class _Search:
    """The callers of one function found so far, and what was read to find them."""

    function: CalledFunction
    code: _ReleaseCode
    target: Target | None
    found: dict[tuple[str, str, str], list[Caller]] = field(default_factory=dict)  # every call site, per caller
    decorators: list[Caller] = field(default_factory=list)
    unresolved: int = 0
    parsed: int = 0
    holding: int = 0  # files other than its own holding a name as a word
    budget: int = 0
    over_budget: bool = False

    @property
    def names(self) -> frozenset[str]:
        """The names a use is spelled with; a file holding none of them (as a word) has no use."""
        return frozenset() if self.target is None or self.target.shape == "local" else self.target.names

    def keys(self) -> frozenset[str]:
        """Words one of which a file must hold to be read (besides the function's own file and its bases' files)."""
        target = self.target
        if target is None or target.shape == "local":
            return frozenset()
        if target.owner is None:
            return target.names
        owner = target.owner.qualname.rsplit(".", 1)[-1]
        return target.classes | self.code.classes.subclass_names(owner)

    @functools.cached_property
    def _reexported_by(self) -> frozenset[str]:
        """The names of the packages whose `__init__` imports the function (`from pandas.core import ops` then
        `ops.kleene_or`): a file naming one of them can name the function (chains of re-exports included)."""
        target = self.target
        if target is None:
            return frozenset()
        name = target.symbol.qualname
        packages = self.code.reexports.get(name, [])
        named = [p for p in packages if self.code.classes.resolve(p, name) == target.symbol]
        return frozenset(module_name(p).rsplit(".", 1)[-1] for p in named)

    def run(self, code: _ReleaseCode, tree: ast.Module | None) -> None:
        """Read the function's own file (its tree when given), then every other file of the release holding a name."""
        if self.target is None:
            return
        self.visit(Module(self.function.file, code.texts[self.function.file], tree))
        for path in code.analysed:
            if path != self.function.file and any(n in code.texts[path] for n in self.names):
                module = Module(path, code.texts[path])
                self.holding += module.mentions_any(self.names)
                self.visit(module)

    def visit(self, module: Module) -> None:
        """Search one file of the release (the function's own, or one holding a name), if it can name the function."""
        if self.accepts(module):
            self.collect(module)

    def accepts(self, module: Module) -> bool:
        """Whether the file is read: the function's own, or one that can name it (within the budget)."""
        target = self.target
        if target is None:
            return False
        if module.path == self.function.file:
            self.parsed += 1
            self.code.classes.info(module.path, module.tree)  # the class's summary from the tree the walk reads
            self._decorated(module, target)
            return True
        return self._wants(module, target)

    def collect(self, module: Module) -> None:
        """The callers among the uses of the names in an accepted file."""
        assert self.target is not None
        uses = module.uses(self.target.names)
        if uses:
            self.code.classes.info(module.path, module.tree)  # resolve its names from the tree already parsed
        aliases = [
            alias
            for use in uses
            if self._add(module, use, self.target) and (alias := _module_alias_of(module.tree, use)) is not None
        ]
        for alias in dict.fromkeys(aliases):  # `_inspect = _decorators.inspect_validator`, then `_inspect(...)`
            for use in module.uses(frozenset({alias})):
                if isinstance(use.node, ast.Name) and use.used_as == "call" and not _shadowed(use.node, use.scopes):
                    self._record(module, use, self.target, Resolved("alias", f"{alias}"))

    def _decorated(self, module: Module, target: Target) -> None:
        """The function's own decorators: each is handed the function when it is defined (unless a builtin's)."""
        located = find(module.tree, self.function.function) if module.tree is not None else None
        if located is None or target.kind == "property":
            return
        enclosing = self.function.function.rsplit(".", 1)[0] if "." in self.function.function else "<module>"
        for decorator in located.node.decorator_list:
            written = decorator_name(decorator)
            if not written or is_builtin(written):
                continue
            self.decorators.append(
                {
                    "function": enclosing.removesuffix(".<locals>"),
                    "file": module.path,
                    "line": decorator.lineno,
                    "match": "definition",
                    "through": None,
                    "use": "decorated",
                    "call": "@" + _text(decorator),
                    "arguments": None,
                    "inside_try": [],
                    "loops": {},
                    "truths": {},
                    "when": [],
                }
            )

    def _wants(self, module: Module, target: Target) -> bool:
        """Whether a file that holds the name is parsed: it can name the function, within the budget."""
        if not module.mentions_any(target.names):
            return False
        worth = module.path in target.related_files or (
            _names_a_class(module, target, self.code.classes)
            if target.owner
            else _names_module(module, target) or module.mentions_any(self._reexported_by)
        )
        if not worth or self.budget + len(module.text) > MAX_PARSE_CHARS:
            self.over_budget = self.over_budget or worth
            return False
        self.budget += len(module.text)
        self.parsed += 1
        return True

    def _add(self, module: Module, use: Use, target: Target) -> bool:
        """Record the use when it resolves to the function; whether it did."""
        use = _called_through_local(use, target)
        resolved = _Resolver(self.code.classes, module.path, target).match(use)
        caller = _qualname(use.scopes)
        itself = caller == self.function.function and module.path == self.function.file
        if resolved is None or (itself and resolved.kind == UNRESOLVED):
            return False
        if resolved.kind == UNRESOLVED:
            self.unresolved += 1
            return False
        if itself:
            resolved = Resolved("recursive", None)  # it calls itself: a use, but no way in from outside it
        self._record(module, use, target, resolved)
        return True

    def _record(self, module: Module, use: Use, target: Target, resolved: Resolved) -> None:
        """A use resolved to the function, as a caller (once per line and text; a function's references are not
        listed beside its calls)."""
        scope = use.scopes[-1].node if use.scopes else module.tree
        caller = _qualname(use.scopes)
        used_as = "read" if target.kind == "property" else use.used_as
        held = self.found.setdefault((module.path, caller, resolved.kind), [])
        if any(c["use"] == "call" for c in held) and used_as != "call":
            return  # a function that calls it: its references are not listed beside its calls
        if any((c["line"], c["call"]) == (use.line, use.text) for c in held):
            return
        path = _path_around(scope, use.called or use.node)
        if resolved.kind in ("self", "override") and target.owner is not None:
            if ruled_out(path, module.path, target.owner, self.code.classes):
                return  # under `if isinstance(self, C)` for a class no instance of the owner can be
        if used_as == "call":
            held[:] = [c for c in held if c["use"] == "call"]
        held.append(
            {
                "function": caller,
                "file": module.path,
                "line": use.line,
                "match": resolved.kind,
                "through": resolved.through,
                "use": used_as,
                "call": use.text,
                "arguments": _arguments(use.called, module.constants, use.scopes) if use.called is not None else None,
                "inside_try": _tries_around(path),
                "loops": _loops_around(path),
                "truths": _truths_around(path),
                "when": [],
            }
        )

    def result(self) -> CallerSearch:
        found = sorted(
            (c for held in self.found.values() for c in held),
            key=lambda c: (_RANK[c["match"]], c["file"] != self.function.file, c["file"], c["line"]),
        )
        return {
            "callers": found[:MAX_CALLERS],
            "decorated_by": self.decorators,
            "files_searched": self._searched(),
            "files_parsed": self.parsed,
            "files_not_followed": self._unfollowed(),
            "truncated": self.over_budget or len(found) > MAX_CALLERS,
            "unresolved": self.unresolved,
            "searched_for": list(SEARCHED) if self.target is not None else [],
            "not_followed": self._not_followed(),
        }

    def _unfollowed(self) -> int:
        """Files holding a name that were not read (they cannot name the function, or the budget ran out)."""
        return self.holding - max(self.parsed - 1, 0)

    def _searched(self) -> int:
        """The files the search covered: the release's (and the function's own), or only its own for a nested one."""
        if self.target is None:
            return 0
        if self.target.shape == "local":
            return 1
        return len(self.code.analysed) + (self.function.file not in self.code.texts_analysed)

    def _not_followed(self) -> list[str]:
        """The kinds of use the search could not see or resolve, with how many were met."""
        out = list(NOT_FOLLOWED)
        name = self.function.called_as or ""
        if name.startswith("__") and name.endswith("__") and self.target is not None:
            if self.target.shape != "constructor":
                out.append(f"what Python's syntax calls `{name}` for")
        outside = self.code.classes.outside_bases(self.target.owner) if self.target and self.target.owner else []
        if outside:
            out.append(f"calls made by the code of its class's bases from outside the package ({', '.join(outside)})")
        if self.unresolved:
            out.append(f"uses of the name on objects whose class is not known ({self.unresolved})")
        if self._unfollowed():
            out.append(f"files that use the name but name neither the class nor the module ({self._unfollowed()})")
        return out


def _word_char(text: str, at: int) -> bool:
    return 0 <= at < len(text) and (text[at].isalnum() or text[at] == "_")


def _names_a_class(module: Module, target: Target, classes: Classes) -> bool:
    """Whether a file can name the method's class: it mentions the class (or an instance), or one of its subclasses."""
    if module.mentions_any(target.classes):
        return True
    owner = target.owner.qualname.rsplit(".", 1)[-1] if target.owner else ""
    return module.mentions_any(classes.subclass_names(owner))


def _names_module(module: Module, target: Target) -> bool:
    """Whether a file can name a module function: it mentions the module, or imports the name."""
    name = re.escape(target.symbol.qualname.rsplit(".", 1)[-1])
    last = module_name(target.symbol.file).rsplit(".", 1)[-1]
    return (
        module.mentions(last)
        or re.search(rf"^(?:from|import)\b[^\n]*\b{name}\b|^[ \t]+{name},?[ \t]*$", module.text, re.M) is not None
    )


UNRESOLVED = "unresolved"


class Resolved(NamedTuple):
    """How a use reaches the function: the match kind, and the base class's method the call names when it reaches
    the function (an override) only on instances of the subclass (`BaseAdapter.send` for `HTTPAdapter.send`)."""

    kind: str
    through: str | None = None


class _Resolver:
    """Whether one use of the name in a file reaches the target, and how surely."""

    def __init__(self, classes: Classes, path: str, target: Target) -> None:
        self.classes = classes
        self.path = path
        self.target = target

    def match(self, use: Use) -> Resolved | None:
        """How the use reaches the target; kind UNRESOLVED for a use on an object whose class is not known, None
        for another function's."""
        found = self._match(use)
        return Resolved(found) if isinstance(found, str) else found

    def _match(self, use: Use) -> str | Resolved | None:
        kind = self.target.kind
        if use.instance:
            return self._instance(use.node) if self.target.symbol.qualname.endswith(".__call__") else None
        if kind == "local":
            return self._local(use)
        if kind == "function":
            return self._function(use)
        if kind == "constructor" and use.used_as == "call" and self._constructs(use.node):
            return "constructor"
        if not isinstance(use.node, ast.Attribute) or use.node.attr not in self.target.spelled:
            return None
        return self._member(use.node, use.scopes)

    def _local(self, use: Use) -> str | None:
        parent = self.target.symbol.qualname.rsplit(".", 1)[0]
        inside = ".".join(s.name for s in use.scopes)
        if (
            isinstance(use.node, ast.Name)
            and self.path == self.target.symbol.file
            and (inside + ".").startswith(parent + ".")
        ):
            return "local"
        return None

    def _function(self, use: Use) -> str | None:
        name = dotted(use.node)
        if not name or _shadowed(use.node, use.scopes):
            return None
        if self.classes.resolve(self.path, name) == self.target.symbol:
            return "module" if self.path == self.target.symbol.file else "import"
        return (
            UNRESOLVED if isinstance(use.node, ast.Name) and use.used_as == "call" and name not in self._bound else None
        )

    @functools.cached_property
    def _bound(self) -> frozenset[str]:
        """The names the file binds at its top level (a call of one of them is of that binding, not unresolved)."""
        info = self.classes.info(self.path)
        return frozenset({*info.imports, *info.classes, *info.functions})

    def _instance(self, node: ast.Name | ast.Attribute) -> Resolved | None:
        """`C(...)(...)`: a call of the `__call__` that an instance of the class `C` finds."""
        symbol = receivers_of(self.classes, self.path).a_class(self.path, dotted(node))
        return self._reaches(Known("typed", symbol, True), "__call__") if symbol is not None else None

    def _constructs(self, node: ast.Name | ast.Attribute) -> bool:
        """`Cls(...)` of the owner or of a class that inherits the owner's `__init__`/`__post_init__`."""
        symbol = self.classes.resolve(self.path, dotted(node))
        if symbol is None or self.classes.class_info(symbol) is None:
            return False
        return self.classes.lookup(symbol, self.target.symbol.qualname.rsplit(".", 1)[-1]) == self.target.owner

    def _member(self, attribute: ast.Attribute, scopes: Scopes) -> str | Resolved | None:
        owner = self.target.owner
        assert owner is not None
        receiver, name = attribute.value, attribute.attr
        cls = _enclosing_class(self.path, scopes)
        if isinstance(receiver, ast.Name) and receiver.id in ("self", "cls") and cls is not None:
            return self._through_self(cls, name, _method_name(scopes))
        if _is_super(receiver) and cls is not None:
            found = self.classes.lookup(cls, name, after=cls)
            return "super" if found == owner else None if self.classes.mro(cls)[1] else UNRESOLVED
        function = next((s.node for s in reversed(scopes) if s.kind == "def"), None)
        receivers = receivers_of(self.classes, self.path)
        held = receivers.held(receiver, cast(FunctionNode | None, function), cls)
        if held is None and isinstance(receiver, ast.Name):
            held = receivers.instance(receiver.id, [s.node for s in scopes])
        if held is not None:
            reached = next(filter(None, (self._reaches(known, name) for known in held.known)), None)
            return reached or (None if held.complete else UNRESOLVED)
        if isinstance(receiver, ast.Name) and self._names_a_module(receiver.id):
            return None  # `mcolors.to_rgba(...)`: a module's own function, not a method
        if receivers.bound_attribute(receiver, cls):
            return UNRESOLVED  # `self.faiss_index = faiss.index_factory(...)`: what it is bound to says, not its name
        spelled = dotted(receiver).rsplit(".", 1)[-1]
        class_name = owner.qualname.rsplit(".", 1)[-1]
        if spelled and (spelled.lower() == instance_name(class_name) or spelled == class_name):
            return "receiver"
        return UNRESOLVED

    def _reaches(self, known: Known, name: str) -> Resolved | None:
        """Whether `name` on an object of a known class runs the function: the class's MRO finds it, or (for an
        object that may be of a subclass) the class is a base of the owner, whose override runs on its instances."""
        owner = self.target.owner
        assert owner is not None
        if self.classes.lookup(known.symbol, name) == owner:
            return Resolved(known.how)
        if known.exact or known.symbol not in self.classes.mro(owner)[0][1:]:
            return None
        if self.classes.lookup(owner, name) != owner:
            return None
        return Resolved("typed", f"{known.symbol.qualname}.{name}")

    def _names_a_module(self, name: str) -> bool:
        """Whether a name the file imports is a module of the release, or comes from outside it."""
        imported = self.classes.info(self.path).imports.get(name)
        return imported is not None and (imported in self.classes.paths or self.classes.external(self.path, name))

    def _through_self(self, cls: Symbol, name: str, method: str | None) -> str | None:
        """`self.name` in class `cls`: the owner's member when the MRO finds it, or an override of the caller's.

        In a base class's method `f`, `self.name()` runs on the owner's instances only while the owner's
        MRO still runs that `f`: an owner (or a class between) that overrides `f` without calling
        `super().f(...)` never runs it.
        """
        owner = self.target.owner
        found = self.classes.lookup(cls, name)
        if found == owner:
            return "self"
        if owner is not None and cls in self.classes.mro(owner)[0][1:]:
            if method is not None and not self.classes.runs(owner, method, cls):
                return None
            return "override"
        return None if self.classes.mro(cls)[1] else UNRESOLVED


def _enclosing_class(path: str, scopes: Scopes) -> Symbol | None:
    """The class whose method the use is in (nested functions inside a method see its `self`)."""
    names = [s.name for s in scopes]
    for i in range(len(scopes) - 1, -1, -1):
        if scopes[i].kind == "class":
            if any(s.kind == "def" for s in scopes[:i]):
                return None  # a class inside a function: its name is not the module's
            return Symbol(path, ".".join(names[: i + 1]))
    return None


def _method_name(scopes: Scopes) -> str | None:
    """The method of the enclosing class a use is in (through nested functions), None at class level."""
    for i in range(len(scopes) - 1, 0, -1):
        if scopes[i - 1].kind == "class" and scopes[i].kind == "def":
            return scopes[i].name
    return None


def _is_super(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def _module_alias_of(tree: ast.Module | None, use: Use) -> str | None:
    """`_inspect = _decorators.inspect_validator` at a module's top level: the name it binds the function to, when
    the use is that assignment's whole value; None for any other use."""
    if tree is None or use.scopes or use.used_as != "reference":
        return None
    for stmt in tree.body:
        if (
            isinstance(stmt, ast.Assign)
            and stmt.value is use.node
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
        ):
            return stmt.targets[0].id
    return None


def _shadowed(node: ast.expr, scopes: Scopes) -> bool:
    """Whether a plain name is a parameter of an enclosing function (then it is not the module's function)."""
    if not isinstance(node, ast.Name):
        return False
    for scope in scopes:
        if isinstance(scope.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = scope.node.args
            if node.id in {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}:
                return True
    return False


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
    node: ast.AST, scopes: Scopes, lines: list[int], names: frozenset[str], found: list[Use], text: list[str]
) -> None:
    """Collect the uses of `names` in `node` and under it, entering only the parts whose lines hold one."""
    if not _holds_a_line(node, lines):
        return
    inner: list[ast.AST] = list(ast.iter_child_nodes(node))
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        for decorator in node.decorator_list:
            inner.remove(decorator)
            _walk_called(decorator, scopes, lines, names, found, text, "decorator")
        outer = [*node.bases, *node.keywords] if isinstance(node, ast.ClassDef) else [node.args]
        for part in outer:
            _walk(part, scopes, lines, names, found, text)
        kind = "class" if isinstance(node, ast.ClassDef) else "def"
        scopes, inner = (*scopes, Scope(kind, node.name, node)), list(node.body)
    elif isinstance(node, ast.Call):
        _walk_called(node, scopes, lines, names, found, text, "call")
        return
    elif isinstance(node, (ast.Name, ast.Attribute)) and _spelled(node) in names and isinstance(node.ctx, ast.Load):
        found.append(Use(node, scopes, "reference", node.lineno, _statement_text(text, node.lineno), None))
    if isinstance(node, ast.Attribute) and _attribute_of_searched(node, names):
        inner = list(ast.iter_child_nodes(node.value))  # `f.cache_clear`: f's own attribute, neither run nor passed
    for child in inner:
        _walk(child, scopes, lines, names, found, text)


def _walk_called(
    node: ast.expr,
    scopes: Scopes,
    lines: list[int],
    names: frozenset[str],
    found: list[Use],
    text: list[str],
    used_as: str,
) -> None:
    """A call or a decorator: a use of its callee when that is spelled as a searched name, then its parts."""
    func = node.func if isinstance(node, ast.Call) else node
    if isinstance(node, ast.Call) and isinstance(func, ast.Call) and used_as == "call":
        made = func.func
        if isinstance(made, (ast.Name, ast.Attribute)) and _spelled(made) in names:
            found.append(Use(made, scopes, "call", node.lineno, _text(node), node, instance=True))
    if not (isinstance(func, (ast.Name, ast.Attribute)) and _spelled(func) in names):
        _walk(func, scopes, lines, names, found, text)
    else:
        shown = _text(node) if used_as == "call" else "@" + _text(node)
        called = node if isinstance(node, ast.Call) else None  # `@f(...)` calls `f` (then the decorator it returns)
        found.append(Use(func, scopes, "call" if called else used_as, node.lineno, shown, called))
        if isinstance(func, ast.Attribute):
            _walk(func.value, scopes, lines, names, found, text)
    if isinstance(node, ast.Call) and used_as == "call":  # a decorator's arguments are given to it, never called
        for arg in [*node.args, *(k.value for k in node.keywords)]:
            _walk(arg, scopes, lines, names, found, text)


def _attribute_of_searched(node: ast.Attribute, names: frozenset[str]) -> bool:
    """`f.cache_clear`, `f.__name__`: an attribute read on a searched name, which neither runs it nor hands it on
    (`f.__wrapped__` and `f.__call__` are the function itself, still uses of it)."""
    value = node.value
    return (
        isinstance(value, (ast.Name, ast.Attribute))
        and _spelled(value) in names
        and node.attr not in _THE_FUNCTION_ITSELF
    )


_THE_FUNCTION_ITSELF = frozenset({"__wrapped__", "__call__", "__func__"})


def _spelled(node: ast.Name | ast.Attribute) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr


def _holds_a_line(node: ast.AST, lines: list[int]) -> bool:
    start = getattr(node, "lineno", None)
    if start is None:
        return True  # operators, contexts, arguments: small, walked through
    end = getattr(node, "end_lineno", None) or start
    for decorator in getattr(node, "decorator_list", ()):  # a definition's span starts at `def`, below them
        start = min(start, decorator.lineno)
    i = bisect.bisect_left(lines, start)
    return i < len(lines) and lines[i] <= end


def _qualname(scopes: Scopes) -> str:
    if not scopes:
        return "<module>"
    parts: list[str] = []
    for i, scope in enumerate(scopes):
        parts.append(scope.name)
        if scope.kind == "def" and i < len(scopes) - 1:
            parts.append("<locals>")
    return ".".join(parts)


def _text(node: ast.expr, limit: int = 100) -> str:
    try:
        text = ast.unparse(node)
    except (RecursionError, ValueError):
        return ""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _statement_text(lines: list[str], line: int, limit: int = 100) -> str:
    """The source line of a reference, as written."""
    written = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    return written if len(written) <= limit else written[: limit - 3] + "..."


def _arguments(call: ast.Call, constants: dict[str, str], scopes: Scopes) -> CallArguments:
    """The call's arguments as written, in full, and the values of the module's constants it passes by name."""
    passed = [*call.args, *(k.value for k in call.keywords)]
    return {
        "positional": [_text(a, limit=10_000) for a in call.args if not isinstance(a, ast.Starred)],
        "keywords": {k.arg: _text(k.value, limit=10_000) for k in call.keywords if k.arg is not None},
        "unpacked": any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords),
        "constants": {
            a.id: constants[a.id]
            for a in passed
            if isinstance(a, ast.Name) and a.id in constants and not _shadowed(a, scopes)
        },
    }


_ARITHMETIC = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.LShift: operator.lshift,
}


def _folded(node: ast.expr) -> int | float | str | bytes | bool | None:
    """The value of a number or string written with literals and arithmetic (`10 * 1024`, `-1`, `"a" + "b"`); None
    for anything else (or a value too large to be a constant as written)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str, bytes)):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _folded(node.operand)
        return -inner if isinstance(inner, (int, float)) and not isinstance(inner, bool) else None
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        left, right = _folded(node.left), _folded(node.right)
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (left, right))
        strings = type(left) is type(right) and isinstance(left, (str, bytes)) and isinstance(node.op, ast.Add)
        if not (numbers or strings):
            return None
        try:
            value = _ARITHMETIC[type(node.op)](left, right)
        except (ArithmeticError, ValueError):
            return None
        return value if len(repr(value)) <= 1000 else None
    return None


_TRIES = (ast.Try, *((ast.TryStar,) if hasattr(ast, "TryStar") else ()))
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _path_around(scope: ast.AST | None, use: ast.AST) -> list[ast.AST]:
    """The nodes from the scope (a function, class or module) down to the use; empty when not found."""
    if scope is None:
        return []
    try:
        return _path_to(scope, use, []) or []
    except RecursionError:  # nested deeper than the walk can follow: nothing claimed around it
        return []


def _called_through_local(use: Use, target: Target) -> Use:
    """`x = self.f` (or, for a `__call__`, `x = C(...)`) and then `x(...)` in the same function: a call of the
    function with that call's arguments, at the line that names it; any other use as it is."""
    if use.used_as == "reference" and _BINDS_A_NAME.match(use.text) and target.kind != "property":
        bound: ast.AST = use.node  # (its line, as written, starts `x = `)
    elif (
        use.called is not None
        and not use.instance
        and target.symbol.qualname.endswith(".__call__")
        and _spelled(use.node) not in target.spelled
    ):
        bound = use.called  # `x = C(...)`
    else:
        return use
    function = use.scopes[-1].node if use.scopes and use.scopes[-1].kind == "def" else None
    path = _path_around(function, use.node)
    at = path.index(bound) if bound in path else 0
    assign = path[at - 1] if at > 0 else None
    if function is None or not isinstance(assign, ast.Assign) or assign.value is not bound:
        return use
    names = {t.id for t in assign.targets if isinstance(t, ast.Name)}
    call = next((c for c in _calls_of(function, names) if c.lineno >= assign.lineno), None)
    if call is None:
        return use
    return Use(use.node, use.scopes, "call", use.line, _text(call), call, instance=bound is not use.node)


def _calls_of(function: ast.AST, names: set[str]) -> list[ast.Call]:
    """The calls in a function of a plain name among `names`, in the order of their lines."""
    found = [
        node
        for node in ast.walk(function)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names
    ]
    return sorted(found, key=lambda c: (c.lineno, c.col_offset))


def _tries_around(path: list[ast.AST]) -> list[TryAround]:
    """The `try`s whose body holds the use, innermost first, each with what its handlers catch without raising;
    a `try` all of whose handlers raise lets the error (or one made from it) through."""
    out: list[TryAround] = []
    for node, child in zip(path, path[1:], strict=False):
        if isinstance(node, _TRIES) and any(child is stmt for stmt in node.body):
            around = _catching(node)
            if around is not None:
                out.append(around)
    return out[::-1]


def _loops_around(path: list[ast.AST]) -> dict[str, list[str]]:
    """The names that `for name in [literal, ...]` statements around the use bind, each with its literals as
    written; a loop whose body binds the name again is left out (the use may see another value)."""
    out: dict[str, list[str]] = {}
    for node, child in zip(path, path[1:], strict=False):
        if not (isinstance(node, ast.For) and isinstance(node.target, ast.Name) and child in node.body):
            continue
        values = node.iter.elts if isinstance(node.iter, (ast.List, ast.Tuple, ast.Set)) else None
        if values and all(isinstance(v, ast.Constant) for v in values) and not _rebinds(node, node.target.id):
            out[node.target.id] = [_text(v, limit=10_000) for v in values]
    return out


def _truths_around(path: list[ast.AST]) -> dict[str, bool]:
    """The parameters of the calling function that the `if`s around the use test plainly (`if reset:`, `elif not
    reset:`), each true in the body and false in the `else`; a parameter the function binds again anywhere (or
    that a nested function could) is left out: the use may see another value."""
    function = path[0] if path and isinstance(path[0], (ast.FunctionDef, ast.AsyncFunctionDef)) else None
    if function is None:
        return {}
    stored = {n.id for n in ast.walk(function) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    kept = {a.arg for a in parameters(function)} - stored
    out: dict[str, bool] = {}
    for node, child in zip(path, path[1:], strict=False):
        if not isinstance(node, ast.If):
            continue
        test, held = (node.test.operand, False) if isinstance(node.test, ast.UnaryOp) else (node.test, True)
        if isinstance(node.test, ast.UnaryOp) and not isinstance(node.test.op, ast.Not):
            continue
        if isinstance(test, ast.Name) and test.id in kept and (child in node.body or child in node.orelse):
            out[test.id] = held if child in node.body else not held
    return out


def _rebinds(loop: ast.For, name: str) -> bool:
    """Whether the loop's body binds the name (an assignment, a nested loop, `with ... as`, a walrus)."""
    return any(
        isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store)
        for stmt in loop.body
        for node in ast.walk(stmt)
    )


def _path_to(node: ast.AST, use: ast.AST, path: list[ast.AST]) -> list[ast.AST] | None:
    """The nodes from `node` down to `use`, not entering nested functions, classes or lambdas (they run later)."""
    path = [*path, node]
    for child in ast.iter_child_nodes(node):
        if child is use:
            return [*path, child]
        if isinstance(child, _SCOPES):
            continue
        found = _path_to(child, use, path)
        if found is not None:
            return found
    return None


def _catching(node: ast.Try) -> TryAround | None:
    """What the `try`'s handlers catch and keep (a handler that raises, what it caught or another error in its
    place, lets it through)."""
    catches: list[str] = []
    bare = False
    for handler in node.handlers:
        if _reraises(handler):
            continue
        if handler.type is None:
            bare = True
            continue
        types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        catches += [name for name in (dotted(t) for t in types) if name]
    return {"line": node.lineno, "catches": catches, "bare": bare} if catches or bare else None


def _reraises(handler: ast.ExceptHandler) -> bool:
    """Whether the handler raises, outside nested scopes: the exception it caught again, or another in its place
    (`raise ValueError(f"... {e}") from e`), which still ends the call with an error made from this one."""
    stack: list[ast.AST] = list(handler.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Raise):
            return True
        stack += [c for c in ast.iter_child_nodes(node) if not isinstance(c, _SCOPES)]
    return False
