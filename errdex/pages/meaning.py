"""What an error means: the check that fires, in words and as code, and the values it is checked against.

Tests of where the code runs are listed apart, in words, as conditions of the environment.
A site without a condition is said to be raised whenever its line runs, with the `except`
block around it when there is one; a module-level or class-level site, when it is imported.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from errdex.pages.advice import statement_kind
from errdex.pages.bindings import choice
from errdex.pages.checked import HeldBack
from errdex.pages.conditions import (
    clauses,
    count_phrase,
    describe,
    membership_lists,
    parse_condition,
)
from errdex.pages.environment import tests
from errdex.pages.handlers import Handler, handler_around
from errdex.pages.model import HandlerJson, ResolvedValue, SiteJson, WhatItMeans
from errdex.pages.prior import sentence
from errdex.pages.source import find


def what_it_means(
    site: SiteJson,
    tree: ast.Module | None,
    names: frozenset[str],
    places: int = 1,
    exact: bool = True,
    held: Sequence[HeldBack] = (),
) -> WhatItMeans:
    """The `what_it_means` section of a page, from the site's JSON and its file's tree.

    `names` are the values its module fixes at import (see `environment.module_values`); `places`
    is how many places the page speaks for, and `exact` whether they all have the very same check
    (otherwise the site's `condition` is the part they share); `held` are the resolved values the
    check does not see (see `checked`), listed as not resolved with why.
    """
    node = parse_condition(site["condition"])
    resolved = site["resolved"]
    raises = _raises(site, places)
    handler = _handler(site, tree) if places == 1 else None
    context = _context(site, tree, handler) if places == 1 else None
    out: WhatItMeans = {
        "summary": "",
        "condition": site["condition"],
        "clauses": [c.json() for c in clauses(node, resolved, names)] if node is not None else [],
        "values": _values(site) + [h.json() for h in held],
        "lists": membership_lists(node, resolved, names),
        "environment": [t.json() for t in tests(node, names)],
        "context": context,
        "handler": _handler_json(handler) if handler else None,
        "derivable": node is not None,
        "statement": statement_kind(site, tree, places),
    }
    if not exact:
        out["summary"] = _shared(raises, describe(node, resolved, False, names) if node is not None else None)
    elif node is not None:
        earlier = sentence(site["prior_checks"], node, resolved, names) if places == 1 else ""
        caught = f"{_caught(handler)}, and " if handler else ""
        out["summary"] = f"{raises} when {caught}{describe(node, resolved, False, names)}{earlier}."
    elif site["condition"]:
        caught = f" when {_caught(handler)}, and" if handler else ""
        out["summary"] = f"{raises}{caught} under a condition that could not be read: `{site['condition'][:300]}`."
    elif handler:
        out["summary"] = f"{raises} when {_caught(handler)}; no `if` condition guards it."
    else:
        out["summary"] = f"{raises} {_unconditional(site, context, places)}."
    return out


def _shared(raises: str, common: str | None) -> str:
    """The summary of places whose checks differ: only what all of them require."""
    if common is None:
        return (
            f"{raises} under checks that differ from place to place and share no part: ask for the page of one place."
        )
    return f"{raises} under checks that differ from place to place; every one of them requires that {common}."


def _raises(site: SiteJson, places: int) -> str:
    if places > 1:
        where = f"Each of its {places} places"
    else:
        where = "Module-level code" if site["function"] == "<module>" else f"`{site['function']}`"
    if site["kind"] == "error":
        return f"{where} raises {site['exception'] or 'an error'}"
    if site["kind"] == "warning":
        return f"{where} warns ({site['exception'] or 'its category is not resolved'})"
    return f"{where} logs at level {site['level'] or 'warning'}"


def _unconditional(site: SiteJson, context: str | None, places: int) -> str:
    line = f"line {site['line']}" if places == 1 else "its line"
    base = f"whenever {line} runs: no `if` condition guards it, so nothing more can be derived about when"
    return f"{base}; {context}" if context else base


def _context(site: SiteJson, tree: ast.Module | None, handler: Handler | None) -> str | None:
    """What surrounds an unguarded line: an `except` block, module import, class definition."""
    if site["function"] == "<module>":
        return "it runs when the module is imported"
    if handler is not None:
        return f"it is raised while handling {_types(handler)} from the `try` block at line {handler.line}"
    located = find(tree, site["function"]) if tree is not None else None
    if located is not None and isinstance(located.node, ast.ClassDef):
        return f"it runs when the class `{site['function']}` is defined, at import"
    return None


def _handler(site: SiteJson, tree: ast.Module | None) -> Handler | None:
    """The `except` block the raise is in: it fires only when its `try` body raises, whatever the `if`s say."""
    located = find(tree, site["function"]) if tree is not None and site["function"] != "<module>" else None
    if located is None or isinstance(located.node, ast.ClassDef):
        return None
    return handler_around(located.node, site["line"])


def _handler_json(handler: Handler) -> HandlerJson:
    return {
        "exceptions": list(handler.types),
        "try_line": handler.try_line,
        "try_end": handler.try_end,
        "first": handler.first,
    }


def _types(handler: Handler) -> str:
    return " or ".join(f"`{t}`" for t in handler.types) or "any exception"


def _caught(handler: Handler) -> str:
    """`the code in the `try` at lines 819–820 (`...`) raises `ProtocolError``: what must happen first."""
    start, end = handler.try_line, handler.try_end
    lines = f"line {start}" if start == end else f"lines {start}–{end}"
    raised = f"raises {_types(handler)}" if handler.types else "raises an exception"
    return f"the code in the `try` at {lines} (`{handler.first}`) {raised}"


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
