"""The error across the indexed releases of its package: where it is, when its text changed, how its values changed.

- `releases`: each indexed release that has the error, with its places and the check of the places the
  page speaks for there (the same function's place for a page about one place; else what all share);
- `same_check`: indexed releases without the error that have its check under another text: an error of
  the same kind and exception, raised in the same function under a condition of the same shape, that the
  page's release does not have (the message was reworded; error ids follow the text, so it has another);
  `difference` says how its condition differs when it is not the same (as code, each compared value
  written out): then it is a related check, never "the same check";
- `same_message`: indexed releases without the error or its check that raise its very message as another
  exception class (an error's id includes its class: there it is another error);
- `missing_in`: indexed releases with none of these;
- `text_changed`: the first release of the run of releases (up to the page's one) that has the
  error, and the same check in the release before it, if that release has it (a related one is not);
- `value_changes`: between consecutive releases, the names added to or removed from each resolved
  list, matched by name, or by role when the condition checks membership in a renamed list; only
  when both values hold on the same basis (both always, or both under the same condition);
- `summary`: all of that in one sentence, worded as what the indexed releases show, never as what
  happened before or after them; a release without the message is said not to have the message (not the
  check), with the scope of `same_check`, which does not see a check moved or re-conditioned.
"""

from __future__ import annotations

import ast
import difflib
import json
from collections.abc import Mapping
from itertools import groupby, pairwise

from errdex.model import FileLine, JsonValue, Site
from errdex.pages.bindings import basis
from errdex.pages.conditions import membership_lists, parse_condition
from errdex.pages.model import ListChange, ReleaseCheck, SameCheck, SameMessage, TextChange, VersionHistory
from errdex.pages.scope import Check, check_of, counterpart
from errdex.store import Store

MIN_SIMILARITY = 0.6  # how alike the texts of an unguarded raise must be to be the same check


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
    same = _same_checks(store, package, version, [v for v in indexed if v not in places], current)
    message = _same_messages(store, package, [v for v in indexed if v not in places and v not in same], current)
    missing = [v for v in indexed if v not in places and v not in same and v not in message]
    return {
        "indexed": indexed,
        "releases": releases,
        "same_check": list(same.values()),
        "same_message": list(message.values()),
        "missing_in": missing,
        "text_changed": _text_changed(version, indexed, places, same),
        "value_changes": _value_changes(releases),
        "summary": _summary(package, indexed, places, same, message),
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
    current: str, indexed: list[str], places: dict[str, tuple[FileLine, ...]], same: dict[str, SameCheck]
) -> TextChange | None:
    """Where the run of releases having the error starts, and the same check in the release before, if it has it."""
    start = indexed.index(current)
    while start > 0 and indexed[start - 1] in places:
        start -= 1
    if start == 0:
        return None
    previous = same.get(indexed[start - 1])
    previous = previous if previous is not None and previous["difference"] is None else None
    return {
        "version": indexed[start],
        "previous_version": indexed[start - 1],
        "previous_id": previous["id"] if previous else None,
        "previous_template": previous["template"] if previous else None,
    }


def _same_checks(store: Store, package: str, version: str, others: list[str], site: Site) -> dict[str, SameCheck]:
    """For each release of `others`, the error there that is the site's check under another text, if any."""
    if not others:
        return {}
    exception = _short(site.exception)
    here = {e.error_id for e in store.errors(package, version, exception=exception, kind=site.kind)}
    found: dict[str, SameCheck] = {}
    for other in others:
        best: tuple[float, SameCheck] | None = None
        for e in store.errors(package, other, exception=exception, kind=site.kind):
            score = _same_check_score(e.site, site) if e.error_id not in here else None
            if score is not None and (best is None or score > best[0]):
                same: SameCheck = {
                    "version": other,
                    "id": e.error_id,
                    "template": e.site.template,
                    "file": e.site.file,
                    "line": e.site.line,
                    "difference": _difference(e.site, site, other, version),
                }
                best = (score, same)
        if best is not None:
            found[other] = best[1]
    return found


def _same_messages(store: Store, package: str, others: list[str], site: Site) -> dict[str, SameMessage]:
    """For each release of `others`, the first error there with the site's very message, of the same kind (under
    another exception class: with the same one it would be the same error)."""
    found: dict[str, SameMessage] = {}
    for other in others if site.template is not None else []:
        for e in store.errors(package, other, kind=site.kind, template=site.template)[:1]:
            found[other] = {
                "version": other,
                "id": e.error_id,
                "exception": e.site.exception,
                "file": e.site.file,
                "line": e.site.line,
            }
    return found


def _same_check_score(old: Site, new: Site) -> float | None:
    """How alike two messages of one check are, or None when the sites are not the same check.

    The check is raised in the same function, of the same exception, under a condition of the same shape
    (compared as code, so that spacing and parentheses do not count, the values it compares with made one:
    `_difference` says whether they are the same). A raise no condition guards
    is the same check only when its message is still mostly the same text.
    """
    if old.function != new.function or _short(old.exception) != _short(new.exception):
        return None
    if _as_code(old) != _as_code(new):
        return None
    text = difflib.SequenceMatcher(None, old.template or old.message_source, new.template or new.message_source).ratio()
    return text if new.condition is not None or text >= MIN_SIMILARITY else None


def _difference(old: Site, new: Site, there: str, here: str) -> str | None:
    """How the condition of the check in another release differs from this one's, None when it is the same: the same
    code once each value it compares with is written out (a list renamed is the same; a list grown is not)."""
    if _as_code(old, old.resolved) == _as_code(new, new.resolved):
        return None
    if old.condition != new.condition:
        return f"another condition: `{old.condition}` in {there}, `{new.condition}` in {here}"
    names = [n for n in sorted(old.resolved.keys() | new.resolved.keys()) if old.resolved.get(n) != new.resolved.get(n)]
    values = "; ".join(
        f"`{n}` is {_shown(old.resolved.get(n))} in {there}, {_shown(new.resolved.get(n))} in {here}" for n in names
    )
    return f"the same condition `{new.condition}` with other values: {values}"


def _shown(value: JsonValue) -> str:
    return "not resolved" if value is None else f"`{json.dumps(value)}`"


def _short(exception: str | None) -> str | None:
    return (exception or "").rsplit(".", 1)[-1] or None


def _as_code(site: Site, values: Mapping[str, JsonValue] | None = None) -> str | None:
    """The site's condition as a tree, the values it compares with made one placeholder (a list renamed or grown is
    still its check: how its values changed is `value_changes`' and `difference`'s to say), or each written out as
    its `values` (then only the very same values compare equal)."""
    node = parse_condition(site.condition)
    if node is None:
        return site.condition
    return ast.dump(_Resolved(frozenset(site.resolved), values).visit(node))


class _Resolved(ast.NodeTransformer):
    """Replaces the values a check compares with: each name (or `self.name`) the site resolved, and each
    collection written out of constants (`x not in ('orm', 'auto')`), with one placeholder name, or with a name
    spelling its value when `values` are given (a tuple and a list of the same items alike)."""

    def __init__(self, names: frozenset[str], values: Mapping[str, JsonValue] | None = None) -> None:
        self.names = names
        self.values = values

    def _placeholder(self, value: object) -> ast.Name:
        return ast.Name("<resolved>" if self.values is None else repr(value))

    def visit_Tuple(self, node: ast.Tuple) -> ast.AST:
        return self._collection(node)

    def visit_List(self, node: ast.List) -> ast.AST:
        return self._collection(node)

    def visit_Set(self, node: ast.Set) -> ast.AST:
        return self._collection(node)

    def _collection(self, node: ast.Tuple | ast.List | ast.Set) -> ast.AST:
        if not all(isinstance(e, ast.Constant) for e in node.elts):
            return self.generic_visit(node)
        return self._placeholder([e.value for e in node.elts if isinstance(e, ast.Constant)])

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return self._placeholder(self._value(node.id)) if node.id in self.names else node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        code = ast.unparse(node)
        return self._placeholder(self._value(code)) if code in self.names else self.generic_visit(node)

    def _value(self, name: str) -> JsonValue:
        return self.values.get(name) if self.values is not None else None


def _summary(
    package: str,
    indexed: list[str],
    places: dict[str, tuple[FileLine, ...]],
    same: dict[str, SameCheck],
    message: dict[str, SameMessage],
) -> str:
    """What the indexed releases show, release by release in order, consecutive releases alike grouped (a release
    raising the message as another class is said on its own, with its class and place)."""
    if len(indexed) == 1:
        return f"Only {package} {indexed[0]} is indexed: other releases are not compared."

    def state(v: str) -> str:
        if v in places:
            return "has"
        if v in same:
            return "same" if same[v]["difference"] is None else "related"
        return v if v in message else "missing"

    parts = []
    for kind, group in groupby(indexed, key=state):
        versions = list(group)
        if kind in message:
            found = message[kind]
            parts.append(
                f"{kind} raises the same message as {found['exception'] or 'another exception'}"
                f" at {found['file']}:{found['line']}"
            )
            continue
        plural = len(versions) > 1
        said = {
            "has": "have it" if plural else "has it",
            "same": "have the same check with other wording" if plural else "has the same check with other wording",
            "related": (
                f"{'have' if plural else 'has'} a related check in the same function that tests otherwise (how is"
                " quoted with it above), with other wording"
            ),
            "missing": "do not have this message" if plural else "does not have this message",
        }[kind]
        parts.append(f"{_listed(versions)} {said}")
    summary = f"Among the indexed releases of {package}: " + "; ".join(parts) + "."
    return summary + (SCOPE if any(state(v) == "missing" for v in indexed) else "")


SCOPE = (
    " A check whose wording changed is recognised only when it is raised in the same function, of the same"
    " exception, under the same condition: one that moved to another function or changed its condition is not,"
    " so a release without this message may still raise the same check in other words."
)


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


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
    """Resolved names to compare: the same name in both releases, or the named lists a membership test uses (a list
    written out in the check changes with the check's own text)."""
    pairs = [(n, n) for n in before["resolved"] if n in after["resolved"]]
    for old_list, new_list in zip(before["lists"], after["lists"], strict=False):
        pair = (old_list["name"], new_list["name"])
        named = pair[0] in before["resolved"] and pair[1] in after["resolved"]  # a list written in the check is not
        if named and old_list["subject"] == new_list["subject"] and pair not in pairs:
            pairs.append(pair)
    return pairs
