"""The error across the indexed releases of its package: where it is, when its text changed, how its values changed.

- `releases`: each indexed release that has the error, with its places and the check of the places the
  page speaks for there (the same function's place for a page about one place; else what all share);
- `missing_in`: indexed releases without it;
- `text_changed`: the first release of the run of releases (up to the page's one) that has the
  error, and in the release before it the error that stood at the same place (same function and
  exception, gone afterwards, most similar text): its id and template;
- `value_changes`: between consecutive releases, the names added to or removed from each resolved
  list, matched by name, or by role when the condition checks membership in a renamed list; only
  when both values hold on the same basis (both always, or both under the same condition).
"""

from __future__ import annotations

import difflib
from itertools import pairwise

from errdex.model import FileLine, ReleaseRecord, Site
from errdex.pages.bindings import basis
from errdex.pages.conditions import membership_lists, parse_condition
from errdex.pages.model import ListChange, ReleaseCheck, TextChange, VersionHistory
from errdex.pages.scope import Check, check_of, counterpart
from errdex.store import Store

MIN_SIMILARITY = 0.4


def versions(
    store: Store, error_id: str, current: Site, check: Check, version: str, package: str, one_place: bool
) -> VersionHistory:
    """The versions section of a page (see the module docstring).

    `current` is the page's place in `version` and `check` the check it speaks for there: that
    place's own when `one_place`, else what all of the error's places share.
    """
    indexed = [r.version for r in store.releases(package)]
    places = {v.version: v.places for v in store.error_versions(error_id)}
    sites: dict[str, tuple[Site, Check]] = {version: (current, check)}
    for v in indexed:
        if v in places and v != version:
            spoken = counterpart(store.error(error_id, v).sites, current if one_place else None)
            sites[v] = (spoken[0], check_of(spoken))
    releases = [_release_json(v, places[v], *sites[v]) for v in indexed if v in places]
    return {
        "indexed": indexed,
        "releases": releases,
        "missing_in": [v for v in indexed if v not in places],
        "text_changed": _text_changed(store, package, version, indexed, places, sites),
        "value_changes": _value_changes(releases),
    }


def _release_json(version: str, places: tuple[FileLine, ...], site: Site, check: Check) -> ReleaseCheck:
    return {
        "version": version,
        "places": [{"file": p.file, "line": p.line} for p in places],
        "function": site.function,
        "condition": check.condition,
        "resolved": check.resolved,
        "resolved_from": check.resolved_from,
        "bindings": check.bindings,
        "lists": membership_lists(parse_condition(check.condition), check.resolved),
        "exact": check.exact,
    }


def _text_changed(
    store: Store,
    package: str,
    current: str,
    indexed: list[str],
    places: dict[str, tuple[FileLine, ...]],
    sites: dict[str, tuple[Site, Check]],
) -> TextChange | None:
    """Where the run of releases having the error starts, and what the error was before, if found."""
    start = indexed.index(current)
    while start > 0 and indexed[start - 1] in places:
        start -= 1
    if start == 0:
        return None
    first, previous = indexed[start], indexed[start - 1]
    found = _predecessor(store, store.release(package, previous), store.release(package, first), sites[first][0])
    out: TextChange = {
        "version": first,
        "previous_version": previous,
        "previous_id": None,
        "previous_template": None,
    }
    if found is not None:
        out["previous_id"], out["previous_template"] = found
    return out


def _predecessor(
    store: Store, before: ReleaseRecord, after: ReleaseRecord, site: Site
) -> tuple[str, str | None] | None:
    """The error of `before` at the site's place that is gone in `after`: same function and exception, closest text."""
    exception = (site.exception or "").rsplit(".", 1)[-1] or None
    remaining = {e.error_id for e in store.errors(after.package, after.version, exception=exception, kind=site.kind)}
    best: tuple[float, str, str | None] | None = None
    for e in store.errors(before.package, before.version, exception=exception, kind=site.kind):
        old = e.site
        if e.error_id in remaining or old.function != site.function:
            continue
        score = _similarity(old, site)
        if score >= MIN_SIMILARITY and (best is None or score > best[0]):
            best = (score, e.error_id, old.template)
    return None if best is None else (best[1], best[2])


def _similarity(old: Site, new: Site) -> float:
    text = difflib.SequenceMatcher(None, old.template or old.message_source, new.template or new.message_source).ratio()
    shared_checks = bool(set(old.checks) & set(new.checks))
    same_file = old.file == new.file
    return text + 0.3 * shared_checks + 0.1 * same_file


def _value_changes(releases: list[ReleaseCheck]) -> list[ListChange]:
    changes: list[ListChange] = []
    for before, after in pairwise(releases):
        for old_name, new_name in _pairs(before, after):
            old, new = before["resolved"][old_name], after["resolved"][new_name]
            if not isinstance(old, list) or not isinstance(new, list) or old == new:
                continue
            if basis(before["bindings"].get(old_name)) != basis(after["bindings"].get(new_name)):
                continue  # one holds only under a condition the other does not have: not the same thing
            added = [v for v in new if v not in old]
            removed = [v for v in old if v not in new]
            changes.append(
                {
                    "from_version": before["version"],
                    "to_version": after["version"],
                    "name_before": old_name,
                    "name_after": new_name,
                    "added": added,
                    "removed": removed,
                    "reordered": not added and not removed,
                }
            )
    return changes


def _pairs(before: ReleaseCheck, after: ReleaseCheck) -> list[tuple[str, str]]:
    """Resolved names to compare: the same name in both releases, or the lists a membership test uses."""
    pairs = [(n, n) for n in before["resolved"] if n in after["resolved"]]
    for old_list, new_list in zip(before["lists"], after["lists"], strict=False):
        pair = (old_list["name"], new_list["name"])
        if old_list["subject"] == new_list["subject"] and pair not in pairs:
            pairs.append(pair)
    return pairs
