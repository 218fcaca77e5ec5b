"""Build a release's explanation pages before they are asked for, so that the first request is a cache read.

A cold page costs a search of the whole release for the callers of its function (the text of
every file, and the parse of those that call the name); `prebuild` finds the callers of every
function of the release in one pass, then builds and caches the page of every error (and, with
`every_place`, of each place of an error raised at several). The web site and `errdex index`
can run it after indexing a release.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable

from errdex.model import FileLine
from errdex.pages.callers import release_callers
from errdex.pages.model import PrebuildReport
from errdex.pages.page import static_page
from errdex.store import Store

PrebuildProgress = Callable[[int, int], None]  # (pages built, pages to build)


def prebuild(
    store: Store,
    package: str,
    version: str | None = None,
    *,
    every_place: bool = False,
    progress: PrebuildProgress | None = None,
) -> PrebuildReport:
    """Cache the callers of every function and the page of every error of one release.

    Returns what was done and how long it took.
    """
    release = store.release(package, version)
    started = time.perf_counter()
    places: dict[str, list[FileLine]] = {}
    functions: set[tuple[str, str]] = set()
    for indexed in store.release_sites(release):
        site = indexed.site
        places.setdefault(indexed.error_id, []).append(FileLine(site.file, site.line))
        functions.add((site.file, site.function))
    searched = release_callers(store, release, functions)
    found = time.perf_counter()
    total = len(places) + (sum(len(here) for here in places.values() if len(here) > 1) if every_place else 0)
    done = 0
    for error_id, here in places.items():
        # Read once for all of the error's pages.
        read = functools.cache(functools.partial(store.error, error_id, release.version))
        for place in [None, *(here if every_place and len(here) > 1 else [])]:
            static_page(store, error_id, release.version, here, place, read)
            done += 1
            if progress is not None:
                progress(done, total)
    return {
        "package": release.package,
        "version": release.version,
        "functions": len(functions),
        "callers_searched": searched,
        "pages": total,
        "callers_seconds": round(found - started, 3),
        "pages_seconds": round(time.perf_counter() - found, 3),
    }
