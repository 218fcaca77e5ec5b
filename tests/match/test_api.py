"""`errdex.explain` from Python: it indexes nothing unless asked, bad arguments raise TypeError or ValueError, and
without a store it keeps one per thread on the default index."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

import errdex
from errdex.cli import main
from errdex.store import Store, pool, shared_store


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


def test_explain_without_a_store_opens_one_per_thread_and_keeps_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[Store] = []

    class Recorded(Store):
        def __init__(self, path: str | Path | None = None) -> None:
            super().__init__(path)
            opened.append(self)

    monkeypatch.setattr(pool, "Store", Recorded)
    monkeypatch.setenv("ERRDEX_DB", str(tmp_path / "one.db"))
    errdex.explain("ValueError: x")
    errdex.explain("ValueError: y")
    assert len(opened) == 1 and shared_store() is opened[0]

    held: list[Store] = []

    def twice() -> None:
        errdex.explain("KeyError: a")
        errdex.explain("KeyError: b")
        held.append(shared_store())

    threads = [threading.Thread(target=twice) for _ in range(2)]  # each its own: a SQLite connection is not shared
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(opened) == 3 and set(held) == set(opened[1:]) and opened[0] not in held

    monkeypatch.setenv("ERRDEX_DB", str(tmp_path / "two.db"))  # another default: another index, the old one closed
    errdex.explain("ValueError: z")
    assert shared_store() is opened[-1] and opened[-1].path == tmp_path / "two.db" and len(opened) == 4
    with pytest.raises(sqlite3.ProgrammingError):
        opened[0].packages()


def test_the_store_explain_opened_is_closed_at_exit(tmp_path: Path) -> None:
    program = textwrap.dedent(
        """
        import atexit, sqlite3

        held = []

        def check():  # registered first, so it runs after errdex's own exit handler
            try:
                held[0].packages()
            except sqlite3.ProgrammingError:
                print("closed")

        atexit.register(check)
        import errdex
        from errdex.store import shared_store

        errdex.explain("ValueError: x")
        held.append(shared_store())
        """
    )
    env = {**os.environ, "ERRDEX_DB": str(tmp_path / "exit.db")}
    done = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=60)
    assert done.stdout == "closed\n", done.stderr
