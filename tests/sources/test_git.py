"""Git revisions read from the object store: normal and bare repositories, revisions, naming."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from errdex.errors import SourceError
from errdex.sources import open_source

from .conftest import commit_all, git, write_tree


def read_git(spec: str, **kw: object) -> tuple[object, dict[str, bytes]]:
    with open_source(spec, **kw) as source:  # type: ignore[arg-type]
        return source.info, {f.path: f.data for f in source.files()}


@pytest.fixture
def history(git_repo: Path) -> tuple[Path, str, str]:
    """A repo with two commits: v1 (flat, setup.py only) and then a src layout with a pyproject."""
    write_tree(git_repo, {"setup.py": "raise SystemExit\n", "gitpkg/__init__.py": "V = 1\n", "tests/test_x.py": ""})
    first = commit_all(git_repo, "one")
    git(git_repo, "tag", "v1")
    git(git_repo, "rm", "-q", "-r", "gitpkg")
    write_tree(
        git_repo,
        {
            "pyproject.toml": '[project]\nname = "git-pkg"\nversion = "2.0"\n',
            "src/gitpkg/__init__.py": "V = 2\n",
            "src/gitpkg/big.py": "B = 0\n",
        },
    )
    os.symlink("/etc/passwd", git_repo / "src" / "gitpkg" / "link.py")
    second = commit_all(git_repo, "two")
    write_tree(git_repo, {"src/gitpkg/uncommitted.py": ""})  # the work tree is never read
    return git_repo, first, second


def test_head_of_normal_repo(history: tuple[Path, str, str]) -> None:
    repo, _, second = history
    info, files = read_git(f"git+{repo}")
    assert files == {"gitpkg/__init__.py": b"V = 2\n", "gitpkg/big.py": b"B = 0\n"}
    assert (info.package, info.version, info.source_kind, info.digest) == ("git-pkg", "2.0", "git", second)


def test_tag_without_metadata_gets_sha_version(history: tuple[Path, str, str]) -> None:
    repo, first, _ = history
    info, files = read_git(f"git+{repo}@v1")
    assert files == {"gitpkg/__init__.py": b"V = 1\n"}
    assert (info.package, info.version, info.digest) == ("repo", f"0+g{first[:7]}", first)


def test_bare_clone_by_file_url_and_sha(history: tuple[Path, str, str], tmp_path: Path) -> None:
    repo, first, _ = history
    bare = tmp_path / "mirror.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(bare))
    info, files = read_git(f"git+file://{bare}@{first}", name="override")
    assert info.package == "override" and info.digest == first
    assert list(files) == ["gitpkg/__init__.py"]
    info, _ = read_git(f"git+{bare}")
    assert info.package == "git-pkg"


def test_repository_url_from_origin(history: tuple[Path, str, str]) -> None:
    repo, _, _ = history
    git(repo, "remote", "add", "origin", "git@github.com:someone/gitpkg.git")
    info, _ = read_git(f"git+{repo}")
    assert info.repository_url == "https://github.com/someone/gitpkg"


def test_unknown_revision(history: tuple[Path, str, str]) -> None:
    repo, _, _ = history
    with pytest.raises(SourceError, match=r"No commit 'nope' in git repository"):
        read_git(f"git+{repo}@nope")


def test_option_like_revision_is_refused(history: tuple[Path, str, str]) -> None:
    repo, _, _ = history
    with pytest.raises(SourceError, match="not a git revision"):
        read_git(f"git+{repo}@--output=x")


def test_missing_repository(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="No such git repository"):
        read_git(f"git+{tmp_path / 'none'}")


def test_plain_folder_inside_a_repository_is_not_read_as_that_repository(history: tuple[Path, str, str]) -> None:
    repo, _, _ = history
    inner = repo / "plain"
    inner.mkdir()
    with pytest.raises(SourceError, match="No commit 'HEAD'"):
        read_git(f"git+{inner}")
