"""What changed in a package's public API between two indexed releases, beside its errors (`errdex diff`).

Only files whose content differs are read (a file with the same hash has the same API). A name is public when no
part of its module path or qualified name starts with `_` (dunder methods such as `__init__` count as public); a
package's `__init__` re-exports count, other modules' imports do not. A name gone from one module and new in
another under the same qualified name is `moved`; a callable whose parameters or defaults differ is `signature`;
one that warns in the new release and did not in the old is `deprecated`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypedDict

from errdex.model import ApiEntry, ApiSymbol
from errdex.store import Store

ApiChangeKind = Literal["added", "removed", "moved", "signature", "deprecated"]
_PUBLIC_KINDS = ("class", "function", "method", "property", "attribute", "lazy", "deprecated")
_EXPORT_KINDS = ("import", "exported")  # public only in a package's `__init__`


@dataclass(frozen=True, slots=True)
class ApiDiffEntry:
    """One public name that changed, with where it is (the new release's place; the old one's when removed)."""

    change: ApiChangeKind
    path: str  # "transformers.training_args.TrainingArguments"
    kind: str
    file: str
    line: int
    details: tuple[str, ...]  # "parameter `evaluation_strategy` removed", "moved from pkg.a"


class ApiDiffEntryJson(TypedDict):
    change: str
    path: str
    kind: str
    file: str
    line: int
    details: list[str]


def api_diff(store: Store, package: str, old_version: str, new_version: str) -> tuple[ApiDiffEntry, ...]:
    """The public API changes from `old_version` to `new_version` of an indexed package."""
    old_release, new_release = store.release(package, old_version), store.release(package, new_version)
    old_files = {f.path: f.hash for f in store.release_paths(old_release)}
    new_files = {f.path: f.hash for f in store.release_paths(new_release)}
    changed = sorted(p for p in old_files.keys() | new_files.keys() if old_files.get(p) != new_files.get(p))
    old = _public({p: store.api_file(old_release, p) for p in changed if p in old_files})
    new = _public({p: store.api_file(new_release, p) for p in changed if p in new_files})
    out: list[ApiDiffEntry] = []
    gone = {k: e for k, e in old.items() if k not in new}
    came = {k: e for k, e in new.items() if k not in old}
    moved_from = {_short(k): k for k in gone}
    for key, entry in came.items():
        origin = moved_from.get(_short(key))
        if origin is not None and origin in gone:
            out.append(_entry("moved", entry, (f"moved from {gone.pop(origin).module}",)))
        else:
            out.append(_entry("added", entry, ()))
    out += [_entry("removed", e, ()) for e in gone.values()]
    for key in sorted(old.keys() & new.keys()):
        before, after = old[key], new[key]
        signature = _signature_changes(before.symbol, after.symbol)
        warned = _new_warnings(before.symbol, after.symbol)
        if signature:
            out.append(_entry("signature", after, signature))
        if warned:
            out.append(_entry("deprecated", after, warned))
    order = {"removed": 0, "moved": 1, "signature": 2, "deprecated": 3, "added": 4}
    return tuple(sorted(out, key=lambda e: (order[e.change], e.path)))


def api_diff_json(entries: tuple[ApiDiffEntry, ...]) -> list[ApiDiffEntryJson]:
    return [
        {"change": e.change, "path": e.path, "kind": e.kind, "file": e.file, "line": e.line, "details": list(e.details)}
        for e in entries
    ]


Key = tuple[str, str, str]  # (module, qualified name, kind group)


def _public(files: dict[str, list[ApiSymbol]]) -> dict[Key, ApiEntry]:
    out: dict[Key, ApiEntry] = {}
    for path, symbols in files.items():
        package_init = path.endswith("__init__.py")
        for symbol in symbols:
            entry = ApiEntry(path, symbol)
            if not _is_public(entry) or symbol.qualname in ("*", "<module>"):
                continue
            if symbol.kind in _PUBLIC_KINDS or (package_init and symbol.kind in _EXPORT_KINDS):
                group = "export" if symbol.kind in (*_EXPORT_KINDS, "lazy") else symbol.kind
                out.setdefault((entry.module, symbol.qualname, group), entry)
    return out


def _is_public(entry: ApiEntry) -> bool:
    parts = [*entry.module.split("."), *entry.symbol.qualname.split(".")]
    return not any(p.startswith("_") and not (p.startswith("__") and p.endswith("__")) for p in parts)


def _short(key: Key) -> tuple[str, str]:
    return key[1], key[2]


def _entry(change: ApiChangeKind, entry: ApiEntry, details: tuple[str, ...]) -> ApiDiffEntry:
    return ApiDiffEntry(change, entry.path, entry.symbol.kind, entry.file, entry.symbol.line, details)


def _signature_changes(old: ApiSymbol, new: ApiSymbol) -> tuple[str, ...]:
    if old.params is None or new.params is None:
        return ()
    before = {p.name: p for p in old.params}
    after = {p.name: p for p in new.params}
    out = [f"parameter `{name}` removed" for name in before if name not in after]
    out += [f"parameter `{name}` added" for name in after if name not in before]
    for name in before.keys() & after.keys():
        was, now = before[name], after[name]
        if was.kind != now.kind:
            out.append(f"parameter `{name}`: {was.kind} → {now.kind}")
        elif was.default != now.default:
            out.append(f"parameter `{name}`: default {was.default or '(none)'} → {now.default or '(none)'}")
    return tuple(sorted(out))


def _new_warnings(old: ApiSymbol, new: ApiSymbol) -> tuple[str, ...]:
    known = {d.name for d in old.deprecations}
    return tuple(
        f"warns about `{d.name}`" + (f" (instead: `{d.replacement}`)" if d.replacement else "")
        for d in new.deprecations
        if d.name not in known
    )
