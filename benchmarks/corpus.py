"""The match corpus (benchmarks/cases/): its cases, its split into a development and a held-out part, and
how the matcher is judged on it. bench_match.py and tests/test_corpus.py both score with this module.

Each case is pasted as its traceback (or warning line), or as "Type: message" alone. A case with an
expected site is right when the top match is at that file and line; a case that must abstain is right
when nothing matches.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal, Protocol

from errdex.match import Candidate, explain
from errdex.model import FileLine
from errdex.store import Store

CASES = Path(__file__).resolve().parent / "cases"
RELEASES = CASES / "releases.txt"
FIGURES = Path(__file__).resolve().parent / "corpus_figures.json"  # not in cases/: tools read every cases/*.json
Paste = Literal["traceback", "message"]
PASTES: tuple[Paste, ...] = ("traceback", "message")
PARTS = ("all", "development", "held_out")
HELD_OUT_TENTHS = 3  # a case is held out when the first 8 hex digits of sha256(id), mod 10, are below this


def is_held_out(case_id: str) -> bool:
    """In the held-out part: fixed by the id alone, so the split never moves as cases are added."""
    return int(hashlib.sha256(case_id.encode()).hexdigest()[:8], 16) % 10 < HELD_OUT_TENTHS


@dataclass(frozen=True, slots=True)
class Case:
    """One real message and where it was raised (None when the matcher must abstain)."""

    id: str
    version: str
    exception: str
    message: str
    traceback: str | None
    expected: FileLine | None

    @property
    def held_out(self) -> bool:
        return is_held_out(self.id)

    def paste(self, paste: Paste) -> str:
        """The text pasted; a case quoted from an issue thread has no traceback and is pasted as its message."""
        if paste == "traceback" and self.traceback:
            return self.traceback
        return f"{self.exception}: {self.message}"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the matcher answered one case pasted one way."""

    case: Case
    paste: Paste
    got: Candidate | None  # the top match; None when the matcher abstained
    right: bool  # at the expected site, or abstained when the case must abstain

    def describe(self) -> str:
        """One line for a report: the case, the paste, what was expected and what came."""
        want = "abstain" if self.case.expected is None else f"{self.case.expected.file}:{self.case.expected.line}"
        got = "abstained" if self.got is None else f"{self.got.file}:{self.got.line} ({self.got.function})"
        return f"{self.case.id} [{self.paste}]: expected {want}, got {got}"


@dataclass(frozen=True, slots=True)
class Figures:
    """The corpus figures of one paste on one part of the cases."""

    cases: int
    top1: float  # right top match, among the cases with an expected site
    abstain_precision: float  # of the cases the matcher abstained on, those that must abstain
    abstain_recall: float  # of the cases that must abstain, those it abstained on


def load_cases() -> list[Case]:
    """Every case of benchmarks/cases/*.json, in file order."""
    cases = []
    for path in sorted(CASES.glob("*.json")):
        for raw in json.loads(path.read_text(encoding="utf-8")):
            want = raw["expected"]
            expected = FileLine(want["file"], want["line"]) if want else None
            cases.append(Case(raw["id"], raw["version"], raw["exception"], raw["message"], raw["traceback"], expected))
    return cases


def judge(store: Store, cases: Iterable[Case], paste: Paste) -> list[Outcome]:
    """The matcher's top answer to each case (never indexing what is missing: some cases must abstain)."""
    outcomes = []
    for case in cases:
        best = explain(case.paste(paste), store=store, auto_index=False).best
        right = best is None if case.expected is None else best is not None and _at_expected(store, best, case)
        outcomes.append(Outcome(case, paste, best, right))
    return outcomes


class Sited(Protocol):
    """What the figures read of a case: where it was raised (None: the matcher must abstain), and its part."""

    @property
    def expected(self) -> FileLine | None: ...

    @property
    def held_out(self) -> bool: ...


class Judged(Protocol):
    """What the figures read of an outcome, in this corpus and in the real pastes' (benchmarks/pastes.py)."""

    @property
    def case(self) -> Sited: ...

    @property
    def got(self) -> Candidate | None: ...

    @property
    def right(self) -> bool: ...


def figures(outcomes: Iterable[Judged]) -> Figures:
    """Top-1 accuracy and abstain precision and recall over these outcomes."""
    outcomes = list(outcomes)
    sited = [o for o in outcomes if o.case.expected is not None]
    must_abstain = [o for o in outcomes if o.case.expected is None]
    abstained = [o for o in outcomes if o.got is None]
    rightly_abstained = sum(o.case.expected is None for o in abstained)
    return Figures(
        cases=len(outcomes),
        top1=sum(o.right for o in sited) / len(sited) if sited else 0.0,
        abstain_precision=rightly_abstained / len(abstained) if abstained else 1.0,
        abstain_recall=rightly_abstained / len(must_abstain) if must_abstain else 1.0,
    )


def parts(outcomes: Sequence[Judged]) -> dict[str, Figures]:
    """The figures on all cases, on the development part and on the held-out part."""
    return {
        PARTS[0]: figures(outcomes),
        PARTS[1]: figures(o for o in outcomes if not o.case.held_out),
        PARTS[2]: figures(o for o in outcomes if o.case.held_out),
    }


def report(paste: Paste, found: dict[str, Figures]) -> str:
    """The figures of one paste, one line per part."""
    label = {"traceback": "with their tracebacks", "message": "as 'Type: message' only"}[paste]
    return "\n".join(
        f"cases {label}, {part.replace('_', '-')}: {f.cases} real messages, top-1 {f.top1:.2%}, "
        f"abstain precision {f.abstain_precision:.2%}, recall {f.abstain_recall:.2%}"
        for part, f in found.items()
    )


@dataclass(frozen=True, slots=True)
class Recorded:
    """What corpus_figures.json holds for one paste: the figures of each part, and the cases answered wrong."""

    parts: dict[str, Figures]
    known_misses: frozenset[str]


def recorded() -> dict[Paste, Recorded]:
    """The recorded figures, the floor that tests/test_corpus.py holds the matcher to."""
    data = json.loads(FIGURES.read_text(encoding="utf-8"))
    return {
        paste: Recorded({part: Figures(**data[paste][part]) for part in PARTS}, frozenset(data[paste]["known_misses"]))
        for paste in PASTES
    }


def record(paste: Paste, outcomes: list[Outcome]) -> None:
    """Write one paste's figures (rounded down to 4 decimals) and its wrong cases into corpus_figures.json."""
    data = json.loads(FIGURES.read_text(encoding="utf-8")) if FIGURES.exists() else {}
    entry: dict[str, object] = {
        part: {k: v if isinstance(v, int) else math.floor(v * 10_000) / 10_000 for k, v in asdict(f).items()}
        for part, f in parts(outcomes).items()
    }
    entry["known_misses"] = sorted((o.case.id for o in outcomes if not o.right), key=_id_order)
    data[paste] = entry
    FIGURES.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def _id_order(case_id: str) -> tuple[str, int]:
    """packaging-2 before packaging-10."""
    package, _, number = case_id.rpartition("-")
    return package, int(number)


def _at_expected(store: Store, best: Candidate, case: Case) -> bool:
    """The top match is at the expected site: its own place (the line may fall inside a multi-line raise
    statement), or one of its places in the case's release."""
    want = case.expected
    if want is None:
        return False
    if best.file == want.file and best.line <= want.line <= best.end_line:
        return True
    return any(
        held.version == case.version and (want.file, want.line) in held.places for held in store.error_versions(best.id)
    )
