"""Source written by strangers, indexed end to end: each bad file is a skip with its reason, the rest is indexed.

`errdex index` fails (exit 1, naming the input) only when nothing at all could be indexed.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import click.testing
from click.testing import CliRunner

from errdex.cli import main
from errdex.store import Store
from tests.extract.test_bounds import wide_condition

GOOD = b"def check(x):\n    if x is None:\n        raise ValueError('the good module still counts')\n"
FIFTY_MB = 50_000_000
HOSTILE: dict[str, bytes] = {
    "syntax.py": b"def f(:\n    raise ValueError('never')\n",
    "py2.py": b"print 'hello'\nraise ValueError, 'old style'\n",
    "latin1.py": "raise ValueError('caf\xe9 without a coding cookie')\n".encode("latin-1"),
    "mixed.py": "# -*- coding: utf-8 -*-\nraise ValueError('caf\xe9')\n".encode("latin-1")
    + "raise ValueError('ü')\n".encode(),
    "nul.py": b"raise ValueError('a')\n\x00\nraise ValueError('b')\n",
    "deep.py": b"def f():\n    raise ValueError('x' + " + b"-" * 200_000 + b"1)\n",
    "binop.py": b"raise ValueError(" + b"'a'+" * 300_000 + b"'b')\n",
    "slow.py": wide_condition(20_000, 400),  # over the default budget: partly analysed
}
REASONS = {
    "syntax.py": "does not parse",
    "py2.py": "does not parse",
    "latin1.py": "cannot be decoded",
    "mixed.py": "cannot be decoded",
    "nul.py": "NUL bytes",
    "deep.py": "too deeply nested",
    "binop.py": "too deeply nested",
    "slow.py": "analysis took too long",
    "generated.py": "larger than 20 MB",
}


def index(db: str, spec: Path) -> click.testing.Result:
    return CliRunner().invoke(main, ["index", str(spec), "--json", "--db", db])


def wheel(folder: Path, name: str, files: dict[str, bytes]) -> Path:
    """A wheel of `name` 1.0 with the files under `name/` (the 50 MB file compresses to a few hundred KB)."""
    path = folder / f"{name}-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for rel, data in files.items():
            zf.writestr(f"{name}/{rel}", data)
        zf.writestr(f"{name}-1.0.dist-info/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    return path


def generated(size: int) -> bytes:
    line = b"TABLE_ENTRY = 123456789\n"
    return line * (size // len(line)) + b"raise ValueError('at the end of a generated file')\n"


def test_each_hostile_file_is_skipped_with_its_reason_and_the_rest_is_indexed(tmp_path: Path, db_url: str) -> None:
    files = {"__init__.py": b"", "good.py": GOOD, **HOSTILE, "generated.py": generated(FIFTY_MB)}
    result = index(db_url, wheel(tmp_path, "mess", files))
    assert result.exit_code == 0, result.output
    (entry,) = json.loads(result.stdout)
    assert entry["skipped"] == len(REASONS)
    with Store(db_url) as store:
        release = store.release("mess")
        skips = {f.path.split("/", 1)[1]: f.skip_reason for f in store.release_paths(release) if f.skip_reason}
        templates = {e.site.template for e in store.errors("mess") if e.site.file != "mess/slow.py"}
        kept = [e.site.template for e in store.errors("mess") if e.site.file == "mess/slow.py"]
    assert set(skips) == set(REASONS)
    for path, words in REASONS.items():
        assert words in skips[path], (path, skips[path])
    assert templates == {"the good module still counts"}
    assert f"partly analysed, {len(kept)} sites kept" in skips["slow.py"] and kept[:2] == ["site 0", "site 1"]


def test_a_release_whose_every_file_is_skipped_fails_and_says_so(tmp_path: Path, db_url: str) -> None:
    spec = wheel(tmp_path, "broken", {"__init__.py": HOSTILE["syntax.py"], "old.py": HOSTILE["py2.py"]})
    result = index(db_url, spec)
    said = result.stderr.replace("\n", "")
    assert result.exit_code == 1
    assert spec.name in said and "broken 1.0: nothing indexed" in said and "2 Python files were skipped" in said
    assert "Traceback" not in result.output


def test_a_wheel_with_no_python_files_fails_and_says_so(tmp_path: Path, db_url: str) -> None:
    path = tmp_path / "native-1.0-cp311-cp311-linux_x86_64.whl"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("native/_core.so", b"\x7fELF" + b"\0" * 100)
        zf.writestr("native-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: native\nVersion: 1.0\n")
    result = index(db_url, path)
    said = result.stderr.replace("\n", "")
    assert result.exit_code == 1
    assert path.name in said and "native 1.0: nothing indexed, it has no Python files" in said


def test_a_release_with_some_skipped_files_exits_0_with_the_skip_count(tmp_path: Path, db_url: str) -> None:
    spec = wheel(tmp_path, "partly", {"good.py": GOOD, "old.py": HOSTILE["py2.py"]})
    result = CliRunner().invoke(main, ["index", str(spec), "--db", db_url])
    assert result.exit_code == 0, result.output
    assert "1 skipped" in result.stdout
