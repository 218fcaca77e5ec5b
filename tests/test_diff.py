"""`errdex diff`: errors added, removed and changed between two indexed releases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from errdex.cli import console, main
from errdex.errors import NotIndexedError
from errdex.indexing import index
from errdex.pages.diff import diff_json, diff_releases
from errdex.store import Store
from tests.fixtures import write_tree

V1 = {
    "inn/__init__.py": "",
    "inn/errors.py": "class RoomError(Exception):\n    pass\n",
    "inn/rooms.py": (
        "from .errors import RoomError\n\nKINDS = ('single', 'double')\n\n\n"
        "def book(kind, nights):\n"
        "    if kind not in KINDS:\n        raise RoomError(f'kind must be one of {KINDS}')\n"
        "    if nights > 30:\n        raise ValueError('stays longer than 30 nights are not possible')\n"
        "    if nights < 1:\n        raise ValueError('book at least one night')\n"
    ),
}
V2 = {
    "inn/__init__.py": "",
    "inn/errors.py": "class RoomError(LookupError):\n    pass\n",
    "inn/rooms.py": (
        "from .errors import RoomError\n\nKINDS = ('single', 'double', 'suite')\n\n\n"
        "def book(kind, nights, pets=False):\n"
        "    if kind not in KINDS:\n        raise RoomError(f'kind must be one of {KINDS}')\n"
        "    if nights > 30:\n        raise ValueError('stays of more than 30 nights cannot be booked')\n"
        "    if pets:\n        raise NotImplementedError('pets are not allowed yet')\n"
    ),
}


@pytest.fixture
def db(tmp_path: Path, db_url: str) -> str:
    path = db_url
    with Store(path) as store:
        for version, files in (("1.0", V1), ("2.0", V2)):
            index(str(write_tree(tmp_path / version, files)), store, name="inn", version=version, workers=1)
    return path


def test_added_removed_and_changed_errors(db: str) -> None:
    with Store(db) as store:
        result = diff_releases(store, "inn", "1.0", "2.0")
    assert [e.site.template for e in result.added] == ["pets are not allowed yet"]
    assert [e.site.template for e in result.removed] == ["book at least one night"]
    changed = {e.site.template: e for e in result.changed}
    assert set(changed) == {"kind must be one of {}", "stays of more than 30 nights cannot be booked"}
    kinds = changed["kind must be one of {}"]
    assert kinds.old_id is None and kinds.changes == ("values", "bases")
    (value,) = kinds.values
    assert (value.name, value.added, value.removed) == ("KINDS", ["suite"], [])
    assert kinds.new is not None and kinds.new.exception_bases == ("LookupError",)
    reworded = changed["stays of more than 30 nights cannot be booked"]
    assert reworded.changes == ("template",)
    assert reworded.old is not None and reworded.old.template == "stays longer than 30 nights are not possible"
    assert reworded.old_id != reworded.id


def test_the_same_release_has_no_differences(db: str) -> None:
    with Store(db) as store:
        result = diff_releases(store, "inn", "2.0", "2.0")
    assert (result.added, result.removed, result.changed) == ([], [], [])


def test_kind_filter_and_json(db: str) -> None:
    with Store(db) as store:
        data = diff_json(diff_releases(store, "inn", "1.0", "2.0"))
        assert diff_json(diff_releases(store, "inn", "1.0", "2.0", kind="warning"))["counts"] == {
            "added": 0,
            "removed": 0,
            "changed": 0,
        }
    assert (data["from"], data["to"], data["counts"]) == ("1.0", "2.0", {"added": 1, "removed": 1, "changed": 2})
    kinds = next(c for c in data["changed"] if c["template"] == "kind must be one of {}")
    assert kinds["values"] == {
        "KINDS": {"old": ["single", "double"], "new": ["single", "double", "suite"], "added": ["suite"], "removed": []}
    }
    assert kinds["old"]["exception_bases"] == ["Exception"] and kinds["old_id"] == kinds["id"]
    assert json.loads(json.dumps(data)) == data


def test_cli_table_and_json(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(console, "width", 200)  # one line a row, as in a wide terminal
    result = CliRunner().invoke(main, ["diff", "inn", "1.0", "2.0", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "1 added, 1 removed, 2 changed" in result.stdout
    assert "pets are not allowed yet" in result.stdout and '+"suite"' in result.stdout
    assert "was: stays longer than 30 nights are not possible" in result.stdout
    as_json = CliRunner().invoke(main, ["diff", "inn", "1.0", "2.0", "--json", "--db", str(db)])
    assert json.loads(as_json.stdout)["counts"]["changed"] == 2


def test_a_release_that_is_not_indexed_is_named(db: str) -> None:
    with Store(db) as store, pytest.raises(NotIndexedError, match=r"inn 3.0 is not indexed \(indexed: 1.0, 2.0\)"):
        diff_releases(store, "inn", "1.0", "3.0")
    result = CliRunner().invoke(main, ["diff", "inn", "1.0", "3.0", "--db", str(db)])
    assert result.exit_code == 1 and "inn 3.0 is not indexed" in result.stderr


def test_a_moved_error_says_where_it_was_and_long_values_are_cut_in_the_table(
    tmp_path: Path, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same message raised from another file, with other values: changed and moved; the table cuts
    a long value (`--json` keeps it whole) and names a value that is no longer resolved."""
    codes = [f"code{n:02}" for n in range(40)]
    old = {
        "lang/__init__.py": "",
        "lang/speech.py": f"CODES = {codes!r}\nNAMES = ('en',)\n\n\ndef pick(code):\n"
        "    if code not in CODES:\n"
        "        raise ValueError(f'unsupported language {code}; use one of {CODES} or {NAMES}')\n",
    }
    new = {
        "lang/__init__.py": "",
        "lang/audio.py": "def pick(code, CODES, NAMES=('en', 'fr')):\n"
        "    if code not in CODES:\n"
        "        raise ValueError(f'unsupported language {code}; use one of {CODES} or {NAMES}')\n",
    }
    with Store(db_url) as store:
        for version, files in (("1.0", old), ("2.0", new)):
            index(str(write_tree(tmp_path / version, files)), store, name="lang", version=version, workers=1)
        (entry,) = diff_releases(store, "lang", "1.0", "2.0").changed
    assert entry.changes == ("values", "moved")
    assert entry.old is not None and (entry.old.file, entry.old.line) == ("lang/speech.py", 7)
    monkeypatch.setattr(console, "width", 200)
    shown = CliRunner().invoke(main, ["diff", "lang", "1.0", "2.0", "--db", db_url])
    assert shown.exit_code == 0, shown.output
    assert "moved from lang/speech.py:7 in pick" in shown.stdout
    assert "(40 items) → (not resolved)" in shown.stdout and "code39" not in shown.stdout
    as_json = json.loads(CliRunner().invoke(main, ["diff", "lang", "1.0", "2.0", "--json", "--db", db_url]).stdout)
    assert as_json["changed"][0]["values"]["CODES"] == {"old": codes, "new": None}
    assert as_json["changed"][0]["changes"] == ["values", "moved"]
