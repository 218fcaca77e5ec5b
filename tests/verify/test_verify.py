"""`errdex verify` end to end on real releases: the flagship's trigger and fix run in an environment of wheels, the
verdicts kept and shown on the page, a sample of click verified in bulk, its observed errors matched back."""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console, RenderableType

from errdex.cli import main
from errdex.indexing import index
from errdex.match import explain
from errdex.pages import build_page
from errdex.store import Store
from errdex.terminal import page_panel
from tests.backends import is_postgres
from tests.conftest import TEST_CACHE

FLAGSHIP_ID = "44c51e6e70d45f6a"
FLASH = "ValueError: Invalid `cache_implementation` (flash). Choose one of: ['dynamic', 'static']"


@pytest.fixture(autouse=True)
def _environments_in_the_test_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Environments go where a later run of the tests finds them again (not the user's cache)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(TEST_CACHE / "xdg"))


@pytest.fixture
def flagship_copy(transformers_db: str, tmp_path: Path) -> Iterator[str]:
    """A copy of the shared transformers index that verdicts may be written to."""
    if is_postgres(transformers_db):
        pytest.skip("the copy is of the SQLite index")
    copy = tmp_path / "index.db"
    shutil.copy(transformers_db, copy)
    yield str(copy)


@pytest.mark.network
def test_the_flagship_trigger_raises_at_its_check_and_the_fix_does_not(flagship_copy: str) -> None:
    args = ["verify", FLAGSHIP_ID, "--version", "5.16.0", "--message", FLASH, "--json", "--db", flagship_copy]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    runs = {r["role"]: r for r in json.loads(result.stdout)["errors"][0]["runs"]}
    trigger, fix = runs["trigger"], runs["fix"]
    assert trigger["code"].endswith("GenerationConfig(cache_implementation='flash')")
    assert (trigger["status"], trigger["exception"]) == ("verified", "builtins.ValueError")
    assert (trigger["file"], trigger["line"]) == ("transformers/generation/configuration_utils.py", 687)
    assert trigger["message"].startswith("Invalid `cache_implementation` (flash). Choose one of: (")
    assert fix["code"].endswith("GenerationConfig(cache_implementation=None)") and fix["status"] == "verified"
    with Store(flagship_copy) as store:
        values = next(m.values for m in explain(FLASH, store=store).matches if m.id == FLAGSHIP_ID)
        page = build_page(store, FLAGSHIP_ID, "5.16.0", values=values)
        unverified = build_page(store, FLAGSHIP_ID, "5.16.0")
    shown = {r["role"]: r for r in page["verified"]}
    assert shown["trigger"]["text"].startswith("Verified by running it (Python 3.")
    assert shown["fix"]["text"].startswith("Verified by running the fixed call (Python 3.")
    # the same fixed call ran; its trigger (`'invalid'`) did not
    assert {r["role"]: r["status"] for r in unverified["verified"]} == {"trigger": "not verified", "fix": "verified"}
    with Store(flagship_copy) as store:  # a later run of the same trigger that did not raise it
        kept = next(v for v in store.verifications(FLAGSHIP_ID, "5.16.0") if v.role == "trigger")
        day = kept.checked_at[:10]
        store.put_verification(
            replace(kept, status="disproved", detail="it raised nothing", checked_at=f"{day}T23:59:59")
        )
        disproved = build_page(store, FLAGSHIP_ID, "5.16.0", values=values)
    assert disproved["triggers"][0]["text"].startswith("Disproved by running it (Python 3.")
    assert [r["beside"] for r in disproved["verified"] if r["role"] == "trigger"] == [False]


@pytest.mark.network
def test_a_sample_of_click_is_verified_and_its_observed_errors_are_matched_back(
    db_url: str, release_cache: Path, tmp_path: Path
) -> None:
    if is_postgres(db_url):
        pytest.skip("verdicts are kept on both backends (tests/store); the runs are the same")
    with Store(db_url) as store:
        index("click==8.5.1", store, cache_dir=release_cache)
    corpus = tmp_path / "cases.json"
    args = ["verify", "--sample", "40", "--seed", "3", "click==8.5.1", "--json", "--corpus", str(corpus)]
    result = CliRunner().invoke(main, [*args, "--db", db_url])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    summary, errors = report["summary"], report["errors"]
    assert summary["errors"] == len(errors) == 40
    assert sum(summary["statuses"].values()) == summary["ran"] == sum(1 for e in errors if e["trigger"])
    cases = json.loads(corpus.read_text())
    assert len(cases) == summary["statuses"]["verified"] > 0
    with Store(db_url) as store:
        for case in cases:  # what running showed is a real paste: the matcher finds its true site
            best = explain(case["traceback"], store=store).best
            assert best is not None and (best.file, best.line) == (case["expected"]["file"], case["expected"]["line"])
            page = build_page(store, best.id, "8.5.1")
            assert page["verified"][0]["status"] == "verified", case["id"]


def test_verify_needs_an_id_or_a_release(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["verify", "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 1 and "Give an error id, or a release with --sample N or --all" in result.output
    result = CliRunner().invoke(
        main, ["verify", "x", "--sample", "3", "--message", "m", "--db", str(tmp_path / "x.db")]
    )
    assert result.exit_code == 1 and "--message is for one error id" in result.output


def test_the_terminal_shows_the_verdict_under_the_snippet(flagship_copy: str) -> None:
    with Store(flagship_copy) as store:
        page = build_page(store, FLAGSHIP_ID, "5.16.0")
    rendered = _text(page_panel(page))
    assert "Not verified: never run (errdex verify 44c51e6e70d45f6a --version 5.16.0 runs it" in rendered


def _text(renderable: RenderableType) -> str:
    console = Console(width=200, file=io.StringIO(), record=True)
    console.print(renderable)
    return " ".join(console.export_text().split())
