"""The corpus of real pastes as a test: the matcher answers benchmarks/pastes/ no worse than recorded.

The index holds exactly benchmarks/pastes/releases.txt (built once into ~/.cache/errdex-tests/pastes/,
keyed by the extractor version and the release list): some 300 releases, torch's among them, so the first run
after a change to the extractor or the list indexes for minutes; later runs only match. After a change that
makes the matcher better, record the new figures: ERRDEX_RECORD_PASTES=1 python -m pytest tests/test_pastes.py
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.corpus import PARTS, is_held_out, parts
from benchmarks.real_pastes import (
    PASTES,
    RELEASES,
    calibration_error,
    judge,
    load_pastes,
    record,
    recorded,
    reliability,
    report,
)
from errdex.model import normalize_name
from errdex.store import Store
from tests.indexes import cached_index

RECORD = os.environ.get("ERRDEX_RECORD_PASTES") == "1"
FORMS = {"message", "traceback", "notebook", "pytest", "ci-log", "container-log", "app-log", "cut", "flattened"}
FORMS |= {"several", "prose"}
WHY_ABSTAIN = {"compiled", "interpreter", "stdlib", "user-code", "not-indexed"}


@pytest.fixture(scope="module")
def pastes_store(release_cache: Path) -> Iterator[Store]:
    with Store(cached_index(release_cache, "pastes", RELEASES.read_text(encoding="utf-8"))) as store:
        yield store


@pytest.mark.network
def test_the_matcher_answers_real_pastes_no_worse_than_recorded(pastes_store: Store) -> None:
    outcomes = judge(pastes_store, load_pastes())
    print(report(outcomes))
    if RECORD:
        record(outcomes)
        return
    want = recorded()
    regressed = [o.describe() for o in outcomes if not o.right and o.case.id not in want.known_misses]
    now_right = sorted(o.case.id for o in outcomes if o.right and o.case.id in want.known_misses)
    if now_right:
        print(f"now right, record them (ERRDEX_RECORD_PASTES=1): {', '.join(now_right)}")
    found = parts(list(outcomes))
    below = [
        f"{part} {name}: {getattr(found[part], name):.4f}, recorded {getattr(want.parts[part], name):.4f}"
        for part in PARTS
        for name in ("top1", "abstain_precision", "abstain_recall")
        if getattr(found[part], name) < getattr(want.parts[part], name)
    ]
    error = calibration_error(reliability([o for o in outcomes if o.case.held_out]))
    if error > want.calibration_error:
        below.append(f"held-out calibration error {error:.4f}, recorded {want.calibration_error:.4f}")
    assert not regressed and not below, "\n".join(
        ([f"{len(regressed)} cases regressed:", *regressed] if regressed else [])
        + (["figures off the record:", *below] if below else [])
    )


def test_every_case_is_well_formed() -> None:
    """Ids unique, a known form, a thread address, a site or a reason to abstain, and its release listed."""
    cases = load_pastes()
    releases = {_release(spec) for spec in RELEASES.read_text(encoding="utf-8").split()}
    assert len({c.id for c in cases}) == len(cases)
    raw = [r for path in sorted(PASTES.glob("*.json")) for r in json.loads(path.read_text(encoding="utf-8"))]
    for case, entry in zip(cases, raw, strict=True):
        assert case.form in FORMS, case.id
        assert re.match(r"https://github\.com/[^/]+/[^/]+/(issues|pull|discussions)/\d+", case.source), case.id
        assert case.text.strip(), case.id
        if case.expected is None:
            assert entry["abstain"] and entry["why_abstain"] in WHY_ABSTAIN, case.id
        else:
            assert not entry["abstain"] and entry["verified"], case.id
            assert _release(f"{case.package}=={case.version}") in releases, case.id


def _release(spec: str) -> tuple[str, str]:
    name, _, version = spec.partition("==")
    return normalize_name(name), version


def test_about_three_tenths_of_the_pastes_are_held_out() -> None:
    cases = load_pastes()
    assert 0.2 < sum(is_held_out(c.id) for c in cases) / len(cases) < 0.4
