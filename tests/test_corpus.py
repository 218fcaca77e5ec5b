"""The match corpus as a test: the matcher answers benchmarks/cases/ no worse than benchmarks/corpus_figures.json.

The index holds exactly benchmarks/cases/releases.txt (marshmallow is installed by the cases but left out:
its cases must make the matcher abstain). It is built once into ~/.cache/errdex-tests/corpus/, keyed by the
extractor version and the release list, and reused by later runs. After a change that makes the matcher
better, record the new figures: ERRDEX_RECORD_CORPUS=1 python -m pytest tests/test_corpus.py
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks import make_cases
from benchmarks.corpus import (
    CASES,
    PARTS,
    PASTES,
    RELEASES,
    Figures,
    Paste,
    Recorded,
    judge,
    load_cases,
    parts,
    record,
    recorded,
    report,
)
from errdex.store import Store
from tests.indexes import cached_index

RECORD = os.environ.get("ERRDEX_RECORD_CORPUS") == "1"


@pytest.fixture(scope="module")
def corpus_store(release_cache: Path) -> Iterator[Store]:
    with Store(cached_index(release_cache, "corpus", RELEASES.read_text(encoding="utf-8"))) as store:
        yield store


@pytest.mark.network
def test_the_index_holds_exactly_the_listed_releases(corpus_store: Store) -> None:
    held = {f"{p.name}=={r.version}" for p in corpus_store.packages() for r in corpus_store.releases(p.name)}
    assert held == set(RELEASES.read_text(encoding="utf-8").split())
    assert not corpus_store.releases("marshmallow")


@pytest.mark.network
@pytest.mark.parametrize("paste", PASTES)
def test_the_matcher_answers_no_worse_than_recorded(corpus_store: Store, paste: Paste) -> None:
    outcomes = judge(corpus_store, load_cases(), paste)
    found = parts(outcomes)
    print(report(paste, found))
    if RECORD:
        record(paste, outcomes)
        return
    want = recorded()[paste]
    regressed = [o.describe() for o in outcomes if not o.right and o.case.id not in want.known_misses]
    now_right = sorted(o.case.id for o in outcomes if o.right and o.case.id in want.known_misses)
    if now_right:
        print(f"now right, record them (ERRDEX_RECORD_CORPUS=1): {', '.join(now_right)}")
    below = below_record(found, want)
    assert not regressed and not below, "\n".join(
        ([f"{len(regressed)} cases regressed:", *regressed] if regressed else [])
        + (["figures off the record:", *below] if below else [])
    )


def below_record(found: dict[str, Figures], want: Recorded) -> list[str]:
    """Each figure below the recorded one, and each part whose size changed (a case added, or the split moved)."""
    off = [
        f"{part}: {found[part].cases} cases, recorded {want.parts[part].cases}"
        for part in PARTS
        if found[part].cases != want.parts[part].cases
    ]
    for part in PARTS:
        for name in ("top1", "abstain_precision", "abstain_recall"):
            now, then = getattr(found[part], name), getattr(want.parts[part], name)
            if now < then:
                off.append(f"{part} {name}: {now:.4f}, recorded {then:.4f}")
    return off


def test_about_three_tenths_of_the_cases_are_held_out() -> None:
    cases = load_cases()
    held_out = [c for c in cases if c.held_out]
    assert 0.25 < len(held_out) / len(cases) < 0.35


def test_the_corpus_runs_the_code_of_cases_src() -> None:
    """Each run case's `call` is the body of one case function in benchmarks/cases_src/ (regenerate after an edit)."""
    written = Counter(code for name in make_cases.LIBRARY_NAMES for _, code in make_cases.load_library(name).cases)
    records = [r for path in CASES.glob("*.json") for r in json.loads(path.read_text(encoding="utf-8"))]
    called = Counter(r["call"] for r in records if r["origin"] == "run")
    assert written == called
