"""Release names, versions and repository URLs read from metadata files."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from errdex.sources.metadata import (
    from_core_metadata,
    from_pyproject,
    from_setup_cfg,
    normalize_repository,
    repository_url,
)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://github.com/huggingface/transformers", "https://github.com/huggingface/transformers"),
        ("http://www.github.com/o/r/tree/main/src", "https://github.com/o/r"),
        ("https://github.com/o/r.git", "https://github.com/o/r"),
        ("git+https://github.com/o/r.git", "https://github.com/o/r"),
        ("git@github.com:o/r.git", "https://github.com/o/r"),
        ("https://gitlab.com/group/sub/proj/-/issues", "https://gitlab.com/group/sub/proj"),
        ("https://codeberg.org/o/r/src/branch/main", "https://codeberg.org/o/r"),
        ("https://github.com/onlyowner", None),
        ("https://docs.example.org/o/r", None),
        ("not a url", None),
        ("http://[::1", None),
    ],
)
def test_normalize_repository(url: str, expected: str | None) -> None:
    assert normalize_repository(url) == expected


def test_repository_prefers_source_label_over_homepage() -> None:
    urls = [
        ("Homepage", "https://github.com/o/site"),
        ("Documentation", "https://o.example.org"),
        ("Source", "https://github.com/o/code"),
    ]
    assert repository_url(urls) == "https://github.com/o/code"
    assert repository_url([("Docs", "https://x.example.org")]) is None


def test_core_metadata() -> None:
    meta = from_core_metadata(
        b"Metadata-Version: 2.1\nName: transformers\nVersion: 5.16.0\nHome-page: https://github.com/huggingface/transformers\n"
        b"Project-URL: Documentation, https://hf.example.org\n\nlong description\nName: wrong\n"
    )
    assert (meta.name, meta.version) == ("transformers", "5.16.0")
    assert repository_url(meta.urls) == "https://github.com/huggingface/transformers"


def test_pyproject_dynamic_version_and_bad_types() -> None:
    meta = from_pyproject(b'[project]\nname = "p"\ndynamic = ["version"]\nurls = "nope"\n')
    assert (meta.name, meta.version, meta.urls) == ("p", None, ())
    assert from_pyproject(b"\xff\xfe").name is None
    assert from_pyproject(b"project = 3\n").name is None


def test_setup_cfg_project_urls_and_file_version() -> None:
    meta = from_setup_cfg(
        b"[metadata]\nname = c\nversion = file: VERSION\nproject_urls =\n    Source Code = https://github.com/o/c\n"
    )
    assert (meta.name, meta.version) == ("c", None)
    assert repository_url(meta.urls) == "https://github.com/o/c"
    assert from_setup_cfg(b"no section header\n").name is None


@settings(max_examples=300)
@given(st.binary(max_size=400))
def test_hostile_metadata_never_crashes(data: bytes) -> None:
    for parse in (from_core_metadata, from_pyproject, from_setup_cfg):
        meta = parse(data)
        assert meta.name is None or "\n" not in meta.name
        repository_url(meta.urls)


@given(st.text(max_size=200))
def test_any_url_text_normalises_or_is_none(text: str) -> None:
    found = normalize_repository(text)
    assert found is None or found.startswith("https://")
