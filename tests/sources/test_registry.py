"""Releases fetched through pip from a local find-links index: wheels, other-Python wheels, sdists, cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from errdex.errors import SourceError
from errdex.sources import default_cache_dir, open_source

from .conftest import write_sdist, write_wheel

SETUP_PY = (
    "import pathlib\npathlib.Path({marker!r}).write_text('setup.py ran')\nfrom setuptools import setup\nsetup()\n"
)
PYPROJECT = '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n'


@pytest.fixture(scope="module")
def links(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The releases the local index offers; the marker appears if any sdist's setup.py ever runs."""
    folder = tmp_path_factory.mktemp("links")
    marker = folder.parent / "SETUP_PY_RAN"
    setup_py = SETUP_PY.format(marker=str(marker))
    write_wheel(folder, "fakepkg", "1.0", {"fakepkg/__init__.py": "V = 1\n"})
    write_wheel(folder, "fakepkg", "2.0", {"fakepkg/__init__.py": "V = 2\n"})
    write_wheel(folder, "oldpkg", "1.0", {"oldpkg/__init__.py": "OLD = 1\n"}, tag="cp37-cp37m-manylinux1_x86_64")
    write_sdist(
        folder,
        "sdistonly",
        "1.0",
        {"setup.py": setup_py, "pyproject.toml": PYPROJECT, "sdistonly/__init__.py": "S = 1\n"},
    )
    write_wheel(folder, "mixpkg", "1.0", {"mixpkg/__init__.py": "M = 1\n"}, tag="cp37-cp37m-manylinux1_x86_64")
    write_sdist(folder, "mixpkg", "2.0", {"setup.py": setup_py, "mixpkg/__init__.py": "M = 2\n"})
    return folder


@pytest.fixture
def index(links: Path, local_index: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PIP_FIND_LINKS", str(links))
    return links


def fetch(spec: str, cache: Path) -> tuple[object, dict[str, bytes], list[str]]:
    lines: list[str] = []
    with open_source(spec, cache_dir=cache, on_progress=lines.append) as source:
        return source.info, {f.path: f.data for f in source.files()}, lines


def test_wheel_for_this_python_then_cache_reuse_without_pip(
    index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    info, files, lines = fetch("fakepkg==1.0", cache)
    assert files == {"fakepkg/__init__.py": b"V = 1\n"}
    assert (info.package, info.version, info.source_kind, info.spec) == ("fakepkg", "1.0", "wheel", "fakepkg==1.0")
    assert lines[0] == "downloading fakepkg==1.0"
    assert (cache / "fakepkg" / "1" / "fakepkg-1.0-py3-none-any.whl").is_file()

    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("PIP_FIND_LINKS", str(empty))  # pip could find nothing now
    again, files_again, lines = fetch("FakePkg==1.0.0", cache)
    assert files_again == files and again.digest == info.digest
    assert lines == ["using cached fakepkg-1.0-py3-none-any.whl"]


def test_bare_name_gets_the_newest_release(index: Path, tmp_path: Path) -> None:
    info, files, _ = fetch("fakepkg", tmp_path)
    assert info.version == "2.0" and files == {"fakepkg/__init__.py": b"V = 2\n"}
    info, _, _ = fetch("fakepkg<2", tmp_path)
    assert info.version == "1.0"


def test_wheel_built_for_another_python(index: Path, tmp_path: Path) -> None:
    info, files, lines = fetch("oldpkg==1.0", tmp_path)
    assert files == {"oldpkg/__init__.py": b"OLD = 1\n"}
    assert info.source_kind == "wheel"
    assert any("looking for other wheels" in line for line in lines)


def test_sdist_only_release_is_downloaded_never_built(index: Path, tmp_path: Path) -> None:
    info, files, _ = fetch("sdistonly==1.0", tmp_path)
    assert files == {"sdistonly/__init__.py": b"S = 1\n"}
    assert (info.package, info.source_kind) == ("sdistonly", "sdist")
    assert not (index.parent / "SETUP_PY_RAN").exists()


def test_marker_sdist_does_run_when_pip_prepares_it(
    local_index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control for the test above: a plain `pip download` of such an sdist runs its setup.py."""
    pytest.importorskip("setuptools")
    marker = tmp_path / "ARMED_RAN"
    write_sdist(local_index, "armed", "1.0", {"setup.py": SETUP_PY.format(marker=str(marker)), "armed/__init__.py": ""})
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--no-build-isolation",
        "-d",
        str(tmp_path / "d"),
        "armed==1.0",
    ]
    subprocess.run(command, capture_output=True, check=False)
    assert marker.read_text() == "setup.py ran"


def test_newest_version_wins_over_an_older_wheel(index: Path, tmp_path: Path) -> None:
    info, files, _ = fetch("mixpkg", tmp_path)
    assert (info.version, info.source_kind) == ("2.0", "sdist")
    assert files == {"mixpkg/__init__.py": b"M = 2\n"}
    assert not (index.parent / "SETUP_PY_RAN").exists()


def test_unknown_package(index: Path, tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"No release of 'nosuchpkg' found by pip \(check the name"):
        fetch("nosuchpkg", tmp_path)


def test_unknown_version(index: Path, tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"No release of 'fakepkg' matches '==3\.0' \(pip sees versions up to 2\.0"):
        fetch("fakepkg==3.0", tmp_path)


def test_default_cache_dir_honours_errdex_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRDEX_CACHE", str(tmp_path / "c"))
    assert default_cache_dir() == tmp_path / "c"
    monkeypatch.delenv("ERRDEX_CACHE")
    assert default_cache_dir().name == "releases" and "errdex" in str(default_cache_dir())
    assert os.path.isabs(default_cache_dir())
