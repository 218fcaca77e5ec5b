"""Index the package a pasted traceback was raised in, when it is installed here but not indexed yet.

Only the innermost frame counts (that is where the error was raised). The import name in its path
is mapped to the installed distribution, which is indexed from disk with no network; `fetch`
also allows downloading the release when it is not installed, or cannot be read from disk.
"""

from __future__ import annotations

from functools import lru_cache

from errdex.errors import ErrdexError
from errdex.match.parse import release_path
from errdex.model import ParsedError
from errdex.store import Store


def raising_package(parsed: ParsedError) -> str | None:
    """The top-level import name of the installed library the innermost frame is in."""
    if not parsed.frames:
        return None
    path = release_path(parsed.frames[-1].file)
    if not path or "/" not in path:
        return None
    return path.split("/", 1)[0]


def distribution_of(top: str) -> str | None:
    """The installed distribution that provides the import name `top`."""
    import importlib.metadata  # slow to import; only needed when a package is missing

    names = importlib.metadata.packages_distributions().get(top)
    return names[0] if names else None


@lru_cache(maxsize=256)
def installed_version(dist: str) -> str | None:
    """The version of a distribution installed in this environment, if any."""
    import importlib.metadata

    try:
        return importlib.metadata.version(dist)
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return None


def index_missing(parsed: ParsedError, store: Store, indexed_tops: set[str], fetch: bool) -> str | None:
    """Index the raising package if it is not indexed; a sentence saying what happened, or None."""
    top = raising_package(parsed)
    if top is None or top in indexed_tops:
        return None
    from errdex.index import index  # the pipeline is only loaded when something is indexed

    dist = distribution_of(top)
    try:
        if dist is not None:
            try:
                result = index(dist, store, installed=True)
            except ErrdexError:
                if not fetch:
                    raise
                result = index(f"{dist}=={installed_version(dist)}", store)
        elif fetch:
            result = index(top, store)
        else:
            return None
    except ErrdexError as exc:
        return f"could not index {dist or top}: {exc}"
    release = result.release
    return f"indexed {release.package} {release.version} ({release.error_count} errors) to answer this"
