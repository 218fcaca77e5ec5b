"""Index the package a pasted traceback was raised in, when it is installed here but not indexed yet.

Only the innermost frame counts (that is where the error was raised). The import name in its path
is mapped to the installed distribution, which is indexed from disk with no network; `fetch`
also allows downloading the release when it is not installed, or cannot be read from disk. When
the package is indexed but not at the version installed here, and the frame's file is this
environment's, that version is indexed too: the environment tells which release raised it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
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


def in_this_environment(parsed: ParsedError) -> bool:
    """Whether the innermost frame's file lies in one of this interpreter's import folders."""
    file = parsed.frames[-1].file.strip()
    inside = release_path(file)
    if not inside or not os.path.isfile(file):
        return False
    root = os.path.normcase(os.path.realpath(file[: len(file) - len(inside)] or "."))
    return root in {os.path.normcase(os.path.realpath(p or ".")) for p in sys.path}


def index_missing(
    parsed: ParsedError, store: Store, indexed_versions: Callable[[str], set[str] | None], fetch: bool
) -> str | None:
    """Index the raising package if it is not indexed, or not at the version installed here.

    `indexed_versions(top)` is the versions indexed of the package that provides the import name
    `top`, None when none is. Returns a sentence saying what happened, or None.
    """
    top = raising_package(parsed)
    if top is None:
        return None
    versions = indexed_versions(top)
    if versions is not None:
        version = installed_version(top)
        if version is None or version in versions or not in_this_environment(parsed):
            return None
    from errdex.indexing import (
        index,  # the pipeline is only loaded when something is indexed
    )

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
