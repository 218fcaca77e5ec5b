"""The one shape every source reads through: a tree of files, mapped to import paths, with caps."""

from __future__ import annotations

import hashlib
import io
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Protocol

from errdex.errors import SourceError
from errdex.model import ReleaseInfo, RepoLayout, SourceFile

from .layout import compiled_skipped, is_compiled
from .metadata import Meta, from_core_metadata, from_pyproject, from_setup_cfg, merge

ROOT_METADATA = ("PKG-INFO", "pyproject.toml", "setup.cfg")
LOCAL_VERSION = "0+local"  # the version of a folder or archive whose metadata gives none
_PARSERS = {"PKG-INFO": from_core_metadata, "pyproject.toml": from_pyproject, "setup.cfg": from_setup_cfg}
_CHUNK = 1 << 20


@dataclass(frozen=True)
class SourceLimits:
    """Caps that keep a hostile archive or folder from exhausting memory, disk or time."""

    # Uncompressed bytes: of every member of a tarball (a stream is decompressed whole), but only
    # of the members read from a zip (so a wheel's large compiled libraries cost nothing).
    total_bytes: int = 1 << 30
    members: int = 100_000  # archive members; Python files of a folder
    # Compiled sources of a folder or git commit, counted apart: torch's tree alone has over 10,000.
    compiled_files: int = 200_000
    file_bytes: int = 50 << 20  # one file read; a compiled source over it is left out (generated code)


DEFAULT_LIMITS = SourceLimits()


def describe_size(n: int) -> str:
    """A byte count as a person reads a limit: '1 GiB', '50 MiB', '512 bytes'."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n:,} bytes"


def file_too_big(label: str, path: str, limits: SourceLimits) -> SourceError:
    """The error for one file over the single-file cap."""
    return SourceError(
        f"Refusing {label}: '{path}' is larger than {describe_size(limits.file_bytes)} (the limit on a single file)"
    )


def read_capped(stream: IO[bytes], label: str, path: str, limits: SourceLimits) -> bytes:
    """Read a whole stream, refusing one that is larger than the single-file cap.

    A file on disk is read with its own size as the bound: asking for the cap itself makes
    Python allocate (and give back) 50 MiB for every file, which tripled the reading time of a
    folder. What a file grows by while it is read is still read, up to the cap.
    """
    cap = limits.file_bytes
    size = _size_on_disk(stream)
    data = stream.read(cap + 1 if size is None else min(size, cap) + 1)
    if size is not None and size < len(data) <= cap:
        data += stream.read(cap + 1 - len(data))
    if len(data) > cap:
        raise file_too_big(label, path, limits)
    return data


def _size_on_disk(stream: IO[bytes]) -> int | None:
    """The size of the file behind `stream`, or None when it is not a file on disk (an archive member)."""
    try:
        return os.fstat(stream.fileno()).st_size
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return None


def too_many_compiled(label: str, limits: SourceLimits) -> SourceError:
    """The error for a folder or commit with more compiled sources than any project builds."""
    return SourceError(
        f"Refusing {label}: it has more than {limits.compiled_files:,} C, C++, Cython or Rust files "
        "(the limit); point errdex at the project's own folder"
    )


def is_wanted(path: str, size: int | None = None, limits: SourceLimits = DEFAULT_LIMITS) -> bool:
    """Whether a tree keeps this file: Python sources, compiled sources outside test and vendored
    folders, and metadata at the top or one folder down (an sdist's `name-1.0/PKG-INFO`, a wheel's
    `x.dist-info/METADATA`). A compiled source larger than the single-file cap (`size`, when known)
    is generated code, left out rather than refusing the tree as a Python file that large does.
    """
    if path.endswith(".py"):
        return True
    if is_compiled(path):
        return not compiled_skipped(path.split("/")) and (size is None or size <= limits.file_bytes)
    top, _, rest = path.partition("/")
    return path in ROOT_METADATA or rest in ROOT_METADATA or (rest == "METADATA" and top.endswith(".dist-info"))


class Tree(Protocol):
    """Files of one release, by project-relative posix path; only wanted files are listed."""

    label: str  # how messages name it: "archive 'x-1.0.tar.gz'", "folder '/src/x'"

    def paths(self) -> Sequence[str]: ...

    def read(self, path: str) -> bytes: ...


def read_meta(tree: Tree, names: Iterable[str]) -> Meta:
    """Merge what the tree's metadata files say, the first named file winning."""
    present = set(tree.paths())
    metas = []
    for name in names:
        if name in present:
            parse = _PARSERS.get(name.rsplit("/", 1)[-1], from_core_metadata)
            metas.append(parse(tree.read(name)))
    return merge(metas)


def sha256_file(path: Path) -> str:
    """The sha256 of a file on disk, read in chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def files_digest(files: Iterable[SourceFile]) -> str:
    """A sha256 over the sorted (path, file sha256) pairs: a release's identity without an archive."""
    lines = sorted(f"{f.path}\t{f.sha256}\n" for f in files)
    return hashlib.sha256("".join(lines).encode("utf-8", "surrogateescape")).hexdigest()


@dataclass(frozen=True)
class Mapped:
    """Files of one tree by the path a source yields each as: (yielded path, path in the tree) pairs."""

    tree: Tree
    pairs: tuple[tuple[str, str], ...]


class TreeSource:
    """A Source: what the release says about itself, its Python files in import-path order, then its
    compiled sources (from its own tree, or a wheel's sdist) by their paths in the project tree."""

    def __init__(
        self,
        info: ReleaseInfo,
        tree: Tree,
        mapping: Sequence[tuple[str, str]],
        compiled: Sequence[Mapped] = (),
        read: tuple[SourceFile, ...] | None = None,
    ) -> None:
        self.info = info
        self._tree = tree
        self._mapping = tuple(mapping)
        self.compiled = tuple(compiled)
        self._read = read

    def files(self) -> Iterator[SourceFile]:
        """Yield each file, read only when reached (or as read already to hash them)."""
        if self._read is not None:
            yield from self._read
            return
        for import_path, tree_path in self._mapping:
            yield SourceFile(import_path, self._tree.read(tree_path))
        for part in self.compiled:
            for path, tree_path in part.pairs:
                yield SourceFile(path, part.tree.read(tree_path))

    def import_paths(self) -> list[str]:
        """The paths the release's Python files are imported as."""
        return [imported for imported, _ in self._mapping]

    def _with(self, info: ReleaseInfo, compiled: Sequence[Mapped] | None = None) -> TreeSource:
        return TreeSource(info, self._tree, self._mapping, self.compiled if compiled is None else compiled, self._read)

    def with_layout(self, layout: RepoLayout | None) -> TreeSource:
        """The same source with where its files sit in the project tree, learned elsewhere (a wheel's sdist)."""
        return self._with(replace(self.info, layout=layout))

    def with_compiled(self, compiled: Sequence[Mapped], digest: str) -> TreeSource:
        """The same source with compiled sources read elsewhere (a wheel's sdist), after its own files,
        and the digest that covers both."""
        assert self._read is None, "a hashed source's files are fixed"
        return self._with(replace(self.info, digest=digest), (*self.compiled, *compiled))

    def overridden(self, name: str | None, version: str | None) -> TreeSource:
        """The same source with the user's --name / --version in place of the metadata's."""
        return self._with(replace(self.info, package=name or self.info.package, version=version or self.info.version))

    def hashed(self) -> TreeSource:
        """The same source with its digest set from its files, which it keeps (folders and installs
        have no archive to hash: their files are read and hashed once, here)."""
        files = tuple(self.files())
        info = replace(self.info, digest=files_digest(files))
        return TreeSource(info, self._tree, self._mapping, self.compiled, files)
