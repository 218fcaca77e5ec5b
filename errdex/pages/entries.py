"""The public calls that lead to the raising function: chains of resolved calls found in the release, from a
function or class users import from the package's top level, or from a package that exports it
(`sklearn.model_selection`), down to the function that raises.

`PreparedRequest.prepare_url` raises MissingSchema; users call `Session.get`, which calls `Session.request`, then
`Session.prepare_request`, then `PreparedRequest.prepare`, which calls `prepare_url`. A step is a call the caller
search resolves (`receiver` guesses are not followed), outside the package's tests and module-level code. The
search goes up at most MAX_DEPTH calls and reads the callers of at most MAX_SEARCHES functions beyond the raising
one's, nearest first, until those searches have parsed MAX_FILES_READ files (a count, not a time, so that a page
is the same on every machine): an entry further up may be missed, so the page says "found",
never "every". Only the first step is read against the check (`happens` rules out callers whose arguments cannot
reach it); whether a call further up reaches it is not decided. A call inside a `try` that catches the error is
no step: the error stops there (`requote_uri` catches the `InvalidURL` of `unquote_unreserved`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable

from errdex.extract.resolve import dotted_name
from errdex.model import ClassPlace
from errdex.pages.callers import CalledFunction, in_tests
from errdex.pages.caught import caught
from errdex.pages.model import Caller, CallerSearch, EntryStep, PublicEntry
from errdex.pages.public import public_module
from errdex.pages.receives import private_name
from errdex.pages.source import TreeOf, find, instance_name, is_accessor, is_constructor, methods, module_name

MAX_SEARCHES = 6
MAX_FILES_READ = 100  # the files those searches may parse in all: a small package is followed further up
MAX_DEPTH = 6
MAX_ENTRIES = 3
# the caller search's matches that resolve the call: not `receiver` (a guess by name), nor `override` (a base's
# `self.generate()` reaches this override only when `self` is of this class, which a caller further up need not be)
RESOLVED = frozenset({"self", "super", "class", "typed", "constructor", "module", "import", "local", "alias"})

Search = Callable[[CalledFunction], CallerSearch]  # the callers of a function of the release
Heirs = Callable[[str], list[ClassPlace]]  # the release's classes derived from a class of that name
MAX_HEIRS = 50  # derived classes read for a public one that inherits a private class's method


def public_entries(
    start: CalledFunction,
    line: int,
    first: Iterable[Caller],
    search: Search,
    tree_of: TreeOf,
    raised: frozenset[str] | None,
    heirs: Heirs,
    unused: bool,
) -> list[PublicEntry]:
    """Up to MAX_ENTRIES public ways to `start`, best first: a constructor or a function users import, nearest
    first; then methods no call of which was found (users call them; the package does not); then other public
    methods on the way, furthest up first. `line` is the raise's. `first` are the callers of `start` that may
    reach its check; `raised` the error's class and its bases (see `caught.raised_names`): a call inside a `try`
    that catches it is no step, the error stops there. `heirs` finds the classes derived from a class. `unused` says
    whether the search of `start`'s callers found no use of it outside the tests (not one that cannot reach the
    check either) and examined every use of its name: only then is it a root."""
    found: list[tuple[int, int, PublicEntry]] = []
    seen = {start}
    frontier: list[tuple[CalledFunction, list[EntryStep], list[Caller] | None]] = [(start, [], list(first))]
    searches = read = 0
    for depth in range(MAX_DEPTH + 1):
        following: list[tuple[CalledFunction, list[EntryStep], list[Caller] | None]] = []
        for function, steps, callers in frontier:
            if sum(1 for ranked in found if ranked[0] == 0) >= MAX_ENTRIES:
                break  # the best kind, nearer than anything further up: nothing found later ranks before them
            constructor = is_constructor(function.function)  # already the best kind: not searched above
            examined = function != start or unused  # every use of the name seen: "no call of it found" is true
            if callers is None and searches < MAX_SEARCHES and read < MAX_FILES_READ and not constructor:
                searches += 1
                result = search(function)
                callers, read = result["callers"], read + result["files_parsed"]
                examined = not (result["unresolved"] or result["files_not_followed"] or result["truncated"])
            calls = [c for c in callers or [] if _call(c, function)]
            ups = [c for c in calls if _step(c) and caught(c["inside_try"], raised) is None]
            # any use found outside the tests (a decorator's too, one that cannot reach the check): then it is no root
            uses = [c for c in callers or [] if c["match"] != "recursive" and not in_tests(c["file"])]
            entry = _entry(
                function,
                steps,
                uses if callers is not None and examined else None,
                tree_of,
                heirs,
                line if function == start else None,
            )
            if entry is not None:
                found.append((_rank(entry), depth, entry))
            for caller in ups:
                up = CalledFunction(caller["file"], caller["function"])
                if up not in seen:
                    seen.add(up)
                    step: EntryStep = {
                        "function": caller["function"],
                        "file": caller["file"],
                        "line": caller["line"],
                        "call": caller["call"],
                    }
                    following.append((up, [step, *steps], None))
        frontier = following
        if not frontier:
            break
    # the nearest starting point first (the shortest chain); of the others, the furthest up (nearest the user)
    found.sort(key=lambda ranked: (ranked[0], ranked[1] if ranked[0] < 2 else -ranked[1]))
    return [entry for _, _, entry in found[:MAX_ENTRIES]]


def _rank(entry: PublicEntry) -> int:
    """0 for where a user's code starts: a constructor, or a function users import (`requests.get`, and the
    `requests.request` it calls); 1 for a method no call of which is found, which needs an instance first
    (`Session.get`); 2 for other public methods on the way."""
    if entry["kind"] == "constructor" or "." not in entry["function"]:
        return 0
    return 1 if entry["kind"] == "root" else 2


def _call(caller: Caller, callee: CalledFunction) -> bool:
    """A call the search found (a guess by name or an override's too), made in code of the package outside its
    tests, other than the callee; a step up when the search resolved it and no `try` around it catches the error."""
    return (
        caller["use"] in ("call", "read")
        and caller["match"] != "recursive"
        and not in_tests(caller["file"])
        and (caller["file"], caller["function"]) != (callee.file, callee.function)
    )


def _step(caller: Caller) -> bool:
    """A call the search resolved, made in a function (module-level code runs at import, no user's call)."""
    return caller["match"] in RESOLVED and caller["function"] != "<module>"


def _entry(
    function: CalledFunction,
    steps: list[EntryStep],
    uses: list[Caller] | None,
    tree_of: TreeOf,
    heirs: Heirs,
    line: int | None = None,
) -> PublicEntry | None:
    """`function` as a public entry when users import it (or its class) from the package's top level or a package
    that re-exports it (a public module's own definitions are too many to call ways in); a root when its `uses`
    were searched and none was found outside the tests. `line` is the raise's, when `function` is the raising one:
    a property's getter and setter share a name, the line tells which it is. A method of a private class is an
    entry as a public class derived from it has it (see `_inherited`)."""
    if "<locals>" in function.function:
        return None
    found = _inherited(function, heirs, tree_of) if private_name(function.function) else _exported(function, tree_of)
    if found is None:
        return None
    qualname, file, module = found
    if is_constructor(function.function):
        kind = "constructor"
    elif line is not None and _in_accessor(tree_of(function.file), function.function, line):
        kind = "setter"  # users assign the property (or delete it); they never call it
    elif uses is not None and not uses:
        kind = "root"  # its callers were searched and no use of it was found
    else:
        kind = "public"
    return {"function": qualname, "file": file, "import_from": module, "kind": kind, "steps": steps}


def _exported(function: CalledFunction, tree_of: TreeOf) -> tuple[str, str, str] | None:
    """The function with the package users import it (or its class) from, when one exports it: its top level or a
    package that re-exports it (a public module's own definitions are too many to call ways in)."""
    module = public_module(function.file, function.function.split(".", 1)[0], tree_of)
    if module is None or ("." in module and module == module_name(function.file)):
        return None
    return function.function, function.file, module


def _inherited(function: CalledFunction, heirs: Heirs, tree_of: TreeOf) -> tuple[str, str, str] | None:
    """A public method (or the constructor) of a private class as a class derived from it directly calls it, when
    users import that class and it does not define the method again: `_AxesBase.sharex` is `Axes.sharex`."""
    owner, _, method = function.function.rpartition(".")
    if not owner or "." in owner or private_name(method) or not private_name(owner):
        return None
    for place in heirs(owner)[:MAX_HEIRS]:
        tree = tree_of(place.file) if "." not in place.qualname and not private_name(place.qualname) else None
        found = find(tree, place.qualname) if tree is not None else None
        cls = found.node if found is not None else None
        if not isinstance(cls, ast.ClassDef) or method in methods(cls):
            continue
        if owner not in {(dotted_name(b) or "").rsplit(".", 1)[-1] for b in cls.bases}:
            continue  # through another class, which may define it again
        exported = _exported(CalledFunction(place.file, place.qualname), tree_of)
        if exported is not None:
            return f"{place.qualname}.{method}", place.file, exported[2]
    return None


def _in_accessor(tree: ast.Module | None, qualname: str, line: int) -> bool:
    """Whether `line` is in a property's setter or deleter named as `qualname` says."""
    name = qualname.rsplit(".", 1)[-1]
    return tree is not None and any(
        isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.name == name
        and node.lineno <= line <= (node.end_lineno or node.lineno)
        and is_accessor(node)
        for node in ast.walk(tree)
    )


ENTRIES_HEADING = (
    "Public calls that lead here (calls found in the release; whether each reaches the check is not decided"
    " beyond the first):"
)


def entry_line(entry: PublicEntry, function: str) -> str:
    """'`requests.Session.get` → `Session.request` (requests/sessions.py:602) → ...', as every renderer prints it."""
    chain = entry_chain(entry, function)
    kind = {
        "constructor": " (its constructor)",
        "root": " (no call of it found in the release)",
        "setter": f" (setting the property of `{entry['import_from']}.{entry['function'].split('.')[0]}`)",
        "binding": f" (exported to Python at {entry['file']})",
    }.get(entry["kind"], "")
    if chain:
        return f"`{entry_call(entry)}`{kind} → {chain}"
    owner = function.rpartition(".")[0]
    inherited = f", inherited from `{owner}`" if entry["function"] != function and owner else ""
    return f"`{entry_call(entry)}`{kind} (the function itself{inherited})"


def entry_call(entry: PublicEntry) -> str:
    """What a user writes: `requests.Session.get`, `transformers.GenerationConfig(...)`, `tokenizer.x = ...`."""
    if entry["kind"] == "setter":
        owner, _, attr = entry["function"].rpartition(".")
        return f"{instance_name(owner.rsplit('.', 1)[-1])}.{attr} = ..."
    if entry["kind"] == "constructor":
        return f"{entry['import_from']}.{entry['function'].rpartition('.')[0]}(...)"
    if entry["kind"] == "binding":  # the name a compiled module's binding gives it: its module is not resolved
        return entry["function"]
    return f"{entry['import_from']}.{entry['function']}"


def entry_chain(entry: PublicEntry, function: str) -> str:
    """'`Session.request` (requests/sessions.py:602) → ... → `PreparedRequest.prepare_url` (requests/models.py:367)':
    each function called on the way, with where the call before it is made."""
    return steps_chain(entry["steps"], function)


def steps_chain(steps: list[EntryStep], function: str) -> str:
    """The calls of `steps` down to `function`, each function named with where the call of it is made."""
    if not steps:
        return ""
    names = [s["function"] for s in steps[1:]] + [function]
    return " → ".join(f"`{name}` ({s['file']}:{s['line']})" for name, s in zip(names, steps, strict=True))
