"""Builders for the small releases, archives and repositories the source tests read."""

from __future__ import annotations

import io
import os
import subprocess
import tarfile
import zipfile
from collections.abc import Mapping
from pathlib import Path

import pytest

Files = Mapping[str, str | bytes]


def _bytes(data: str | bytes) -> bytes:
    return data.encode() if isinstance(data, str) else data


def core_metadata(name: str, version: str, *extra: str) -> str:
    """A METADATA / PKG-INFO text."""
    return "\n".join(["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}", *extra]) + "\n"


def write_wheel(
    folder: Path, name: str, version: str, files: Files, *, tag: str = "py3-none-any", meta: tuple[str, ...] = ()
) -> Path:
    """A wheel zip built by hand: the files plus a dist-info with METADATA."""
    path = folder / f"{name}-{version}-{tag}.whl"
    dist_info = f"{name}-{version}.dist-info"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for member, data in files.items():
            zf.writestr(member, _bytes(data))
        zf.writestr(f"{dist_info}/METADATA", core_metadata(name, version, *meta))
        zf.writestr(f"{dist_info}/WHEEL", f"Wheel-Version: 1.0\nTag: {tag}\n")
        zf.writestr(f"{dist_info}/RECORD", "")
    return path


def write_tar(path: Path, files: Files, *, top: str | None = None) -> Path:
    """A tarball (compression from the suffix) with the files under an optional top folder."""
    mode = {".gz": "w:gz", ".tgz": "w:gz", ".bz2": "w:bz2", ".xz": "w:xz"}.get(path.suffix, "w")
    with tarfile.open(path, mode) as tar:
        for member, data in files.items():
            raw = _bytes(data)
            info = tarfile.TarInfo(f"{top}/{member}" if top else member)
            info.size = len(raw)
            tar.addfile(info, io.BytesIO(raw))
    return path


def write_sdist(folder: Path, name: str, version: str, files: Files, *, suffix: str = ".tar.gz") -> Path:
    """An sdist: `name-version/` holding PKG-INFO and the files."""
    all_files = {"PKG-INFO": core_metadata(name, version), **files}
    return write_tar(folder / f"{name}-{version}{suffix}", all_files, top=f"{name}-{version}")


def write_tree(root: Path, files: Files) -> Path:
    """Files written under a folder."""
    for member, data in files.items():
        target = root / member
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(_bytes(data))
    return root


def git(repo: Path, *args: str) -> str:
    """Run git in a test repository with a fixed identity and no user or system configuration."""
    env = {
        **os.environ,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    out = subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env)
    return out.stdout.strip()


def commit_all(repo: Path, message: str) -> str:
    """Stage everything, commit, and return the commit sha."""
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture
def git_repo(tmp_path: Path) -> Path:
    """An empty git repository with a work tree."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    return repo


@pytest.fixture
def local_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A find-links folder that is pip's only index; the machine's pip configuration is ignored."""
    links = tmp_path / "links"
    links.mkdir()
    for key in list(os.environ):
        if key.startswith("PIP_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(links))
    monkeypatch.setenv("PIP_NO_CACHE_DIR", "1")
    return links
