"""What `errdex verify` tells: each error's runs as JSON, a bulk run's summary, observed messages as corpus cases."""

from __future__ import annotations

import linecache
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from errdex.verify.runs import ErrorCheck, Run
from errdex.verify.sandbox import SNIPPET, Frame
from errdex.verify.snippets import FIX


class RunReport(TypedDict):
    role: str
    code: str
    status: str
    detail: str
    exception: str | None
    message: str | None
    file: str | None
    line: int | None
    isolation: str
    seconds: float | None


class CheckReport(TypedDict):
    id: str
    package: str
    version: str
    exception: str | None
    template: str | None
    public_value: bool
    trigger: str | None  # the verdict on its trigger, else on its calls to try; None: none ran
    by_candidate: bool  # the trigger was found by running a call to try
    not_run: list[str]  # why a snippet of the page was not run
    runs: list[RunReport]
    seconds: float


class Expected(TypedDict):
    file: str
    line: int
    function: str


class CorpusCase(TypedDict):
    """A case in the form of benchmarks/cases/*.json (see its README)."""

    id: str
    package: str
    version: str
    kind: str
    exception: str
    message: str
    traceback: str
    expected: Expected
    abstain: bool
    why_abstain: None
    origin: str
    call: str
    callers: list[str]


@dataclass(frozen=True)
class Summary:
    """A bulk run in counts: what became of each error's trigger, and of the errors whose check tests a value a
    public call passes."""

    errors: int
    with_trigger: int  # the page gives a trigger or a call to try
    ran: int  # its trigger could run as written
    statuses: dict[str, int]  # the trigger's verdicts (a call to try's where the page has no trigger)
    by_candidate: int  # triggers found by running a call to try
    fixes: dict[str, int]  # the fix's verdicts
    public_value: int
    public_value_verified: int
    seconds: float

    def line(self) -> str:
        said = ", ".join(f"{n} {s}" for s, n in sorted(self.statuses.items()))
        return (
            f"{self.errors} errors: {self.with_trigger} with a trigger or a call to try, {self.ran} run"
            f" ({said or 'none'}, {self.by_candidate} found by a call to try);"
            f" {self.public_value_verified} of {self.public_value} that test a value a public call passes verified;"
            f" {self.seconds / max(self.errors, 1):.2f} s an error"
        )


def check_report(check: ErrorCheck) -> CheckReport:
    why = [f"{s.role}: {reason}" for s, reason in check.snippets.not_runnable]
    if check.snippets.missing:
        why.append(f"trigger: {check.snippets.missing}")
    return {
        "id": check.error_id,
        "package": check.package,
        "version": check.version,
        "exception": check.expected.exception,
        "template": check.expected.template,
        "public_value": check.public_value,
        "trigger": check.trigger_status(),
        "by_candidate": check.by_candidate,
        "not_run": why,
        "runs": [_run_report(r) for r in check.runs],
        "seconds": round(check.seconds, 3),
    }


def _run_report(run: Run) -> RunReport:
    return {
        "role": run.snippet.role,
        "code": run.snippet.code,
        "status": run.verdict.status,
        "detail": run.verdict.detail,
        "exception": run.record.exception,
        "message": run.record.message,
        "file": run.record.file,
        "line": run.record.line,
        "isolation": run.record.isolation,
        "seconds": round(run.observed.seconds, 3) if run.observed else None,
    }


def summarize(checks: Sequence[ErrorCheck], seconds: float) -> Summary:
    triggers = [c.trigger_status() for c in checks]
    fixes = [r.verdict.status for c in checks for r in c.runs if r.snippet.role == FIX]
    return Summary(
        errors=len(checks),
        with_trigger=sum(1 for c in checks if c.snippets.missing is None),
        ran=sum(1 for t in triggers if t is not None),
        statuses=dict(Counter(t for t in triggers if t is not None)),
        fixes=dict(Counter(fixes)),
        public_value=sum(1 for c in checks if c.public_value),
        public_value_verified=sum(1 for c in checks if c.public_value and c.trigger_status() == "verified"),
        by_candidate=sum(1 for c in checks if c.by_candidate),
        seconds=seconds,
    )


def corpus_cases(checks: Sequence[ErrorCheck]) -> list[CorpusCase]:
    """Each verified trigger's observed error as a matcher case: message, traceback, and the true site (the place
    whose lines hold the raising frame)."""
    cases: list[CorpusCase] = []
    for check in checks:
        for run in check.runs:
            event = run.verdict.event
            if run.snippet.role == FIX or run.verdict.status != "verified" or event is None:
                continue
            if event.frame is None or event.exception is None or check.expected.kind == "log":
                continue  # a log record has no form a corpus case takes
            place = next(p for p in check.expected.places if p.file == event.file)
            cases.append(
                {
                    "id": f"verified-{check.package.lower()}-{len(cases) + 1}",
                    "package": check.package,
                    "version": check.version,
                    "kind": check.expected.kind,
                    "exception": event.exception.removeprefix("builtins."),
                    "message": event.message,
                    "traceback": (
                        warning_text(event.frame, event.exception, event.message)
                        if check.expected.kind == "warning"
                        else traceback_text(event.frames, event.exception, event.message, run.snippet.code)
                    ),
                    "expected": {"file": place.file, "line": place.line, "function": check.function},
                    "abstain": False,
                    "why_abstain": None,
                    "origin": "verify",
                    "call": run.snippet.code,
                    "callers": [],
                }
            )
    return cases


def traceback_text(frames: Sequence[Frame], exception: str, message: str, snippet: str) -> str:
    """The traceback as Python prints it (source lines read back from the environment's files)."""
    lines = ["Traceback (most recent call last):"]
    own = snippet.splitlines()
    for f in frames:
        lines.append(f'  File "{f.file}", line {f.line}, in {f.function}')
        text = own[f.line - 1] if f.file == SNIPPET and 0 < f.line <= len(own) else linecache.getline(f.file, f.line)
        if text.strip():
            lines.append(f"    {text.strip()}")
    name = exception.removeprefix("builtins.")
    lines.append(f"{name}: {message}" if message else name)
    return "\n".join(lines)


def warning_text(frame: Frame, category: str, message: str) -> str:
    """The warning as `warnings.formatwarning` prints it, at the call of `warn`."""
    source = linecache.getline(frame.file, frame.line).strip()
    shown = f"{frame.file}:{frame.line}: {category.rsplit('.', 1)[-1]}: {message}"
    return f"{shown}\n  {source}" if source else shown
