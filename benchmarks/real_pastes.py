"""The corpus of real pastes (benchmarks/pastes/): texts quoted verbatim from public issue threads, the
true raise site of each, and how the matcher is judged on them — top-1, abstentions and whether its
confidence means what it says. tests/test_pastes.py and `python benchmarks/real_pastes.py --db ...` score
with this module; the split into a development and a held-out part is the one benchmarks/corpus.py uses.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the repository root, so that `benchmarks` imports by that name
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.corpus import PARTS, Figures, is_held_out, parts
from errdex.match import Candidate, explain
from errdex.model import FileLine, normalize_name
from errdex.store import Store

PASTES = Path(__file__).resolve().parent / "pastes"
RELEASES = PASTES / "releases.txt"
FIGURES = Path(__file__).resolve().parent / "pastes_figures.json"


@dataclass(frozen=True, slots=True)
class Corpus:
    """A folder of cases in this format, the releases its index holds and where its figures are recorded."""

    folder: Path
    figures: Path

    @property
    def releases(self) -> Path:
        return self.folder / "releases.txt"


ISSUE_PASTES = Corpus(PASTES, FIGURES)  # benchmarks/pastes/: Python raises (and what must abstain)
# benchmarks/compiled/: errors raised by compiled code (C, C++, Cython, Rust)
COMPILED = Corpus(PASTES.parent / "compiled", PASTES.parent / "compiled_figures.json")
CORPORA = {"pastes": ISSUE_PASTES, "compiled": COMPILED}
BINS = 10  # confidence bins of the reliability table: [0, 0.1), ..., [0.9, 1]


@dataclass(frozen=True, slots=True)
class Place:
    """A place that raises the case's message: the expected site, or an identical copy of it."""

    package: str | None
    version: str | None
    file: str
    line: int


@dataclass(frozen=True, slots=True)
class PasteCase:
    """One real paste and where it was raised (None when the matcher must abstain)."""

    id: str
    source: str
    form: str
    text: str
    package: str | None
    version: str | None
    expected: FileLine | None
    alternatives: tuple[Place, ...]

    @property
    def held_out(self) -> bool:
        return is_held_out(self.id)

    @property
    def places(self) -> tuple[Place, ...]:
        """Every place whose answer is right: the expected site and its identical copies."""
        own = () if self.expected is None else (Place(self.package, self.version, *self.expected),)
        return own + self.alternatives


@dataclass(frozen=True, slots=True)
class PasteOutcome:
    """How the matcher answered one paste: its top candidate (shown or not) and the answer it gave."""

    case: PasteCase
    top: Candidate | None  # the first candidate, even when the matcher abstained
    got: Candidate | None  # the answer shown; None when the matcher abstained
    right: bool  # the answer is at one of the case's places, or the matcher abstained on a case that must abstain
    top_right: bool  # the first candidate is at one of the case's places

    def describe(self) -> str:
        """One line for a report: the case, its form, what was expected and what came."""
        want = "abstain" if self.case.expected is None else f"{self.case.expected.file}:{self.case.expected.line}"
        got = "abstained" if self.got is None else f"{self.got.file}:{self.got.line} at {self.got.confidence:.0%}"
        return f"{self.case.id} [{self.case.form}]: expected {want}, got {got}"


@dataclass(frozen=True, slots=True)
class Bin:
    """One row of the reliability table: the answers shown with a confidence in [low, high)."""

    low: float
    high: float
    answers: int
    right: int
    mean_confidence: float


def load_pastes(corpus: Corpus = ISSUE_PASTES) -> list[PasteCase]:
    """Every case of the corpus's *.json (benchmarks/pastes/ unless told), in file order."""
    cases = []
    for path in sorted(corpus.folder.glob("*.json")):
        for raw in json.loads(path.read_text(encoding="utf-8")):
            want = raw["expected"]
            cases.append(
                PasteCase(
                    id=raw["id"],
                    source=raw["source"],
                    form=raw["form"],
                    text=raw["text"],
                    package=raw["package"],
                    version=raw["version"],
                    expected=FileLine(want["file"], want["line"]) if want else None,
                    alternatives=tuple(
                        Place(a.get("package"), a.get("version"), a["file"], a["line"])
                        for a in raw.get("alternatives", ())
                    ),
                )
            )
    return cases


def needed_releases(cases: list[PasteCase]) -> list[str]:
    """The releases an index must hold to answer the cases: each expected site's and its copies' (abstain cases
    add none, so that a package whose errors must make the matcher abstain is not indexed for them)."""
    specs = {f"{normalize_name(p.package)}=={p.version}" for c in cases for p in c.places if p.package and p.version}
    return sorted(specs, key=lambda spec: (spec.partition("==")[0], _version_key(spec.partition("==")[2])))


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) if part.isdigit() else 0 for part in version.split("."))


def judge(store: Store, cases: list[PasteCase]) -> list[PasteOutcome]:
    """The matcher's answer to each paste (never indexing what is missing: some cases must abstain)."""
    outcomes = []
    for case in cases:
        result = explain(case.text, store=store, auto_index=False)
        top = result.matches[0] if result.matches else None
        top_right = top is not None and _at_a_place(store, top, case)
        right = top_right and not result.abstain if case.expected is not None else result.best is None
        outcomes.append(PasteOutcome(case, top, result.best, right, top_right))
    return outcomes


def reliability(outcomes: list[PasteOutcome]) -> list[Bin]:
    """For the answers shown, by confidence: how many there are and how many are right."""
    shown = [(o.got.confidence, o.top_right) for o in outcomes if o.got is not None]
    rows = []
    for k in range(BINS):
        low, high = k / BINS, (k + 1) / BINS
        inside = [(c, right) for c, right in shown if low <= c < high or (k == BINS - 1 and c == 1)]
        mean = sum(c for c, _ in inside) / len(inside) if inside else 0.0
        rows.append(Bin(low, high, len(inside), sum(right for _, right in inside), mean))
    return rows


def calibration_error(rows: list[Bin]) -> float:
    """Expected calibration error: the gap between confidence and accuracy, weighted by the answers in each bin."""
    total = sum(r.answers for r in rows)
    gaps = (r.answers / total * abs(r.right / r.answers - r.mean_confidence) for r in rows if r.answers)
    return sum(gaps) if total else 0.0


def report(outcomes: list[PasteOutcome]) -> str:
    """The figures of each part, the reliability table of each part and the forms that fail."""
    lines = []
    for part, f in parts(list(outcomes)).items():
        lines.append(
            f"real pastes, {part.replace('_', '-')}: {f.cases} cases, top-1 {f.top1:.2%}, "
            f"abstain precision {f.abstain_precision:.2%}, recall {f.abstain_recall:.2%}"
        )
    for part, chosen in (("development", False), ("held-out", True)):
        rows = reliability([o for o in outcomes if o.case.held_out == chosen])
        lines.append(f"reliability, {part} (answers shown): calibration error {calibration_error(rows):.3f}")
        lines.extend(
            f"  {r.low:.0%}-{r.high:.0%}: {r.answers} answers, {r.right} right, mean confidence {r.mean_confidence:.2f}"
            for r in rows
            if r.answers
        )
    forms: dict[str, list[int]] = {}
    for o in outcomes:
        counts = forms.setdefault(o.case.form, [0, 0])
        counts[0] += 1
        counts[1] += o.right
    lines.append("by form: " + ", ".join(f"{form} {r}/{n}" for form, (n, r) in sorted(forms.items())))
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Recorded:
    """What pastes_figures.json holds: the figures of each part, the held-out calibration error, the misses."""

    parts: dict[str, Figures]
    calibration_error: float
    known_misses: frozenset[str]


def recorded(corpus: Corpus = ISSUE_PASTES) -> Recorded:
    """The recorded figures: the floor tests/test_pastes.py and tests/test_compiled_pastes.py hold the matcher to."""
    data = json.loads(corpus.figures.read_text(encoding="utf-8"))
    return Recorded(
        {part: Figures(**data[part]) for part in PARTS}, data["calibration_error"], frozenset(data["known_misses"])
    )


def record(outcomes: list[PasteOutcome], corpus: Corpus = ISSUE_PASTES) -> None:
    """Write the figures (rounded down to 4 decimals; the calibration error up) and the cases answered wrong."""
    data: dict[str, object] = {
        part: {k: v if isinstance(v, int) else math.floor(v * 10_000) / 10_000 for k, v in asdict(f).items()}
        for part, f in parts(list(outcomes)).items()
    }
    held_out = reliability([o for o in outcomes if o.case.held_out])
    data["calibration_error"] = math.ceil(calibration_error(held_out) * 10_000) / 10_000
    data["known_misses"] = sorted(o.case.id for o in outcomes if not o.right)
    corpus.figures.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def _at_a_place(store: Store, best: Candidate, case: PasteCase) -> bool:
    """The candidate is at one of the case's places: its own place (any line of a multi-line raise statement)
    or one of its places in that place's release."""
    for place in case.places:
        same_package = place.package is None or best.package.lower() == place.package.lower()
        if same_package and best.file == place.file and best.line <= place.line <= best.end_line:
            return True
    versions = {p.version for p in case.places}
    return any(
        held.version in versions and any((p.file, p.line) in held.places for p in case.places)
        for held in store.error_versions(best.id)
    )


def reachable(store: Store, case: PasteCase) -> bool:
    """Whether a perfect matcher over this index could name the case's site: it must abstain, or the site is
    indexed with a message template, or a frame of the paste names its file and line."""
    if case.expected is None or case.package is None or case.version is None:
        return True
    place = case.expected
    if re.search(rf"{re.escape(place.file.rsplit('/', 1)[-1])}\S*,? line {place.line}\b", case.text):
        return True
    release = store.release(case.package, case.version)
    return any(
        s.site.file == place.file and abs(s.site.line - place.line) <= 2 and s.site.template is not None
        for s in store.release_sites(release)
    )


def bound(store: Store, cases: list[PasteCase]) -> str:
    """Per part, the top-1 a perfect matcher could reach over this index, and how many cases it could not."""
    lines = []
    for name, held_out in (("development", False), ("held-out", True)):
        chosen = [c for c in cases if c.held_out == held_out]
        out = [c.id for c in chosen if not reachable(store, c)]
        share = 1 - len(out) / len(chosen)
        lines.append(f"{name}: at most {share:.2%} top-1 ({len(out)} of {len(chosen)} unreachable: {', '.join(out)})")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", type=Path, help="an index of exactly the corpus's releases.txt")
    ap.add_argument(
        "--corpus", choices=sorted(CORPORA), default="pastes", help="benchmarks/pastes or benchmarks/compiled"
    )
    ap.add_argument("--misses", action="store_true", help="also list every case answered wrong")
    ap.add_argument("--write-releases", action="store_true", help="write releases.txt from the cases, then stop")
    ap.add_argument("--record", action="store_true", help="write the figures to pastes_figures.json")
    ap.add_argument("--bound", action="store_true", help="print what a perfect matcher could reach over this index")
    args = ap.parse_args()
    corpus = CORPORA[args.corpus]
    if args.write_releases:
        corpus.releases.write_text(
            "".join(f"{spec}\n" for spec in needed_releases(load_pastes(corpus))), encoding="utf-8"
        )
        return
    if args.db is None:
        ap.error("--db is required")
    with Store(args.db) as store:
        if args.bound:
            print(bound(store, load_pastes(corpus)))
            return
        outcomes = judge(store, load_pastes(corpus))
    print(report(outcomes))
    if args.record:
        record(outcomes, corpus)
    if args.misses:
        print("\n".join(o.describe() for o in outcomes if not o.right))


if __name__ == "__main__":
    main()
