"""The corpus of real interpreter errors about libraries (benchmarks/drift/): texts quoted verbatim from public issue
threads, with their truth read from the code of the releases around each change, and how errdex is judged on it.

Three kinds of case: `api` (code written for one release runs against another: the answer must name the symbol and
the two indexed releases between which it went away, and the replacement when the code names one), `inside` (the
interpreter raised inside a library's frame: the answer must name the failing statement) and `environment` (a module
that is not installed: the answer must name a distribution that provides it). A confident wrong answer is one that
states a change, a statement or a distribution that is not the true one. tests/test_drift_corpus.py and
`python benchmarks/drift_corpus.py --db ...` score with this module; the split is benchmarks/corpus.py's.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the repository root, so that `benchmarks` imports by that name
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.corpus import PARTS, is_held_out
from errdex.match import explain
from errdex.match.drift import ApiAnswer
from errdex.match.result import MatchResult
from errdex.model import FileLine, normalize_name
from errdex.pages.statement import statement_for
from errdex.pages.statement_model import FailingStatement
from errdex.store import Store

DRIFT = Path(__file__).resolve().parent / "drift"
RELEASES = DRIFT / "releases.txt"
FIGURES = Path(__file__).resolve().parent / "drift_figures.json"
KINDS = ("api", "inside", "environment")


@dataclass(frozen=True, slots=True)
class DriftCase:
    """One real interpreter error and its truth (see benchmarks/drift/README.md for the fields)."""

    id: str
    source: str
    form: str
    text: str
    kind: str
    package: str
    version: str | None
    symbol: str | None
    parameter: str | None
    change: str | None
    deprecated_in: str | None
    last_with: str | None
    first_without: str | None
    replacement: str | None
    expected: FileLine | None
    module: str | None
    distributions: tuple[str, ...]

    @property
    def held_out(self) -> bool:
        return is_held_out(self.id)


@dataclass(frozen=True, slots=True)
class DriftOutcome:
    """How errdex answered one case: right, a confident wrong answer, or neither (it said less)."""

    case: DriftCase
    right: bool
    wrong: bool
    got: str  # what the answer said, in one line, for reports


def load_cases() -> list[DriftCase]:
    """Every case of benchmarks/drift/*.json, in file order."""
    cases = []
    for path in sorted(DRIFT.glob("*.json")):
        for raw in json.loads(path.read_text(encoding="utf-8")):
            want = raw.get("expected")
            cases.append(
                DriftCase(
                    id=raw["id"],
                    source=raw["source"],
                    form=raw["form"],
                    text=raw["text"],
                    kind=raw["kind"],
                    package=normalize_name(raw["package"]),
                    version=raw.get("version"),
                    symbol=raw.get("symbol"),
                    parameter=raw.get("parameter"),
                    change=raw.get("change"),
                    deprecated_in=raw.get("deprecated_in"),
                    last_with=raw.get("last_with"),
                    first_without=raw.get("first_without"),
                    replacement=raw.get("replacement"),
                    expected=FileLine(want["file"], want["line"]) if want else None,
                    module=raw.get("module"),
                    distributions=tuple(normalize_name(d) for d in raw.get("distributions") or ()),
                )
            )
    return cases


def judge(store: Store, cases: list[DriftCase]) -> list[DriftOutcome]:
    """errdex's answer to each case, never indexing what is missing: as `errdex explain` answers, the failing
    statement is looked for only when no raise site and no API change answers."""
    outcomes = []
    for case in cases:
        result = explain(case.text, store=store, auto_index=False)
        statement = None if result.answered or not result.parsed.frames else statement_for(store, result.parsed)
        outcomes.append(_judged(case, result, statement))
    return outcomes


def _judged(case: DriftCase, result: MatchResult, statement: FailingStatement | None) -> DriftOutcome:
    api = result.api
    if case.kind == "environment":
        installs = {normalize_name(f.spec or "") for f in api.fix if f.kind == "install"} if api else set()
        right = bool(installs & set(case.distributions))
        return DriftOutcome(
            case, right, bool(installs) and not right, f"install {sorted(installs)}" if installs else "-"
        )
    if case.kind == "inside":
        best = result.best
        if best is not None:  # a raise site named for what the interpreter raised: right only at that very line
            right = case.expected is not None and (best.file, best.line) == tuple(case.expected)
            return DriftOutcome(case, right, not right, f"raise site {best.package} {best.file}:{best.line}")
        if statement is None or not statement.matches_release:
            return DriftOutcome(case, False, False, "-" if statement is None else "a frame of another release")
        want = case.expected
        right = want is not None and statement.file == want.file and want.line in (statement.line, statement.start)
        return DriftOutcome(case, right, not right, f"{statement.file}:{statement.line} in {statement.version}")
    if api is None or api.change is None:
        return DriftOutcome(case, False, False, "-" if api is None else f"{api.package} {api.subject}: no change")
    right = _same_symbol(case, api) and _same_change(case, api)
    change = api.change
    got = f"{api.package} {api.subject} {api.parameter or ''} {change.kind} {change.last_with}->{change.first_without}"
    return DriftOutcome(case, right, not right, f"{got} instead: {change.replacement}")


def _same_symbol(case: DriftCase, api: ApiAnswer) -> bool:
    if api.package != case.package:
        return False
    if case.parameter is not None and api.parameter is not None:
        return api.parameter == case.parameter
    # a name, or a signature change told by the count of positional arguments: the callable is the symbol
    return (case.symbol or "").rpartition(".")[2] == api.subject.rpartition(".")[2]


def _same_change(case: DriftCase, api: ApiAnswer) -> bool:
    change = api.change
    if change is None or (change.last_with, change.first_without) != (case.last_with, case.first_without):
        return False
    if case.replacement is None or change.replacement is None:
        return True  # a replacement the code does not name is not asked for; one it names is not held against it
    return case.replacement.rpartition(".")[2] == change.replacement.rpartition(".")[2]


@dataclass(frozen=True, slots=True)
class Figures:
    """Right and confident wrong answers of one part of the corpus, by kind."""

    cases: dict[str, int]
    right: dict[str, int]
    wrong: dict[str, int]


def figures(outcomes: list[DriftOutcome]) -> dict[str, Figures]:
    """The figures of each part: all, development, held-out."""
    out = {}
    for part in PARTS:
        chosen = [o for o in outcomes if part == "all" or (part == "held_out") == o.case.held_out]
        out[part] = Figures(
            {k: sum(o.case.kind == k for o in chosen) for k in KINDS},
            {k: sum(o.right and o.case.kind == k for o in chosen) for k in KINDS},
            {k: sum(o.wrong and o.case.kind == k for o in chosen) for k in KINDS},
        )
    return out


def report(outcomes: list[DriftOutcome]) -> str:
    lines = []
    for part, f in figures(outcomes).items():
        cells = [f"{k} {f.right[k]}/{f.cases[k]} right, {f.wrong[k]} wrong" for k in KINDS if f.cases[k]]
        lines.append(f"{part}: " + "; ".join(cells))
    lines += [f"  {o.case.id} [{o.case.kind}]: got {o.got}" for o in outcomes if not o.right]
    return "\n".join(lines)


def record(outcomes: list[DriftOutcome]) -> None:
    FIGURES.write_text(
        json.dumps({p: asdict(f) for p, f in figures(outcomes).items()}, indent=1) + "\n", encoding="utf-8"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="an index holding benchmarks/drift/releases.txt")
    args = parser.parse_args()
    with Store(args.db) as store:
        print(report(judge(store, load_cases())))


if __name__ == "__main__":
    main()
