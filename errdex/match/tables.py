"""The matcher's lookup tables, built once per store generation and kept in the index's cache table.

The core, loaded for every query, holds each error's package, kind, exception, bases and template
in flat lists, and the literal-part index. What only a few errors of a query need is split into
shards loaded on demand: an error's places in every release with the did-you-mean details
(`MATCH_TABLES.key("errors", N)`), and the sites of each file, for frames (`"files", N`). Everything
is stored with `marshal` (plain lists, dicts, tuples and strings: quick to load) and kept in memory
per store path and generation.
"""

from __future__ import annotations

import bisect
import gc
import json
import marshal
import sys
import zlib
from array import array
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar, cast

from errdex.caches import MATCH_TABLES
from errdex.errors import StoreError
from errdex.match.literals import build_keys
from errdex.match.packed import KeyIndex, StoredKeys, StoredTexts, Texts
from errdex.match.suggest import names_collections
from errdex.match.text import template_parts
from errdex.model import JsonValue, Kind, ReleaseRecord, Site, normalize_name
from errdex.store import Store

CORE_KEY = MATCH_TABLES.key("core")
ERROR_SHARD = 256  # errors per shard of places
FILE_SHARDS = 256
MEMO_STORES = 4  # stores whose tables one process keeps in memory
MAX_SOURCE_CHARS = 8_000_000  # of release files' text kept in memory per store generation (for frames)


class ReleasePlace(NamedTuple):
    """Where an error is raised in one indexed release (a tuple: a few are made for every answer)."""

    version: str
    file: str
    line: int
    end_line: int
    function: str | None  # None when only the line is known (not the release's first site of the error)

    def row(self) -> PlaceRow:
        """The place as a shard stores it."""
        return (self.version, self.file, self.line, self.end_line, self.function)


class FileSite(NamedTuple):
    """An error raised in a file (in any release), and the lines of its raising statement there."""

    error: int
    line: int
    end_line: int


class Raised(NamedTuple):
    """The unqualified names of the class an error raises and of that class's bases."""

    name: str  # "UserWarning" for a warning given no category, "" when unknown
    bases: tuple[str, ...]


# The rows shards store: marshal takes plain tuples only, so a place or a file's site is named when first asked for.
PlaceRow = tuple[str, str, int, int, str | None]  # a ReleasePlace
FileSiteRow = tuple[int, int, int]  # a FileSite
FileShard = dict[str, list[FileSiteRow]]  # a release path's sites, for the paths of one shard


class ErrorShard(NamedTuple):
    """The places of ERROR_SHARD errors, by error, and what did-you-mean needs of those that have it."""

    places: dict[int, list[PlaceRow]]
    details: dict[int, tuple[str, str, tuple[tuple[str, ...], ...]]]  # condition, resolved (JSON), holes


@dataclass(frozen=True)
class Details:
    """What did-you-mean needs of an error's newest first site."""

    condition: str
    resolved: dict[str, JsonValue]
    holes: tuple[tuple[str, ...], ...]  # see `Site.holes`


class Cut(NamedTuple):
    """A template as the matcher reads it."""

    template: str
    parts: list[str]  # its literal parts (see template_parts)
    longest: str  # the longest part: a message from the template holds it whole


# The core as marshal stores it (plain tuples only), made by `Core.dumps` and read by `Core.loads` alone: ids,
# package numbers' bytes, kind codes, exceptions, bases, templates, package names, their top-level folders, keys, words.
StoredCore = tuple[
    str, bytes, str, StoredTexts, StoredTexts, StoredTexts, list[str], list[list[str]], StoredKeys, StoredKeys
]

KIND_CODES: dict[Kind, str] = {"error": "e", "warning": "w", "log": "l"}
KIND_OF_CODE = {code: kind for kind, code in KIND_CODES.items()}
ID_WIDTH = 16


class FixedWidth:
    """A list of equally long strings kept as one string (one object to load, not 100,000)."""

    def __init__(self, text: str, width: int) -> None:
        self.text, self.width = text, width

    def __getitem__(self, i: int) -> str:
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self.text[i * self.width : (i + 1) * self.width]

    def __len__(self) -> int:
        return len(self.text) // self.width

    def __iter__(self) -> Iterator[str]:
        return (self.text[k : k + self.width] for k in range(0, len(self.text), self.width))


class Kinds:
    """Each error's kind, kept as one character an error."""

    def __init__(self, codes: str) -> None:
        self.codes = codes

    def __getitem__(self, i: int) -> Kind:
        return KIND_OF_CODE[self.codes[i]]


@dataclass
class Core:
    """What every query needs: flat lists by error number, and the literal-part index.

    It is stored in few, large objects (strings and byte arrays, see packed.py) because loading
    many small objects is what makes a cold start slow.
    """

    ids: FixedWidth
    package: array[int]  # package number of each error
    kind: Kinds
    exception: Texts
    bases: Texts  # each error's exception bases, comma-separated
    template: Texts
    packages: list[str]  # display names
    package_tops: list[list[str]]  # each package's top-level folders
    keys: KeyIndex  # the literal-part index
    words: KeyIndex  # the loose index of rarest words
    error_shards: dict[int, ErrorShard] = field(default_factory=dict)  # loaded shards, by number
    file_shards: dict[int, FileShard] = field(default_factory=dict)
    places: dict[int, list[ReleasePlace]] = field(default_factory=dict)  # Tables.places(i) so far, by error
    file_sites: dict[str, list[FileSite]] = field(default_factory=dict)  # Tables.raised_in(path) so far, by path
    cuts: dict[int, Cut] = field(default_factory=dict)  # templates cut so far, by error
    raised_names: dict[int, Raised] = field(default_factory=dict)  # raised(i) so far, by error
    distinct_raised: dict[Raised, Raised] = field(default_factory=dict)  # each one once: few classes, many errors
    sources: dict[tuple[str, str, str], list[str] | None] = field(default_factory=dict)  # file lines read, oldest first
    source_chars: int = 0
    releases: dict[int, list[ReleaseRecord]] = field(default_factory=dict)  # indexed releases, by package number
    exception_names: set[str] | None = (
        None  # unqualified names of the classes raised, once asked (see `raised_anywhere`)
    )
    raisers: dict[tuple[str, str], list[int]] = field(default_factory=dict)  # raising(top, name) so far
    loaded: set[int] = field(default_factory=set)  # the packages `Tables.load` made ready, by number

    def __post_init__(self) -> None:
        self.package_top_sets = [set(tops) for tops in self.package_tops]
        self.top_set = set().union(*self.package_top_sets)

    def cut(self, i: int) -> Cut:
        """Error `i`'s template ("" when it has none) with its literal parts, cut once per process."""
        found = self.cuts.get(i)
        if found is None:
            template = self.template[i] or ""
            parts = template_parts(template)
            found = self.cuts[i] = Cut(template, parts, max(parts, key=len))
        return found

    def cuts_of(self, numbers: Sequence[int]) -> list[Cut]:
        """`cut(i)` of each of `numbers`, for the many candidates of one query (those cut before in one `map`)."""
        found = list(map(self.cuts.get, numbers))
        if None in found:
            return [c or self.cut(i) for i, c in zip(numbers, found, strict=True)]
        return cast("list[Cut]", found)  # (no None in it)

    def raised(self, i: int) -> Raised:
        """What error `i` raises and its bases, unqualified; worked out once per process."""
        found = self.raised_names.get(i)
        if found is None:
            raised = self.exception[i] or ("UserWarning" if self.kind[i] == "warning" else "")
            bases = self.bases[i]
            found = Raised(
                raised.rsplit(".", 1)[-1],
                tuple(b.rsplit(".", 1)[-1] for b in bases.split(",")) if bases else (),
            )
            found = self.raised_names[i] = self.distinct_raised.setdefault(found, found)
        return found

    def raising(self, top: str, name: str) -> list[int]:
        """The errors of the packages providing import name `top` that raise a class of unqualified name `name`;
        remembered (made whole before it is kept: another thread may be asking)."""
        found = self.raisers.get((top, name))
        if found is None:
            found = self.raisers[(top, name)] = [
                i
                for p, tops in enumerate(self.package_top_sets)
                if top in tops
                for i in self.numbers_of(p)
                if self.raised(i).name == name
            ]
        return found

    def raised_anywhere(self, name: str) -> bool:
        """Whether some indexed error raises (or warns with) a class of this unqualified name; the
        names are gathered the first time one is asked for."""
        return name in self.gather_exception_names()

    def gather_exception_names(self) -> set[str]:
        if self.exception_names is None:
            self.exception_names = {e.rsplit(".", 1)[-1] for e in self.exception if e}
        return self.exception_names

    def numbers_of(self, package: int) -> range:
        """The errors of a package (numbered one after another: its range is found by bisection)."""
        return range(bisect.bisect_left(self.package, package), bisect.bisect_right(self.package, package))

    def dumps(self) -> bytes:
        stored: StoredCore = (
            self.ids.text,
            self.package.tobytes(),
            self.kind.codes,
            self.exception.pack(),
            self.bases.pack(),
            self.template.pack(),
            self.packages,
            self.package_tops,
            self.keys.pack(),
            self.words.pack(),
        )
        return _pack(stored)

    @classmethod
    def loads(cls, data: bytes) -> Core | None:
        fields: StoredCore | None = _unpack(data)
        if fields is None:
            return None
        ids, package, kinds, exception, bases, template, packages, tops, keys, words = fields
        numbers = array("I")
        numbers.frombytes(package)
        return cls(
            FixedWidth(ids, ID_WIDTH),
            numbers,
            Kinds(kinds),
            Texts.unpack(exception),
            Texts.unpack(bases),
            Texts.unpack(template),
            packages,
            tops,
            KeyIndex.unpack(keys),
            KeyIndex.unpack(words),
        )


S = TypeVar("S")  # a shard, as loaded


@dataclass(frozen=True)
class Loaded:
    """What `Tables.load` made ready: the packages (display names), their errors and the files raising them."""

    packages: tuple[str, ...]
    errors: int
    files: int


class Tables:
    """The core of a store's tables, with its shards read from that store when first needed."""

    def __init__(self, core: Core, store: Store) -> None:
        self.core = core
        self.store = store

    def places(self, i: int) -> list[ReleasePlace]:
        """Every place of error `i` in every indexed release, oldest release first (not to be changed: the
        list is kept, made of places once per process; an error raised at hundreds of sites is a candidate
        of many messages)."""
        found = self.core.places.get(i)
        if found is None:
            rows = self._error_shard(i // ERROR_SHARD).places.get(i, ())
            found = self.core.places[i] = list(map(ReleasePlace._make, rows))
        return found

    def details(self, i: int) -> Details | None:
        """What did-you-mean needs of error `i`: resolved values are decoded only when a membership test names them."""
        row = self._error_shard(i // ERROR_SHARD).details.get(i)
        if not row:
            return None
        condition, resolved, holes = row
        return Details(condition, json.loads(resolved) if names_collections(condition) else {}, holes)

    def releases(self, package: int) -> list[ReleaseRecord]:
        """The indexed releases of a package, oldest first (asked of the store once per generation)."""
        found = self.core.releases.get(package)
        if found is None:
            found = self.core.releases[package] = self.store.releases(self.core.packages[package])
        return found

    def indexed_versions(self, top: str) -> set[str] | None:
        """The versions indexed of the packages that provide the import name `top`; None when none does."""
        if top not in self.core.top_set:
            return None
        packages = [p for p, tops in enumerate(self.core.package_top_sets) if top in tops]
        return {r.version for p in packages for r in self.releases(p)}

    def source_lines(self, release: ReleaseRecord, path: str) -> list[str] | None:
        """The lines of one file of an indexed release, None when it has none; read once while they fit in memory."""
        key = (release.package, release.version, path)
        if key in self.core.sources:
            return self.core.sources[key]
        text = self.store.source(release, path)
        lines = (
            text.replace("\r\n", "\n").replace("\r", "\n").split("\n") if text is not None else None
        )  # as linecache numbers them
        self.core.sources[key] = lines
        self.core.source_chars += sum(map(len, lines or ()))
        while self.core.source_chars > MAX_SOURCE_CHARS and len(self.core.sources) > 1:
            oldest = next(iter(self.core.sources))
            self.core.source_chars -= sum(map(len, self.core.sources.pop(oldest) or ()))
        return lines

    def raised_in(self, path: str) -> list[FileSite]:
        """Every site in the file at this release path, in any release (made of sites once per process)."""
        found = self.core.file_sites.get(path)
        if found is None:
            rows = self._shard(self.core.file_shards, "files", _file_shard(path), dict).get(path, ())
            found = self.core.file_sites[path] = list(map(FileSite._make, rows))
        return found

    def load(self, packages: Collection[str] | None = None) -> Loaded:
        """Read and work out now what answers about `packages` (display or distribution names; None: every indexed
        one) would otherwise read on first use: their errors' shards and the shards of the files raising them, each
        error's cut template and raised class, their releases, and the names of every class raised. A query about
        them then loads nothing; the places and sites of the few errors an answer shows are still made when asked.
        Unknown names are left out; a package loaded before is not loaded again.
        """
        core = self.core
        numbers = range(len(core.packages)) if packages is None else self._package_numbers(packages)
        errors = files = 0
        for p in numbers:
            if p not in core.loaded:
                errors, files = errors + len(core.numbers_of(p)), files + self._load_package(p)
        core.gather_exception_names()
        return Loaded(tuple(core.packages[p] for p in numbers), errors, files)

    def loaded(self) -> set[str]:
        """The packages (display names) `load` made ready."""
        return {self.core.packages[p] for p in self.core.loaded}

    def _package_numbers(self, packages: Collection[str]) -> list[int]:
        wanted = {normalize_name(name) for name in packages}
        return [p for p, name in enumerate(self.core.packages) if normalize_name(name) in wanted]

    def _load_package(self, p: int) -> int:
        """Load package `p` (see `load`); the number of its files."""
        core = self.core
        errors = core.numbers_of(p)
        paths = {row[1] for i in errors for row in self._error_shard(i // ERROR_SHARD).places.get(i, ())}
        for number in {_file_shard(path) for path in paths}:
            self._shard(core.file_shards, "files", number, dict)
        core.cuts_of(errors)
        for i in errors:
            core.raised(i)
        self.releases(p)
        core.loaded.add(p)
        return len(paths)

    def _error_shard(self, number: int) -> ErrorShard:
        return self._shard(self.core.error_shards, "errors", number, ErrorShard._make)

    def _shard(self, loaded: dict[int, S], prefix: str, number: int, make: Callable[[Any], S]) -> S:
        """Shard `number` of `prefix`, read from the store (as `make` makes it of what was stored) once."""
        found = loaded.get(number)
        if found is None:
            data = self.store.cache_get(MATCH_TABLES.key(prefix, number))
            stored = _unpack(data) if data else None
            if stored is None:
                raise StoreError(f"the matcher's tables in {self.store.label} are incomplete; run the command again")
            found = loaded[number] = make(stored)
        return found


_MEMO: dict[tuple[str, int], Core] = {}


def tables_for(store: Store) -> Tables:
    """The tables of a store at its current generation: from memory, its cache, or built now."""
    path = str(store.path)
    key = (path if path != ":memory:" else f"memory:{id(store)}", store.generation())
    core = _MEMO.get(key)
    if core is None:
        data = store.cache_get(CORE_KEY)
        core = (Core.loads(data) if data else None) or _build_and_save(store)
        stale = [k for k in _MEMO if k[0] == key[0]] + list(_MEMO)[: max(0, len(_MEMO) - MEMO_STORES + 1)]
        for k in stale:
            _MEMO.pop(k, None)
        _MEMO[key] = core
    return Tables(core, store)


def forget() -> None:
    """Drop the tables kept in memory (the next query loads them from the cache, as a new process does)."""
    _MEMO.clear()


def _build_and_save(store: Store) -> Core:
    built = build(store)
    core = built.core
    core.error_shards.update(built.error_shards)
    core.file_shards.update(built.file_shards)
    try:
        for number, shard in built.error_shards.items():
            store.cache_put(MATCH_TABLES.key("errors", number), _pack(tuple(shard)))
        for number, files in built.file_shards.items():
            store.cache_put(MATCH_TABLES.key("files", number), _pack(files))
        store.cache_put(CORE_KEY, core.dumps())  # last: a core in the cache means its shards are there
    except StoreError:
        pass  # a read-only index: the tables are built again by the next process
    return core


@dataclass
class _Collected:
    """Errors read from the store, numbered in the order first seen."""

    number: dict[str, int] = field(default_factory=dict)
    sites: list[Site] = field(default_factory=list)  # the first site seen of each error
    package: list[int] = field(default_factory=list)
    places: list[list[ReleasePlace]] = field(default_factory=list)
    details: dict[int, tuple[str, str, tuple[tuple[str, ...], ...]]] = field(default_factory=dict)  # see `Details`

    def add(self, package: int, version: str, eid: str, site: Site) -> None:
        i = self.number.get(eid)
        if i is None:
            i = self.number[eid] = len(self.sites)
            self.sites.append(site)
            self.package.append(package)
            self.places.append([])
        self.places[i].append(ReleasePlace(version, site.file, site.line, site.end_line, site.function))
        if site.resolved and site.condition:
            self.details[i] = (site.condition, json.dumps(site.resolved), site.holes)

    def add_other_places(self, store: Store) -> None:
        """The places beyond each release's first one, for an error raised at several sites."""
        for eid, i in self.number.items():
            known = {(p.version, p.file, p.line) for p in self.places[i]}
            for held in store.error_versions(eid):
                self.places[i].extend(
                    ReleasePlace(held.version, p.file, p.line, p.line, None)
                    for p in held.places
                    if (held.version, p.file, p.line) not in known
                )


class Built(NamedTuple):
    """The tables built from a store: the core, and the shards loaded on demand, by number."""

    core: Core
    error_shards: dict[int, ErrorShard]
    file_shards: dict[int, FileShard]


def build(store: Store) -> Built:
    """Read every indexed release's errors and build the core and its shards."""
    c = _Collected()
    packages = []
    for row in store.packages():
        packages.append(row.package)
        for record in store.releases(row.name):
            for error in store.errors(row.name, record.version):
                c.add(len(packages) - 1, record.version, error.error_id, error.site)
    c.add_other_places(store)
    templates = [s.template for s in c.sites]
    tops: list[set[str]] = [set() for _ in packages]
    for package, places in zip(c.package, c.places, strict=True):
        tops[package].update(p.file.split("/", 1)[0] for p in places if "/" in p.file)
    literals = build_keys(templates)
    core = Core(
        ids=FixedWidth("".join(c.number), ID_WIDTH),
        package=array("I", c.package),
        kind=Kinds("".join(KIND_CODES[s.kind] for s in c.sites)),
        exception=Texts.of(s.exception for s in c.sites),
        bases=Texts.of(",".join(s.exception_bases) for s in c.sites),
        template=Texts.of(templates),
        packages=packages,
        package_tops=[sorted(t) for t in tops],
        keys=literals.keys,
        words=literals.words,
    )
    return Built(core, _error_shards(c), _file_shards(c.places))


def _error_shards(c: _Collected) -> dict[int, ErrorShard]:
    shards: dict[int, ErrorShard] = {}
    for i, places in enumerate(c.places):
        shard = shards.setdefault(i // ERROR_SHARD, ErrorShard({}, {}))
        shard.places[i] = [p.row() for p in places]
        if i in c.details:
            shard.details[i] = c.details[i]
    return shards


def _file_shards(places: list[list[ReleasePlace]]) -> dict[int, FileShard]:
    shards: dict[int, FileShard] = {n: {} for n in range(FILE_SHARDS)}
    for i, rows in enumerate(places):
        for path, line, end_line in {(p.file, p.line, p.end_line) for p in rows}:
            shards[_file_shard(path)].setdefault(path, []).append((i, line, end_line))
    return shards


def _file_shard(path: str) -> int:
    return zlib.crc32(path.encode("utf-8", "surrogatepass")) % FILE_SHARDS


def _pack(value: Any) -> bytes:
    return marshal.dumps((sys.byteorder, value))


def _unpack(data: bytes) -> Any:
    """The value packed in `data`, or None when it was written on a machine of the other byte order or is damaged."""
    was = gc.isenabled()
    gc.disable()  # the collector would walk every container made so far, again and again
    try:
        byteorder, value = marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return None
    finally:
        if was:
            gc.enable()
    return value if byteorder == sys.byteorder else None
