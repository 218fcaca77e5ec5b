"""The installed distributions an error ran through, and indexing them from disk the first time.

A live traceback knows its frames' modules, so the distributions are read from them directly
(module name → top-level import name → installed distribution) instead of being guessed from
printed paths. Indexing uses only the files on disk (no network) and happens once per release:
a distribution whose installed version is already in the index is reused.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from importlib import metadata
from types import FrameType, TracebackType

from errdex.errors import ErrdexError
from errdex.store import Store

MAX_DISTRIBUTIONS = 4  # the innermost distinct distributions of one error that are looked at
MAX_FRAMES = 2000
SKIPPED_TOPS = frozenset({"errdex", "_pytest", "pytest", "pluggy", "IPython", "runpy", "__main__"})

OnIndex = Callable[[str, str], None]  # (distribution, version), called before indexing it


def traceback_frames(tb: TracebackType | None) -> list[FrameType]:
    """The frames of a traceback, outermost first (bounded)."""
    frames = []
    while tb is not None and len(frames) < MAX_FRAMES:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    return frames


def stack_frames(frame: FrameType | None) -> list[FrameType]:
    """The frames of the running stack up to `frame`, outermost first (bounded)."""
    frames = []
    while frame is not None and len(frames) < MAX_FRAMES:
        frames.append(frame)
        frame = frame.f_back
    return frames[::-1]


def distributions(frames: Iterable[FrameType]) -> list[str]:
    """The installed distributions the frames run in, innermost first, at most MAX_DISTRIBUTIONS."""
    found: list[str] = []
    for module in _modules_innermost_first(list(frames)):
        name = distribution_of_module(module)
        if name is not None and name not in found:
            found.append(name)
            if len(found) == MAX_DISTRIBUTIONS:
                break
    return found


def _modules_innermost_first(frames: list[FrameType]) -> Iterator[str]:
    for frame in reversed(frames):
        module = frame.f_globals.get("__name__")  # only the module's name: never a local or a value
        if isinstance(module, str) and module:
            yield module


@lru_cache(maxsize=1024)
def distribution_of_module(module: str) -> str | None:
    """The installed distribution that provides an imported module; None for the stdlib and scripts."""
    top = module.partition(".")[0]
    if top in SKIPPED_TOPS or top in sys.stdlib_module_names or top.startswith("_"):
        return None
    names = _top_level_map().get(top, [])
    if len(names) > 1:  # a namespace package shared by several distributions
        names = [n for n in names if _provides(n, module)] or names
    return names[0] if names else None


@lru_cache(maxsize=1)
def _top_level_map() -> dict[str, list[str]]:
    return {top: list(dict.fromkeys(names)) for top, names in metadata.packages_distributions().items()}


def _provides(dist: str, module: str) -> bool:
    stem = module.replace(".", "/")
    wanted = {stem + ".py", stem + "/__init__.py"}
    try:
        return any(str(path) in wanted for path in metadata.distribution(dist).files or ())
    except metadata.PackageNotFoundError:
        return False


def installed_version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except (metadata.PackageNotFoundError, ValueError):
        return None


class LazyIndex:
    """Indexes each installed distribution at most once per process, and only when it is not indexed yet."""

    def __init__(self, store: Store, on_index: OnIndex | None = None) -> None:
        self.store = store
        self.on_index = on_index
        self._seen: set[tuple[str, str]] = set()

    def ensure(self, dists: Iterable[str]) -> list[str]:
        """Index the installed release of each distribution unless it is indexed; 'name version' of those indexed now."""
        done = []
        for dist in dists:
            version = installed_version(dist)
            if version is None or (dist, version) in self._seen:
                continue
            self._seen.add((dist, version))
            if self._indexed(dist, version):
                continue
            if self._index(dist, version):
                done.append(f"{dist} {version}")
        return done

    def _indexed(self, dist: str, version: str) -> bool:
        return any(r.version == version for r in self.store.releases(dist))

    def _index(self, dist: str, version: str) -> bool:
        from errdex.index import index  # the pipeline is loaded only when something is missing

        if self.on_index is not None:
            self.on_index(dist, version)
        try:
            index(dist, self.store, installed=True)
        except ErrdexError:
            return False  # e.g. a distribution with no RECORD: it is simply not explained
        return True
