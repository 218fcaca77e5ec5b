"""Which places of an error a page speaks for, and the check that holds at every one of them.

One error id can be raised at many places of a release (copied model code raises one message at
hundreds). A page asked for one place (`site=(file, line)`) is about that place. A page asked for
the error speaks for all of its places and says only what holds at each: the clauses of the
check that every place shares (each one is needed for the error to be raised anywhere) and the
values that every place resolves alike (a name resolved differently is left unknown). Whether the
places share their whole check (`exact`) decides whether a trigger, an example fix or "your value
raises" can be claimed for all of them.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Sequence
from dataclasses import dataclass

from errdex.errors import NotIndexedError
from errdex.model import ErrorRecord, Site
from errdex.pages.bindings import bindings_json
from errdex.pages.conditions import conjuncts, parse_condition
from errdex.pages.model import BindingJson, JsonValue, PriorCheckJson, SiteScope
from errdex.pages.prior import prior_json
from errdex.pages.syntax import unparse
from errdex.store import Store

MAX_LISTED_PLACES = 5


@dataclass(frozen=True)
class Check:
    """The part of a check that holds at every place spoken for, with the values they all resolve alike."""

    condition: str | None
    resolved: dict[str, JsonValue]
    resolved_from: dict[str, str]
    checks: tuple[str, ...]
    exact: bool  # every place has this very check (condition, resolved values and message)
    bindings: dict[str, list[BindingJson]]  # names bound under conditions, alike at every place
    prior_checks: list[PriorCheckJson]  # the earlier raising checks of every place (a trigger must pass them all)


def _bindings(sites: Sequence[Site]) -> dict[str, list[BindingJson]]:
    """The alternatives of the names every place binds alike."""
    first = sites[0]
    return {
        name: bindings_json(found, first.resolved_from.get(name))
        for name, found in first.bindings.items()
        if all(
            s.bindings.get(name) == found and s.resolved_from.get(name) == first.resolved_from.get(name) for s in sites
        )
    }


def check_of(sites: Sequence[Site]) -> Check:
    """The check shared by `sites`: the whole check when they all have it, else their common clauses."""
    first = sites[0]
    resolved = {n: v for n, v in first.resolved.items() if all(n in s.resolved and s.resolved[n] == v for s in sites)}
    resolved_from = {
        n: w
        for n, w in first.resolved_from.items()
        if n in resolved and all(s.resolved_from.get(n) == w for s in sites)
    }
    checks = tuple(c for c in first.checks if all(c in s.checks for s in sites))
    prior = prior_json(c for s in sites for c in s.prior_checks)
    if len({_key(s) for s in sites}) == 1:
        return Check(
            first.condition, dict(first.resolved), resolved_from, tuple(first.checks), True, _bindings(sites), prior
        )
    return Check(_common_condition(sites), resolved, resolved_from, checks, False, _bindings(sites), prior)


def _key(site: Site) -> tuple[str | None, str, str]:
    return site.condition, json.dumps(site.resolved, sort_keys=True), site.message_source


def _common_condition(sites: Sequence[Site]) -> str | None:
    """The clauses of the first place's condition that every place has (as code), joined by `and`."""
    parsed = [parse_condition(s.condition) for s in sites]
    nodes = [node for node in parsed if node is not None]
    if len(nodes) < len(parsed):
        return None
    others = [{unparse(part) for part in conjuncts(node)} for node in nodes[1:]]
    shared = [part for part in conjuncts(nodes[0]) if all(unparse(part) in codes for codes in others)]
    if not shared:
        return None
    return unparse(shared[0] if len(shared) == 1 else ast.BoolOp(op=ast.And(), values=shared))


def locate(sites: Sequence[Site], file: str, line: int) -> Site | None:
    """The place in `file` whose raise statement spans `line` (a traceback's line), its first line first."""
    spanning = [s for s in sites if s.file == file and s.line <= line <= max(s.line, s.end_line)]
    return min(spanning, key=lambda s: (s.line != line, s.line), default=None)


def chosen_site(record: ErrorRecord, file: str, line: int) -> Site:
    """The place of the error at `file:line`, or NotIndexedError naming the places it has."""
    found = locate(record.sites, file, line)
    if found is None:
        raise NotIndexedError(
            f"error {record.id} is not raised at {file}:{line} in {record.release.package} {record.release.version};"
            f" its places are {places_text(record.sites)}"
        )
    return found


def places_text(sites: Sequence[Site]) -> str:
    """'a.py:3, b.py:9 and 5 more'."""
    shown = ", ".join(f"{s.file}:{s.line}" for s in sites[:MAX_LISTED_PLACES])
    rest = len(sites) - MAX_LISTED_PLACES
    return shown + (f" and {rest} more" if rest > 0 else "")


def record_at(store: Store, record: ErrorRecord, site: Site) -> ErrorRecord:
    """The record with `site` in the first place: the excerpt around it and the errors related to it."""
    if (site.file, site.line) == (record.site.file, record.site.line):
        return record
    return store.error(record.id, record.release.version, at=site)


def counterpart(sites: Sequence[Site], chosen: Site | None) -> tuple[Site, ...]:
    """The places of another release that correspond to the page's.

    They are the chosen place's function (nearest line), or all.
    """
    if chosen is None:
        return tuple(sites)
    same = [s for s in sites if s.file == chosen.file and s.function == chosen.function]
    same = same or [s for s in sites if s.function == chosen.function]
    return (min(same, key=lambda s: abs(s.line - chosen.line)),) if same else tuple(sites)


def scope_json(record: ErrorRecord, site: Site, chosen: bool, check: Check) -> SiteScope:
    """The page's `site_scope`: which place(s) it speaks for, and the distinct checks of the error's places."""
    groups, _ = _groups(record.sites)
    return {
        "site": f"{site.file}:{site.line}" if chosen or len(record.sites) == 1 else None,
        "count": len(record.sites),
        "exact": check.exact,
        "checks": [
            {
                "condition": g[0].condition,
                "resolved": g[0].resolved,
                "count": len(g),
                "first": f"{g[0].file}:{g[0].line}",
            }
            for g in groups
        ],
        "text": _scope_text(record, site, chosen, len(groups)),
    }


def place_checks(sites: Sequence[Site]) -> list[int]:
    """For each place (in order), the index of its check in `site_scope.checks`."""
    return _groups(sites)[1]


def _groups(sites: Sequence[Site]) -> tuple[list[list[Site]], list[int]]:
    """The places grouped by their check, the largest group first, and each place's group index."""
    groups: dict[tuple[str | None, str, str], list[Site]] = {}
    for s in sites:
        groups.setdefault(_key(s), []).append(s)
    ordered = sorted(groups, key=lambda k: len(groups[k]), reverse=True)
    index = {k: i for i, k in enumerate(ordered)}
    return [groups[k] for k in ordered], [index[_key(s)] for s in sites]


def _scope_text(record: ErrorRecord, site: Site, chosen: bool, checks: int) -> str | None:
    count = len(record.sites)
    if count == 1:
        return None
    release = f"{record.release.package} {record.release.version}"
    guarded = "all guarded by the same check" if checks == 1 else f"guarded by {checks} different checks"
    if chosen:
        return (
            f"This page is about {site.file}:{site.line},"
            f" one of the {count} places that raise this error in {release} ({guarded})."
        )
    text = f"This error is raised at {count} places in {release}, {guarded}"
    if checks > 1:
        return (
            text + ": this page says only what holds at every one of them. The page of the place that raised it"
            " (its file and line) gives that place's own check, trigger and fix."
        )
    return text + f"; the excerpt, the ways in and the callers are those of the first, {site.file}:{site.line}."
