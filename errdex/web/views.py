"""What each page shows, as one JSON-ready dict: the HTML page and its JSON twin render the same one.

Nothing here knows HTTP or HTML. A page that is the same for every visitor is described by a
View: the key it is cached under (which carries the store's generation, so a re-index is seen at
once) and how to build its data from a Store. Its inputs are checked when the View is made,
before anything is built. A search depends on the paste, so it is answered directly.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, TypedDict, TypeVar

from errdex.errors import InputError, NotIndexedError
from errdex.match import explain
from errdex.match.drift_text import DriftTextJson, drift_text
from errdex.match.result import MatchResultJson
from errdex.model import FileLine, ReleaseRecord, Site
from errdex.pages import build_page
from errdex.pages.model import Page
from errdex.pages.source import module_name
from errdex.pages.statement import statement_for
from errdex.pages.statement_model import FailingStatementJson
from errdex.pages.statement_render import statement_lines
from errdex.store import IndexedSite, PackageSummary, Store, StoreStats

KINDS = ("error", "warning", "log")
MAX_VALUES = 16  # captured values a link may carry to an error page
MAX_VALUE_CHARS = 2_000
MAX_EXCEPTION_CHARS = 200
MAX_VERSION_CHARS = 100
MAX_FILE_CHARS = 500
SEARCH_LIMIT = 5
PAGE_ERRORS = 500  # errors on one page of a release's list (whole modules: a bigger one gets a page to itself)
MAX_PAGE = 100_000
_ERROR_ID = re.compile(r"[0-9a-f]{16}")


class PackageRow(TypedDict):
    """An indexed package on the home page: its names, its counts and its indexed versions."""

    package: str
    name: str
    releases: int
    errors: int
    versions: list[str]


class StatsJson(TypedDict):
    """How many rows the index holds of each kind (the home page's totals)."""

    packages: int
    releases: int
    errors: int
    sites: int
    files: int


class Home(TypedDict):
    packages: list[PackageRow]
    stats: StatsJson


class SearchAnswer(MatchResultJson):
    """The matcher's answer with the paste it answers; for an interpreter's error, the API change in words, or the
    library statement it failed at."""

    q: str  # the paste as received
    api_words: DriftTextJson | None  # `api` in sentences (see errdex.match.drift_text)
    statement: FailingStatementJson | None  # with no raise site and no API change: where the interpreter failed
    statement_words: list[str] | None


class LayoutJson(TypedDict):
    """Where a release's files sit in its project tree (see errdex.model.RepoLayout)."""

    prefix: str
    learned_from: str


class ReleaseJson(TypedDict):
    """An indexed release as the store knows it (the fields of ReleaseRecord)."""

    package: str
    version: str
    spec: str
    source_kind: str
    digest: str
    repository_url: str | None
    indexed_at: str
    file_count: int
    site_count: int
    error_count: int
    skip_count: int
    layout: LayoutJson | None  # None when not known
    repository_folder: str | None  # the project's folder in its repository, when its metadata names one


class Filters(TypedDict):
    version: str
    kind: str | None
    exception: str | None


class Counts(TypedDict):
    """A release's errors counted by kind, by exception and by log level (most frequent first)."""

    kind: dict[str, int]
    exception: dict[str, int]
    log_level: dict[str, int]


class ListingHead(TypedDict):
    """What every page of a release's list shows above its modules."""

    package: str  # the package's name as indexed
    release: ReleaseJson
    versions: list[str]  # its indexed releases, oldest first
    filters: Filters  # the release shown and the filters applied
    count: int  # errors in the list (every page of it)
    counts: Counts


class PageNumber(TypedDict):
    number: int
    count: int


class ListedError(TypedDict):
    id: str
    kind: str
    exception: str | None
    template: str | None
    reason: str | None
    line: int
    function: str


class ExceptionGroup(TypedDict):
    """A module's errors of one exception (or warning category, or log level)."""

    exception: str
    count: int
    errors: list[ListedError]


class ModuleGroup(TypedDict):
    module: str
    file: str
    count: int
    exceptions: list[ExceptionGroup]


class Listing(ListingHead):
    """One page of a release's list of errors."""

    page: PageNumber  # this page's number and how many pages the list has
    modules: list[ModuleGroup]  # the errors of this page, by module, then by exception


D = TypeVar("D", bound=Mapping[str, object])  # a view's data: Home, Listing or the Page of an error


@dataclass(frozen=True)
class View(Generic[D]):
    """A page's data as the key it is cached under and the function that builds it from a Store."""

    key: Hashable
    build: Callable[[Store], D]


def home(store: Store) -> View[Home]:
    """What is indexed: each package with its releases and error count, and the totals."""
    return View(("home", store.generation()), _home)


def _home(store: Store) -> Home:
    packages = [_package_row(row, [r.version for r in store.releases(row.name)]) for row in store.packages()]
    return {"packages": packages, "stats": _stats_json(store.stats())}


def _package_row(row: PackageSummary, versions: list[str]) -> PackageRow:
    return {
        "package": row.package,
        "name": row.name,
        "releases": row.releases,
        "errors": row.errors,
        "versions": versions,
    }


def _stats_json(stats: StoreStats) -> StatsJson:
    return {
        "packages": stats.packages,
        "releases": stats.releases,
        "errors": stats.errors,
        "sites": stats.sites,
        "files": stats.files,
    }


def search(store: Store, text: str, limit: int = SEARCH_LIMIT) -> SearchAnswer:
    """The matcher's answer for a paste: ranked matches with captured values, or an honest abstention.

    Never indexes anything: a web request may not make the server read packages from disk or fetch them.
    """
    if not text.strip():
        raise InputError("Nothing to search for: paste an error message, a log line or a traceback.")
    result = explain(text, store=store, auto_index=False, fetch=False, limit=limit)
    failed = None if result.answered or not result.parsed.frames else statement_for(store, result.parsed)
    return {
        "q": text,
        **result.to_json(),
        "api_words": drift_text(result.api).to_json() if result.api else None,
        "statement": failed.to_json() if failed else None,
        "statement_words": statement_lines(failed) if failed else None,
    }


def package(
    store: Store, name: str, version: str | None, kind: str | None, exception: str | None, page: int = 1
) -> View[Listing]:
    """One page of a release's errors grouped by module and exception, with counts, filtered by kind and exception."""
    kind, exception = kind or None, exception or None
    _check_version(version)
    if kind is not None and kind not in KINDS:
        raise InputError(f"kind must be one of {', '.join(KINDS)}, not '{kind[:40]}'")
    if exception is not None and len(exception) > MAX_EXCEPTION_CHARS:
        raise InputError(f"exception filter is longer than {MAX_EXCEPTION_CHARS} characters")
    if not 1 <= page <= MAX_PAGE:
        raise InputError(f"page must be a number from 1 to {MAX_PAGE}")
    key = ("package", name, version, kind, exception, page, store.generation())
    return View(key, lambda s: _package(s, name, version, kind, exception, page))


def _package(
    store: Store, name: str, version: str | None, kind: str | None, exception: str | None, page: int
) -> Listing:
    pages = package_pages(store, name, version, kind, exception)
    if page > len(pages):
        first = pages[0]
        raise NotIndexedError(
            f"{first['package']} {first['filters']['version']} has {len(pages)} page{'s' if len(pages) > 1 else ''}"
            f" of errors with these filters, not {page}"
        )
    return pages[page - 1]


def package_pages(
    store: Store, name: str, version: str | None, kind: str | None = None, exception: str | None = None
) -> list[Listing]:
    """Every page of a release's list of errors, from one read of them (the exported site writes them all)."""
    release = store.release(name, version)
    rows = store.errors(release.package, release.version, exception=exception, kind=kind)
    sites = [row.site for row in rows]
    listing: ListingHead = {
        "package": release.package,
        "release": _release_json(release),
        "versions": [r.version for r in store.releases(release.package)],
        "filters": {"version": release.version, "kind": kind, "exception": exception},
        "count": len(sites),
        "counts": {
            "kind": dict(Counter(site.kind for site in sites)),
            "exception": dict(Counter(site.exception for site in sites if site.exception).most_common()),
            "log_level": dict(Counter(site.level or "unknown" for site in sites if site.kind == "log").most_common()),
        },
    }
    pages = paginate(_modules(rows), PAGE_ERRORS)
    return [
        {**listing, "page": {"number": n, "count": len(pages)}, "modules": modules}
        for n, modules in enumerate(pages, 1)
    ]


def _release_json(release: ReleaseRecord) -> ReleaseJson:
    return {
        "package": release.package,
        "version": release.version,
        "spec": release.spec,
        "source_kind": release.source_kind,
        "digest": release.digest,
        "repository_url": release.repository_url,
        "indexed_at": release.indexed_at,
        "file_count": release.file_count,
        "site_count": release.site_count,
        "error_count": release.error_count,
        "skip_count": release.skip_count,
        "layout": None
        if release.layout is None
        else {"prefix": release.layout.prefix, "learned_from": release.layout.learned_from},
        "repository_folder": release.repository_folder,
    }


def paginate(modules: list[ModuleGroup], size: int) -> list[list[ModuleGroup]]:
    """Modules in order, as many to a page as fit in `size` errors; never an empty list of pages."""
    pages: list[list[ModuleGroup]] = [[]]
    errors = 0
    for module in modules:
        if pages[-1] and errors + module["count"] > size:
            pages.append([])
            errors = 0
        pages[-1].append(module)
        errors += module["count"]
    return pages


def _modules(rows: list[IndexedSite]) -> list[ModuleGroup]:
    """Errors by module (in file order), then by exception (most frequent first)."""
    by_file: dict[str, dict[str, list[ListedError]]] = {}
    for row in rows:
        groups = by_file.setdefault(row.site.file, {})
        groups.setdefault(_group_name(row.site), []).append(_entry(row.error_id, row.site))
    modules: list[ModuleGroup] = []
    for file, groups in by_file.items():
        exceptions: list[ExceptionGroup] = [
            {"exception": exc, "count": len(items), "errors": items}
            for exc, items in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))
        ]
        modules.append(
            {
                "module": module_name(file),
                "file": file,
                "count": sum(e["count"] for e in exceptions),
                "exceptions": exceptions,
            }
        )
    return modules


def _group_name(site: Site) -> str:
    """The exception (or warning category) a site raises; logs are grouped by their level."""
    if site.exception:
        return site.exception
    return f"log.{site.level}" if site.kind == "log" and site.level else site.kind


def _entry(eid: str, site: Site) -> ListedError:
    return {
        "id": eid,
        "kind": site.kind,
        "exception": site.exception,
        "template": site.template,
        "reason": site.reason,
        "line": site.line,
        "function": site.function,
    }


def error(
    store: Store, error_id: str, version: str | None, values: list[str], site: FileLine | None = None
) -> View[Page]:
    """The explanation page of one error, filled with the user's captured values when given.

    `site` is the (file, line) that raised, as a traceback or the matcher names it: the page is
    then about that place of an error raised at several.
    """
    if not _ERROR_ID.fullmatch(error_id):
        raise NotIndexedError(
            f"'{error_id[:40]}' is not an error id: ids are 16 hexadecimal digits", "find ids with: errdex list PACKAGE"
        )
    _check_version(version)
    values = _bounded_values(values)
    if site is not None and (len(site.file) > MAX_FILE_CHARS or site.line < 1):
        raise InputError(f"file must be at most {MAX_FILE_CHARS} characters and line a positive number")
    # a run of `errdex verify` changes what the page says without a new generation: its runs are in the key too
    key = ("error", error_id, version, tuple(values), site, store.generation(), store.runs_of(error_id))
    return View(key, lambda s: build_page(s, error_id, version, values or None, site=site))


def _check_version(version: str | None) -> None:
    if version is not None and len(version) > MAX_VERSION_CHARS:
        raise InputError(f"version is longer than {MAX_VERSION_CHARS} characters")


def _bounded_values(values: list[str]) -> list[str]:
    if len(values) > MAX_VALUES:
        raise InputError(f"at most {MAX_VALUES} captured values can be given, not {len(values)}")
    if any(len(v) > MAX_VALUE_CHARS for v in values):
        raise InputError(f"a captured value is longer than {MAX_VALUE_CHARS} characters")
    return list(values)
