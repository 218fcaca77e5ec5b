"""`errdex explain` as a user runs it: TEXT, stdin, --file, --json, abstentions, auto-indexing."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from click.testing import CliRunner

from errdex.cli import main
from errdex.indexing import index
from errdex.match import explain
from errdex.store import Store
from tests.match.packages import shop_store

TYPO = "ValueError: Unknown mode 'fsat'. Choose one of: ('fast', 'slow', 'steady')"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory, backend: str) -> str:
    with shop_store(tmp_path_factory.mktemp("cli"), "1.0", backend=backend) as store:
        return str(store.path)


def run(*args: str, db: str, stdin: str | None = None, code: int = 0) -> str:
    result = CliRunner().invoke(main, ["explain", *args, "--db", db], input=stdin)
    assert result.exit_code == code, result.output
    return result.output


def test_text_argument_shows_site_check_values_and_did_you_mean(db: str) -> None:
    out = run(TYPO, db=db)
    assert "shop/cart.py:14 in Cart.__init__" in out
    assert "mode not in MODES" in out
    assert "mode: 'fsat'" in out  # each value is named by the code that filled its hole
    assert "MODES: ('fast', 'slow', 'steady')" in out
    assert "did you mean" in out and "'fast'" in out
    assert "What it means" in out  # then the full page of the match


def test_stdin_and_file_give_the_same_json(db: str, tmp_path: Path) -> None:
    paste = tmp_path / "paste.txt"
    paste.write_text(TYPO + "\n")
    from_stdin = json.loads(run("-", "--json", db=db, stdin=TYPO))
    from_file = json.loads(run("--file", str(paste), "--json", db=db))
    assert from_stdin == from_file
    best = from_stdin["matches"][0]
    assert not from_stdin["abstain"] and best["line"] == 14 and best["suggestions"] == {"mode": ["fast"]}


def test_abstention_says_what_would_help(db: str) -> None:
    out = run("ZeroDivisionError: division by zero", db=db)
    assert "No indexed error fits" in out and "Python itself writes this message" in out and "traceback" in out
    assert "errdex index" in run("ValueError: the flux capacitor needs 1.21 gigawatts", db=db)
    data = json.loads(run("ZeroDivisionError: division by zero", "--json", db=db))
    assert data["abstain"] and data["hint"]


def test_bad_input_is_one_clear_line(db: str, tmp_path: Path) -> None:
    assert "Nothing to explain" in run(db=db, code=1)
    assert "empty" in run("-", db=db, stdin="  \n", code=1)
    paste = tmp_path / "p.txt"
    paste.write_text("x")
    assert "either" in run("x", "--file", str(paste), db=db, code=1)


def test_installed_package_named_by_a_traceback_is_indexed_first(db_url: str) -> None:
    """click is installed here: its traceback makes explain() index it from disk, with no network."""
    done = subprocess.run(
        [sys.executable, "-c", "import click; click.Choice(['fast', 'slow']).convert('fsat', None, None)"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    paste = done.stderr
    assert "site-packages/click/types.py" in paste
    with Store(db_url) as store:
        result = explain(paste, store=store, auto_index=True)
        assert [row.name for row in store.packages()] == ["click"]
    best = result.best
    assert best is not None and best.package == "click" and best.file == "click/types.py"
    assert best.function == "ParamType.fail" and "indexed click" in (result.hint or "")


def test_the_version_installed_here_is_indexed_when_another_one_is(db_url: str) -> None:
    """click is indexed, but not at the version installed here: the traceback's own release is indexed from disk."""
    paste = subprocess.run(
        [sys.executable, "-c", "import click; click.Choice(['fast', 'slow']).convert('fsat', None, None)"],
        capture_output=True,
        text=True,
        timeout=60,
    ).stderr
    installed = metadata.version("click")
    with Store(db_url) as store:
        index("click", store, installed=True, version="0.0.1")
        result = explain(paste, store=store, auto_index=True)
        assert [r.version for r in store.releases("click")] == ["0.0.1", installed]
        again = explain(paste, store=store, auto_index=True)  # that version is indexed now: nothing more to do
    assert result.best is not None and result.best.version == installed
    assert f"indexed click {installed}" in (result.hint or "")
    assert again.hint is None and again.best is not None and again.best.version == installed


def test_a_traceback_from_elsewhere_does_not_index_this_environment(db_url: str) -> None:
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/elsewhere/site-packages/click/types.py", line 222, in fail\n'
        "click.exceptions.BadParameter: x"
    )
    with Store(db_url) as store:
        index("click", store, installed=True, version="0.0.1")
        explain(paste, store=store, auto_index=True)
        assert [r.version for r in store.releases("click")] == ["0.0.1"]


def test_auto_index_can_be_turned_off(db_url: str) -> None:
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/x/site-packages/click/types.py", line 222, in fail\n'
        "click.exceptions.BadParameter: x"
    )
    with Store(db_url) as store:
        result = explain(paste, store=store, auto_index=False)
        assert result.abstain and store.packages() == []
