"""When an error happens: the inputs its check tests, the ways a user sets them, and who calls the function."""

from __future__ import annotations

import ast
from collections.abc import Collection
from dataclasses import replace
from typing import NamedTuple

from errdex.pages.callers import CalledFunction, in_tests
from errdex.pages.carried import carried_ways
from errdex.pages.caught import raised_names
from errdex.pages.conditions import input_name, parse_condition, subjects
from errdex.pages.defaults import (
    Leaves,
    branched,
    displays,
    leaves_first,
    looped,
    passes_by_default,
    recomputed,
    tested,
)
from errdex.pages.entries import Heirs, Search, public_entries
from errdex.pages.fields import false_for, record_fields
from errdex.pages.fields import left_out as fields_left_out
from errdex.pages.handlers import caught_words, handler_around
from errdex.pages.inforce import Rebound
from errdex.pages.inputs import Traced, WayIn, trace
from errdex.pages.model import (
    Caller,
    CallerSearch,
    CheckedInput,
    InputSource,
    PageCaller,
    PublicEntry,
    SiteJson,
    WhenItHappens,
)
from errdex.pages.public import called_by_users, public_module
from errdex.pages.receives import NOT_SET, private_name, receives
from errdex.pages.source import FunctionNode, TreeOf, find, signature
from errdex.pages.wrapped import wrapped_by

MAX_NAMED_CALLERS = 6


class Undecided(NamedTuple):
    """A caller that leaves out checked parameters the function binds again before the check: what it passes does
    not tell whether it reaches it."""

    caller: PageCaller
    left_out: list[Rebound]


class Left(NamedTuple):
    """A caller whose arguments make the function leave before the check (see `leaves_first`)."""

    caller: PageCaller
    leaves: Leaves


class Ruled(NamedTuple):
    """The callers whose arguments make the check false, those whose arguments make the function leave before it,
    and those whose arguments leave out what it reads."""

    defaulted: list[PageCaller]
    left: list[Left]
    undecided: list[Undecided]
    packed: str | None = None  # the function's `**kwargs` parameter when the check reads it: a call's keywords


class Found(NamedTuple):
    """The caller search, and its callers as the page has them (with the `try` that catches the error, if any)."""

    search: CallerSearch
    callers: list[PageCaller]


def when_it_happens(
    site: SiteJson,
    tree: ast.Module | None,
    found: Found,
    names: frozenset[str],
    tree_of: TreeOf,
    search: Search,
    heirs: Heirs,
    traced_at: str | None = None,
) -> WhenItHappens:
    """The `when_it_happens` section: the public calls that lead here, inputs with their ways in (tests of the
    environment are no inputs), and a summary.

    `tree_of` reads another file of the release (a folder's `__init__.py`, to tell a public function of a private
    module); `search` finds the callers of another function, to go up to the public ones, and `heirs` the classes
    derived from a class (a private class's method is called on a public heir's instances). `traced_at` says which
    place the inputs and callers were traced at, when the page speaks for places in several functions.
    """
    node = parse_condition(site["condition"])
    codes = subjects(node, site["checks"], site["resolved"], names) if node is not None else []
    short_names = [input_name(code) for code in codes]
    inputs: list[CheckedInput] = []
    for code in codes:
        traced = (
            trace(tree, site["function"], code, site["line"], site["template"], node)
            if tree is not None
            else Traced("other", [], [])
        )
        traced = _users_ways(traced, site["file"], tree_of)
        item: CheckedInput = {
            "code": code,
            # its code where two inputs share a name: the local `argument` is never `self.argument`
            "name": input_name(code) if short_names.count(input_name(code)) == 1 else code,
            "kind": traced.kind,
            "ways_in": [w.json(site["file"], _imported_from(w, site["file"], tree_of)) for w in traced.ways],
            "bound": [w.bound_json(site["file"]) for w in traced.bound],
            "computed_from": _sources(traced, site["file"], tree_of),
            "receives": NOT_SET,
        }
        inputs.append(item)
    located = find(tree, site["function"]) if tree is not None else None
    function = located.node if located is not None else None
    outside = _outside(found.callers)
    if function is not None and not isinstance(function, ast.ClassDef) and node is not None:
        checked = node
        post_init = tree is not None and located is not None and function.name == "__post_init__"
        fields = record_fields(tree, located.owner) if tree is not None and located is not None and post_init else None
        defaulted = [
            c
            for c in outside
            if passes_by_default(function, checked, inputs, site["resolved"], c, site["line"])
            or (fields is not None and false_for(function, fields, checked, site["resolved"], c, site["line"]))
        ]
        left = [
            Left(c, leaves)
            for c in outside
            if c not in defaulted and c["match"] != "receiver" and (leaves := leaves_first(function, c, site["line"]))
        ]
        undecided = [
            Undecided(c, left_out)
            for c in outside
            if c not in defaulted
            and all(c is not x.caller for x in left)
            and (
                left_out := recomputed(function, inputs, c, site["line"])
                or (fields_left_out(function, fields, checked, c, site["line"]) if fields is not None else [])
            )
        ]
    else:
        defaulted, left, undecided = [], [], []
    kwarg = function.args.kwarg if function is not None and not isinstance(function, ast.ClassDef) else None
    packed = kwarg.arg if kwarg is not None and any(item["code"] == kwarg.arg for item in inputs) else None
    ruled = Ruled(defaulted, left, undecided, packed)
    reaching = [c for c in outside if c not in defaulted and all(c is not x.caller for x in left)]
    start = CalledFunction(site["file"], site["function"])
    searched = found.search
    unseen = searched["unresolved"] or searched["files_not_followed"] or searched["truncated"]
    unused = not outside and not unseen  # no use outside its tests, and every use of the name examined
    entries = public_entries(start, site["line"], reaching, search, tree_of, raised_names(site), heirs, unused)
    raising = function if function is not None and not isinstance(function, ast.ClassDef) else None
    inputs = [_with_carried(item, site, raising, entries, tree_of) for item in inputs]
    inputs = [{**item, "receives": receives(tree, item, site["line"], site["function"], tree_of)} for item in inputs]
    return {
        "summary": " ".join(filter(None, (traced_at, _summary(site, tree, inputs, found, ruled, tree_of)))),
        "entries": entries,
        "inputs": inputs,
        "signature": signature(function) if function is not None and not isinstance(function, ast.ClassDef) else None,
        "wrapped_by": wrapped_by(tree, site["file"], site["function"], found.callers) if tree is not None else [],
    }


def _with_carried(
    item: CheckedInput, site: SiteJson, raising: FunctionNode | None, entries: list[PublicEntry], tree_of: TreeOf
) -> CheckedInput:
    """A parameter with, after its own ways in, the public entries that pass a keyword of theirs down to it."""
    if item["kind"] != "parameter" or raising is None:
        return item
    found = carried_ways(raising, item["code"], site["line"], site["function"], site["file"], entries, tree_of)
    ways = [c.way.json(c.file, _imported_from(c.way, c.file, tree_of), c.steps) for c in found]
    return {**item, "ways_in": item["ways_in"] + ways} if ways else item


def _imported_from(way: WayIn, file: str, tree_of: TreeOf) -> str | None:
    """Where a user imports what a call by name starts with (`GenerationConfig(...)`, `get(...)`); None for a call
    on an instance (`config.update(...)`) or a definition no public module offers."""
    head = way.call.split("(", 1)[0].split(".", 1)[0] if way.call else None
    if head is None or head != way.via.split(".", 1)[0]:
        return None
    return public_module(file, head, tree_of)


def _sources(traced: Traced, file: str, tree_of: TreeOf) -> list[InputSource]:
    """The inputs a local is computed from that a user's call sets, with those calls."""
    out: list[InputSource] = []
    for source in traced.computed_from:
        ways = [w for w in _users_ways(source.traced, file, tree_of).ways if w.call and w.keyword]
        if ways:
            out.append(
                {
                    "code": source.code,
                    "line": source.line,
                    "ways_in": [w.json(file, _imported_from(w, file, tree_of)) for w in ways],
                }
            )
    return out


def _users_ways(traced: Traced, file: str, tree_of: TreeOf) -> Traced:
    """A call of a function no user calls by name (private, or in a private module that is not re-exported) is not
    a way in: where the input is bound is said instead, and the callers table lists the package's own calls."""
    kept = [w for w in traced.ways if called_by_users(file, w.via, tree_of)]
    if len(kept) == len(traced.ways):
        return traced
    return replace(traced, ways=kept, bound=[w for w in traced.ways if w not in kept] + traced.bound)


def _summary(
    site: SiteJson,
    tree: ast.Module | None,
    inputs: list[CheckedInput],
    found: Found,
    ruled: Ruled,
    tree_of: TreeOf,
) -> str:
    sentences = []
    for item in inputs:
        ways = [w for w in item["ways_in"] if w["call"] and w["reaches_check"]]
        if ways:
            calls = ", ".join(f"`{w['call']}`" for w in ways)
            sentences.append(f"`{item['name']}` comes from {calls}: {ways[0]['how']}.")
        elif item["ways_in"] or item["bound"]:
            sentences.append(f"{(item['ways_in'] or item['bound'])[0]['how']}.")
        else:
            sentences.append(f"Where `{item['code']}` is set could not be traced in `{site['file']}`.")
    if site["function"] == "<module>":
        handler = handler_around(tree, site["line"]) if tree is not None else None
        only = f", and only when {caught_words(handler)}" if handler is not None else ""
        sentences.append(f"It happens when the module is imported{only}.")
    else:
        depends = _depends(inputs)
        sentences += _callers_sentences(site["function"], found, ruled, depends, tree_of)
    return " ".join(sentences)


def _depends(inputs: list[CheckedInput]) -> bool:
    """Whether what a call passes bears on the check: it reads a parameter. (A check of locals may still depend
    only on what the call passed, computed before it, so nothing else is said of it.)"""
    return any(item["kind"] == "parameter" for item in inputs)


def _callers_sentences(function: str, found: Found, ruled: Ruled, depends: bool, tree_of: TreeOf) -> list[str]:
    """Who calls the function (and who calls it in a way that cannot raise, or catches the error, or leaves out what
    it computes before the check), which names of a module are it, who only references it, and what the search could
    not resolve or see."""
    defaulted = ruled.defaulted
    left = [x.caller for x in ruled.left]
    outside = _outside(found.callers)
    tests = [c for c in found.callers if c["match"] != "recursive" and in_tests(c["file"])]
    caught = [c for c in outside if c["caught"] is not None and c not in defaulted and c not in left]
    uses = [c for c in outside if c not in defaulted and c not in left and c["caught"] is None]
    guessed = [c for c in uses if c["match"] == "receiver"]
    undecided = [u for u in ruled.undecided if u.caller in uses and u.caller["match"] != "receiver"]
    calling = [
        c
        for c in uses
        if c["use"] != "reference" and c["match"] != "receiver" and all(c is not u.caller for u in undecided)
    ]
    referencing = [c for c in uses if c["use"] == "reference" and c["match"] != "receiver"]
    aliases = [(c, name) for c in referencing if (name := _module_alias(c, function)) is not None]
    referencing = [c for c in referencing if all(c is not a for a, _ in aliases)]
    groups = [
        {c["function"] for c in calling},
        {c["function"] for c in defaulted},
        {c["function"] for c in left},
        {u.caller["function"] for u in undecided},
    ]
    split = {f for i, group in enumerate(groups) for f in group if any(f in other for other in groups[i + 1 :])}
    out = []
    if calling:  # a call of it is no claim that the call can raise: what it passes and runs first is not followed
        many = len(calling) > 1
        calls = "these calls" if many else "that call"
        decided = f"from what {'they pass' if many else 'it passes'}" if depends else "here"
        out.append(
            f"`{function}` is called from {_named(calling, split)}; whether {calls} can reach the check is not"
            f" decided {decided}."
        )
    if defaulted:
        verb = "calls" if len({c["function"] for c in defaulted}) == 1 else "call"
        loops = any(looped(c["arguments"], c["loops"]) for c in defaulted)
        each = " each value of the `for` loop over literals around the call," if loops else ""
        if any(branched(c["arguments"]) for c in defaulted):
            each += " each branch of `... if ... else ...`, with an argument its test compares to a literal taken as"
            each += " that literal where the test holds,"
        if any(c["arguments"] and c["arguments"]["constants"] for c in defaulted):
            each += " the values the module binds to the constants passed,"
        if ruled.packed:
            each += f" the keywords `**{ruled.packed}` collects (their names),"
        each += _known_words(defaulted)
        out.append(
            f"{_named(defaulted, split)} {verb} it with values that make the check false (the literals as written,"
            f"{each} the defaults of what is left out): no way to this error."
        )
    out += _left_sentences(function, ruled.left, split)
    out += _undecided_sentences(function, undecided, split)
    out += [_caught_sentence(c) for c in _distinct(caught)]
    if guessed:
        named_like = f"`{_receiver(guessed[0])}`"
        out.append(f"Not resolved, but used on an object named like its class ({named_like}) in {_named(guessed)}.")
    out += [_alias_sentence(function, c, name, tree_of) for c, name in aliases]
    if referencing:
        out.append(f"`{function}` is referenced (passed or registered, not called by name) in {_named(referencing)}.")
    for decorated in found.search["decorated_by"] if not calling else []:
        out.append(
            f"`{function}` is passed to its decorator `{decorated['call']}` when defined (line {decorated['line']});"
            " what the decorator does with it is not followed."
        )
    itself = sorted({c["line"] for c in found.callers if c["match"] == "recursive"})
    if itself:
        lines = ", ".join(map(str, itself))
        out.append(
            f"`{function}` also calls itself (line{'s' if len(itself) > 1 else ''} {lines}): the check may fire in"
            " such an inner call, on the values the outer one hands it."
        )
    if tests:
        files = len({c["file"] for c in tests})
        out.append(
            f"The package's own tests call it {len(tests)} time{'s' if len(tests) > 1 else ''} (in {files}"
            f" file{'s' if files > 1 else ''}; listed below, not as ways in)."
        )
    if not outside:
        count = found.search["files_searched"]
        scope = "in the package's only file" if count == 1 else f"among the {count} files of the package"
        if found.search["truncated"]:
            scope += f" (the search read {found.search['files_parsed']} of them before its budget ran out)"
        searched = ", ".join(found.search["searched_for"])
        not_followed = ", ".join(found.search["not_followed"])
        # Uses the search saw but could not resolve may be calls of it: then none is "found" to be absent.
        unseen = found.search["unresolved"] + found.search["files_not_followed"]
        other = " other than itself" if itself else ""
        other += " outside the package's tests" if tests else ""
        lead = (
            f"No call of `{function}`{other} was resolved" if unseen else f"No caller of `{function}`{other} was found"
        )
        out.append(f"{lead} {scope}; searched: {searched}; not followed: {not_followed}.")
        if unseen:
            out.append(_not_examined(function, found.search["unresolved"], found.search["files_not_followed"]))
    elif found.search["unresolved"]:
        out.append(_not_examined(function, found.search["unresolved"], 0))
    return out


def _outside(callers: list[PageCaller]) -> list[PageCaller]:
    """The callers that are ways in: neither the function calling itself nor the package's own tests."""
    return [c for c in callers if c["match"] != "recursive" and not in_tests(c["file"])]


def _known_words(callers: list[PageCaller]) -> str:
    """What the values of arguments that are no literals were taken as (see `defaults.argument_value`), when some
    are."""
    words = ""
    if any(tested(c) for c in callers):
        words += " a name an `if` around the call tests taken as true (or false) there,"
    if any(displays(c["arguments"]) for c in callers):
        words += " the type of a display, f-string or comparison passed,"
    return words


def _left_sentences(function: str, left: list[Left], split: Collection[str]) -> list[str]:
    """'`A` cannot reach the check: with what it passes, `f` returns at line 2714 first.' One sentence per way out."""
    by_way: dict[Leaves, list[PageCaller]] = {}
    for each in left:
        by_way.setdefault(each.leaves, []).append(each.caller)
    out = []
    for way, callers in by_way.items():
        verb = "calls" if len({c["function"] for c in callers}) == 1 else "call"
        if way.how == "skips":
            first = f"takes a branch of the `if` at line {way.line} that does not hold the check"
        elif way.how == "raises":
            raised = f" `{way.raised}`" if way.raised else ""
            first = f"raises{raised} at line {way.line} first"
        else:
            first = f"returns at line {way.line} first"
        out.append(
            f"{_named(callers, split)} {verb} it with values (the literals as written,{_known_words(callers)} the"
            f" defaults of what is left out) with which `{function}` {first}: no way to this error."
        )
    return out


def _undecided_sentences(function: str, undecided: list[Undecided], split: Collection[str]) -> list[str]:
    """'`A`, `B` leave out `s`, which `f` binds again before the check (line 4789): whether these calls reach it is
    not decided.' One sentence per set of parameters left out."""
    by_names: dict[tuple[str, ...], list[Undecided]] = {}
    for each in undecided:
        by_names.setdefault(tuple(r.name for r in each.left_out), []).append(each)
    out = []
    for names, group in by_names.items():
        callers = [u.caller for u in group]
        one = len({c["function"] for c in callers}) == 1
        lines = ", ".join(f"`{r.bound.code}`, line {r.bound.line}" for r in group[0].left_out)
        calls = "this call reaches it is not decided from what it passes"
        if len(callers) > 1:
            calls = "these calls reach it is not decided from what they pass"
        out.append(
            f"{_named(callers, split)} {'leaves' if one else 'leave'} out {_listed(names)}, which `{function}` binds"
            f" again before the check ({lines}): whether {calls}."
        )
    return out


def _listed(names: tuple[str, ...]) -> str:
    return ", ".join(f"`{n}`" for n in names)


def _module_alias(caller: PageCaller, function: str) -> str | None:
    """`create_repo = api.create_repo` at a module's top level: the module's name bound to the function itself
    (a bound method of an instance the module holds), which users call as that name; None for any other use."""
    if caller["function"] != "<module>":
        return None
    try:
        statement = ast.parse(caller["call"]).body
    except SyntaxError:  # a statement cut short, or one that spans lines: said as a reference
        return None
    if len(statement) != 1 or not isinstance(statement[0], ast.Assign) or len(statement[0].targets) != 1:
        return None
    target, value = statement[0].targets[0], statement[0].value
    name = function.rsplit(".", 1)[-1]
    if isinstance(target, ast.Name) and isinstance(value, ast.Attribute) and value.attr == name:
        return target.id
    return None


def _alias_sentence(function: str, caller: PageCaller, name: str, tree_of: TreeOf) -> str:
    """'`create_repo = api.create_repo` binds it to the module name `create_repo`: users call
    `huggingface_hub.create_repo`', from the shortest public module that offers the name."""
    where = f"`{caller['call']}` ({caller['file']}:{caller['line']}) binds `{function}` to the module's name `{name}`"
    module = public_module(caller["file"], name, tree_of) if not private_name(name) else None
    if module is None:
        return f"{where}; no public module offers that name."
    return f"{where}: users call it as `{module}.{name}`."


def _caught_sentence(caller: PageCaller) -> str:
    """'`A` calls it inside `try` and catches `X` (file:line)': the error does not reach the user that way."""
    held = caller["caught"]
    assert held is not None
    catches = f"catches `{held['catches']}`" if held["catches"] else "catches everything (a bare `except:`)"
    return (
        f"`{caller['function']}` calls it inside `try` and {catches} ({caller['file']}:{held['try_line']}):"
        " the error does not reach the user that way."
    )


def _distinct(callers: list[PageCaller]) -> list[PageCaller]:
    """The first caller of each calling function."""
    return list({c["function"]: c for c in reversed(callers)}.values())[::-1]


def _not_examined(function: str, count: int, files: int) -> str:
    """How many uses of the name on objects of unknown class (and files using the name) were left out, and that
    any may be a call of it: a count, never examples."""
    name = function.rsplit(".", 1)[-1]
    parts = [f"{count} use{'s' if count != 1 else ''} of the name `{name}` on objects whose class was not resolved"]
    if files:
        parts.append(
            f"{files} file{'s' if files != 1 else ''} that use the name but name neither the class nor the module"
        )
    left = " and ".join(parts if count else parts[1:])
    return f"Not examined: {left}; a call of `{function}` may be among them."


def _receiver(caller: Caller) -> str:
    """`generation_config.validate()` -> `generation_config`: the object a guessed use is on."""
    return caller["call"].split("(", 1)[0].rsplit(".", 1)[0]


def _named(callers: list[PageCaller], split: Collection[str] = ()) -> str:
    """'`A`, `B` and 3 more' for the distinct functions of the callers, in their order; a function in `split` (whose
    other calls are said elsewhere) with the lines of these calls: '`A` (lines 12, 14)'."""
    lines: dict[str, list[int]] = {}
    for c in callers:
        lines.setdefault(c["function"], []).append(c["line"])
    names = list(
        dict.fromkeys(
            _caller_name(c) + (_lines(lines[c["function"]]) if c["function"] in split else "") for c in callers
        )
    )
    shown = ", ".join(names[:MAX_NAMED_CALLERS])
    rest = len(names) - MAX_NAMED_CALLERS
    return shown + (f" and {rest} more" if rest > 0 else "")


def _caller_name(caller: PageCaller) -> str:
    """'`Session.send`', or '`Session.send` (through `BaseAdapter.send`)' for a call that names a base's method, or
    '(through `self` in a base class's method)' for a base's `self.name()` that finds the override on its instances."""
    through = f" (through `{caller['through']}`)" if caller["through"] else ""
    if caller["match"] == "override" and not through:
        through = " (through `self` in a base class's method, when `self` is an instance of the subclass)"
    return f"`{caller['function']}`{through}"


def _lines(lines: list[int]) -> str:
    distinct = sorted(set(lines))
    return f" (line{'s' if len(distinct) > 1 else ''} {', '.join(map(str, distinct))})"
