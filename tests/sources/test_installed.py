"""Installed distributions, read by their RECORD from site-packages without importing them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from errdex.errors import SourceError
from errdex.sources import open_source

from .conftest import core_metadata, write_tree


def read_installed(spec: str, **kw: object) -> tuple[object, dict[str, bytes]]:
    with open_source(spec, installed=True, **kw) as source:  # type: ignore[arg-type]
        return source.info, {f.path: f.data for f in source.files()}


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A site-packages folder on sys.path holding one regular and one editable distribution."""
    site = tmp_path / "site-packages"
    marker = tmp_path / "IMPORTED"
    record = "\n".join(
        [
            "instpkg/__init__.py,,",
            "instpkg/core.py,,",
            "instpkg/data.txt,,",
            "instpkg-1.4.dist-info/METADATA,,",
            "../../bin/instpkg-tool,,",
            "../../bin/evil.py,,",
        ]
    )
    write_tree(
        site,
        {
            "instpkg/__init__.py": f"open({str(marker)!r}, 'w')\n",
            "instpkg/core.py": "raise RuntimeError('x')\n",
            "instpkg/data.txt": "",
            "instpkg-1.4.dist-info/METADATA": core_metadata(
                "InstPkg", "1.4", "Project-URL: Repository, https://github.com/o/instpkg"
            ),
            "instpkg-1.4.dist-info/RECORD": record,
            "editpkg-0.1.dist-info/METADATA": core_metadata("editpkg", "0.1"),
            "editpkg-0.1.dist-info/RECORD": "__editable___editpkg_finder.py,,\neditpkg-0.1.dist-info/METADATA,,\n",
            "editpkg-0.1.dist-info/direct_url.json": json.dumps(
                {"url": (tmp_path / "editproj").as_uri(), "dir_info": {"editable": True}}
            ),
            "__editable___editpkg_finder.py": "",
        },
    )
    write_tree(tmp_path / "editproj", {"src/editpkg/__init__.py": "E = 1\n", "tests/test_e.py": ""})
    monkeypatch.syspath_prepend(str(site))
    return site


def test_installed_distribution_by_record(site: Path) -> None:
    info, files = read_installed("instpkg")
    assert list(files) == ["instpkg/__init__.py", "instpkg/core.py"]
    assert (info.package, info.version, info.source_kind) == ("InstPkg", "1.4", "installed")
    assert info.repository_url == "https://github.com/o/instpkg"
    assert len(info.digest) == 64
    assert not (site.parent / "IMPORTED").exists()


def test_version_check_and_overrides(site: Path) -> None:
    info, _ = read_installed("instpkg==1.4", version="1.4-patched")
    assert info.version == "1.4-patched"
    with pytest.raises(SourceError, match=r"Installed 'instpkg' is version 1\.4, not ==2\.0"):
        read_installed("instpkg==2.0")


def test_editable_install_reads_its_project_folder(site: Path) -> None:
    info, files = read_installed("editpkg")
    assert files == {"editpkg/__init__.py": b"E = 1\n"}
    assert (info.package, info.version) == ("editpkg", "0.1")


def test_not_installed(site: Path) -> None:
    with pytest.raises(SourceError, match="No distribution 'surely-not-installed-xyz' is installed"):
        read_installed("surely-not-installed-xyz")


def test_real_installed_distribution() -> None:
    info, files = read_installed("packaging")
    assert info.package == "packaging"
    assert "packaging/version.py" in files
    assert all(not p.startswith("..") for p in files)
