"""Telling indexed releases apart by the source lines a traceback shows for its outer frames.

The fixture package `ledger` comes in two releases that raise the same error at the same file and
line, whose first line reads the same in both; only the message's wording differs (1.0 puts the
name in literal quotes, so its template holds more literal characters and wins on the message
alone), and 2.0 added a line to `ledger/api.py`, so the caller's frame shows text that only one
release holds at that line.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from errdex.indexing import index
from errdex.match import explain
from errdex.match.parse import parse
from errdex.match.tables import tables_for
from errdex.match.versions import ShownFrame, shown_frames
from errdex.store import Store
from tests.backends import new_index

BOOK = """
class Book:
    def __init__(self):
        self.accounts = {{}}

    def lookup(self, name):
        if name not in self.accounts:
            raise ValueError(
                {message}
            )
        return self.accounts[name]
"""
API = """
from ledger.book import Book
{added}

def balance(name):
    book = Book()
    return book.lookup(name)
"""
RELEASES = {
    "1.0": (BOOK.format(message='''f"no account '{name}'"'''), API.format(added="")),
    "2.0": (BOOK.format(message='f"no account {name!r}"'), API.format(added="DEFAULT_CURRENCY = 'EUR'\n")),
}


def write_ledger(root: Path, version: str) -> Path:
    folder = root / f"ledger-{version}"
    book, api = RELEASES[version]
    files = {
        "pyproject.toml": f'[project]\nname = "ledger"\nversion = "{version}"\n',
        "ledger/__init__.py": "",
        "ledger/book.py": textwrap.dedent(book),
        "ledger/api.py": textwrap.dedent(api),
    }
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    return folder


def traceback_of(folder: Path) -> str:
    """The traceback Python prints when `ledger.api.balance` of this release fails."""
    done = subprocess.run(
        [sys.executable, "-c", "from ledger.api import balance; balance('bob')"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(folder), "PATH": "/usr/bin:/bin"},
    )
    return done.stderr


def test_outer_frames_pick_the_release_the_traceback_came_from(tmp_path: Path, backend: str) -> None:
    with Store(new_index(backend, tmp_path, "ledger.db")) as store:
        for version in RELEASES:
            index(str(write_ledger(tmp_path / "src", version)), store)
        alone = explain("ValueError: no account 'bob'", store=store, auto_index=False).best
        assert alone is not None and alone.version == "1.0" and alone.template == "no account '{}'"
        for version in RELEASES:
            paste = traceback_of(write_ledger(tmp_path / "run", version))
            assert paste.rstrip().endswith("ValueError: no account 'bob'")
            best = explain(paste, store=store, auto_index=False).best
            assert best is not None and (best.version, best.file, best.line) == (version, "ledger/book.py", 8)
            assert f"frames of {version}" in best.evidence and best.confidence >= 0.5


def test_only_library_frames_with_their_text_are_compared() -> None:
    paste = textwrap.dedent(
        """\
        Traceback (most recent call last):
          File "/home/ana/app.py", line 3, in <module>
            balance('bob')
          File "/venv/lib/python3.11/site-packages/ledger/api.py", line 7, in balance
            return book.lookup(name)
                   ^^^^^^^^^^^^^^^^^
          File "<template>", line 1, in top-level template code
          File "/venv/lib/python3.11/site-packages/ledger/book.py", line 7, in lookup
        ValueError: no account 'bob'
        """
    )
    assert shown_frames(parse(paste), {"ledger"}) == (ShownFrame("ledger/api.py", 7, "return book.lookup(name)"),)
    assert shown_frames(parse(paste), {"other"}) == ()


def test_file_lines_are_read_once_and_kept_within_a_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Store(tmp_path / "ledger.db") as store:
        for version in RELEASES:
            index(str(write_ledger(tmp_path / "src", version)), store)
        tables = tables_for(store)
        old, new = tables.releases(tables.core.packages.index("ledger"))
        assert (old.version, new.version) == ("1.0", "2.0")
        lines = tables.source_lines(new, "ledger/api.py")
        assert lines is not None and lines[7] == "    return book.lookup(name)"
        assert tables.source_lines(new, "ledger/api.py") is lines
        assert tables.source_lines(old, "ledger/missing.py") is None
        monkeypatch.setattr("errdex.match.tables.MAX_SOURCE_CHARS", len("".join(lines)))
        tables.source_lines(old, "ledger/book.py")
        assert list(tables.core.sources) == [("ledger", "1.0", "ledger/book.py")]
        assert tables.core.source_chars == sum(map(len, tables.core.sources[("ledger", "1.0", "ledger/book.py")] or ()))
