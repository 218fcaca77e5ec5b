"""Where a release's files sit in its project tree: read from paths alone (its own tree, or a wheel's sdist)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from errdex.model import RepoLayout
from errdex.sources import open_source
from errdex.sources.archive import archive_python_paths
from errdex.sources.layout import tree_prefix
from errdex.sources.metadata import repository_folder
from errdex.sources.sdist_layout import LAYOUT_FILE

from .conftest import write_sdist, write_tree, write_wheel

SETUP_PY = "import pathlib\npathlib.Path({marker!r}).write_text('setup.py ran')\n"


def test_the_prefix_is_where_most_import_paths_sit() -> None:
    imported = ["pkg/__init__.py", "pkg/a.py", "pkg/sub/b.py"]
    assert tree_prefix(imported, ["setup.py", "src/pkg/__init__.py", "src/pkg/a.py", "src/pkg/sub/b.py"]) == "src"
    assert tree_prefix(imported, ["pkg/__init__.py", "pkg/a.py", "tests/pkg/a.py"]) == ""
    assert tree_prefix(imported, ["python/core/pkg/__init__.py", "python/core/pkg/a.py"]) == "python/core"
    assert tree_prefix(imported, ["other/__init__.py"]) is None


@pytest.mark.parametrize(("root", "expected"), [("src/", "src"), ("lib/", "lib"), ("", "")])
def test_an_sdist_records_the_layout_its_own_paths_show(tmp_path: Path, root: str, expected: str) -> None:
    sdist = write_sdist(tmp_path, "shop", "1.0", {f"{root}shop/__init__.py": "", "setup.py": "", "tests/t.py": ""})
    with open_source(str(sdist)) as source:
        assert source.info.layout == RepoLayout(expected, "sdist")


def test_a_folder_and_its_layout(tmp_path: Path) -> None:
    write_tree(tmp_path / "shop", {"src/shop/__init__.py": "", "pyproject.toml": '[project]\nname = "shop"\n'})
    with open_source(str(tmp_path / "shop")) as source:
        assert source.info.layout == RepoLayout("src", "folder")


def test_the_member_list_is_read_without_its_wrapping_folder(tmp_path: Path) -> None:
    sdist = write_sdist(tmp_path, "shop", "1.0", {"src/shop/__init__.py": "", "README": "x"})
    assert archive_python_paths(sdist) == ["src/shop/__init__.py"]


def test_a_wheel_learns_its_layout_from_its_sdist_listed_never_built(
    local_index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "SETUP_PY_RAN"
    write_wheel(local_index, "shop", "1.0", {"shop/__init__.py": "", "shop/cart.py": ""})
    files = {"setup.py": SETUP_PY.format(marker=str(marker)), "src/shop/__init__.py": "", "src/shop/cart.py": ""}
    write_sdist(local_index, "shop", "1.0", files)
    cache = tmp_path / "cache"
    lines: list[str] = []
    with open_source("shop==1.0", cache_dir=cache, on_progress=lines.append) as source:
        assert (source.info.source_kind, source.info.layout) == ("wheel", RepoLayout("src", "sdist"))
    assert not marker.exists()
    assert any("listing the sdist of shop 1.0" in line for line in lines)
    kept = json.loads((cache / "shop" / "1" / LAYOUT_FILE).read_text())
    assert kept == {"prefix": "src", "sdist": "shop-1.0.tar.gz"}
    assert sorted(p.name for p in (cache / "shop" / "1").iterdir()) == [LAYOUT_FILE, "shop-1.0-py3-none-any.whl"]

    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("PIP_FIND_LINKS", str(empty))  # the answer is kept with the release file
    lines.clear()
    with open_source("shop==1.0", cache_dir=cache, on_progress=lines.append) as source:
        assert source.info.layout == RepoLayout("src", "sdist")
    assert lines == ["using cached shop-1.0-py3-none-any.whl"]


def test_a_wheel_without_an_sdist_has_no_layout_and_is_not_asked_again(local_index: Path, tmp_path: Path) -> None:
    write_wheel(local_index, "lone", "1.0", {"lone/__init__.py": ""})
    with open_source("lone==1.0", cache_dir=tmp_path) as source:
        assert source.info.layout is None
    assert json.loads((tmp_path / "lone" / "1" / LAYOUT_FILE).read_text()) == {"prefix": None, "sdist": None}


@pytest.mark.parametrize(
    ("spec", "prefix"),
    [("transformers==5.16.0", "src"), ("sqlalchemy==2.0.36", "lib"), ("requests==2.31.0", "")],
)
def test_real_wheels_learn_their_layout_from_their_sdists(release_cache: Path, spec: str, prefix: str) -> None:
    with open_source(spec, cache_dir=release_cache) as source:
        assert source.info.layout == RepoLayout(prefix, "sdist")


def test_a_monorepo_project_folder_is_read_from_the_source_url_its_metadata_gives() -> None:
    repo = "https://github.com/o/mono"
    assert repository_folder([("Source Code", f"{repo}/tree/master/libs/core")], repo) == "libs/core"
    assert repository_folder(
        [("Source", "https://gitlab.com/g/mono/-/tree/main/pkgs/a")], "https://gitlab.com/g/mono"
    ) == ("pkgs/a")
    assert repository_folder([("Repository", repo), ("Source", f"{repo}/tree/main")], repo) is None
    assert repository_folder([("Documentation", f"{repo}/tree/master/docs")], repo) is None  # not the code
    assert repository_folder([("Source", "https://github.com/other/repo/tree/main/libs/x")], repo) is None


def test_a_real_monorepo_release_names_its_folder(release_cache: Path) -> None:
    with open_source("langchain==0.2.16", cache_dir=release_cache) as source:
        assert (source.info.layout, source.info.repository_folder) == (RepoLayout("", "sdist"), "libs/langchain")
