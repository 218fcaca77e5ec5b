"""The statement of a release where the interpreter raised an error (an attribute of None, a missing key, a call with
a wrong keyword): which operation failed on what, where that value comes from within the function, the checks near it.

The release's file is read from the store and parsed with `ast`, never run. `failing_statement` takes a place (a file
of the release and a line); `statement_for` takes a parsed traceback and finds the place: its innermost frame (code
run by `exec` and the interpreter's frozen modules aside), when that frame's file is a file of an indexed release.

A traceback that printed its line is compared with the release's line (spaces aside): when they differ the frame ran
other code than this release's, and the result says so (`matches_release` False) and analyses nothing. A file that
is not in the release or does not parse, a line past its end or one that holds no statement (a blank line, a
comment) gives None.

The message says what failed (`'NoneType' object has no attribute 'to_dict'`): every sub-expression of the statement
that fits it is kept, and when several do, none is picked. The frames are read here rather than through
`errdex.match`, which pages may not import: a frame's file is taken as the file of an indexed release whose path
it ends with (`.../site-packages/pkg/mod.py` -> `pkg/mod.py`), which the store confirms.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator
from dataclasses import dataclass, replace

from errdex.model import Frame, ParsedError, ReleaseRecord, normalize_name
from errdex.pages.source import FunctionNode, parse
from errdex.pages.statement_checks import nearby_checks
from errdex.pages.statement_model import FailingStatement, Key, Operation, Origin, Scope
from errdex.pages.statement_ops import Found, operations, read_message
from errdex.pages.statement_origin import Where, attribute_assignments, callers_passing, origin_of, self_name
from errdex.store import Store

MAX_PRINTED_LINES = 20  # lines of a statement a traceback's printed code is compared with
_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")
_PSEUDO_FILES = ("<string>", "<frozen ")

__all__ = ["FailingStatement", "failing_statement", "statement_for"]


@dataclass(frozen=True, slots=True)
class _Place:
    """The statement at a line: the nodes from the module down to it, and the nodes of its own expressions."""

    path: tuple[ast.AST, ...]  # module, then each enclosing statement (or `except` handler), the statement last
    nodes: list[ast.AST]  # what the statement evaluates (a compound statement's header)
    start: int
    end: int


def failing_statement(
    store: Store,
    record: ReleaseRecord,
    path: str,
    line: int,
    exception: str | None,
    message: str,
    code: str | None,
) -> FailingStatement | None:
    """The statement at `path`:`line` of the release, with the operation the message says failed and where its value
    comes from; None when the release has no such file, it does not parse, or the line holds no statement."""
    text = store.source(record, path)
    if text is None:
        return None
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    wanted = read_message(exception, message)
    printed = code.strip() if code and code.strip() else None
    base = FailingStatement(
        record.package, record.version, path, line, line, line, lines[line - 1].strip(), True, printed,
        exception, message, None, None, (), wanted is not None, False,
    )  # fmt: skip
    if printed is not None and not _same_line(lines, line, printed):
        return replace(base, matches_release=False)
    tree = parse(text)
    place = _place(tree, line) if tree is not None else None
    if tree is None or place is None:
        return None
    scope = _Scope.of(place.path)
    found = operations(place.nodes, wanted, place.path[-1]) if wanted is not None else []
    return replace(
        base,
        start=place.start,
        end=place.end,
        text=_dedented(lines[place.start - 1 : place.end]),
        function=Scope(scope.qualname, scope.func.lineno) if scope.func is not None else None,
        in_class=scope.qualname if scope.func is None and scope.owner is not None else None,
        explicit=isinstance(place.path[-1], ast.Raise | ast.Assert),
        operations=tuple(_operation(f, store, record, path, tree, scope, place) for f in _at_line(found, line)),
    )


def _same_line(lines: list[str], line: int, printed: str) -> bool:
    """Whether the release's text from `line` on reads as the printed code (one line, or the few a traceback shows
    of a statement spanning lines), spaces aside."""
    want = " ".join(printed.split())
    for end in range(line, min(len(lines), line + MAX_PRINTED_LINES) + 1):
        here = " ".join(" ".join(lines[line - 1 : end]).split())
        if here == want:
            return True
        if len(here) >= len(want):
            return False
    return False


def _place(tree: ast.Module, line: int) -> _Place | None:
    """The innermost statement holding the line (for a compound statement, only a line of its header)."""
    path: list[ast.AST] = [tree]
    children: list[ast.AST] = list(tree.body)
    while True:
        inside = next((c for c in children if _first_line(c) <= line <= (getattr(c, "end_lineno", 0) or 0)), None)
        if inside is None:
            break
        path.append(inside)
        children = [c for field in _BODIES for c in getattr(inside, field, [])]
    last = path[-1]
    if last is tree:
        return None
    start = _first_line(last)
    if not children:
        return _Place(tuple(path), [last], start, _end(last) or start)
    nodes = list(_header(last))
    end = max([getattr(last, "lineno", start), *(_end(n) or start for n in nodes)])
    return _Place(tuple(path), nodes, start, end) if line <= end else None


def _header(node: ast.AST) -> Iterator[ast.AST]:
    """The expressions a compound statement evaluates itself: `for`'s target and iterable, `if`'s test, a `def`'s
    decorators and defaults, an `except`'s class."""
    for field, value in ast.iter_fields(node):
        if field in _BODIES or field == "type_params":
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, ast.AST) and hasattr(item, "lineno"):
                yield item
            elif isinstance(item, ast.arguments | ast.withitem):
                yield from (n for n in ast.iter_child_nodes(item) if hasattr(n, "lineno"))


def _first_line(node: ast.AST) -> int:
    decorators = getattr(node, "decorator_list", [])
    return min([getattr(node, "lineno", 0), *(d.lineno for d in decorators)])


@dataclass(frozen=True, slots=True)
class _Scope:
    """The function (or class body, or module) whose code the statement is, with the class owning a method."""

    body: list[ast.stmt]
    func: FunctionNode | None
    owner: ast.ClassDef | None  # the class of a method, or the class whose body holds the statement
    qualname: str

    @classmethod
    def of(cls, path: tuple[ast.AST, ...]) -> _Scope:
        module = path[0]
        assert isinstance(module, ast.Module)
        body, func, owner = module.body, None, None
        names: list[str] = []
        last: ast.AST | None = None
        for node in path[1:-1]:  # the statement itself is no scope of its own code (a `def`'s defaults run outside)
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue
            names += (
                ["<locals>", node.name] if isinstance(last, ast.FunctionDef | ast.AsyncFunctionDef) else [node.name]
            )
            if isinstance(node, ast.ClassDef):
                body, func, owner = node.body, None, node
            else:
                body, func, owner = node.body, node, last if isinstance(last, ast.ClassDef) else None
            last = node
        return cls(body, func, owner, ".".join(names) or "<module>")


def _at_line(found: list[Found], line: int) -> list[Found]:
    """Of the fitting operations, those on the traceback's line (a statement may span lines), when any is; the same
    value and operation once."""
    unique = list({(id(f.value), id(f.whole)): f for f in found}.values())
    on_line = [f for f in unique if getattr(f.whole, "lineno", line) <= line <= (_end(f.whole) or line)]
    return on_line or unique


def _end(node: ast.AST) -> int | None:
    return getattr(node, "end_lineno", None)


def _operation(
    found: Found, store: Store, record: ReleaseRecord, path: str, tree: ast.Module, scope: _Scope, place: _Place
) -> Operation:
    expression = _text(found.value)
    where = Where(place.nodes, scope.body, tree, place.start, scope.func, scope.owner)
    origin = origin_of(found.value, where)
    if origin is not None:
        origin = _with_store_facts(origin, store, record, path, tree, scope)
    key = None
    if found.key is not None:
        key_origin = origin_of(found.key, where)
        if key_origin is not None:
            key_origin = _with_store_facts(key_origin, store, record, path, tree, scope)
        key = Key(_text(found.key), key_origin)
    return Operation(
        found.kind,
        expression,
        getattr(found.value, "lineno", place.start),
        _text(found.whole),
        found.name,
        found.value_type,
        origin,
        nearby_checks(scope.body, place.path[-1], found.value, self_name(scope.func, scope.owner)),
        key,
    )


def _with_store_facts(
    origin: Origin, store: Store, record: ReleaseRecord, path: str, tree: ast.Module, scope: _Scope
) -> Origin:
    """The origin with the class's assignments of a `self.attr` root and the callers of a parameter's function."""
    instance = self_name(scope.func, scope.owner)
    if instance is not None and scope.owner is not None and origin.root.startswith(instance + "."):
        owner_name = scope.qualname.rsplit(".", 1)[0]
        found = attribute_assignments(tree, scope.owner, owner_name, origin.root.split(".", 1)[1])
        return replace(origin, attribute_assignments=found)
    if origin.parameter is not None and scope.func is not None and origin.root != instance:
        method = scope.owner is not None
        found_callers = callers_passing(store, record, path, scope.qualname, scope.func, origin.root, method)
        return replace(origin, callers=found_callers)
    return origin


def _text(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except (ValueError, RecursionError):
        return "<expression not shown>"


def _dedented(lines: list[str]) -> str:
    indent = min((len(s) - len(s.lstrip()) for s in lines if s.strip()), default=0)
    return "\n".join(s[indent:] for s in lines).strip("\n")


def raised_by_the_interpreter(exception: str | None) -> bool:
    """Whether an exception of this (printed) name can be the interpreter's: a built-in exception class
    (`AttributeError`, `KeyError`, ...); a library's own class (`pydantic_core...ValidationError`) is raised by its
    code, compiled or not, never by the operation of a statement."""
    name = (exception or "").removeprefix("builtins.")
    found = getattr(builtins, name, None) if name.isidentifier() else None
    return isinstance(found, type) and issubclass(found, BaseException)


def statement_for(store: Store, parsed: ParsedError) -> FailingStatement | None:
    """The failing statement of a traceback whose innermost frame is in an indexed release, else None.

    The release is the version the frame's path names (`.../pkg-1.2-py3.11.egg/pkg/...`), or the only one
    indexed; else each indexed release is read, and those whose line is the one the traceback printed are kept (the
    newest answers, the others are listed in `same_line_in`); with no printed line, they are kept when they all hold
    the same text there. None when the releases disagree and nothing tells them apart, or when the exception is no
    built-in one (a library's own class is raised by its code, not by the interpreter).
    """
    if not raised_by_the_interpreter(parsed.exception):
        return None
    frame = _innermost(parsed.frames)
    if frame is None or frame.line is None:
        return None
    found = _release_files(store, frame.file)
    if found is None:
        return None
    records, path, folders = found
    top = path.split("/", 1)[0].removesuffix(".py")
    named = [r for r in records if any(_names_version(f, r, top) for f in folders)]
    candidates = named[-1:] or records
    results = [
        (r, failing_statement(store, r, path, frame.line, parsed.exception, parsed.message, frame.code))
        for r in candidates
    ]
    kept = [(r, s) for r, s in results if s is not None and s.matches_release]
    if len(candidates) == 1:
        return results[0][1]
    if frame.code is None and len({s.text if s else None for _, s in kept}) > 1:
        return None  # no printed line, and the releases' statements differ: which one ran is not known
    if not kept:
        return None
    newest = kept[-1][1]
    return replace(newest, same_line_in=tuple(r.version for r, _ in kept[:-1]))


def _innermost(frames: tuple[Frame, ...]) -> Frame | None:
    shown = [f for f in frames if not f.file.startswith(_PSEUDO_FILES)]
    return shown[-1] if shown else None


def _release_files(store: Store, file: str) -> tuple[list[ReleaseRecord], str, list[str]] | None:
    """The indexed releases holding the file a frame names (the longest path it ends with that one holds), the path,
    and the folders before it; None when no indexed release has it. Packages are first looked up by the path's
    folder names (a package is usually imported by its own name), then by the top-level names of every package."""
    parts = [p for p in file.strip().replace("\\", "/").split("/") if p]
    if not parts or not parts[-1].endswith(".py"):
        return None
    providers = _Providers(store)
    for by_name in (True, False):
        for k in range(len(parts)):
            path = "/".join(parts[k:])
            top = parts[k].removesuffix(".py")
            found = providers.named(top) if by_name else providers.providing(top)
            records = [r for r in found if store.source(r, path) is not None]
            if records:
                return records, path, parts[:k]
    return None


class _Providers:
    """The indexed releases that may provide a top-level import name: those of the package of that name, or (read
    once, when asked) those of any package whose newest release has a file or folder of that name at its top."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.tops: dict[str, list[str]] | None = None

    def named(self, top: str) -> list[ReleaseRecord]:
        return self.store.releases(top)

    def providing(self, top: str) -> list[ReleaseRecord]:
        if self.tops is None:
            self.tops = {}
            for package in self.store.packages():
                newest = self.store.releases(package.name)[-1:]
                for f in self.store.release_paths(newest[0]) if newest else []:
                    self.tops.setdefault(f.path.split("/", 1)[0].removesuffix(".py"), []).append(package.name)
        names = [n for n in dict.fromkeys(self.tops.get(top, [])) if n != normalize_name(top)]
        return [r for name in names for r in self.store.releases(name)]


def _names_version(folder: str, record: ReleaseRecord, top: str) -> bool:
    """Whether a folder's name is the release's name and version: `pkg-1.2`, `pkg-1.2-py3.11.egg`, `Pkg_Name-1.2`."""
    tokens = folder.removesuffix(".egg").split("-")
    names = {normalize_name(record.package), normalize_name(top)}
    return any(t == record.version and normalize_name("-".join(tokens[:i])) in names for i, t in enumerate(tokens))
