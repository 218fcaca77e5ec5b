"""The corpus of real pastes raised by compiled code as a test: the matcher answers benchmarks/compiled/ no worse
than recorded, each case at the C, C++, Cython or Rust line that made its text.

The index holds benchmarks/compiled/releases.txt, each release's wheel with its sdist's compiled sources (built once
into ~/.cache/errdex-tests/compiled/, keyed by the extractor version and the release list). After a change that
makes the matcher better, record the new figures:
    ERRDEX_RECORD_COMPILED=1 python -m pytest tests/test_compiled_pastes.py
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.corpus import PARTS, is_held_out, parts
from benchmarks.real_pastes import COMPILED, judge, load_pastes, record, recorded, report
from errdex.model import language_of, normalize_name
from errdex.store import Store
from tests.indexes import cached_index

RECORD = os.environ.get("ERRDEX_RECORD_COMPILED") == "1"
LANGUAGES = {"c", "cpp", "cython", "rust"}


@pytest.fixture(scope="module")
def compiled_store(release_cache: Path) -> Iterator[Store]:
    with Store(cached_index(release_cache, "compiled", COMPILED.releases.read_text(encoding="utf-8"))) as store:
        yield store


@pytest.mark.network
def test_the_matcher_finds_compiled_raises_no_worse_than_recorded(compiled_store: Store) -> None:
    outcomes = judge(compiled_store, load_pastes(COMPILED))
    print(report(outcomes))
    if RECORD:
        record(outcomes, COMPILED)
        return
    want = recorded(COMPILED)
    regressed = [o.describe() for o in outcomes if not o.right and o.case.id not in want.known_misses]
    found = parts(list(outcomes))
    below = [
        f"{part} top1: {found[part].top1:.4f}, recorded {want.parts[part].top1:.4f}"
        for part in PARTS
        if found[part].top1 < want.parts[part].top1
    ]
    assert not regressed and not below, "\n".join(regressed + below)


def test_every_compiled_case_is_well_formed() -> None:
    """Ids unique, a thread address, a compiled site in a language errdex reads, and its release listed."""
    cases = load_pastes(COMPILED)
    releases = {_release(spec) for spec in COMPILED.releases.read_text(encoding="utf-8").split()}
    raw = [r for path in sorted(COMPILED.folder.glob("*.json")) for r in json.loads(path.read_text(encoding="utf-8"))]
    assert len({c.id for c in cases}) == len(cases) >= 60
    for case, entry in zip(cases, raw, strict=True):
        assert re.match(r"https://github\.com/[^/]+/[^/]+/(issues|pull|discussions)/\d+", case.source), case.id
        assert case.expected is not None and entry["language"] in LANGUAGES, case.id
        assert language_of(case.expected.file) == entry["language"] or (
            entry["language"] == "c" and language_of(case.expected.file) == "cpp"  # a C header is read as C++
        ), case.id
        assert _release(f"{case.package}=={case.version}") in releases, case.id
    assert 0.2 < sum(is_held_out(c.id) for c in cases) / len(cases) < 0.4


def _release(spec: str) -> tuple[str, str]:
    name, _, version = spec.partition("==")
    return normalize_name(name), version
