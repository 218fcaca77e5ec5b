"""What an error means: the check that fires, in words and as code, and the values it is checked against.

Tests of where the code runs are listed apart, in words, as conditions of the environment.
A site without a condition is said to be raised whenever its line runs, with the `except`
block around it when there is one; a module-level or class-level site, when it is imported; one in the
`else:` block of a loop, only when that loop ends without `break`.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import TypedDict

from errdex.model import Site, language_of
from errdex.pages.advice import statement_kind
from errdex.pages.ahead import calls_before, summary_words
from errdex.pages.bindings import choice
from errdex.pages.caught import raised_names
from errdex.pages.checked import HeldBack
from errdex.pages.conditions import (
    clauses,
    conjuncts,
    count_phrase,
    describe,
    membership_lists,
    parse_condition,
)
from errdex.pages.defined import defined_when, defined_words
from errdex.pages.environment import tests
from errdex.pages.handlers import (
    Catcher,
    Handler,
    LoopElse,
    catcher,
    catcher_words,
    caught_words,
    handler_around,
    handler_types,
    loop_else_around,
    loop_else_words,
)
from errdex.pages.inforce import (
    Changed,
    block_holds,
    changed_in_place,
    earlier_pass,
    ifs_around,
    own_chain,
    rebound,
    short,
    walk_scope,
)
from errdex.pages.inputs import message_bindings
from errdex.pages.model import (
    CatcherJson,
    ChangedJson,
    HandlerJson,
    LoopElseJson,
    ReboundJson,
    ResolvedValue,
    SiteJson,
    WhatItMeans,
)
from errdex.pages.noreturn import never_words
from errdex.pages.prior import exits, exits_sentence, raises_before, read_names, retested, sentence
from errdex.pages.returned import Returned
from errdex.pages.siblings import other_raises
from errdex.pages.source import FunctionNode, find, parameters
from errdex.pages.syntax import unparse
from errdex.pages.wrapped import cached_words, decorated_words, own_decorators

MAX_HANDLED = 3  # places of a several-place page whose `except` blocks are said


class Where(TypedDict):
    """The place a raise is at, as `_handler` reads it."""

    function: str
    line: int


_LANGUAGE_NAMES = {"c": "C", "cpp": "C++", "rust": "Rust", "cython": "Cython"}


def what_it_means(
    site: SiteJson,
    tree: ast.Module | None,
    names: frozenset[str],
    places: int = 1,
    exact: bool = True,
    held: Sequence[HeldBack] = (),
    sites: Sequence[Site] = (),
    returned: Returned | None = None,
    never: frozenset[int] = frozenset(),
) -> WhatItMeans:
    """The `what_it_means` section of a page, from the site's JSON and its file's tree.

    `names` are the values its module fixes at import (see `environment.module_values`); `places`
    is how many places the page speaks for, and `exact` whether they all have the very same check
    (otherwise the site's `condition` is the part they share); `held` are the resolved values the
    check does not see (see `checked`), listed as not resolved with why; `sites` are the places of a page
    that speaks for several (those in the site's own file are read for the `except` blocks they are in);
    `returned` is the function the raise calls for its exception, when the release defines one; `never` the
    lines of the calls before the raise that never return (see `noreturn`).
    """
    node = parse_condition(site["condition"])
    resolved = site["resolved"]
    passed_in = _passed_in(site, tree) if places == 1 else None
    returned_by = returned.function if returned is not None else None
    held_by = _held_by(site, tree) if not (passed_in or returned_by) else None
    raises = _raises(site, places, passed_in, returned, held_by)
    handler = _handler(site, tree) if places == 1 else None
    scope = _scope(site, tree) if places == 1 else None
    loop = loop_else_around(scope, site["line"]) if scope is not None else None
    context = _context(site, tree, handler) if places == 1 else None
    catching = _catcher(site, tree, raised_names(site)) if places == 1 else None
    defined = defined_when(tree, site["line"]) if tree is not None and places == 1 else None
    out: WhatItMeans = {
        "plain": "",  # the summary's first sentence without the raises before it; the page says it in the user's terms
        "summary": "",
        "in_their_words": None,  # the page adds it from `documented`
        "condition": site["condition"],
        "own_test": None,
        "clauses": [c.json() for c in clauses(node, resolved, names)] if node is not None else [],
        "values": _values(site) + [h.json() for h in held],
        "lists": membership_lists(node, resolved, names),
        "environment": [t.json() for t in tests(node, names)],
        "context": context,
        "handler": _handler_json(handler) if handler else None,
        "caught_by": _catcher_json(catching) if catching else None,
        "derivable": node is not None,
        "statement": statement_kind(site, tree, places),
        "rebound": _rebound(site, tree, node, sites if places > 1 else ()) if node is not None else [],
        "changed": [],
        "class_parameter": passed_in,
        "class_returned_by": returned_by,
        "calls_before": [],
        "exits": [],
        "class_held_by": held_by,
        "defined_when": defined.json() if defined is not None else None,
        "loop_else": _loop_else_json(loop) if loop is not None else None,
        "runs_when": None,
        "other_raises": [],
    }
    own = _function(site, tree)
    if own is not None:
        out["runs_when"] = runs_when(own)
    if own is not None and node is not None:
        out["calls_before"] = calls_before(own, site["line"], node, site["prior_checks"])
    if own is not None:
        out["exits"] = exits(own, site["line"], None)  # all: an example fix must not take one
        chain = own_chain(own, site["line"])
        out["own_test"] = unparse(chain) if chain is not None and places == 1 else None
    if own is not None and node is not None and places == 1:
        out["other_raises"] = other_raises(own, site["line"], read_names(node))
    func = own if places == 1 else None
    nested = raises_before(func, site["line"], site["prior_checks"], node) if func is not None else []
    earlier = sentence(site["prior_checks"], node, resolved, names, nested) if places == 1 else ""

    def said(earlier: str) -> str:
        """The summary's first sentence, with the raises that may fire first (`earlier`) or without them."""
        if not exact:
            return _shared(raises, describe(node, resolved, False, names) if node is not None else None)
        if node is not None:
            caught = f"{caught_words(handler)}, and " if handler else ""
            return f"{raises} when {caught}{describe(node, resolved, False, names)}{earlier}."
        language = language_of(site["file"])
        if site["condition"] and language not in ("python", None):
            written = _LANGUAGE_NAMES.get(language, language)
            return f"{raises} when `{site['condition'][:300]}` holds (its {written} tests, as written){earlier}."
        if site["condition"]:
            caught = f" when {caught_words(handler)}, and" if handler else ""
            return f"{raises}{caught} under a condition that could not be read: `{site['condition'][:300]}`{earlier}."
        if handler:
            where = _then(context) if _function(site, tree) is None else ""
            return f"{raises} when {caught_words(handler)} ({_unguarded(site, places)}){earlier}{where}."
        if loop:
            return f"{raises} only when {loop_else_words(loop)}; {_unguarded(site, places)}{earlier}{_then(context)}."
        return f"{raises} whenever {_line(site, places)} runs ({_unguarded(site, places)}){earlier}{_then(context)}."

    out["summary"], out["plain"] = said(earlier), said("")  # the page puts the user's terms in `plain` if it can
    if loop and (node is not None or site["condition"] or handler):
        out["summary"] += (
            f" Line {site['line']} is in the `else:` block of a loop: it runs only when {loop_else_words(loop)}."
        )
    out["summary"] += defined_words(defined)
    if places > 1 and tree is not None:
        out["summary"] += _handled_places(site["file"], tree, sites, raised_names(site))
    if catching is not None:
        out["summary"] += catcher_words(catching, [site["line"]], site["function"])
    if func is not None and node is not None:
        rebound_names = {r["name"] for r in out["rebound"]}  # already said not to be the argument as passed
        # a name the check reads itself: `self['Location'] = ...` changes `self`, not what `self.allowed` holds
        roots = sorted({n for n in read_names(node) if "." not in n} - rebound_names)
        changed = changed_in_place(func, roots, site["line"])
        out["changed"] = [_changed_json(c) for c in changed]
    if func is not None:
        out["summary"] += _message_words(func, site)
        out["summary"] += never_words(func, never)
        out["summary"] += exits_sentence(site["function"], func, site["line"], node)
        out["summary"] += _retested_words(func, node, site["line"]) if node is not None else ""
    if func is not None and tree is not None:
        out["summary"] += decorated_words(site["function"], own_decorators(tree, site["file"], site["function"]))
        out["summary"] += cached_words(tree, site["function"])
        out["summary"] += summary_words(site["function"], out["calls_before"])
    out["summary"] += "".join(_rebound_words(r, places > 1) for r in _by_name(out["rebound"]))
    out["summary"] += "".join(map(_changed_words, out["changed"]))
    return out


def _message_words(func: FunctionNode, site: SiteJson) -> str:
    """` This message's own text is written only at line 1135 (`msg = ...`, under `isinstance(err, E)`).` when the
    raise passes a name as its message and every binding writing the template's text is under an `if`: the test
    the user's run met, which the raise's own (missing) `if` does not show."""
    found = message_bindings(func, site["line"], site["template"] or "")
    if not found or any(m.guard is None for m in found):
        return ""
    said = "; ".join(f"line {m.bound.line} (`{m.bound.code}`, under `{m.guard}`)" for m in found)
    return f" This message's own text is written only at {said}."


def _changed_json(found: Changed) -> ChangedJson:
    return {"name": found.name, "lines": list(found.lines), "code": found.code, "at": found.at}


MAX_CHANGES = 6  # lines of in-place changes said; the rest are counted


def _changed_words(found: ChangedJson) -> str:
    """` `kwargs` here is its value after the function changes it in place (lines 2077, 2081: `kwargs.pop('nbins')`,
    ...), not the argument as passed.`"""
    lines = [str(n) for n in found["lines"][:MAX_CHANGES]]
    more = f" and {len(found['lines']) - len(lines)} more" if len(found["lines"]) > len(lines) else ""
    where = f"line{'s' if len(found['lines']) > 1 else ''} {', '.join(lines)}{more}"
    first = f"`{found['code']}`" + (", ..." if len(found["lines"]) > 1 else "")
    if all(
        n > found["at"] for n in found["lines"]
    ):  # only after the check, in a loop: its first pass sees the argument
        return (
            f" `{found['name']}` here is the argument as passed on the loop's first pass, and its value after the"
            f" function changes it in place ({where}: {first}) on the later ones."
        )
    return (
        f" `{found['name']}` here is its value after the function changes it in place ({where}: {first}),"
        " not the argument as passed."
    )


def _rebound(site: SiteJson, tree: ast.Module | None, node: ast.expr, sites: Sequence[Site]) -> list[ReboundJson]:
    """The parameters the check reads (`A` of `A.ndim` too), and the attributes of them it reads (`self.by`), that
    its function binds again before the raise; on a page for several places, at each of them in the page's file."""
    read = read_names(node)
    called = {id(n.func) for n in ast.walk(node) if isinstance(n, ast.Call)}
    receivers = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and id(n) not in called}  # `model.startswith`
    roots = sorted(
        {name.split(".", 1)[0] for name in read} | {name for name in read if name.count(".") == 1} | receivers
    )
    places: list[Where] = [{"function": p.function, "line": p.line} for p in sites if p.file == site["file"]]
    out: list[ReboundJson] = []
    for place in places or [{"function": site["function"], "line": site["line"]}]:
        func = _function(place, tree)
        out += [
            {"name": r.name, "line": r.bound.line, "code": r.bound.code, "when": r.when, "at": place["line"]}
            for r in (rebound(func, roots, place["line"]) if func is not None else [])
            if func is not None and _tested_after(func, r.name, r.bound.line, place["line"])
        ]
    return out


def _tested_after(func: FunctionNode, name: str, bound: int, line: int) -> bool:
    """Whether a test of the `if`s around the raise on `line` that reads `name` comes after its rebinding on line
    `bound` (`expires = None` after `if isinstance(expires, datetime):` has read it is no value the check sees);
    true when no such test reads it (what reads it then is not told apart)."""
    tests = [
        n.lineno
        for n in ifs_around(func, line)
        if any(r == name or r.startswith(name + ".") for r in read_names(n.test))
    ]
    return not tests or any(t > bound for t in tests) or bound > line


def _retested_words(func: FunctionNode, node: ast.expr, line: int) -> str:
    """` In `not cache_name`, `cache_name` is its value when line 432 tests it: the function binds it again before
    the raise (line 437).` for each local a part of the condition takes from an earlier test and that is rebound
    after it."""
    out = ""
    for found in retested(func, conjuncts(node), line):
        again = ", ".join(map(str, found.bound_again))
        plural = "s" if len(found.bound_again) > 1 else ""
        out += (
            f" In `{found.part}`, `{found.name}` is its value when line {found.tested_at} tests it: the function"
            f" binds it again before the raise (line{plural} {again})."
        )
    return out


def _by_name(found: list[ReboundJson]) -> list[list[ReboundJson]]:
    """The rebindings grouped by the raise they reach and the name they bind."""
    keys = dict.fromkeys((r["at"], r["name"]) for r in found)
    return [[r for r in found if (r["at"], r["name"]) == key] for key in keys]


def _rebound_words(found: list[ReboundJson], several: bool) -> str:
    """` `fname` here is its value after line 473 (`fname = os.fspath(fname)` when `...` is true), not
    necessarily the argument as passed.` (` At line 1494, `num_proc` is ...` on a page for several places)."""
    each = [f"line {r['line']} (`{r['code']}`{_when(r['when'])}{earlier_pass(r['line'], r['at'])})" for r in found]
    name = found[0]["name"]
    where = f"At line {found[0]['at']}, `{name}` there" if several else f"`{name}` here"
    passed = "the value it held when the function was called" if "." in name else "the argument as passed"
    return f" {where} is its value after {' or '.join(each)}, not necessarily {passed}."


def _when(test: str | None) -> str:
    return f" when `{test}` is true" if test else ""


def _handled_places(file: str, tree: ast.Module, sites: Sequence[Site], raised: frozenset[str] | None) -> str:
    """For a page of several places: those of the page's file that sit in `except` (or `else:`) blocks, each with
    what must raise first, and those a `try` of their own function catches (places in other files are not read)."""
    wheres: list[Where] = [{"function": p.function, "line": p.line} for p in sites if p.file == file]
    found = [(w["line"], h) for w in wheres for h in [_handler(w, tree)] if h is not None]
    said = [f" At {file}:{line} it runs only when {caught_words(handler)}." for line, handler in found[:MAX_HANDLED]]
    if len(found) > len(said):
        said.append(f" {len(found) - len(said)} more of its places are in `except` blocks.")
    caught: dict[tuple[Catcher, str], list[int]] = {}
    for w in wheres:
        found_by = _catcher(w, tree, raised)
        if found_by is not None:
            caught.setdefault((found_by, w["function"]), []).append(w["line"])
    groups = list(caught.items())
    said += [catcher_words(c, lines, function) for (c, function), lines in groups[:MAX_HANDLED]]
    if len(groups) > MAX_HANDLED:
        more = sum(len(lines) for _, lines in groups[MAX_HANDLED:])
        said.append(f" {more} more of its places are caught by a `try` of their own function.")
    return "".join(said)


def _shared(raises: str, common: str | None) -> str:
    """The summary of places whose checks are not all alike: only what all of them require, when a clause is
    common to all (checks written differently may still agree, so nothing is said of how they differ)."""
    if common is None:
        return f"{raises}; each place has its own check: ask for the page of one place."
    return (
        f"{raises} under its own check at each place. Every one of them requires that {common}; what more each"
        " place tests, if anything, is on the page of that place."
    )


def _raises(site: SiteJson, places: int, passed_in: str | None, returned: Returned | None, held_by: str | None) -> str:
    """`passed_in` is the class's text when it is a parameter of the function: the caller's argument;
    `returned` when it is a function of the release: what that function returns; `held_by` when the raise
    raises an object it looks up or keeps (`raise ERRORS[key]`): its class and message are that object's."""
    if places > 1:
        where = f"Each of its {places} places"
    else:
        where = "Module-level code" if site["function"] == "<module>" else f"`{site['function']}`"
    if site["kind"] == "error":
        given = f"the exception class its caller passes as `{passed_in}`" if passed_in else None
        if returned:
            built = f", a `{returned.exception}`" if returned.exception else ""
            given = (
                f"the exception that the function `{returned.function}` ({returned.where(site['file'])}) returns{built}"
            )
        if held_by:
            given = f"the exception object `{held_by}` (not resolved: its class and message are what that object holds)"
        return f"{where} raises {given or site['exception'] or 'an error'}"
    if site["kind"] == "warning":
        given = f"with the category its caller passes as `{passed_in}`" if passed_in else None
        return f"{where} warns ({given or site['exception'] or 'its category is not resolved'})"
    return f"{where} logs at level {site['level'] or 'warning'}"


def _line(site: SiteJson, places: int) -> str:
    return f"line {site['line']}" if places == 1 else "its line"


def _unguarded(site: SiteJson, places: int) -> str:
    """That no `if` of the function guards the line: only that (callers, decorators and `try` blocks may)."""
    where = "its function" if places > 1 else f"`{site['function']}`"
    if site["function"] == "<module>":
        where = "the module's code"
    return f"no `if` in {where} guards {_line(site, places)}"


def _then(context: str | None) -> str:
    return f"; {context}" if context else ""


def _context(site: SiteJson, tree: ast.Module | None, handler: Handler | None) -> str | None:
    """What surrounds an unguarded line: an `except` block, module import, class definition."""
    if site["function"] == "<module>":
        return "it runs when the module is imported"
    if handler is not None and handler.orelse:
        return f"it is raised after the `try` body at line {handler.try_line} raised nothing"
    if handler is not None:
        return f"it is raised while handling {handler_types(handler)} from the `try` block at line {handler.line}"
    located = find(tree, site["function"]) if tree is not None else None
    if located is not None and isinstance(located.node, ast.ClassDef):
        return f"it runs when the class `{site['function']}` is defined, at import"
    loops = [
        n
        for n in (walk_scope(located.node) if located is not None else [])
        if isinstance(n, (ast.For, ast.AsyncFor, ast.While)) and block_holds(n.body, site["line"])
    ]
    if loops:  # no `if` guards it, but the loop runs its body only for its items (or while its test holds)
        loop = max(loops, key=lambda n: n.lineno)
        if isinstance(loop, ast.While):
            test = short(loop.test)
            return f"it is in the body of the `while` loop at line {loop.lineno}: it runs only while `{test}` holds"
        return (
            f"it is in the body of the `for` loop at line {loop.lineno} (over `{short(loop.iter)}`): it runs once"
            " for each item, and never when there is none"
        )
    return None


def _handler(site: Where, tree: ast.Module | None) -> Handler | None:
    """The `except` (or `else:`) block the raise is in: it fires only when its `try` body raises (or raises
    nothing), whatever the `if`s say."""
    scope = _scope(site, tree)
    return handler_around(scope, site["line"]) if scope is not None else None


def _catcher(site: Where, tree: ast.Module | None, raised: frozenset[str] | None) -> Catcher | None:
    """The `except` block of the raise's own function (class, module) that catches it first, if any."""
    scope = _scope(site, tree)
    return catcher(scope, site["line"], raised) if scope is not None else None


def _scope(site: Where, tree: ast.Module | None) -> ast.AST | None:
    """The code the raise is in: its function, its class's body, or the module."""
    if tree is None or site["function"] == "<module>":
        return tree
    located = find(tree, site["function"])
    return located.node if located is not None else None


def _passed_in(site: SiteJson, tree: ast.Module | None) -> str | None:
    """The site's class when it is a parameter of its function given no class default (`warn(msg, category)`)."""
    func = _function(site, tree)
    name = site["exception"]
    return name if func is not None and name and any(p.arg == name for p in parameters(func)) else None


def _held_by(site: SiteJson, tree: ast.Module | None) -> str | None:
    """The object raised when the raise names no class: a lookup (`raise ERRORS[key]`), a call's result
    (`raise make().with_traceback(tb)`), an expression, or a local variable the index did not trace to a class call
    (`raise err`); None for a name, an attribute chain or anything called at the raise (`raise cls(msg)`)."""
    try:
        expr = ast.parse(site["exception"] or "", mode="eval").body
    except SyntaxError:
        return None
    if isinstance(expr, ast.Attribute) and expr.attr == "with_traceback":
        expr = expr.value
    raised = _raise_at(site, _function(site, tree) or tree)
    if raised is None or (isinstance(raised, ast.Call) and not _with_traceback(raised)):
        return None
    if isinstance(expr, ast.Name):
        func = _function(site, tree)
        return expr.id if func is not None and expr.id in _locals(func) else None
    chain = isinstance(expr, ast.Attribute) and isinstance(_root(expr), ast.Name)
    return None if chain else ast.unparse(expr)


def _raise_at(site: SiteJson, scope: ast.AST | None) -> ast.expr | None:
    """What the `raise` statement on the site's line raises, as written."""
    nodes = ast.walk(scope) if scope is not None else iter(())
    return next((n.exc for n in nodes if isinstance(n, ast.Raise) and n.lineno == site["line"]), None)


def _with_traceback(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Attribute) and call.func.attr == "with_traceback"


def _root(expr: ast.expr) -> ast.expr:
    """`a` of `a.b.c`."""
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return expr


def _locals(func: FunctionNode) -> set[str]:
    """The names a function binds in its body (its parameters excluded)."""
    stored = {n.id for n in ast.walk(func) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return stored - {p.arg for p in parameters(func)}


def runs_when(func: FunctionNode) -> str | None:
    """When the body of `func` runs, if not when it is called: a `yield` of its own (not of a function or class
    inside it) makes it a generator, `async def` a coroutine."""
    todo: list[ast.AST] = list(ast.iter_child_nodes(func))
    yields = False
    while todo and not yields:
        sub = todo.pop()
        if isinstance(sub, (ast.Yield, ast.YieldFrom)):
            yields = True
        elif not isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(sub))
    if isinstance(func, ast.AsyncFunctionDef):
        return "iterated asynchronously" if yields else "awaited"
    return "iterated" if yields else None


def _function(site: Where, tree: ast.Module | None) -> FunctionNode | None:
    """The function the raise is in (None at module or class level, or when not found)."""
    located = find(tree, site["function"]) if tree is not None and site["function"] != "<module>" else None
    return None if located is None or isinstance(located.node, ast.ClassDef) else located.node


def _loop_else_json(found: LoopElse) -> LoopElseJson:
    return {
        "line": found.line,
        "kind": found.kind,
        "test": found.test,
        "breaks": [{"line": b.line, "when": list(b.when)} for b in found.breaks],
    }


def _handler_json(handler: Handler) -> HandlerJson:
    return {
        "exceptions": list(handler.types),
        "try_line": handler.try_line,
        "try_end": handler.try_end,
        "statement": handler.statement,
        "block": "else" if handler.orelse else "except",
    }


def _catcher_json(found: Catcher) -> CatcherJson:
    return {
        "try_line": found.try_line,
        "line": found.line,
        "header": found.header,
        "returns": list(found.returns),
        "reraises": list(found.reraises),
        "kept": list(found.kept),
    }


def _values(site: SiteJson) -> list[ResolvedValue]:
    """The resolved values, each with its alternatives when bound under conditions; a name none of whose
    alternatives the page takes is listed as not known, never as an empty value."""
    resolved, bindings = site["resolved"], site["bindings"]
    names = [*resolved, *(n for n in bindings if n not in resolved)]
    out: list[ResolvedValue] = []
    for name in names:
        value, alternatives = resolved.get(name), bindings.get(name, [])
        out.append(
            {
                "name": name,
                "value": value,
                "known": name in resolved,
                "defined_at": site["resolved_from"].get(name),
                "count": count_phrase(value) if isinstance(value, (list, dict)) else None,
                "alternatives": alternatives,
                "choice": choice(name, alternatives) if alternatives else None,
            }
        )
    return out
