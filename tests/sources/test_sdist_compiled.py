"""A wheel with extension modules yields its sdist's compiled sources: fetched once, kept, never built."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from errdex.model import ReleaseInfo, RepoLayout
from errdex.sources import open_source
from errdex.sources.sdist_fetch import KEPT_FOLDER, NO_SDIST
from errdex.sources.sdist_layout import LAYOUT_FILE
from errdex.sources.tree import sha256_file

from .conftest import write_sdist, write_wheel
from .test_compiled import COMPILED, PROJECT

SETUP_PY = "import pathlib\npathlib.Path({marker!r}).write_text('setup.py ran')\n"
EXTENSION = "fastpkg/_speedups.cpython-312-x86_64-linux-gnu.so"
WHEEL = {"fastpkg/__init__.py": "", EXTENSION: b"\x7fELF", "fastpkg/include/fast.h": ""}


def fetch(spec: str, cache: Path) -> tuple[ReleaseInfo, list[str], list[str]]:
    lines: list[str] = []
    with open_source(spec, cache_dir=cache, on_progress=lines.append) as source:
        return source.info, [f.path for f in source.files()], lines


def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """pip's only index is a port nothing listens on: every page fails to load."""
    monkeypatch.delenv("PIP_NO_INDEX")
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")
    monkeypatch.setenv("PIP_RETRIES", "0")
    monkeypatch.setenv("PIP_TIMEOUT", "2")


def test_the_compiled_sources_follow_the_wheels_python_files(
    local_index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "SETUP_PY_RAN"
    wheel = write_wheel(local_index, "fastpkg", "1.0", WHEEL)
    sdist = write_sdist(local_index, "fastpkg", "1.0", {**PROJECT, "setup.py": SETUP_PY.format(marker=str(marker))})
    cache = tmp_path / "cache"
    info, files, lines = fetch("fastpkg==1.0", cache)
    assert files == ["fastpkg/__init__.py", *COMPILED]
    assert "reading the compiled sources of fastpkg 1.0 from its sdist" in lines
    digest = hashlib.sha256(f"{sha256_file(wheel)}\n{sha256_file(sdist)}\n".encode()).hexdigest()
    assert (info.source_kind, info.digest, info.layout) == ("wheel", digest, RepoLayout("src", "sdist"))
    assert (cache / "fastpkg" / "1" / KEPT_FOLDER / sdist.name).read_bytes() == sdist.read_bytes()
    assert not marker.exists()

    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("PIP_FIND_LINKS", str(empty))  # the sdist is kept with the wheel
    again, files_again, lines = fetch("fastpkg==1.0", cache)
    assert (again, files_again) == (info, files)
    assert lines == [f"using cached {wheel.name}", "reading the compiled sources of fastpkg 1.0 from its sdist"]


def test_a_release_without_an_sdist_gives_the_wheels_python_and_is_not_asked_again(
    local_index: Path, tmp_path: Path
) -> None:
    wheel = write_wheel(local_index, "lone", "1.0", {"lone/__init__.py": "", "lone/_c.pyd": b"MZ"})
    info, files, lines = fetch("lone==1.0", tmp_path)
    assert files == ["lone/__init__.py"] and info.digest == sha256_file(wheel)
    assert "no sdist of lone 1.0 (it has none); reading the wheel's Python files only" in lines
    assert (tmp_path / "lone" / "1" / KEPT_FOLDER / NO_SDIST).is_file()


def test_an_sdist_not_fetched_offline_is_fetched_on_a_later_run(
    local_index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wheel = write_wheel(local_index, "fastpkg", "1.0", WHEEL)
    with monkeypatch.context() as env:
        offline(env)  # the wheel comes from the find-links folder; the index behind it does not answer
        info, files, lines = fetch("fastpkg==1.0", tmp_path)
    assert files == ["fastpkg/__init__.py"] and info.digest == sha256_file(wheel)
    assert any(line.startswith("no sdist of fastpkg 1.0 (it could not be fetched: ") for line in lines)
    assert not (tmp_path / "fastpkg" / "1" / KEPT_FOLDER).exists()  # a failure is not remembered,
    assert not (tmp_path / "fastpkg" / "1" / LAYOUT_FILE).exists()  # nor taken for a release without an sdist

    write_sdist(local_index, "fastpkg", "1.0", PROJECT)
    later, files, _ = fetch("fastpkg==1.0", tmp_path)
    assert files == ["fastpkg/__init__.py", *COMPILED] and later.digest != info.digest
    assert later.layout == RepoLayout("src", "sdist")


def test_a_pure_python_wheel_fetches_no_sdist_for_compiled_sources(local_index: Path, tmp_path: Path) -> None:
    write_wheel(local_index, "shop", "1.0", {"shop/__init__.py": "", "shop/include/shop.h": ""})
    write_sdist(local_index, "shop", "1.0", {"shop/__init__.py": "", "shop/_speedups.c": ""})
    _, files, lines = fetch("shop==1.0", tmp_path)
    assert files == ["shop/__init__.py"]
    assert not any("compiled sources" in line for line in lines)
    assert sorted(os.listdir(tmp_path / "shop" / "1")) == [LAYOUT_FILE, "shop-1.0-py3-none-any.whl"]
