"""Read wheels, zips and tarballs in memory, treating every archive as hostile."""

from __future__ import annotations

import stat
import tarfile
import zipfile
import zlib
from collections.abc import Sequence
from contextlib import ExitStack, closing
from pathlib import Path
from typing import BinaryIO

from packaging.utils import InvalidWheelFilename, parse_wheel_filename
from packaging.version import InvalidVersion, Version

from errdex.errors import SourceError
from errdex.model import ReleaseInfo, SourceKind

from .layout import compiled_paths, import_paths, is_compiled, tree_layout
from .metadata import repository_folder, repository_url
from .tree import (
    DEFAULT_LIMITS,
    LOCAL_VERSION,
    ROOT_METADATA,
    Mapped,
    SourceLimits,
    TreeSource,
    describe_size,
    file_too_big,
    is_wanted,
    read_capped,
    read_meta,
    sha256_file,
)

TAR_SUFFIXES = (".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz", ".tar")
ZIP_SUFFIXES = (".whl", ".zip")
ARCHIVE_SUFFIXES = ZIP_SUFFIXES + TAR_SUFFIXES
_BROKEN = (zipfile.BadZipFile, tarfile.TarError, EOFError, zlib.error, OSError, ValueError, NotImplementedError)
_EOCD, _ZIP64_LOCATOR, _ZIP64_EOCD = b"PK\x05\x06", b"PK\x06\x07", b"PK\x06\x06"
_EOCD_SEARCH = 22 + 0xFFFF  # the end record plus the longest archive comment


def _member_path(name: str, label: str) -> str:
    """A member's clean relative posix path; a path that escapes the archive rejects the whole archive."""
    parts = [p for p in name.replace("\\", "/").split("/") if p not in ("", ".")]
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":") or ".." in parts:
        raise SourceError(f"Refusing {label}: member {name[:200]!r} has an unsafe path (absolute or with '..')")
    return "/".join(parts)


def _too_many(label: str, limits: SourceLimits) -> SourceError:
    return SourceError(f"Refusing {label}: it has more than {limits.members:,} members (the limit on member count)")


def _too_large(label: str, limits: SourceLimits) -> SourceError:
    return SourceError(
        f"Refusing {label}: its files add up to more than {describe_size(limits.total_bytes)} "
        "(the limit on total uncompressed size)"
    )


def _corrupt(label: str, exc: BaseException) -> SourceError:
    return SourceError(f"Cannot read {label}: it is corrupt or truncated ({exc}); fetch or build it again")


def _declared_zip_entries(f: BinaryIO) -> int | None:
    """The member count a zip's end record declares, read before zipfile builds one object per member."""
    size = f.seek(0, 2)
    tail_start = max(0, size - _EOCD_SEARCH)
    f.seek(tail_start)
    tail = f.read()
    at = tail.rfind(_EOCD)
    if at < 0:
        return None  # not a zip; zipfile says so
    count = int.from_bytes(tail[at + 10 : at + 12], "little")
    locator = tail[at - 20 : at] if at >= 20 else b""
    if locator[:4] == _ZIP64_LOCATOR:
        f.seek(int.from_bytes(locator[8:16], "little"))
        record = f.read(56)
        if record[:4] == _ZIP64_EOCD:
            count = max(count, int.from_bytes(record[32:40], "little"))
    return count


class ZipTree:
    """A wheel or zip archive, members read one at a time straight from the file."""

    def __init__(self, path: Path, limits: SourceLimits) -> None:
        self.label = f"archive '{path.name}'"
        self._limits = limits
        self._wheel = path.name.lower().endswith(".whl")  # its compiled sources (headers) are not the release's
        self._file = open(path, "rb")  # noqa: SIM115 - owned by the tree until close()
        try:
            declared = _declared_zip_entries(self._file)
            if declared is not None and declared > limits.members:
                raise _too_many(self.label, limits)
            self._zip = zipfile.ZipFile(self._file)
            self._members = self._index()
        except BaseException:
            self._file.close()
            raise

    def _index(self) -> dict[str, zipfile.ZipInfo]:
        infos = self._zip.infolist()
        if len(infos) > self._limits.members:
            raise _too_many(self.label, self._limits)
        members: dict[str, zipfile.ZipInfo] = {}
        total = 0
        for info in infos:
            path = _member_path(info.filename, self.label)
            mode = info.external_attr >> 16
            regular = not info.is_dir() and path and stat.S_IFMT(mode) in (0, stat.S_IFREG)
            if not regular or not is_wanted(path, info.file_size, self._limits) or (self._wheel and is_compiled(path)):
                continue  # symlinks, devices and files we never read are skipped, not followed
            if info.file_size > self._limits.file_bytes:
                raise file_too_big(self.label, path, self._limits)
            total += info.file_size
            if total > self._limits.total_bytes:
                raise _too_large(self.label, self._limits)
            members[path] = info
        return members

    def paths(self) -> Sequence[str]:
        return list(self._members)

    def read(self, path: str) -> bytes:
        try:
            with self._zip.open(self._members[path]) as stream:
                return read_capped(stream, self.label, path, self._limits)
        except _BROKEN as exc:
            raise _corrupt(self.label, exc) from exc

    def close(self) -> None:
        self._zip.close()
        self._file.close()


class TarTree:
    """A tarball read in one streaming pass; the files errdex wants are kept in memory."""

    def __init__(self, path: Path, limits: SourceLimits) -> None:
        self.label = f"archive '{path.name}'"
        self._limits = limits
        self._data: dict[str, bytes] = {}
        with tarfile.open(path, mode="r|*") as tar:
            self._scan(tar)

    def _scan(self, tar: tarfile.TarFile) -> None:
        count = total = 0
        for member in tar:
            count += 1
            if count > self._limits.members:
                raise _too_many(self.label, self._limits)
            path = _member_path(member.name, self.label)
            if not member.isreg() or not path:
                continue  # links, devices and fifos are skipped, not followed
            total += member.size
            if total > self._limits.total_bytes:
                raise _too_large(self.label, self._limits)
            if is_wanted(path, member.size, self._limits):
                if member.size > self._limits.file_bytes:
                    raise file_too_big(self.label, path, self._limits)
                stream = tar.extractfile(member)
                self._data[path] = read_capped(stream, self.label, path, self._limits) if stream else b""

    def paths(self) -> Sequence[str]:
        return list(self._data)

    def read(self, path: str) -> bytes:
        return self._data[path]

    def close(self) -> None:
        self._data.clear()


def _wrapper(paths: Sequence[str]) -> str:
    """The single top folder an sdist or tarball wraps everything in ("name-1.0/"), or ""."""
    tops = {p.split("/", 1)[0] for p in paths}
    nested = all("/" in p for p in paths)
    return f"{tops.pop()}/" if len(tops) == 1 and nested else ""


class _Stripped:
    """A view of a tree without the single top folder an sdist or tarball wraps everything in."""

    def __init__(self, tree: ZipTree | TarTree) -> None:
        self.label = tree.label
        self._tree = tree
        self._prefix = _wrapper(tree.paths())

    def paths(self) -> Sequence[str]:
        return [p[len(self._prefix) :] for p in self._tree.paths()]

    def read(self, path: str) -> bytes:
        return self._tree.read(self._prefix + path)


def _open_tree(path: Path, limits: SourceLimits) -> ZipTree | TarTree:
    name = path.name.lower()
    try:
        if name.endswith(ZIP_SUFFIXES):
            return ZipTree(path, limits)
        if name.endswith(TAR_SUFFIXES):
            return TarTree(path, limits)
    except SourceError:
        raise
    except _BROKEN as exc:
        raise _corrupt(f"archive '{path.name}'", exc) from exc
    raise SourceError(f"'{path}' is not a .whl, .zip, .tar.gz, .tgz, .tar.bz2 or .tar.xz archive")


def _tar_member_paths(path: Path, limits: SourceLimits) -> list[str]:
    """The regular files a tarball lists, from its member headers alone: no member is read."""
    label = f"archive '{path.name}'"
    found: list[str] = []
    with tarfile.open(path, mode="r|*") as tar:
        for count, member in enumerate(tar, 1):
            if count > limits.members:
                raise _too_many(label, limits)
            name = _member_path(member.name, label)
            if member.isreg() and name:
                found.append(name)
    return found


def _zip_member_paths(path: Path, limits: SourceLimits) -> list[str]:
    """The regular files a zip lists, from its central directory alone: no member is read."""
    label = f"archive '{path.name}'"
    with open(path, "rb") as f:
        declared = _declared_zip_entries(f)
        if declared is not None and declared > limits.members:
            raise _too_many(label, limits)
        with zipfile.ZipFile(f) as zf:
            infos = zf.infolist()
    if len(infos) > limits.members:
        raise _too_many(label, limits)
    found = []
    for info in infos:
        name = _member_path(info.filename, label)
        if name and not info.is_dir() and stat.S_IFMT(info.external_attr >> 16) in (0, stat.S_IFREG):
            found.append(name)
    return found


def archive_members(path: Path, limits: SourceLimits = DEFAULT_LIMITS) -> list[str]:
    """Every regular file an archive lists, by its path in the archive, read from its member list alone."""
    try:
        if path.name.lower().endswith(TAR_SUFFIXES):
            return _tar_member_paths(path, limits)
        return _zip_member_paths(path, limits)
    except _BROKEN as exc:
        raise _corrupt(f"archive '{path.name}'", exc) from exc


def archive_python_paths(path: Path, limits: SourceLimits = DEFAULT_LIMITS) -> list[str]:
    """The Python files of an sdist or other archive by their paths in the project (its wrapping folder
    removed), read from the archive's member list alone: nothing is extracted, built or run."""
    listed = archive_members(path, limits)
    wrapper = _wrapper(listed)
    return [p[len(wrapper) :] for p in listed if p.endswith(".py")]


def _filename_guess(filename: str) -> tuple[str, str | None]:
    """Name and version from an archive's file name: 'pkg-1.0.tgz' -> ('pkg', '1.0'); 'x.zip' -> ('x', None)."""
    if filename.lower().endswith(".whl"):
        try:
            wheel_name, wheel_version, _, _ = parse_wheel_filename(filename)
            return str(wheel_name), str(wheel_version)
        except InvalidWheelFilename:
            pass
    stem = next((filename[: -len(s)] for s in ARCHIVE_SUFFIXES if filename.lower().endswith(s)), filename)
    name, dash, version = stem.rpartition("-")
    try:
        Version(version)
    except InvalidVersion:
        return stem, None
    return (name, version) if dash and name else (stem, None)


def open_archive_source(path: Path, spec: str, stack: ExitStack, limits: SourceLimits = DEFAULT_LIMITS) -> TreeSource:
    """Open a local archive as a Source; the stack closes it."""
    if not path.is_file():
        raise SourceError(f"No such archive: '{path}' (check the path)")
    raw = stack.enter_context(closing(_open_tree(path, limits)))
    wheel = path.name.lower().endswith(".whl")
    tree: ZipTree | TarTree | _Stripped = raw if wheel else _Stripped(raw)
    meta_files = sorted(p for p in tree.paths() if p.endswith(".dist-info/METADATA")) if wheel else ROOT_METADATA
    meta = read_meta(tree, meta_files)
    guess_name, guess_version = _filename_guess(path.name)
    kind: SourceKind = "wheel" if wheel else ("sdist" if "PKG-INFO" in tree.paths() else "archive")
    mapping = import_paths(tree.paths(), wheel=wheel)
    compiled = () if wheel else (Mapped(tree, tuple(compiled_paths(tree.paths()))),)  # a wheel ships none
    info = ReleaseInfo(
        package=meta.name or guess_name,
        version=meta.version or guess_version or LOCAL_VERSION,
        spec=spec,
        source_kind=kind,
        digest=sha256_file(path),
        repository_url=repository_url(meta.urls),
        layout=None if wheel else tree_layout(mapping, kind),  # a wheel's own paths say nothing of the repository
        repository_folder=repository_folder(meta.urls, repository_url(meta.urls)),
    )
    return TreeSource(info, tree, mapping, compiled)
