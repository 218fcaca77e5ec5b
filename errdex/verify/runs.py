"""Verify pages by running their snippets: one error, or a sample of a release's errors sharing one environment."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from errdex.errors import CannotVerify
from errdex.pages import Page, build_page
from errdex.store import Store, Verification
from errdex.verify.envs import Environment, environment, python_version
from errdex.verify.judge import Expected, Place, Verdict, judge
from errdex.verify.sandbox import Limits, Observed, run_snippet
from errdex.verify.snippets import CANDIDATE, FIX, TRIGGER, Snippet, Snippets, page_snippets, public_value


@dataclass(frozen=True)
class Run:
    """One snippet run and what it proved."""

    snippet: Snippet
    verdict: Verdict
    observed: Observed | None  # None: it could not run (no environment)
    record: Verification


@dataclass(frozen=True)
class ErrorCheck:
    """Everything `errdex verify` did for one error of one release."""

    error_id: str
    package: str
    version: str
    function: str
    expected: Expected  # its class, template, kind and places as indexed
    snippets: Snippets
    runs: tuple[Run, ...]
    public_value: bool  # its check tests a value a public call passes (see `snippets.public_value`)
    seconds: float

    def trigger_status(self) -> str | None:
        """The verdict on the page's trigger, else on its calls to try (verified when one was); None: none ran."""
        for role in (TRIGGER, CANDIDATE):
            found = [r.verdict.status for r in self.runs if r.snippet.role == role]
            if found:
                return "verified" if "verified" in found else found[0]
        return None

    @property
    def by_candidate(self) -> bool:
        """Whether its trigger was found by running a call to try (no trigger was certain from the code)."""
        return any(r.snippet.role == CANDIDATE and r.verdict.status == "verified" for r in self.runs)


Progress = Callable[[str, int, int], None]  # (what it does: "pages" | "runs", how many done, of how many)


def verify_error(
    store: Store,
    error_id: str,
    version: str | None = None,
    values: Sequence[str | None] | None = None,
    limits: Limits | None = None,
    envs: Path | None = None,
) -> ErrorCheck:
    """Run the page's trigger and fix (the page made with the user's `values` when given) and keep the verdicts."""
    page = build_page(store, error_id, version, values=values)
    env = _environment(page, envs)
    check = _check(page, env, limits or Limits())
    _keep(store, check)
    return check


def verify_release(
    store: Store,
    package: str,
    version: str | None = None,
    sample: int | None = None,
    seed: int = 0,
    jobs: int = 2,
    limits: Limits | None = None,
    envs: Path | None = None,
    progress: Progress | None = None,
) -> list[ErrorCheck]:
    """Verify `sample` errors of a release drawn at random with `seed` (every error when None), in one environment,
    `jobs` snippets at a time."""
    record = store.release(package, version)
    ids = sorted({s.error_id for s in store.errors(record.package, record.version)})
    if sample is not None and sample < len(ids):
        ids = sorted(random.Random(seed).sample(ids, sample))
    tell = progress or (lambda _what, _done, _total: None)
    pages: list[Page] = []
    for error_id in ids:
        pages.append(build_page(store, error_id, record.version))
        tell("pages", len(pages), len(ids))
    if not pages:
        return []
    env = _environment(pages[0], envs)
    done: list[ErrorCheck] = []
    bounds = limits or Limits()
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for check in pool.map(lambda p: _check(p, env, bounds), pages):
            _keep(store, check)
            done.append(check)
            tell("runs", len(done), len(pages))
    return done


def _environment(page: Page, envs: Path | None) -> Environment | CannotVerify:
    try:
        return environment(page["package"], page["version"], envs)
    except CannotVerify as exc:
        return exc


def expected_of(page: Page) -> Expected:
    places = tuple(Place(p["file"], p["line"], p["end_line"]) for p in page["sites"])
    return Expected(page["kind"], page["exception"], page["template"], places)


def _check(page: Page, env: Environment | CannotVerify, limits: Limits) -> ErrorCheck:
    started = datetime.now(UTC)
    expected = expected_of(page)
    snippets = page_snippets(page)
    runs: list[Run] = []
    for snippet in snippets.runnable:
        if snippet.role == CANDIDATE and any(r.verdict.status == "verified" and r.snippet.role != FIX for r in runs):
            continue  # one call that raises it is enough
        if isinstance(env, CannotVerify):
            verdict, observed, isolation = Verdict("cannot run", str(env), None), None, "none: nothing ran"
        else:
            observed = run_snippet(env.interpreter, snippet.code, limits)
            verdict, isolation = judge(snippet.role, expected, observed, env.site_packages), observed.isolation
        runs.append(Run(snippet, verdict, observed, _record(page, snippet, verdict, isolation, started)))
    return ErrorCheck(
        error_id=page["id"],
        package=page["package"],
        version=page["version"],
        function=page["function"],
        expected=expected,
        snippets=snippets,
        runs=tuple(runs),
        public_value=public_value(page),
        seconds=(datetime.now(UTC) - started).total_seconds(),
    )


def _record(page: Page, snippet: Snippet, verdict: Verdict, isolation: str, at: datetime) -> Verification:
    event = verdict.event
    return Verification(
        error_id=page["id"],
        package=page["package"],
        version=page["version"],
        python=python_version(),
        role=snippet.role,
        code=snippet.code,
        status=verdict.status,
        detail=verdict.detail,
        exception=event.exception if event else None,
        message=event.message if event else None,
        file=event.file if event else None,
        line=event.frame.line if event and event.frame else None,
        isolation=isolation,
        checked_at=at.isoformat(timespec="seconds"),
    )


def _keep(store: Store, check: ErrorCheck) -> None:
    for run in check.runs:
        store.put_verification(run.record)
