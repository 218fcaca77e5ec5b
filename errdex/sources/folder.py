"""Read a project folder on disk: its metadata files, Python and compiled sources, never running its setup.py."""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path

from errdex.errors import SourceError
from errdex.model import ReleaseInfo

from .layout import SKIP_ROOT_DIRS, compiled_paths, import_paths, is_compiled, tree_layout
from .metadata import repository_folder, repository_url
from .tree import (
    DEFAULT_LIMITS,
    LOCAL_VERSION,
    ROOT_METADATA,
    Mapped,
    SourceLimits,
    TreeSource,
    is_wanted,
    read_capped,
    read_meta,
    too_many_compiled,
)

_PRUNE = frozenset({"__pycache__", "node_modules", "site-packages"})


def _pruned(dirpath: str, name: str, at_root: bool) -> bool:
    """Folders never walked: hidden, caches, virtual environments and (at the top) tests and docs."""
    if name.startswith(".") or name in _PRUNE or name.endswith(".egg-info"):
        return True
    if at_root and name in SKIP_ROOT_DIRS:
        return True
    return os.path.exists(os.path.join(dirpath, name, "pyvenv.cfg"))


def _regular_size(path: str) -> int | None:
    """The size of a plain file; None for a symlink (never followed), a fifo or device (reading one could hang)."""
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


class FolderTree:
    """The wanted files under a folder: regular files only, symlinks never followed."""

    def __init__(self, root: Path, limits: SourceLimits) -> None:
        self.label = f"folder '{root}'"
        self._root = root
        self._limits = limits
        self._paths = self._walk()

    def _walk(self) -> list[str]:
        found: list[str] = []
        compiled = 0  # counted apart from the Python files, under their own limit
        for dirpath, dirnames, filenames in os.walk(self._root):
            at_root = dirpath == str(self._root)
            dirnames[:] = sorted(d for d in dirnames if not _pruned(dirpath, d, at_root))
            rel = os.path.relpath(dirpath, self._root).replace(os.sep, "/")
            for name in filenames:
                path = name if rel == "." else f"{rel}/{name}"
                if not is_wanted(path):
                    continue
                size = _regular_size(os.path.join(dirpath, name))
                if size is not None and is_wanted(path, size, self._limits):
                    found.append(path)
                    compiled += is_compiled(path)
            if compiled > self._limits.compiled_files:
                raise too_many_compiled(self.label, self._limits)
            if len(found) - compiled > self._limits.members:
                raise SourceError(
                    f"Refusing {self.label}: it has more than {self._limits.members:,} Python files "
                    "(the limit); point errdex at the project's own folder"
                )
        return found

    def paths(self) -> Sequence[str]:
        return self._paths

    def read(self, path: str) -> bytes:
        try:
            with open(self._root / path, "rb") as f:
                return read_capped(f, self.label, path, self._limits)
        except OSError as exc:
            raise SourceError(f"Cannot read '{path}' in {self.label}: {exc.strerror or exc}") from exc


def open_folder_source(root: Path, spec: str, limits: SourceLimits = DEFAULT_LIMITS) -> TreeSource:
    """Open a project folder as a Source, named by its metadata or else after the folder."""
    if not root.is_dir():
        raise SourceError(f"No such folder: '{root}' (check the path)")
    root = root.resolve()
    tree = FolderTree(root, limits)
    meta = read_meta(tree, ROOT_METADATA)
    mapping = import_paths(tree.paths(), wheel=False)
    source = TreeSource(
        ReleaseInfo(
            meta.name or root.name,
            meta.version or LOCAL_VERSION,
            spec,
            "folder",
            "",
            repository_url(meta.urls),
            tree_layout(mapping, "folder"),
            repository_folder(meta.urls, repository_url(meta.urls)),
        ),
        tree,
        mapping,
        (Mapped(tree, tuple(compiled_paths(tree.paths()))),),
    )
    return source.hashed()
