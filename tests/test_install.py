"""`pip install errdex` beside a user's own packages: it keeps their click, rich and packaging.

errdex runs inside users' environments (the excepthook, the IPython extension, the pytest plugin),
so installing it must not move what they already have. The test makes a fresh virtualenv holding
the oldest click, rich and packaging errdex allows, installs errdex from this checkout (a real
wheel build, not an editable install), and runs the command line there.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

from tests.fixtures import MODE_TEMPLATE, shop, write_tree

ROOT = Path(__file__).resolve().parents[1]
# What a user's environment holds: the lowest release of each range in pyproject.toml.
HELD = {"click": "8.1.0", "rich": "13.0.0", "packaging": "23.0"}


def test_held_versions_are_the_lowest_allowed() -> None:
    """The environment below is the oldest one errdex promises to work in, and it allows each."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    ranges = {req.name: req.specifier for req in map(Requirement, declared)}
    for name, version in HELD.items():
        assert version in ranges[name], (name, version, ranges[name])
        lowest = next(spec.version for spec in ranges[name] if spec.operator == ">=")
        assert Version(version) == Version(lowest), (name, version, lowest)


@pytest.fixture(scope="module")
def user_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtualenv with the user's click, rich and packaging, then errdex installed from this checkout."""
    root = tmp_path_factory.mktemp("install")
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip(venv, "install", "-q", *(f"{name}=={version}" for name, version in HELD.items()))
    pip(venv, "install", "-q", str(_checkout_copy(root / "errdex-src")))
    return venv


@pytest.mark.network
def test_installing_errdex_keeps_the_users_packages(user_env: Path) -> None:
    listed = json.loads(pip(user_env, "list", "--format=json"))
    installed = {row["name"].lower(): row["version"] for row in listed}
    assert {name: installed[name] for name in HELD} == HELD
    assert "errdex" in installed
    pip(user_env, "check")
    package = Path(run(user_env, "python", "-c", "import errdex; print(errdex.__file__)").strip()).parent
    assert package.is_relative_to(user_env) and (package / "py.typed").is_file()


@pytest.mark.network
def test_the_command_line_works_with_them(user_env: Path, tmp_path: Path) -> None:
    assert "Usage" in run(user_env, "errdex", "--help")
    db = str(tmp_path / "index.db")
    source = write_tree(tmp_path / "shop", shop())
    (entry,) = json.loads(run(user_env, "errdex", "index", str(source), "--json", "--db", db))
    assert (entry["package"], entry["errors"]) == ("shop", 2)
    paste = "ValueError: mode must be one of ('fast', 'slow'), got 'turbo'"
    answer = json.loads(run(user_env, "errdex", "explain", paste, "--json", "--db", db))
    best = answer["matches"][0]
    assert (best["package"], best["file"], best["line"], best["template"]) == (
        "shop",
        "shop/cart.py",
        11,
        MODE_TEMPLATE,
    )
    text = run(user_env, "errdex", "explain", paste, "--db", db)  # rendered by rich
    assert "shop/cart.py" in text and "mode must be one of" in text


def pip(venv: Path, *args: str) -> str:
    return run(venv, "python", "-m", "pip", "--disable-pip-version-check", *args)


def run(venv: Path, program: str, *args: str) -> str:
    """Run a program of the virtualenv; its stdout (the test fails with its stderr when it fails).

    Outside the checkout and without this run's PYTHONPATH, so that `import errdex` finds the
    installed copy, and without its pip constraints."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PIP_CONSTRAINT")}
    command = [str(venv / "bin" / program), *args]
    proc = subprocess.run(command, capture_output=True, text=True, env=env, cwd=venv.parent)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _checkout_copy(dest: Path) -> Path:
    """What a wheel is built from, copied so that the build writes nothing into the checkout."""
    for name in ("pyproject.toml", "README.md"):
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, dest / name)
    shutil.copytree(ROOT / "errdex", dest / "errdex", ignore=shutil.ignore_patterns("__pycache__"))
    return dest
