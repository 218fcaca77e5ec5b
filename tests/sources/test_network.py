"""Real releases through the machine's own pip, downloaded once into the shared test cache (then offline)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from errdex.sources import open_source
from errdex.sources.registry import release_dir
from errdex.sources.sdist_fetch import KEPT_FOLDER

pytestmark = pytest.mark.network


def open_cached(
    spec: str, cache: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> tuple[object, dict[str, bytes]]:
    """Open a release (downloading it on the first run), then again with pip unable to reach anything."""
    with open_source(spec, cache_dir=cache) as source:
        first = source.info
    empty = tmp_path / "no-index"
    empty.mkdir()
    with monkeypatch.context() as env:
        env.setenv("PIP_CONFIG_FILE", os.devnull)
        env.setenv("PIP_NO_INDEX", "1")
        env.setenv("PIP_FIND_LINKS", str(empty))
        lines: list[str] = []
        with open_source(spec, cache_dir=cache, on_progress=lines.append) as source:
            files = {f.path: f.data for f in source.files()}
            assert source.info == first
    assert lines and lines[0].startswith("using cached")
    return first, files


def test_transformers_5_16_0(release_cache: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    info, files = open_cached("transformers==5.16.0", release_cache, monkeypatch, tmp_path)
    assert (info.package, info.version, info.source_kind) == ("transformers", "5.16.0", "wheel")
    assert info.repository_url == "https://github.com/huggingface/transformers"
    lines = files["transformers/generation/configuration_utils.py"].decode().splitlines()
    assert lines[686].strip() == "raise ValueError("
    assert "Invalid `cache_implementation`" in lines[687]
    assert list(files) == sorted(files)


@pytest.mark.parametrize(
    ("spec", "module"),
    [
        ("Django==1.11.29", "django/db/models/query.py"),
        ("pandas==0.24.2", "pandas/core/frame.py"),  # wheels only for Python <= 3.7
        ("SQLAlchemy==1.3.24", "sqlalchemy/orm/session.py"),  # wheels only for Python <= 3.9
        ("docopt==0.6.2", "docopt.py"),  # no wheel at all: the sdist, never built
    ],
)
def test_old_releases(
    spec: str, module: str, release_cache: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    info, files = open_cached(spec, release_cache, monkeypatch, tmp_path)
    assert f"{info.package}=={info.version}" == spec
    assert module in files and b"raise " in files[module]


@pytest.mark.parametrize(
    ("spec", "module", "compiled"),
    [
        ("markupsafe==3.0.2", "markupsafe/__init__.py", ["src/markupsafe/_speedups.c"]),
        (
            "pyyaml==6.0.2",
            "yaml/__init__.py",
            ["yaml/__init__.pxd", "yaml/_yaml.h", "yaml/_yaml.pxd", "yaml/_yaml.pyx"],
        ),
    ],
)
def test_a_wheel_with_extension_modules_yields_its_sdists_compiled_sources(
    spec: str, module: str, compiled: list[str], release_cache: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    info, files = open_cached(spec, release_cache, monkeypatch, tmp_path)
    assert info.source_kind == "wheel"
    paths = list(files)
    assert paths[-len(compiled) :] == compiled and module in paths[: -len(compiled)]
    assert all(p.endswith(".py") for p in paths[: -len(compiled)])
    kept = release_dir(release_cache, info.package, info.version) / KEPT_FOLDER
    assert [p.name for p in kept.iterdir()] == [f"{info.package.lower()}-{info.version}.tar.gz"]


def test_a_pure_python_wheel_keeps_no_sdist(
    release_cache: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    info, files = open_cached("requests==2.31.0", release_cache, monkeypatch, tmp_path)
    assert all(p.endswith(".py") for p in files)
    assert not (release_cache / "requests" / "2.31" / KEPT_FOLDER).exists()
