"""Turn what a user names (a requirement, a path, a git revision, an installed name) into a Source.

A Source says what release it is (`info`) and yields that release's Python files by the path
they are imported as, then its compiled sources (C, C++, Cython, Rust) by their path in the project
tree; a wheel's come from the same release's sdist. Sources only find and read files: nothing here
imports, runs or builds the code it reads, and every archive is treated as hostile.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from pathlib import Path
from typing import Protocol

import platformdirs

from errdex.errors import SourceError
from errdex.model import ReleaseInfo, SourceFile

from .archive import open_archive_source
from .folder import open_folder_source
from .git import open_git_source
from .installed import open_installed_source
from .registry import fetch_release
from .sdist_compiled import with_sdist_compiled
from .sdist_layout import sdist_layout
from .spec import GitSpec, PathSpec, PipSpec, parse_spec
from .tree import TreeSource

__all__ = ["Source", "SourceError", "default_cache_dir", "open_source"]


class Source(Protocol):
    """One release: what it is, its Python files in sorted import-path order, then its compiled sources
    in sorted tree-path order, read lazily."""

    info: ReleaseInfo

    def files(self) -> Iterator[SourceFile]: ...


def default_cache_dir() -> Path:
    """Where fetched release files are kept: $ERRDEX_CACHE, else the user's cache folder."""
    override = os.environ.get("ERRDEX_CACHE")
    if override:
        return Path(os.path.expanduser(override))
    return Path(platformdirs.user_cache_dir("errdex")) / "releases"


def _open(
    spec: str, installed: bool, cache_dir: Path | None, progress: Callable[[str], None], stack: ExitStack
) -> TreeSource:
    if installed:
        return open_installed_source(spec)
    parsed = parse_spec(spec)
    if isinstance(parsed, GitSpec):
        return open_git_source(parsed.location, parsed.rev, spec, stack, progress)
    if isinstance(parsed, PathSpec):
        if parsed.path.is_dir():
            return open_folder_source(parsed.path, spec)
        return open_archive_source(parsed.path, spec, stack)
    assert isinstance(parsed, PipSpec)
    path = fetch_release(parsed.requirement, cache_dir or default_cache_dir(), progress)
    try:
        source = open_archive_source(path, spec, stack)
    except SourceError as exc:
        raise SourceError(f"{exc} (cached as '{path}'; delete it to fetch it again)") from exc
    if source.info.source_kind != "wheel":
        return source
    source = with_sdist_compiled(source, path, stack, progress)  # first: it keeps the sdist the layout then lists
    return source.with_layout(sdist_layout(source.info, source.import_paths(), path.parent, progress))


@contextmanager
def _source(
    spec: str,
    name: str | None,
    version: str | None,
    installed: bool,
    cache_dir: Path | None,
    on_progress: Callable[[str], None] | None,
) -> Iterator[Source]:
    with ExitStack() as stack:
        source = _open(spec, installed, cache_dir, on_progress or (lambda _line: None), stack)
        yield source.overridden(name, version)


def open_source(
    spec: str,
    *,
    name: str | None = None,
    version: str | None = None,
    installed: bool = False,
    cache_dir: Path | None = None,
    on_progress: Callable[[str], None] | None = None,
) -> AbstractContextManager[Source]:
    """Open the release a spec names; files can be read until the context exits.

    `spec` is NAME, NAME==VERSION (or any requirement with a specifier, fetched through the
    user's pip), a folder, a .whl/.zip/.tar.* file, or git+PATH_OR_URL@REV; with `installed`
    it is the name of a distribution installed in this environment. `name` and `version`
    replace what the release's metadata says. Raises SourceError with one clear sentence.
    """
    return _source(spec, name, version, installed, cache_dir, on_progress)
