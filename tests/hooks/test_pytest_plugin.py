"""pytest --errdex through pytester: the plugin is found by its `pytest11` entry point and inert by default."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

TESTS = """
import pydantic
from packaging.version import Version

def test_library_error():
    Version("1.0.x")

def test_own_assertion():
    assert 1 + 1 == 3

def test_compiled_message():
    class Model(pydantic.BaseModel):
        x: int
    Model(x="not a number")

def test_passes():
    pass
"""


@pytest.fixture
def project(pytester: pytest.Pytester, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, db_url: str) -> pytest.Pytester:
    """A test file, its own index, and the `errdex` pytest11 entry point on the path (as pip installs it)."""
    entry = tmp_path / "entry"
    info = entry / "errdex_plugin_entry-0.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: errdex-plugin-entry\nVersion: 0.0\n")
    (info / "entry_points.txt").write_text("[pytest11]\nerrdex = errdex.hooks.pytest_plugin\n")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(entry), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("ERRDEX_DB", db_url)
    pytester.makepyfile(test_things=TESTS)
    return pytester


def sections(result: pytest.RunResult) -> dict[str, str]:
    """Test name -> the text of its errdex section."""
    out = result.stdout.str()
    found = {}
    for name in ("test_library_error", "test_own_assertion", "test_compiled_message"):
        start = out.index(f"_ {name} _")
        end = min(i for i in (out.find("\n____", start + 1), out.find("short test summary", start)) if i > 0)
        block = out[start:end]
        if " errdex " in block:
            found[name] = block[block.index(" errdex ") :]
    return found


def test_plugin_is_inert_without_the_option(project: pytest.Pytester) -> None:
    result = project.runpytest_subprocess()
    result.assert_outcomes(failed=3, passed=1)
    assert sections(result) == {}
    assert "errdex" in project.runpytest_subprocess("--help").stdout.str()


@pytest.mark.parametrize("option", [("--errdex",), ("-p", "errdex")])
def test_failures_from_installed_packages_get_an_errdex_section(
    project: pytest.Pytester, option: tuple[str, ...]
) -> None:
    result = project.runpytest_subprocess(*option)
    result.assert_outcomes(failed=3, passed=1)
    found = sections(result)
    assert set(found) == {"test_library_error", "test_compiled_message"}
    library = found["test_library_error"]
    assert "packaging/version.py:" in library and "'1.0.x'" in library and "errdex show" in library
    compiled = " ".join(found["test_compiled_message"].split())
    assert "pydantic/main.py" in compiled and "compiled code" in compiled and "errdex show" not in compiled


def test_indexing_is_reported_in_the_section_not_on_the_terminal(project: pytest.Pytester) -> None:
    result = project.runpytest_subprocess("--errdex", "-k", "library")
    library = sections_for_one(result)
    assert "indexed packaging" in library
    again = sections_for_one(project.runpytest_subprocess("--errdex", "-k", "library"))
    assert "indexed packaging" not in again and "'1.0.x'" in again


def sections_for_one(result: pytest.RunResult) -> str:
    out = result.stdout.str()
    return out[out.index(" errdex ") : out.index("short test summary")]
