"""The installed distributions an error ran through, and indexing them from disk the first time.

A live traceback knows its frames' modules and files, so the distributions are read from them
directly instead of being guessed from printed paths. The lookup reads the `*.dist-info` folders
of the sys.path entry a frame's file is in (name and version from the folder's name, the import
names from `top_level.txt` or `RECORD`) and the folders of editable installs (`direct_url.json`);
it does not scan every installed distribution, so an error costs a few small file reads.
Indexing uses only the files on disk (no network) and happens once per release.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from types import FrameType, TracebackType

from errdex.errors import ErrdexError
from errdex.model import normalize_name
from errdex.store import Store

MAX_DISTRIBUTIONS = 4  # the innermost distinct distributions of one error that are looked at
MAX_FRAMES = 2000
MAX_META_BYTES = 4096  # of METADATA read for the distribution's name
SKIPPED_TOPS = frozenset({"errdex", "_pytest", "pytest", "pluggy", "IPython", "runpy", "__main__"})

OnIndex = Callable[[str, str], None]  # (distribution, version), called before indexing it


@dataclass(frozen=True)
class Installed:
    """An installed distribution: its name as published, its version, its dist-info folder."""

    name: str
    version: str
    info: str


def traceback_frames(tb: TracebackType | None) -> list[FrameType]:
    """The frames of a traceback, outermost first (bounded)."""
    frames: list[FrameType] = []
    while tb is not None and len(frames) < MAX_FRAMES:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    return frames


def stack_frames(frame: FrameType | None) -> list[FrameType]:
    """The frames of the running stack up to `frame`, outermost first (bounded)."""
    frames: list[FrameType] = []
    while frame is not None and len(frames) < MAX_FRAMES:
        frames.append(frame)
        frame = frame.f_back
    return frames[::-1]


def distributions(frames: Iterable[FrameType]) -> list[Installed]:
    """The installed distributions the frames run in, innermost first, at most MAX_DISTRIBUTIONS."""
    found: list[Installed] = []
    for frame in reversed(list(frames)):
        dist = distribution_of_frame(frame)
        if dist is not None and dist not in found:
            found.append(dist)
            if len(found) == MAX_DISTRIBUTIONS:
                break
    return found


def distribution_of_frame(frame: FrameType) -> Installed | None:
    """The distribution whose code the frame runs; None for the stdlib, scripts and unknown code."""
    module = frame.f_globals.get("__name__")  # only the module's name: never a local or a value
    if not isinstance(module, str):
        return None
    return CATALOG.find(module, frame.f_code.co_filename)


class Catalog:
    """Import name → installed distribution, read lazily per sys.path folder and kept for the process."""

    def __init__(self) -> None:
        self._folders: dict[str, dict[str, Installed]] = {}  # sys.path folder -> {import name: dist}
        self._editable: list[tuple[str, Installed]] | None = None
        self._found: dict[tuple[str, str], Installed | None] = {}
        self._lock = threading.Lock()

    def find(self, module: str, path: str) -> Installed | None:
        top = module.partition(".")[0]
        if top in SKIPPED_TOPS or top in sys.stdlib_module_names or top.startswith("_") or path.startswith("<"):
            return None
        key = (top, os.path.dirname(path))
        with self._lock:
            if key not in self._found:
                self._found[key] = self._lookup(top, os.path.abspath(path))
            return self._found[key]

    def _lookup(self, top: str, path: str) -> Installed | None:
        for folder in _path_folders():
            if path.startswith(folder + os.sep):
                dist = self._in_folder(folder, top)
                if dist is not None:
                    return dist
        return self._in_editable(top, path)

    def _in_folder(self, folder: str, top: str) -> Installed | None:
        tops = self._folders.get(folder)
        if tops is None:
            tops = self._folders[folder] = {}
        if top not in tops:
            dist = _scan(folder, top)
            if dist is not None:
                tops[top] = dist
        return tops.get(top)

    def _in_editable(self, top: str, path: str) -> Installed | None:
        if self._editable is None:
            self._editable = list(_editable_installs())
        for folder, dist in self._editable:
            if path.startswith(folder + os.sep) and _in_project(dist.info, folder, top, path):
                return dist
        return None


def _path_folders() -> list[str]:
    return [os.path.abspath(p) for p in sys.path if p and os.path.isdir(p)]


def _infos(folder: str) -> list[str]:
    try:
        return sorted(e.path for e in os.scandir(folder) if e.name.endswith(".dist-info") and e.is_dir())
    except OSError:
        return []


def _scan(folder: str, top: str) -> Installed | None:
    """The dist-info folder in `folder` that provides the import name `top`: by name first, then by contents."""
    infos = _infos(folder)
    wanted = normalize_name(top)
    by_name = [i for i in infos if normalize_name(_stem(i)[0]) == wanted]
    for info in by_name + [i for i in infos if i not in by_name]:
        if _provides(info, top):
            return _installed(info)
    return None


def _stem(info: str) -> tuple[str, str]:
    """('Jinja2', '3.1.6') from '.../jinja2-3.1.6.dist-info' (the version never holds a dash)."""
    name, _, version = os.path.basename(info)[: -len(".dist-info")].rpartition("-")
    return name, version


def _provides(info: str, top: str) -> bool:
    listed = _read(os.path.join(info, "top_level.txt"))
    if listed is not None:
        return top in listed.split()
    record = _read(os.path.join(info, "RECORD")) or ""
    return any(line.startswith((top + "/", top + ".py,")) for line in record.splitlines())


def _in_project(info: str, folder: str, top: str, path: str) -> bool:
    """Whether a file of an editable project belongs to its package `top` (not to its tests or scripts)."""
    listed = _read(os.path.join(info, "top_level.txt"))
    if listed is not None:
        return top in listed.split()
    inside = os.path.relpath(path, folder).replace(os.sep, "/")
    return inside.startswith((f"{top}/", f"src/{top}/")) or inside in (f"{top}.py", f"src/{top}.py")


def _installed(info: str) -> Installed:
    name, version = _stem(info)
    meta = _read(os.path.join(info, "METADATA"), MAX_META_BYTES) or ""
    for line in meta.splitlines():
        if line.startswith("Name:"):
            name = line[5:].strip() or name
        elif line.startswith("Version:"):
            version = line[8:].strip() or version
        elif not line.strip():
            break
    return Installed(name, version, info)


def _editable_installs() -> Iterator[tuple[str, Installed]]:
    """(project folder, distribution) of each editable install on sys.path (PEP 660 direct_url.json)."""
    from urllib.parse import unquote, urlsplit

    for folder in _path_folders():
        for info in _infos(folder):
            text = _read(os.path.join(info, "direct_url.json"))
            try:
                direct = json.loads(text) if text else None
            except ValueError:
                continue
            if isinstance(direct, dict) and (direct.get("dir_info") or {}).get("editable"):
                url = urlsplit(str(direct.get("url", "")))
                if url.scheme == "file" and os.path.isdir(unquote(url.path)):
                    yield os.path.abspath(unquote(url.path)), _installed(info)


def _read(path: str, limit: int = -1) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read(limit)
    except OSError:
        return None


CATALOG = Catalog()


class LazyIndex:
    """Indexes each installed distribution at most once per process, and only when it is not indexed yet."""

    def __init__(self, store: Store, on_index: OnIndex | None = None) -> None:
        self.store = store
        self.on_index = on_index
        self._seen: set[Installed] = set()

    def ensure(self, dists: Iterable[Installed]) -> list[str]:
        """Index the installed release of each distribution unless it is indexed.

        Returns 'name version' of those indexed now.
        """
        done = []
        for dist in dists:
            if dist in self._seen:
                continue
            self._seen.add(dist)
            if any(r.version == dist.version for r in self.store.releases(dist.name)):
                continue
            if self._index(dist):
                done.append(f"{dist.name} {dist.version}")
        return done

    def _index(self, dist: Installed) -> bool:
        from errdex.indexing import (
            index,  # the pipeline is loaded only when something is missing
        )

        if self.on_index is not None:
            self.on_index(dist.name, dist.version)
        try:
            index(dist.name, self.store, installed=True)
        except ErrdexError:
            return False  # e.g. a distribution with no RECORD: it is simply not explained
        return True
