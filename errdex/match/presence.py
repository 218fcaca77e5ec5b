"""What each indexed release of a package has of one name: a module, a name in a module, a member of a class, a
parameter of a callable — defined, deprecated (it warns), absent, or unknown (a `**kwargs`, a star import from
outside the release, a `__getattr__` that serves names not read statically).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal, NamedTuple

from errdex.model import ApiDeprecation, ApiEntry
from errdex.store import Store

State = Literal["present", "deprecated", "absent", "unknown"]
MAX_BASES = 6  # base classes followed, nearest first, for inherited fields, methods and `__init__`
MAX_STARS = 4  # star imports followed in depth
_DEFINED = ("class", "function", "method", "property", "attribute", "import", "lazy")


@dataclass(frozen=True, slots=True)
class ReleaseState:
    """Whether one indexed release has the name (or parameter), and where.

    `reason` says why a state is `unknown` ("accepts **kwargs", "imports * from numpy.core") or how a name is
    `absent` ("its `__getattr__` refuses it"); `warning` is the deprecation's message, `replacement` what it names.
    """

    version: str
    state: State
    file: str | None = None
    line: int | None = None
    reason: str | None = None
    warning: str | None = None
    replacement: str | None = None


# -- what each release has -------------------------------------------------------------------------------


def module_paths(module: str) -> list[str]:
    """The files that can hold a module: `a/b.py` or `a/b/__init__.py`."""
    base = module.replace(".", "/")
    return [f"{base}.py", f"{base}/__init__.py"]


def module_states(store: Store, package: str, module: str) -> list[ReleaseState]:
    """Whether each release has the module, and whether it warns on import that it is deprecated."""
    paths = module_paths(module)
    warned = store.api_qualnamed(package, ["<module>"])
    out = []
    for version, has in store.release_has_paths(package, paths).items():
        path = next((p for p in paths if p in has), None)
        warning = next((e for e in warned.get(version, []) if e.file == path), None)
        if warning is not None:
            d = warning.symbol.deprecations[0] if warning.symbol.deprecations else None
            message, replacement = (d.message, d.replacement) if d else (warning.symbol.message, None)
            out.append(ReleaseState(version, "deprecated", path, warning.symbol.line, None, message, replacement))
        else:
            out.append(ReleaseState(version, "present" if path else "absent", file=path))
    return out


class _ReleaseNames:
    """One release's entries for one name and its modules' open ends (star imports, `__all__`, `__getattr__`)."""

    def __init__(self, named: list[ApiEntry], open_ended: list[ApiEntry], files: set[str]) -> None:
        self.named = named
        self.open_ended = open_ended
        self.files = files  # the files of the modules that star imports reach, that the release has

    def exported_by(self, module: str, name: str, depth: int = 0) -> Reach:
        """Whether `from module import *` brings `name` (`present`, `absent` or `unknown`), and its entry there."""
        if depth > MAX_STARS or not any(p in self.files for p in module_paths(module)):
            return Reach("unknown", None)  # a module outside the release (or too deep to follow)
        own = [e for e in self.named if e.module == module and e.symbol.qualname == name]
        defined = next((e for e in own if e.symbol.kind in _DEFINED), None)
        ends = [e for e in self.open_ended if e.module == module]
        if any(e.symbol.qualname == "__all__" and e.symbol.kind == "attribute" for e in ends):
            if any(e.symbol.kind == "exported" for e in own):
                return Reach("present", defined)
            takes_in = [e.symbol.target for e in ends if e.symbol.kind == "exported"]
            return _either(self.exported_by(t, name, depth + 1) if t else Reach("unknown", None) for t in takes_in)
        if not name.startswith("_") and defined is not None:
            return Reach("present", defined)
        stars = [e.symbol.target for e in ends if e.symbol.kind == "star" and e.symbol.target]
        return _either(self.exported_by(t, name, depth + 1) for t in stars)


class Reach(NamedTuple):
    """What following star imports found: the state, and the entry that defines the name (when present)."""

    state: State
    entry: ApiEntry | None


def _either(reaches: Iterable[Reach]) -> Reach:
    """Present if any way brings the name, unknown if none does but one cannot be read, else absent."""
    seen = list(reaches)
    for wanted in ("present", "unknown"):
        found = next((r for r in seen if r.state == wanted), None)
        if found is not None:
            return found
    return Reach("absent", None)


def name_states(store: Store, package: str, module: str, name: str) -> list[ReleaseState]:
    """Whether each release's module defines, imports or lazily exports `name`, warns about it or refuses it."""
    paths = module_paths(module)
    files = store.release_has_paths(package, paths)
    named = store.api_named(package, name)
    open_ended, reachable = _open_ends(store, package, module)
    tabled = store.api_lazy_tabled(package, paths)
    out = []
    for version, has in files.items():
        if not has:
            out.append(ReleaseState(version, "absent", reason=f"it has no module {module}"))
            continue
        names = _ReleaseNames(named.get(version, []), open_ended.get(version, []), reachable.get(version, set()) | has)
        out.append(_state_of(version, module, name, names, bool(tabled.get(version))))
    if all(s.state in ("present", "deprecated") for s in out):
        return out
    submodule = {s.version: s for s in module_states(store, package, f"{module}.{name}")}
    in_module = {version for version, has in files.items() if has}

    def with_submodule(state: ReleaseState) -> ReleaseState:  # `from pkg import sub` imports a submodule too
        inner = submodule.get(state.version)
        lacking = state.state in ("absent", "unknown") and state.version in in_module
        return inner if lacking and inner and inner.state != "absent" else state

    return [with_submodule(s) for s in out]


def _open_ends(store: Store, package: str, module: str) -> tuple[dict[str, list[ApiEntry]], dict[str, set[str]]]:
    """Per release: the open ends (star imports, `__all__`, a `__getattr__` that serves names) of the module and of
    the modules its star imports and `__all__` take names from, and which of those modules' files it has."""
    ends: dict[str, list[ApiEntry]] = {}
    files: dict[str, set[str]] = {}
    seen: set[str] = set()
    wanted = {module}
    for _ in range(MAX_STARS + 1):
        wanted -= seen
        if not wanted:
            break
        seen |= wanted
        paths = [p for m in sorted(wanted) for p in module_paths(m)]
        for version, has in store.release_has_paths(package, paths).items():
            files.setdefault(version, set()).update(has)
        found = store.api_qualnamed(package, ["*", "__all__"], paths)
        for version, entries in found.items():
            ends.setdefault(version, []).extend(entries)
        wanted = {e.symbol.target for entries in found.values() for e in entries if e.symbol.target}
    return ends, files


def _state_of(version: str, module: str, name: str, names: _ReleaseNames, tabled: bool) -> ReleaseState:
    """The release's state of `name` in `module`; `tabled`: the module hands a lazy table read statically to what
    makes its `__getattr__` (`_LazyModule`, `_attach`), which serves the table's names and refuses others."""
    here = [e for e in names.named if e.module == module and e.symbol.qualname == name]
    removed = [e for e in here if e.symbol.kind == "removed"]
    if removed:
        e = removed[0]
        return ReleaseState(
            version, "absent", e.file, e.symbol.line, "the module's `__getattr__` refuses it", e.symbol.message
        )
    defined = [e for e in here if e.symbol.kind in _DEFINED]
    for entry in defined:  # the definition itself warns, or the import leads to one that does
        for d in _own_deprecations(entry, names.named):
            return ReleaseState(version, "deprecated", entry.file, entry.symbol.line, None, d.message, d.replacement)
    if defined:
        e = defined[0]
        return ReleaseState(version, "present", e.file, e.symbol.line)
    warned = [e for e in here if e.symbol.kind == "deprecated"]
    if warned:
        e = warned[0]
        return ReleaseState(version, "deprecated", e.file, e.symbol.line, None, e.symbol.message, None)
    ends = [e for e in names.open_ended if e.module == module]
    stars = sorted({e.symbol.target for e in ends if e.symbol.kind == "star" and e.symbol.target})
    through = _either(names.exported_by(t, name) for t in stars)
    if through.state == "present" and through.entry is not None:
        entry = through.entry
        for d in _own_deprecations(entry, names.named):
            return ReleaseState(version, "deprecated", entry.file, entry.symbol.line, None, d.message, d.replacement)
        return ReleaseState(version, "present", entry.file, entry.symbol.line)
    if through.state == "present":
        return ReleaseState(version, "present", reason=f"imported with * from {', '.join(stars)}")
    if through.state == "unknown":
        return ReleaseState(version, "unknown", reason=f"the module imports * from {', '.join(stars)}")
    if not tabled and any(e.symbol.kind == "lazy" for e in ends):
        return ReleaseState(
            version, "unknown", reason="the module's `__getattr__` may provide names not read statically"
        )
    return ReleaseState(version, "absent")


def _own_deprecations(entry: ApiEntry, same_name: list[ApiEntry]) -> list[ApiDeprecation]:
    symbol = entry.symbol
    own = [d for d in symbol.deprecations if d.name == symbol.leaf]
    if own or symbol.kind not in ("import", "lazy") or not symbol.target:
        return own
    target_module, _, target_name = symbol.target.rpartition(".")
    for other in same_name:
        if other.module == target_module and other.symbol.qualname == target_name and other.symbol.kind != "import":
            return [d for d in other.symbol.deprecations if d.name == other.symbol.leaf]
    return []


def member_states(store: Store, package: str, owner: str, name: str) -> list[ReleaseState]:
    """Whether each release's class `owner` (or a base of it) has the attribute, method or property `name`."""
    classes = _class_chains(store, package, owner)
    members = store.api_qualnamed(package, sorted({f"{c}.{name}" for chain in classes.values() for c in chain}))
    out = []
    for version, chain in classes.items():
        if not chain:
            out.append(ReleaseState(version, "absent", reason=f"it has no class {owner}"))
            continue
        found = [e for c in chain for e in members.get(version, []) if e.symbol.qualname == f"{c}.{name}"]
        if not found:
            out.append(ReleaseState(version, "absent"))
            continue
        e = found[0]
        deprecation = next((d for d in e.symbol.deprecations if d.name == name), None)
        if deprecation is not None:
            out.append(
                ReleaseState(
                    version, "deprecated", e.file, e.symbol.line, None, deprecation.message, deprecation.replacement
                )
            )
        else:
            out.append(ReleaseState(version, "present", e.file, e.symbol.line))
    return out


def _class_chains(store: Store, package: str, owner: str) -> dict[str, list[str]]:
    """Per release: the class `owner` and its base classes found in the release, nearest first (by name)."""
    versions = [r.version for r in store.releases(package)]
    chains: dict[str, list[str]] = {v: [] for v in versions}
    wanted = {owner}
    seen: set[str] = set()
    for _ in range(MAX_BASES):
        wanted -= seen
        if not wanted:
            break
        seen |= wanted
        found = store.api_qualnamed(package, sorted(wanted))
        nxt: set[str] = set()
        for version, entries in found.items():
            for e in entries:
                if (
                    e.symbol.kind == "class"
                    and e.symbol.qualname in wanted
                    and e.symbol.qualname not in chains[version]
                ):
                    chains[version].append(e.symbol.qualname)
                    nxt.update(b.rpartition(".")[2] for b in e.symbol.bases)
        wanted = nxt - {"object", "Generic", "ABC", "Protocol"}
    return chains


def _signatures(store: Store, package: str, owner: str) -> dict[str, list[list[ApiEntry]]]:
    """Per release, the signatures `owner` may mean ("Cls" for its `__init__`, "Cls.method", "function"), each as the
    entries whose parameters make it: one for a class's method; one per function of that name otherwise."""
    cls, _, method = owner.rpartition(".") if "." in owner else ("", "", owner)
    if not cls and method[:1].isupper():
        cls, method = method, "__init__"
    if cls:
        chains = _class_chains(store, package, cls)
        qualnames = sorted(
            {q for chain in chains.values() for c in chain for q in (c, f"{c}.{method}", f"{c}.__post_init__")}
        )
        entries = store.api_qualnamed(package, qualnames)
        found = {v: _signature_entries(chain, method, entries.get(v, [])) for v, chain in chains.items()}
        return {v: [e] if e else [] for v, e in found.items()}
    functions = store.api_named(package, method)
    return {
        r.version: [[e] for e in functions.get(r.version, []) if e.symbol.kind == "function"]
        for r in store.releases(package)
    }


def parameter_states(store: Store, package: str, owner: str, name: str) -> list[ReleaseState]:
    """Whether each release's callable `owner` takes the parameter `name` (any of several functions of that name)."""
    out = []
    for version, alternatives in _signatures(store, package, owner).items():
        states = [_takes(version, name, entries) for entries in alternatives]
        if not states:
            out.append(ReleaseState(version, "unknown", reason="its signature was not found"))
            continue
        for wanted in ("deprecated", "present", "unknown", "absent"):
            chosen = next((s for s in states if s.state == wanted), None)
            if chosen is not None:
                out.append(chosen)
                break
    return out


def call_states(store: Store, package: str, owner: str, fits: Callable[[list[ApiEntry]], bool]) -> list[ReleaseState]:
    """Whether each release's callable `owner` accepts a call, as `fits` judges the entries of a signature: `present`
    when one of its signatures does, `absent` when none does, `unknown` when none was found."""
    out = []
    for version, alternatives in _signatures(store, package, owner).items():
        if not alternatives:
            out.append(ReleaseState(version, "unknown", reason="its signature was not found"))
            continue
        first = alternatives[0][0]
        state: State = "present" if any(map(fits, alternatives)) else "absent"
        out.append(ReleaseState(version, state, first.file, first.symbol.line))
    return out


def parameters(store: Store, package: str, version: str, owner: str) -> list[str]:
    """The parameter names of `owner`'s signatures in one release."""
    alternatives = _signatures(store, package, owner).get(version, [])
    return [p.name for entries in alternatives for e in entries for p in e.symbol.params or ()]


def members(store: Store, package: str, version: str, owner: str) -> list[str]:
    """The member names of class `owner` and its bases in one release."""
    chain = _class_chains(store, package, owner).get(version, [])
    record = store.release(package, version)
    return [symbol.leaf for cls in chain for symbol in store.api_prefixed(record, f"{cls}.")]


def names_in_module(store: Store, package: str, version: str, module: str, depth: int = 0) -> list[str]:
    """The top-level names a module of one release defines, imports or exports, with those its star imports bring
    from the release's other modules."""
    record = store.release(package, version)
    symbols = [s for path in module_paths(module) for s in store.api_file(record, path)]
    own = [s.qualname for s in symbols if "." not in s.qualname and s.kind in (*_DEFINED, "exported", "deprecated")]
    if depth < MAX_STARS:
        for star in (s for s in symbols if s.kind == "star" and s.target):
            own += names_in_module(store, package, version, star.target or "", depth + 1)
    return [name for name in own if name != "*"]


def submodules(store: Store, package: str, version: str, parent: str) -> list[str]:
    """The names of a package's modules in one release (`parent` "" for the top level)."""
    record = store.release(package, version)
    prefix = f"{parent.replace('.', '/')}/" if parent else ""
    out = set()
    for f in store.release_paths(record):
        if f.path.startswith(prefix):
            head = f.path[len(prefix) :].split("/", 1)[0]
            out.add(head.removesuffix(".py"))
    return sorted(out - {"__init__"})


def close_names(name: str, candidates: Iterable[str], limit: int = 3) -> list[str]:
    """The candidates spelled most like `name` (by edit similarity, at least 60 of 100)."""
    from rapidfuzz import fuzz, process

    unique = sorted(set(candidates) - {name})
    found = process.extract(name, unique, scorer=fuzz.ratio, score_cutoff=60, limit=limit)
    return [match for match, _, _ in found]


def _signature_entries(chain: list[str], method: str, entries: list[ApiEntry]) -> list[ApiEntry]:
    """The entries whose parameters make the call's signature: the nearest class defining `method`; for `__init__`,
    a dataclass's fields (its own and its dataclass bases') and its `__post_init__` (where deprecations warn)."""
    by_name = {e.symbol.qualname: e for e in entries if e.symbol.kind in ("class", "method", "function")}
    out: list[ApiEntry] = []
    for cls in chain:
        own = by_name.get(f"{cls}.{method}")
        if own is not None:
            return [*out, own]
        if method == "__init__":
            declared = by_name.get(cls)
            if declared is not None and declared.symbol.params is not None:
                out.append(declared)
                post = by_name.get(f"{cls}.__post_init__")
                if post is not None:
                    out.append(post)
    return out


def _takes(version: str, name: str, entries: list[ApiEntry]) -> ReleaseState:
    if not entries:
        return ReleaseState(version, "unknown", reason="its signature was not found")
    for e in entries:
        for d in e.symbol.deprecations:
            if d.name == name:
                return ReleaseState(version, "deprecated", e.file, d.line, None, d.message, d.replacement)
    params = [
        p
        for e in entries
        if e.symbol.kind != "method" or not e.symbol.qualname.endswith("__post_init__")
        for p in e.symbol.params or ()
    ]
    first = entries[0]
    if any(p.name == name and p.kind not in ("var_positional", "var_keyword") for p in params):
        return ReleaseState(version, "present", first.file, first.symbol.line)
    if any(p.kind == "var_keyword" for p in params):
        return ReleaseState(version, "unknown", first.file, first.symbol.line, "it accepts **kwargs")
    return ReleaseState(version, "absent", first.file, first.symbol.line)
