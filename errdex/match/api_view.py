"""`errdex api`: the public API of an indexed release, or one symbol of it with its history across the releases.

A symbol is named as a user writes it (`transformers.TrainingArguments`, `DataFrame.append`, `numpy.float`):
each split of the dotted name into a module and a name inside it is tried, and a module part that is given must
be the module the symbol is defined or exported in.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TypedDict, cast

from errdex.errors import InputError
from errdex.match.presence import ReleaseState, member_states, name_states
from errdex.model import ApiEntry, ApiSymbol, ReleaseRecord, normalize_name
from errdex.store import Store

_LISTED = ("class", "function", "attribute", "import", "lazy", "exported", "deprecated", "removed")


@dataclass(frozen=True, slots=True)
class SymbolView:
    """One place a release defines or exports the symbol, and its history across the indexed releases."""

    path: str  # "transformers.training_args.TrainingArguments"
    file: str
    symbol: ApiSymbol
    history: tuple[ReleaseState, ...]


@dataclass(frozen=True, slots=True)
class ApiView:
    """A release's API: its top-level names (no symbol asked), or the places of one symbol."""

    package: str
    version: str
    versions: tuple[str, ...]  # the package's indexed releases
    symbol: str | None
    top_level: tuple[ApiSymbol, ...]  # the package's `__init__` names, when no symbol was asked
    found: tuple[SymbolView, ...]

    def to_json(self) -> ApiViewJson:
        return cast(ApiViewJson, asdict(self))


class ApiViewJson(TypedDict):
    """`errdex api --json`: the fields of `ApiView`, as they are."""

    package: str
    version: str
    versions: list[str]
    symbol: str | None
    top_level: list[dict[str, object]]
    found: list[dict[str, object]]


def api_view(store: Store, package: str, version: str | None = None, symbol: str | None = None) -> ApiView:
    """The API of a release of `package` (the newest indexed when `version` is None), or where it has `symbol`."""
    record = store.release(package, version)
    versions = tuple(r.version for r in store.releases(package))
    if symbol is None:
        init = _top_init(store, record)
        listed = tuple(
            s for s in store.api_file(record, init) if s.kind in _LISTED and s.qualname not in ("*", "<module>")
        )
        return ApiView(record.package, record.version, versions, None, listed, ())
    if not symbol.replace(".", "").replace("_", "").isalnum():
        raise InputError(f"{symbol!r} is no dotted Python name (e.g. TrainingArguments, pandas.DataFrame.append)")
    found = tuple(_history(store, record, entry) for entry in _places(store, record, symbol))
    return ApiView(record.package, record.version, versions, symbol, (), found)


def _top_init(store: Store, record: ReleaseRecord) -> str:
    """The `__init__.py` of the release's top-level package: the one named like the distribution, else the first."""
    inits = [f.path for f in store.release_paths(record) if f.path.count("/") == 1 and f.path.endswith("/__init__.py")]
    named = f"{normalize_name(record.package).replace('-', '_')}/__init__.py"
    return named if named in inits else (inits[0] if inits else named)


def _places(store: Store, record: ReleaseRecord, symbol: str) -> list[ApiEntry]:
    """The release's entries for each reading of the dotted name as module + qualified name: where it is defined,
    and where a package's `__init__` exports it (another module importing it for its own use is not its API,
    unless the name given says that module)."""
    parts = symbol.split(".")
    readings = [(".".join(parts[:k]), ".".join(parts[k:])) for k in range(len(parts))]
    by_name = store.api_qualnamed(record.package, sorted({qual for _, qual in readings}))
    out: list[ApiEntry] = []
    for module, qual in readings:
        for entry in by_name.get(record.version, []):
            if entry.symbol.qualname != qual or entry in out or entry.symbol.kind in ("star", "exported"):
                continue
            exported = entry.symbol.kind not in ("import", "lazy") or entry.file.endswith("__init__.py")
            if entry.module == module or not module and exported:
                out.append(entry)
    return out


def _history(store: Store, record: ReleaseRecord, entry: ApiEntry) -> SymbolView:
    owner, _, leaf = entry.symbol.qualname.rpartition(".")
    if owner:
        history = member_states(store, record.package, owner.rpartition(".")[2], leaf)
    else:
        history = name_states(store, record.package, entry.module, leaf)
    return SymbolView(entry.path, entry.file, entry.symbol, tuple(history))
