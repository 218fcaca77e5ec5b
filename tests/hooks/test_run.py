"""`python -m errdex run`: the program runs as under `python`, with the panel after its traceback."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.hooks.conftest import PANEL_TOP, Run, environment, run_command

PROGRAM = """
import sys
print("argv:", sys.argv, "name:", __name__, "path0:", sys.path[0] == __file__.rsplit("/", 1)[0], sys.path[0])
from packaging.version import Version
try:
    {}["k"]
except KeyError:
    Version(sys.argv[1])
"""


def python(tmp_path: Path, db: Path, *args: str) -> Run:
    return run_command([sys.executable, *args], tmp_path, environment(db))


def errdex_run(tmp_path: Path, db: Path, *args: str) -> Run:
    return run_command([sys.executable, "-m", "errdex", "run", *args], tmp_path, environment(db))


def test_run_matches_python_then_adds_the_panel(tmp_path: Path, errdex_db: Path) -> None:
    (tmp_path / "prog.py").write_text(PROGRAM)
    plain = python(tmp_path, errdex_db, "prog.py", "1.x", "--flag")
    shown = errdex_run(tmp_path, errdex_db, "prog.py", "1.x", "--flag")
    assert shown.stdout == plain.stdout == f"argv: ['prog.py', '1.x', '--flag'] name: __main__ path0: True {tmp_path}\n"
    assert shown.returncode == plain.returncode == 1
    assert shown.stderr.startswith(plain.stderr)
    assert "runpy" not in shown.stderr and "errdex/cli" not in shown.stderr
    panel = shown.stderr[shown.stderr.index(PANEL_TOP) :]
    assert "'1.x'" in panel and "KeyError: 'k'" in panel


def test_run_keeps_the_program_exit_code(tmp_path: Path, errdex_db: Path) -> None:
    (tmp_path / "quits.py").write_text("import sys\nprint('bye')\nsys.exit(7)\n")
    shown = errdex_run(tmp_path, errdex_db, "quits.py")
    assert (shown.returncode, shown.stdout, shown.stderr) == (7, "bye\n", "")


def test_run_ctrl_c_ends_like_python(tmp_path: Path, errdex_db: Path) -> None:
    (tmp_path / "stops.py").write_text("raise KeyboardInterrupt\n")
    plain = python(tmp_path, errdex_db, "stops.py")
    shown = errdex_run(tmp_path, errdex_db, "stops.py")
    assert (shown.returncode, shown.stderr) == (plain.returncode, plain.stderr)


def test_run_a_module(tmp_path: Path, errdex_db: Path) -> None:
    package = tmp_path / "tool"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "__main__.py").write_text(PROGRAM)
    plain = python(tmp_path, errdex_db, "-m", "tool", "2.y")
    shown = errdex_run(tmp_path, errdex_db, "-m", "tool", "2.y")
    assert (shown.returncode, shown.stdout) == (plain.returncode, plain.stdout)
    assert plain.stderr.splitlines()[-1] in shown.stderr
    assert "'2.y'" in shown.panel


def test_run_a_missing_script_is_one_clear_line(tmp_path: Path, errdex_db: Path) -> None:
    shown = errdex_run(tmp_path, errdex_db, "nowhere.py")
    assert shown.returncode == 2
    assert shown.stderr.strip().splitlines() == [
        "error: cannot run 'nowhere.py': no such file (give a Python script, or -m MODULE)"
    ]
