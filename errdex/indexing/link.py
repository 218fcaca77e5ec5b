"""Link only what changed: a file's linked sites are reused while nothing they were built from changed.

Linking a release (see `errdex.extract.package`) gives each file's sites their cross-module
values and exception bases; what a file's sites depend on is its own analysis and what linking
read of the others: the text of modules whose names it looked up, the classes and imports
(the "shape") of files it followed a class through, which module names exist and where, and
which files define a class of a given name. While linking, every such read is recorded per
file, as a trace. When a later release of the package is indexed, a file whose hash and every recorded read
are the same there has the same sites, so they are copied inside the store instead of being
linked and written again (the verifying-trace rule of build systems: sound while every read
is recorded, which `tests/test_index_reuse.py` checks against cold indexes).

The trace also keeps each file's hash, shape digest, class names and skip reason, so that an
unchanged file's analysis is never decompressed or parsed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from errdex.blobs import pack, unpack
from errdex.extract.file import parser_warnings_silenced
from errdex.extract.package import Release, class_info, file_sites
from errdex.extract.records import ClassRecord, FileAnalysis
from errdex.extract.scope import ModuleScope, module_name
from errdex.jsontext import dumps
from errdex.model import ClassInfo, Site

Loader = Callable[[list[str]], dict[str, FileAnalysis]]  # hashes -> their analyses


@dataclass(frozen=True, slots=True)
class FileFacts:
    """What the trace keeps of a file's analysis (see `file_facts`)."""

    shape: str  # digest of what other files' links may read of it: classes, imports, calls
    classes: list[str]  # qualnames of its classes
    skip: str | None  # why it was not analysed
    callees: list[str]  # the names its recorded calls call


@dataclass
class FileTrace:
    """What linking one file read: texts and shapes of files, module names, class names and helper names looked up."""

    texts: set[str] = field(default_factory=set)
    shapes: set[str] = field(default_factory=set)
    modules: set[str] = field(default_factory=set)
    names: set[str] = field(default_factory=set)
    callers: set[str] = field(default_factory=set)  # names of raise helpers whose calling files were looked up


@dataclass
class ReleaseTrace:
    """A release's files (path -> hash, in source order) with the classes, skip reason and trace of each."""

    hashes: dict[str, str]
    shapes: dict[str, str]  # path -> digest of its analysis' classes and imports
    classes: dict[str, list[str]]  # path -> qualnames of its classes (files that have some)
    skips: dict[str, str]  # path -> why it was not analysed (skipped files only)
    files: dict[str, FileTrace]
    callees: dict[str, list[str]] = field(
        default_factory=dict
    )  # path -> names its recorded calls call (files that have some)

    def modules(self) -> dict[str, str]:
        """Module name -> path, as `Release.paths` had it."""
        return {module_name(p): p for p in self.hashes}

    def names(self) -> dict[str, list[str]]:
        """Class name -> the paths defining it, in file order, as `Release` indexes them."""
        out: dict[str, list[str]] = {}
        for path in self.hashes:
            for qualname in self.classes.get(path, ()):
                out.setdefault(qualname.rsplit(".", 1)[-1], []).append(path)
        return out

    def callers(self) -> dict[str, list[str]]:
        """Called name -> the paths whose calls call it, in file order, as `Release.callers` has them."""
        out: dict[str, list[str]] = {}
        for path in self.hashes:
            for name in self.callees.get(path, ()):
                out.setdefault(name, []).append(path)
        return out


@dataclass(frozen=True)
class Linked:
    """The result of linking a release against the trace of an earlier one."""

    sites: list[Site]  # the sites of the files linked again
    classes: list[ClassInfo]  # the classes of the files linked again
    reused: list[str]  # files whose sites and classes are the earlier release's
    trace: ReleaseTrace


def link_release(
    hashes: dict[str, str],
    read_text: Callable[[str], str | None],
    analyses: dict[str, FileAnalysis],
    load: Loader,
    previous: ReleaseTrace | None,
    facts: Mapping[str, FileFacts] | None = None,
) -> Linked:
    """Link the files of `hashes` (path -> hash, in source order), reusing what `previous` allows.

    `analyses` holds the analyses at hand (by hash); others are loaded only when needed.
    `facts` (by hash) are the `file_facts` of new files, when the workers that analysed them
    computed them too. Linking reads modules' code again: the parser's warnings about it are silenced.
    """
    with parser_warnings_silenced():
        return _link(hashes, read_text, analyses, load, previous, facts)


def _link(
    hashes: dict[str, str],
    read_text: Callable[[str], str | None],
    analyses: dict[str, FileAnalysis],
    load: Loader,
    previous: ReleaseTrace | None,
    facts: Mapping[str, FileFacts] | None,
) -> Linked:
    known_facts = facts or {}
    old = previous or ReleaseTrace({}, {}, {}, {}, {})
    kept = {p for p, h in hashes.items() if old.hashes.get(p) == h}
    wanted = [h for h in dict.fromkeys(h for p, h in hashes.items() if p not in kept) if h not in analyses]
    analyses.update(load(wanted))
    trace = ReleaseTrace(hashes, {}, {}, {}, {})
    for path, h in hashes.items():
        if path in kept:
            facts_of = FileFacts(
                old.shapes[path], old.classes.get(path, []), old.skips.get(path), old.callees.get(path, [])
            )
        else:
            facts_of = known_facts.get(h) or file_facts(analyses[h])
        trace.shapes[path] = facts_of.shape
        if facts_of.classes:
            trace.classes[path] = facts_of.classes
        if facts_of.callees:
            trace.callees[path] = facts_of.callees
        if facts_of.skip:
            trace.skips[path] = facts_of.skip
    clean = _clean(old, trace, kept)
    dirty = [p for p in hashes if p not in clean]
    analyses.update(load([h for h in dict.fromkeys(hashes[p] for p in dirty) if h not in analyses]))
    trace.files.update((p, old.files[p]) for p in clean)
    sites = (
        _link_files(_TracingRelease(_Analyses(trace, analyses, load), read_text), sorted(dirty), trace) if dirty else []
    )
    classes = [class_info(path, c) for path in sorted(dirty) for c in analyses[hashes[path]].classes]
    return Linked(sites, classes, sorted(clean), trace)


def _link_files(release: _TracingRelease, paths: list[str], trace: ReleaseTrace) -> list[Site]:
    """The sites of `paths`, recording what linking each one reads into `trace`."""
    sites: list[Site] = []
    try:
        for path in paths:
            trace.files[path] = release.trace = FileTrace()
            sites.extend(file_sites(release, path))
    finally:
        release.close()
    return sites


def file_facts(analysis: FileAnalysis) -> FileFacts:
    """What the trace keeps of an analysis: the digest of its shape (what other files' links may read of it:
    classes, imports, calls), its class names, its skip reason, the names its calls call."""
    shape = dumps(
        [
            [c.to_json() for c in analysis.classes],
            {k: list(v) for k, v in analysis.imports.items()},
            [c.to_json() for c in analysis.calls],
        ],
        sort_keys=True,
    )
    digest = hashlib.sha256(shape).hexdigest()[:24]
    return FileFacts(digest, [c.qualname for c in analysis.classes], analysis.skip, analysis.callees())


def _clean(old: ReleaseTrace, new: ReleaseTrace, kept: set[str]) -> set[str]:
    """Files of `old` whose content, and everything linking them read, is the same in `new`."""
    changed = old.hashes.keys() - kept
    old_modules, new_modules = old.modules(), new.modules()
    moved = {m for m in old_modules.keys() | new_modules.keys() if old_modules.get(m) != new_modules.get(m)}
    old_names, new_names = old.names(), new.names()
    renamed = {n for n in old_names.keys() | new_names.keys() if old_names.get(n) != new_names.get(n)}
    reshaped = {p for p in old.shapes if old.shapes[p] != new.shapes.get(p)}
    old_callers, new_callers = old.callers(), new.callers()
    recalled = {n for n in old_callers.keys() | new_callers.keys() if old_callers.get(n) != new_callers.get(n)}
    return {
        path
        for path, t in old.files.items()
        if path in kept
        and t.texts.isdisjoint(changed)
        and t.shapes.isdisjoint(reshaped)
        and t.modules.isdisjoint(moved)
        and t.names.isdisjoint(renamed)
        and t.callers.isdisjoint(recalled)
    }


class _Analyses(Mapping[str, FileAnalysis]):
    """Analyses by path, loaded on first use; each access is reported to `note`.

    `Release.__init__` reads only the classes of every file (through `items`): a file whose
    analysis is not at hand gets stand-ins that know their qualname and load the rest on use,
    so that building a release decodes no analysis of an unchanged file.
    """

    def __init__(self, trace: ReleaseTrace, analyses: dict[str, FileAnalysis], load: Loader) -> None:
        self.hashes = trace.hashes
        self.classes = trace.classes
        self.callees = trace.callees
        self.analyses = analyses
        self.load = load
        self.note: Callable[[str], None] = _unnoted

    def __getitem__(self, path: str) -> FileAnalysis:
        h = self.hashes[path]
        self.note(path)
        if h not in self.analyses:
            self.analyses.update(self.load([h]))
        return self.analyses[h]

    def __iter__(self) -> Iterator[str]:
        return iter(self.hashes)

    def __len__(self) -> int:
        return len(self.hashes)

    def items(self) -> list[tuple[str, FileAnalysis]]:  # type: ignore[override]  # read once: a list, not a view
        return [(path, self.analyses.get(h) or self._stand_in(path)) for path, h in self.hashes.items()]

    def _stand_in(self, path: str) -> FileAnalysis:
        """What `Release.__init__` reads of a file (its classes and callees), without loading its analysis."""
        classes = [_LazyClass(self, path, i, q) for i, q in enumerate(self.classes.get(path, ()))]
        return _StandIn(classes, self.callees.get(path, []))  # type: ignore[return-value]  # what Release reads of one


class _StandIn:
    """A file's analysis as far as the trace knows it: class records that load the rest on use, callees."""

    def __init__(self, classes: list[_LazyClass], callees: list[str]) -> None:
        self.classes = classes
        self._callees = callees

    def callees(self) -> list[str]:
        return self._callees


class _LazyClass:
    """A class record that knows its qualname and loads its file's analysis for anything else."""

    def __init__(self, analyses: _Analyses, path: str, index: int, qualname: str) -> None:
        self.analyses, self.path, self.index, self.qualname = analyses, path, index, qualname

    def __getattr__(self, name: str) -> Any:
        record: ClassRecord = self.analyses[self.path].classes[self.index]
        return getattr(record, name)


def _unnoted(*args: Any) -> None:
    """The note of what nobody traces."""


_K = TypeVar("_K")
_V = TypeVar("_V")


class _Watched(dict[_K, _V]):
    """A dict whose `get` reports the key and what it found."""

    def __init__(self, data: dict[_K, _V], note: Callable[[_K, _V | None], None]) -> None:
        super().__init__(data)
        self.note = note

    def get(self, key: Any, default: Any = None) -> Any:
        self.note(key, dict.get(self, key))
        return dict.get(self, key, default)


class _TracingRelease(Release):
    """A Release that records, into `trace`, everything linking the current file reads."""

    def __init__(self, analyses: _Analyses, read_text: Callable[[str], str | None]) -> None:
        super().__init__(analyses, read_text)
        self.trace: FileTrace | None = None
        analyses.note = self._read
        self._noting = analyses  # `self.analyses` is that too, typed as the Mapping linking reads
        paths, classes, callers = (
            _Watched(self.paths, self._module),
            _Watched(self._classes, self._name),
            _Watched(self._callers, self._caller),
        )
        self.paths, self._classes, self._callers = paths, classes, callers
        self._watched: tuple[_Watched[str, Any], ...] = (paths, classes, callers)

    def close(self) -> None:
        """Stop tracing and drop what points back here (the notes of the analyses and the watched
        dicts, the module scopes built, which look up imports here): without those cycles, this
        release and every analysis it holds are freed as soon as linking ends, not by the
        collector, which indexing pauses and which then spent 0.1 s going over them (180,000
        objects for transformers)."""
        self.trace = None
        self._scopes.clear()
        self._noting.note = _unnoted
        for watched in self._watched:
            watched.note = _unnoted

    def scope(self, module: str) -> ModuleScope | None:
        """A module's scope, built from its whole text (so a read of the text)."""
        found = super().scope(module)
        if found is not None and self.trace is not None:
            self.trace.texts.add(found.path)
        return found

    def _read(self, path: str) -> None:
        if self.trace is not None:
            self.trace.shapes.add(path)

    def _module(self, module: str, path: str | None) -> None:
        if self.trace is not None:
            self.trace.modules.add(module)

    def _name(self, name: str, found: list[tuple[str, Any]] | None) -> None:
        if self.trace is not None:
            self.trace.names.add(name)
            self.trace.shapes.update(p for p, _ in found or ())

    def _caller(self, name: str, found: list[str] | None) -> None:
        if self.trace is not None:
            self.trace.callers.add(name)


# -- storing traces ------------------------------------------------------------------------
def dump_trace(trace: ReleaseTrace, stamp: list[Any]) -> bytes:
    """The trace as compressed JSON; paths are written once and referred to by number."""
    number = {path: i for i, path in enumerate(trace.hashes)}
    files = [
        [
            number[path],
            sorted(number[p] for p in t.texts),
            sorted(number[p] for p in t.shapes),
            sorted(t.modules),
            sorted(t.names),
            sorted(t.callers),
        ]
        for path, t in trace.files.items()
    ]
    data = {
        "stamp": stamp,
        "paths": list(trace.hashes),
        "hashes": list(trace.hashes.values()),
        "shapes": [trace.shapes[p] for p in trace.hashes],
        "classes": {number[p]: q for p, q in trace.classes.items()},
        "skips": {number[p]: r for p, r in trace.skips.items()},
        "callees": {number[p]: n for p, n in trace.callees.items()},
        "files": files,
    }
    return pack(dumps(data))


def load_trace(blob: bytes, stamp: list[Any]) -> ReleaseTrace | None:
    """The trace stored with `dump_trace`, or None if it is damaged or of another write."""
    try:
        data = json.loads(unpack(blob))
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("stamp") != stamp:
        return None
    paths: list[str] = data["paths"]
    files = {
        paths[own]: FileTrace(
            {paths[i] for i in texts}, {paths[i] for i in shapes}, set(modules), set(names), set(callers)
        )
        for own, texts, shapes, modules, names, callers in data["files"]
    }
    return ReleaseTrace(
        dict(zip(paths, data["hashes"], strict=True)),
        dict(zip(paths, data["shapes"], strict=True)),
        {paths[int(i)]: q for i, q in data["classes"].items()},
        {paths[int(i)]: r for i, r in data["skips"].items()},
        files,
        {paths[int(i)]: n for i, n in data["callees"].items()},
    )
