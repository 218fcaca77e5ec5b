"""The terminal page's first screen on the flagship error: the answer fits 80x40, `--full` has everything.

The commands run as a user runs them (a subprocess writing to a pipe, 80 columns); the first screen of
`errdex show` is written to test-output/terminal/first-screen.txt (not committed) for a person to read.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from errdex.pages import build_page
from errdex.store import Store
from errdex.terminal import FirstFitting, first_screens, page_panel
from tests.flagship import CACHE_NAMES

pytestmark = pytest.mark.network

SCREENS = Path(__file__).resolve().parents[1] / "test-output" / "terminal"
FLAGSHIP_ID = "44c51e6e70d45f6a"
SHOW = ("show", FLAGSHIP_ID, "--version", "5.16.0")
FULL_HINT = f"errdex show {FLAGSHIP_ID} --version 5.16.0 --full"
PASTE = "ValueError: Invalid `cache_implementation` (statc). Choose one of: static, dynamic, paged"
ANSWER = ["What it means", "Solutions", "Example fix"]


def errdex(*args: str, db: str) -> list[str]:
    """The lines `errdex ARGS` prints into a pipe of an 80-column terminal."""
    env = {**os.environ, "COLUMNS": "80"}
    done = subprocess.run(
        [sys.executable, "-m", "errdex", *args, "--db", db], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout.splitlines()


def unboxed(lines: list[str]) -> str:
    """The text inside the panels' borders, as one line (a value list wraps over several)."""
    return " ".join(line.strip("│╭╰─ ") for line in lines)


def headings(lines: list[str]) -> list[str]:
    """The titles of the page's sections, in order (each is a rule: `│ Title ─────── │`)."""
    return [line.strip("│ ").rstrip("─ ") for line in lines if line.startswith("│") and line.endswith("─ │")]


def test_show_answers_on_the_first_screen(transformers_db: str) -> None:
    lines = errdex(*SHOW, db=transformers_db)
    SCREENS.mkdir(parents=True, exist_ok=True)
    (SCREENS / "first-screen.txt").write_text("\n".join(lines) + "\n")
    assert len(lines) <= 40, len(lines)
    shown = unboxed(lines)
    assert "ValueError" in shown and "configuration_utils.py:687" in shown
    assert ", ".join(repr(name) for name in CACHE_NAMES) in shown  # the first solution's values
    assert "GenerationConfig(cache_implementation=None)" in shown  # the example fix's after
    assert lines[-2].strip("│ ") == FULL_HINT  # the last line in the panel: how to see the rest
    assert headings(lines) == ANSWER and "Public calls that lead here" not in shown
    assert "This link assumes" not in shown  # the source link's caveat is the whole page's


def test_full_prints_the_whole_page(transformers_db: str) -> None:
    lines = errdex(*SHOW, "--full", db=transformers_db)
    assert headings(lines)[:5] == [*ANSWER, "The check in detail", "When it happens"]
    assert {"Source", "Related errors", "Versions", "Provenance"} <= set(headings(lines))
    shown = unboxed(lines)
    assert "Public calls that lead here" in shown and "This link assumes" in shown and "--full" not in shown
    with Store(transformers_db) as store:
        page = build_page(store, FLAGSHIP_ID, "5.16.0")
    out = io.StringIO()
    Console(file=out, width=80, highlight=False).print(page_panel(page))
    assert lines == out.getvalue().splitlines()  # the page as `errdex show` printed it before the first screen


def test_explain_puts_the_values_and_the_fix_on_the_first_screen(transformers_db: str) -> None:
    lines = errdex("explain", PASTE, "--no-index", db=transformers_db)
    assert len(lines) <= 40, len(lines)
    shown = unboxed(lines)
    assert "self.cache_implementation: statc" in shown  # the user's value
    assert "GenerationConfig(cache_implementation='statc')" in shown  # the fix, from their call
    assert "GenerationConfig(cache_implementation='static')" in shown
    assert "the same command with --full" in lines[-2]
    assert headings(lines) == ANSWER
    whole = errdex("explain", PASTE, "--no-index", "--full", db=transformers_db)
    assert "When it happens" in headings(whole) and "Public calls that lead here" in unboxed(whole)


def test_a_small_terminal_keeps_the_fix_and_the_hint(transformers_store: Store) -> None:
    page = build_page(transformers_store, FLAGSHIP_ID, "5.16.0")
    out = io.StringIO()
    console = Console(file=out, width=80, height=20, force_terminal=True, color_system=None)
    console.print(FirstFitting(first_screens(page, FULL_HINT)))
    lines = out.getvalue().splitlines()
    assert len(lines) <= 24, len(lines)  # a terminal is taken to have 24 lines at least
    assert "GenerationConfig(cache_implementation=None)" in unboxed(lines)
    assert lines[-2].strip("│ ") == FULL_HINT


def test_the_short_form_leads_and_the_whole_reading_is_the_checks(transformers_store: Store) -> None:
    page = build_page(transformers_store, FLAGSHIP_ID, "5.16.0")
    out = io.StringIO()
    Console(file=out, width=80).print(FirstFitting(first_screens(page, FULL_HINT)))
    shown = unboxed(out.getvalue().splitlines())
    assert f"What it means {page['what_it_means']['plain'].replace('`', '')} Solutions" in shown
    assert "raises ValueError when" not in shown  # the summary is the whole page's, under The check in detail
