"""Classifying what a user typed: requirement, path or git revision, and clear errors otherwise."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from errdex.errors import SourceError
from errdex.sources.spec import GitSpec, PathSpec, PipSpec, folder_of_the_name, parse_spec


@pytest.mark.parametrize(
    "text", ["transformers", "transformers==5.16.0", "Django>=1.11,<2", "pkg[extra]==1.0", "a.b-c_d"]
)
def test_requirements(text: str) -> None:
    parsed = parse_spec(text)
    assert isinstance(parsed, PipSpec)


@pytest.mark.parametrize(
    ("text", "location", "rev"),
    [
        ("git+/srv/repo", "/srv/repo", None),
        ("git+/srv/repo@v1.0", "/srv/repo", "v1.0"),
        ("git+https://github.com/o/r.git@feature/x", "https://github.com/o/r.git", "feature/x"),
        ("git+ssh://git@github.com/o/r.git", "ssh://git@github.com/o/r.git", None),
        ("git+ssh://git@github.com/o/r.git@abc123", "ssh://git@github.com/o/r.git", "abc123"),
        ("git+file:///srv/r@main", "file:///srv/r", "main"),
    ],
)
def test_git_specs(text: str, location: str, rev: str | None) -> None:
    assert parse_spec(text) == GitSpec(location, rev)


def test_existing_path_with_at_sign_is_not_split(tmp_path: Path) -> None:
    repo = tmp_path / "a@b"
    repo.mkdir()
    assert parse_spec(f"git+{repo}") == GitSpec(str(repo), None)


def test_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "pyproject.toml").write_text("")
    (tmp_path / "plain").mkdir()
    monkeypatch.chdir(tmp_path)
    assert parse_spec("proj") == PathSpec(Path("proj"))
    assert isinstance(parse_spec("plain"), PipSpec)  # like pip: a bare name is a name unless it is a project folder
    assert parse_spec("./plain") == PathSpec(Path("plain"))


def test_a_name_that_is_also_a_folder_here_names_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "pyproject.toml").write_text("")
    (tmp_path / "plain").mkdir()
    (tmp_path / "afile").write_text("")
    monkeypatch.chdir(tmp_path)
    here = os.path.join(os.curdir, "plain")
    assert [folder_of_the_name(spec) for spec in ("plain", "plain==1.0", "plain[extra]")] == [here] * 3
    for spec in ("proj", "./plain", "afile", "elsewhere", "not a name!!"):  # a path, no folder, or no name
        assert folder_of_the_name(spec) is None, spec


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("not a name!!", "is not a package name or requirement"),
        ("pkg @ https://example.org/pkg.whl", "direct URL"),
        ("./missing.whl", "No such file or folder"),
        ("missing-1.0.tar.gz", "No such file or folder"),
        ("git+", "names no repository"),
        ("git+/srv/repo@", "empty revision"),
        ("x" * 5000, "longer than"),
        ("~\x00", "NUL character"),
        ("./a\x00b", "NUL character"),
    ],
)
def test_bad_specs(text: str, message: str) -> None:
    with pytest.raises(SourceError, match=message):
        parse_spec(text)


@settings(max_examples=300)
@given(st.text(max_size=200))
def test_any_text_is_a_spec_or_a_clear_source_error(text: str) -> None:
    try:
        parse_spec(text)
    except SourceError as exc:
        assert str(exc)
