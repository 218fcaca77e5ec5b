"""Run real programs in subprocesses, each test with its own index in tmp_path.

A program is written to tmp_path and run with this interpreter. Its first line either installs
errdex or only imports it, so that the traceback of the run without errdex (the baseline) and the
run with it have the same line numbers and can be compared as text.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

PANEL_TOP = "╭─ errdex"
TIMEOUT = 300


@dataclass(frozen=True)
class Run:
    """What the user saw: exit code, standard output and standard error."""

    returncode: int
    stdout: str
    stderr: str

    @property
    def panel(self) -> str:
        """The errdex panel printed on stderr ('' when there is none)."""
        at = self.stderr.find(PANEL_TOP)
        return self.stderr[at:] if at >= 0 else ""


Runner = Callable[..., Run]


def environment(db: str | Path, **extra: str) -> dict[str, str]:
    """The environment of a program under test: its own index, a fixed width, no debug output."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ERRDEX_") and k not in ("COLUMNS", "NO_COLOR")}
    env.update({"ERRDEX_DB": str(db), "COLUMNS": "120", "PYTHONIOENCODING": "utf-8"}, **extra)
    return env


def run_command(args: list[str], cwd: Path, env: dict[str, str], stdin: str | None = None) -> Run:
    done = subprocess.run(
        args, cwd=cwd, env=env, input=stdin, capture_output=True, text=True, encoding="utf-8", timeout=TIMEOUT
    )
    return Run(done.returncode, done.stdout, done.stderr)


@pytest.fixture
def errdex_db(db_url: str) -> str:
    """The program's own index (ERRDEX_DB): a file or a postgresql:// URL, once per backend."""
    return db_url


@pytest.fixture
def write_program(tmp_path: Path) -> Callable[[str, bool], Path]:
    """Write a program; with `install`, its first line installs errdex, else it only imports it."""

    def write(body: str, install: bool = True, name: str = "prog.py") -> Path:
        first = "import errdex.hooks; errdex.hooks.install()" if install else "import errdex.hooks"
        path = tmp_path / name
        path.write_text(first + "\n" + textwrap.dedent(body).lstrip("\n"), encoding="utf-8")
        return path

    return write


@pytest.fixture
def run_program(tmp_path: Path, errdex_db: str, write_program: Callable[..., Path]) -> Runner:
    """Run a program with errdex installed (or not, for the baseline): `run_program(body, *args, install=...)`."""

    def run(
        body: str, *args: str, install: bool = True, env: dict[str, str] | None = None, options: tuple[str, ...] = ()
    ) -> Run:
        path = write_program(body, install)
        return run_command(
            [sys.executable, *options, str(path), *args], tmp_path, environment(errdex_db, **(env or {}))
        )

    return run
