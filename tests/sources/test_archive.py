"""Local wheels, zips and sdists: naming, layout, and every way a hostile archive is refused."""

from __future__ import annotations

import hashlib
import stat
import tarfile
import zipfile
from contextlib import ExitStack
from pathlib import Path

import pytest

from errdex.errors import SourceError
from errdex.sources import open_source
from errdex.sources.archive import open_archive_source
from errdex.sources.tree import SourceLimits

from .conftest import core_metadata, write_sdist, write_tar, write_wheel


def read_all(spec: str | Path, **kw: object) -> tuple[object, dict[str, bytes]]:
    with open_source(str(spec), **kw) as source:  # type: ignore[arg-type]
        return source.info, {f.path: f.data for f in source.files()}


def test_wheel_is_read_as_installed(tmp_path: Path) -> None:
    whl = write_wheel(
        tmp_path,
        "demo_pkg",
        "1.2.0",
        {
            "demo_pkg/__init__.py": "X = 1\n",
            "demo_pkg/core.py": "raise ValueError('x')\n",
            "demo_pkg/data.json": "{}",
            "demo_pkg/conftest.py": "",
            "demo_pkg-1.2.0.data/purelib/extra_mod.py": "Y = 2\n",
            "demo_pkg-1.2.0.data/scripts/tool.py": "",
        },
        meta=("Project-URL: Source, https://github.com/Owner/Demo.git", "Home-page: https://demo.example.org"),
    )
    info, files = read_all(whl)
    assert list(files) == ["demo_pkg/__init__.py", "demo_pkg/core.py", "extra_mod.py"]
    assert files["demo_pkg/core.py"] == b"raise ValueError('x')\n"
    assert info.package == "demo_pkg" and info.version == "1.2.0"
    assert info.source_kind == "wheel"
    assert info.digest == hashlib.sha256(whl.read_bytes()).hexdigest()
    assert info.repository_url == "https://github.com/Owner/Demo"
    assert info.spec == str(whl)


def test_sdist_strips_top_folder_and_leaves_out_tests_docs_and_setup(tmp_path: Path) -> None:
    sdist = write_sdist(
        tmp_path,
        "Demo",
        "0.3",
        {
            "setup.py": "raise SystemExit\n",
            "demo/__init__.py": "",
            "demo/sub/mod.py": "A = 1\n",
            "demo/sub/conftest.py": "",
            "tests/test_demo.py": "",
            "docs/conf.py": "",
            "examples/ex.py": "",
            "benchmarks/b.py": "",
        },
    )
    info, files = read_all(sdist)
    assert list(files) == ["demo/__init__.py", "demo/sub/mod.py"]
    assert (info.package, info.version, info.source_kind) == ("Demo", "0.3", "sdist")


def test_sdist_with_src_layout(tmp_path: Path) -> None:
    sdist = write_sdist(
        tmp_path, "lay", "1.0", {"src/lay/__init__.py": "", "src/lay/a.py": "", "noxfile.py": ""}, suffix=".tar.xz"
    )
    _, files = read_all(sdist)
    assert list(files) == ["lay/__init__.py", "lay/a.py"]


def test_archive_without_pkg_info_is_named_from_pyproject(tmp_path: Path) -> None:
    pyproject = (
        '[project]\nname = "gh-thing"\nversion = "2.1"\n[project.urls]\nRepository = "https://gitlab.com/grp/thing"\n'
    )
    tarball = write_tar(
        tmp_path / "thing-main.tar.bz2", {"pyproject.toml": pyproject, "thing/__init__.py": ""}, top="thing-main"
    )
    info, files = read_all(tarball)
    assert (info.package, info.version, info.source_kind) == ("gh-thing", "2.1", "archive")
    assert info.repository_url == "https://gitlab.com/grp/thing"
    assert list(files) == ["thing/__init__.py"]


def test_zip_sdist_and_name_version_overrides(tmp_path: Path) -> None:
    path = tmp_path / "old-1.0.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("old-1.0/PKG-INFO", core_metadata("old", "1.0"))
        zf.writestr("old-1.0/old.py", "pass\n")
    info, files = read_all(path, name="renamed", version="9")
    assert (info.package, info.version, info.source_kind) == ("renamed", "9", "sdist")
    assert list(files) == ["old.py"]


def test_archive_without_metadata_is_named_from_its_file_name(tmp_path: Path) -> None:
    tarball = write_tar(tmp_path / "bare-3.1.tgz", {"bare.py": ""}, top="bare-3.1")
    info, _ = read_all(tarball)
    assert (info.package, info.version) == ("bare", "3.1")


def test_reading_writes_nothing_to_disk(tmp_path: Path) -> None:
    sdist = write_sdist(tmp_path, "quiet", "1.0", {"quiet/__init__.py": "", "setup.py": "open('MARKER', 'w')\n"})
    before = sorted(tmp_path.rglob("*"))
    read_all(sdist)
    assert sorted(tmp_path.rglob("*")) == before


# --- hostile archives -------------------------------------------------------------------------


def test_zip_member_with_dotdot_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "evil-1.0.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("evil-1.0/ok.py", "")
        zf.writestr("evil-1.0/../../escape.py", "")
    with pytest.raises(SourceError, match=r"evil-1\.0\.zip.*unsafe path"):
        read_all(path)


def test_tar_member_with_absolute_path_is_refused(tmp_path: Path) -> None:
    tarball = write_tar(tmp_path / "abs-1.0.tar.gz", {"abs-1.0/ok.py": "", "/etc/evil.py": ""})
    with pytest.raises(SourceError, match=r"abs-1\.0\.tar\.gz.*unsafe path"):
        read_all(tarball)


def _add_special(path: Path, kind: bytes, name: str, link: str = "") -> None:
    with tarfile.open(path, "a") as tar:
        info = tarfile.TarInfo(name)
        info.type = kind
        info.linkname = link
        tar.addfile(info)


def test_tar_links_and_devices_are_skipped_not_followed(tmp_path: Path) -> None:
    tarball = write_tar(
        tmp_path / "links-1.0.tar", {"links-1.0/pkg/__init__.py": "", "links-1.0/pkg/real.py": "R = 1\n"}
    )
    _add_special(tarball, tarfile.SYMTYPE, "links-1.0/pkg/out.py", "/etc/passwd")
    _add_special(tarball, tarfile.SYMTYPE, "links-1.0/pkg/up.py", "../../../../etc/passwd")
    _add_special(tarball, tarfile.LNKTYPE, "links-1.0/pkg/hard.py", "links-1.0/pkg/real.py")
    _add_special(tarball, tarfile.CHRTYPE, "links-1.0/pkg/dev.py")
    _add_special(tarball, tarfile.FIFOTYPE, "links-1.0/pkg/fifo.py")
    _, files = read_all(tarball)
    assert files == {"pkg/__init__.py": b"", "pkg/real.py": b"R = 1\n"}


def test_zip_symlink_member_is_skipped(tmp_path: Path) -> None:
    path = write_wheel(tmp_path, "zl", "1.0", {"zl/__init__.py": ""})
    with zipfile.ZipFile(path, "a") as zf:
        info = zipfile.ZipInfo("zl/link.py")
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(info, "/etc/passwd")
    _, files = read_all(path)
    assert list(files) == ["zl/__init__.py"]


def test_zip_bomb_member_over_single_file_cap(tmp_path: Path) -> None:
    path = tmp_path / "bomb-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("bomb/__init__.py", b"\0" * (51 << 20))
    assert path.stat().st_size < 1 << 20
    with pytest.raises(SourceError, match=r"bomb-1\.0-py3-none-any\.whl.*'bomb/__init__\.py'.*50 MiB"):
        read_all(path)


def _open_with(path: Path, limits: SourceLimits) -> dict[str, bytes]:
    with ExitStack() as stack:
        source = open_archive_source(path, str(path), stack, limits)
        return {f.path: f.data for f in source.files()}


def test_total_uncompressed_size_cap(tmp_path: Path) -> None:
    files = {f"big/m{i}.py": "x" * 600 for i in range(3)}
    for path in (write_wheel(tmp_path, "big", "1.0", files), write_sdist(tmp_path, "big", "1.0", files)):
        with pytest.raises(SourceError, match=rf"{path.name}.*more than 1 KiB.*total uncompressed size"):
            _open_with(path, SourceLimits(total_bytes=1024))


def test_member_count_cap(tmp_path: Path) -> None:
    files = {f"many/m{i}.py": "" for i in range(20)}
    for path in (write_wheel(tmp_path, "many", "1.0", files), write_sdist(tmp_path, "many", "1.0", files)):
        with pytest.raises(SourceError, match=rf"{path.name}.*more than 10 members"):
            _open_with(path, SourceLimits(members=10))


def test_tar_member_over_single_file_cap(tmp_path: Path) -> None:
    path = write_sdist(tmp_path, "fat", "1.0", {"fat.py": "x" * 5000})
    with pytest.raises(SourceError, match=r"'fat-1\.0/fat\.py'.*4 KiB.*single file"):
        _open_with(path, SourceLimits(file_bytes=4096))


def test_not_an_archive_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "junk-1.0-py3-none-any.whl"
    path.write_bytes(b"this is not a zip file at all")
    with pytest.raises(SourceError, match=r"junk-1\.0-py3-none-any\.whl.*corrupt or truncated"):
        read_all(path)


def test_truncated_tar_gz_is_a_clear_error(tmp_path: Path) -> None:
    path = write_sdist(tmp_path, "cut", "1.0", {f"cut/m{i}.py": f"V = {i}\n" * 2000 for i in range(10)})
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(SourceError, match=r"cut-1\.0\.tar\.gz.*corrupt or truncated"):
        read_all(path)


def test_truncated_zip_is_a_clear_error(tmp_path: Path) -> None:
    path = write_wheel(tmp_path, "cutz", "1.0", {"cutz/__init__.py": "A = 1\n" * 1000})
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 40])
    with pytest.raises(SourceError, match=r"cutz-1\.0-py3-none-any\.whl.*corrupt or truncated"):
        read_all(path)


def test_corrupt_member_data_is_a_clear_error_when_read(tmp_path: Path) -> None:
    path = tmp_path / "crc-1.0-py3-none-any.whl"
    payload = b"RAISE_ME = 'marker text'\n" * 50
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("crc/__init__.py", payload)
        zf.writestr("crc-1.0.dist-info/METADATA", core_metadata("crc", "1.0"))
    data = bytearray(path.read_bytes())
    at = data.index(b"marker text")
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(SourceError, match=r"crc-1\.0-py3-none-any\.whl.*corrupt"):
        read_all(path)


def test_unknown_archive_suffix_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "thing.rar"
    path.write_bytes(b"")
    with pytest.raises(SourceError, match=r"not a \.whl"), ExitStack() as stack:
        open_archive_source(path, str(path), stack)
