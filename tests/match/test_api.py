"""`errdex.explain` from Python: it indexes nothing unless asked, and bad arguments raise TypeError or ValueError."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

import errdex
from errdex.cli import main
from errdex.store import Store


@pytest.fixture(scope="module")
def click_traceback() -> str:
    """A traceback raised inside click, which is installed here (so it can be indexed from disk)."""
    code = "import click; click.Choice(['fast', 'slow']).convert('fsat', None, None)"
    paste = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stderr
    assert "site-packages/click/types.py" in paste
    return paste


def test_the_library_indexes_nothing_unless_asked(db_url: str, click_traceback: str) -> None:
    with Store(db_url) as store:
        result = errdex.explain(click_traceback, store=store)
        assert store.packages() == [] and result.abstain
        asked = errdex.explain(click_traceback, store=store, auto_index=True)
        assert [row.name for row in store.packages()] == ["click"]
    assert asked.best is not None and asked.best.package == "click"


def test_the_command_line_indexes_what_a_traceback_names(db_url: str, click_traceback: str) -> None:
    done = CliRunner().invoke(main, ["explain", "-", "--db", db_url, "--json"], input=click_traceback)
    assert done.exit_code == 0, done.output
    with Store(db_url) as store:
        assert [row.name for row in store.packages()] == ["click"]


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"text": b"ValueError: x"}, TypeError),
        ({"text": None}, TypeError),
        ({"text": "ValueError: x", "limit": "5"}, TypeError),
        ({"text": "ValueError: x", "limit": 2.5}, TypeError),
        ({"text": "ValueError: x", "limit": 0}, ValueError),
        ({"text": "ValueError: x", "limit": 101}, ValueError),
        ({"text": "  \n"}, ValueError),
    ],
)
def test_a_bad_argument_is_a_type_or_value_error(db_url: str, kwargs: dict[str, object], error: type) -> None:
    with Store(db_url) as store, pytest.raises(error):
        errdex.explain(store=store, **kwargs)  # type: ignore[arg-type]
