"""What changed in a package's errors between two indexed releases: added, removed, changed.

An error keeps its id across releases while its template does not change, so added and
removed errors are ids found in one release only. Two of those are one *changed* error when
they are raised in the same function of the same file with the same exception (its text was
reworded). An error present in both is changed when its statically resolved values (e.g. the
allowed choices it lists), its exception's bases or its guarding condition differ; when no site
of it stayed in the same function of the same file, it is also marked *moved* (which alone, a
refactoring, is not a change a user meets).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any, NotRequired, TypedDict

from errdex.model import Site
from errdex.store import IndexedSite, Store

Key = tuple[str, str, str, str | None]  # (kind, file, function, exception)


@dataclass(frozen=True)
class ValueChange:
    """One resolved name whose value differs; for lists, the items added and removed."""

    name: str
    old: Any
    new: Any
    added: list[Any] = field(default_factory=list)
    removed: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class Entry:
    """One error that was added, removed or changed; `old`/`new` are its first site in each release."""

    id: str
    old: Site | None
    new: Site | None
    old_id: str | None = None  # the id in the older release, when the template (and so the id) changed
    changes: tuple[str, ...] = ()  # "template", "values", "bases", "condition", "moved"
    values: tuple[ValueChange, ...] = ()

    @property
    def site(self) -> Site:
        site = self.new or self.old
        assert site is not None
        return site


@dataclass(frozen=True)
class ReleaseDiff:
    """The errors of `package` added, removed and changed from `old_version` to `new_version`."""

    package: str
    old_version: str
    new_version: str
    added: list[Entry]
    removed: list[Entry]
    changed: list[Entry]


def diff_releases(
    store: Store, package: str, old_version: str, new_version: str, kind: str | None = None
) -> ReleaseDiff:
    """Compare two indexed releases of a package (NotIndexedError if either is missing)."""
    old_record, new_record = store.release(package, old_version), store.release(package, new_version)
    old, new = _by_id(store.release_sites(old_record), kind), _by_id(store.release_sites(new_record), kind)
    gone = {i: old[i] for i in old.keys() - new.keys()}
    came = {i: new[i] for i in new.keys() - old.keys()}
    reworded = _pair_reworded(gone, came)
    changed = [e for e in (_compare(i, old[i], new[i]) for i in old.keys() & new.keys()) if e is not None]
    changed += reworded
    paired_old = {e.old_id for e in reworded}
    paired_new = {e.id for e in reworded}
    added = [Entry(i, None, sites[0]) for i, sites in came.items() if i not in paired_new]
    removed = [Entry(i, sites[0], None) for i, sites in gone.items() if i not in paired_old]
    return ReleaseDiff(
        old_record.package,
        old_record.version,
        new_record.version,
        _ordered(added),
        _ordered(removed),
        _ordered(changed),
    )


def _by_id(rows: list[IndexedSite], kind: str | None) -> dict[str, list[Site]]:
    out: dict[str, list[Site]] = {}
    for row in rows:
        if kind is None or row.site.kind == kind:
            out.setdefault(row.error_id, []).append(row.site)
    return out


def _ordered(entries: list[Entry]) -> list[Entry]:
    return sorted(entries, key=lambda e: (e.site.file, e.site.line, e.id))


def _pair_reworded(gone: dict[str, list[Site]], came: dict[str, list[Site]]) -> list[Entry]:
    """Removed and added errors of the same place and exception, most similar templates first."""
    by_key: dict[Key, list[str]] = {}
    for i, sites in came.items():
        by_key.setdefault(_key(sites[0]), []).append(i)
    candidates = []
    for old_id, sites in gone.items():
        for new_id in by_key.get(_key(sites[0]), []):
            score = SequenceMatcher(None, _text(sites[0]), _text(came[new_id][0])).ratio()
            candidates.append((-score, old_id, new_id))
    used_old: set[str] = set()
    used_new: set[str] = set()
    out = []
    for _, old_id, new_id in sorted(candidates):
        if old_id in used_old or new_id in used_new:
            continue
        used_old.add(old_id)
        used_new.add(new_id)
        old_site, new_site = gone[old_id][0], came[new_id][0]
        changes = ("template", *_aspects(old_site, new_site))
        out.append(Entry(new_id, old_site, new_site, old_id, changes, _values(old_site.resolved, new_site.resolved)))
    return out


def _key(site: Site) -> Key:
    return (site.kind, site.file, site.function, site.exception)


def _text(site: Site) -> str:
    return site.template if site.template is not None else site.message_source


def _compare(eid: str, old: list[Site], new: list[Site]) -> Entry | None:
    """The same error in both releases: changed if a site at the same place differs in values or checks."""
    old_at = {(s.file, s.function): s for s in reversed(old)}
    new_at = {(s.file, s.function): s for s in reversed(new)}
    places: list[tuple[str, str] | None] = [p for p in new_at if p in old_at] or [None]
    for place in places:
        a, b = (old_at[place], new_at[place]) if place else (old[0], new[0])
        aspects = _aspects(a, b)
        if aspects:
            moved = ("moved",) if place is None else ()
            return Entry(eid, a, b, None, aspects + moved, _values(a.resolved, b.resolved))
    return None


def _aspects(old: Site, new: Site) -> tuple[str, ...]:
    out = []
    if old.resolved != new.resolved:
        out.append("values")
    if old.exception_bases != new.exception_bases:
        out.append("bases")
    if old.condition != new.condition:
        out.append("condition")
    return tuple(out)


def _values(old: dict[str, Any], new: dict[str, Any]) -> tuple[ValueChange, ...]:
    out = []
    for name in sorted(old.keys() | new.keys()):
        a, b = old.get(name), new.get(name)
        if a == b:
            continue
        if isinstance(a, list) and isinstance(b, list):
            out.append(ValueChange(name, a, b, [x for x in b if x not in a], [x for x in a if x not in b]))
        else:
            out.append(ValueChange(name, a, b))
    return tuple(out)


class SiteBefore(TypedDict):
    """A changed error's site in the older release."""

    template: str | None
    file: str
    line: int
    condition: str | None
    exception_bases: list[str]


class ValueDiff(TypedDict):
    old: Any
    new: Any
    added: NotRequired[list[Any]]  # for lists whose items changed
    removed: NotRequired[list[Any]]


class EntryJson(TypedDict):
    """An added, removed or changed error, at its site in the newer release (else the older); a changed one has more."""

    id: str
    kind: str
    exception: str | None
    template: str | None
    file: str
    line: int
    function: str
    old_id: NotRequired[str]
    old: NotRequired[SiteBefore]
    changes: NotRequired[list[str]]
    values: NotRequired[dict[str, ValueDiff]]


class DiffCounts(TypedDict):
    added: int
    removed: int
    changed: int


DiffJson = TypedDict(
    "DiffJson",
    {
        "package": str,
        "from": str,
        "to": str,
        "counts": DiffCounts,
        "added": list[EntryJson],
        "removed": list[EntryJson],
        "changed": list[EntryJson],
    },
)  # the functional form: `from` is a keyword


def diff_json(diff: ReleaseDiff) -> DiffJson:
    """The diff as JSON for programs."""
    return {
        "package": diff.package,
        "from": diff.old_version,
        "to": diff.new_version,
        "counts": {"added": len(diff.added), "removed": len(diff.removed), "changed": len(diff.changed)},
        "added": [_entry_json(e) for e in diff.added],
        "removed": [_entry_json(e) for e in diff.removed],
        "changed": [_entry_json(e) for e in diff.changed],
    }


def _entry_json(entry: Entry) -> EntryJson:
    site = entry.site
    out: EntryJson = {
        "id": entry.id,
        "kind": site.kind,
        "exception": site.exception,
        "template": site.template,
        "file": site.file,
        "line": site.line,
        "function": site.function,
    }
    if entry.old is not None and entry.new is not None:
        out["old_id"] = entry.old_id or entry.id
        out["old"] = _site_json(entry.old)
        out["changes"] = list(entry.changes)
        out["values"] = {v.name: _value_json(v) for v in entry.values}
    return out


def _value_json(change: ValueChange) -> ValueDiff:
    out: ValueDiff = {"old": change.old, "new": change.new}
    if change.added or change.removed:
        out["added"], out["removed"] = change.added, change.removed
    return out


def _site_json(site: Site) -> SiteBefore:
    return {
        "template": site.template,
        "file": site.file,
        "line": site.line,
        "condition": site.condition,
        "exception_bases": list(site.exception_bases),
    }
