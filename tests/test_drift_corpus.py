"""The corpus of real interpreter errors as a test: errdex answers benchmarks/drift/ no worse than recorded, and
never with a confident wrong answer.

The index holds exactly benchmarks/drift/releases.txt (built once into ~/.cache/errdex-tests/drift/, keyed by the
extractor version and the release list). After a change that makes the answers better, record the new figures:
ERRDEX_RECORD_DRIFT=1 python -m pytest tests/test_drift_corpus.py
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.corpus import PARTS
from benchmarks.drift_corpus import DRIFT, FIGURES, KINDS, RELEASES, figures, judge, load_cases, record, report
from errdex.model import normalize_name
from errdex.store import Store
from tests.indexes import cached_index

RECORD = os.environ.get("ERRDEX_RECORD_DRIFT") == "1"
FORMS = {"message", "traceback", "notebook", "prose", "ci-log"}
CHANGES = {"removed", "renamed", "moved", "signature"}
KEYS = [
    "id", "source", "form", "text", "kind", "package", "version", "symbol", "parameter", "change", "deprecated_in",
    "last_with", "first_without", "replacement", "expected", "module", "distributions", "verified",
]  # fmt: skip


@pytest.fixture(scope="module")
def drift_store(release_cache: Path) -> Iterator[Store]:
    with Store(cached_index(release_cache, "drift", RELEASES.read_text(encoding="utf-8"))) as store:
        yield store


@pytest.mark.network
def test_errdex_answers_the_drift_corpus_no_worse_than_recorded(drift_store: Store) -> None:
    outcomes = judge(drift_store, load_cases())
    print(report(outcomes))
    if RECORD:
        record(outcomes)
        return
    wanted = json.loads(FIGURES.read_text(encoding="utf-8"))
    found = figures(outcomes)
    below = [
        f"{part} {kind}: {found[part].right[kind]} right, recorded {wanted[part]['right'][kind]}"
        for part in PARTS
        for kind in KINDS
        if found[part].right[kind] < wanted[part]["right"][kind]
    ]
    wrong = [f"{o.case.id}: {o.got}" for o in outcomes if o.wrong]
    assert not below and not wrong, "\n".join(below + ["confident wrong answers:", *wrong])


def test_every_case_is_well_formed() -> None:
    """Every key in schema order, ids unique, a thread address, the truth its kind needs, its releases listed."""
    releases = set(RELEASES.read_text(encoding="utf-8").split())
    listed = RELEASES.read_text(encoding="utf-8").split()
    assert listed == sorted(set(listed))
    raw = [r for path in sorted(DRIFT.glob("*.json")) for r in json.loads(path.read_text(encoding="utf-8"))]
    assert len({r["id"] for r in raw}) == len(raw) == len(load_cases())
    for case in raw:
        assert list(case) == KEYS, case["id"]
        assert case["kind"] in KINDS and case["form"] in FORMS and case["text"].strip(), case["id"]
        assert re.match(r"https://github\.com/[^/]+/[^/]+/(issues|pull|discussions)/\d+", case["source"]), case["id"]
        package = normalize_name(case["package"])
        if case["kind"] == "api":
            assert case["symbol"] and case["change"] in CHANGES, case["id"]
            for version in (case["last_with"], case["first_without"], case["deprecated_in"]):
                assert version is None or f"{package}=={version}" in releases, (case["id"], version)
            assert case["last_with"] and case["first_without"], case["id"]
        elif case["kind"] == "inside":
            assert case["expected"] and f"{package}=={case['version']}" in releases, case["id"]
        else:
            assert case["module"] and case["distributions"], case["id"]
            for dist in case["distributions"]:
                assert any(r.startswith(f"{normalize_name(dist)}==") for r in releases), (case["id"], dist)
