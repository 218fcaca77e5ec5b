"""Index many releases: worker processes read and analyse them, this process writes them.

SQLite has one writer, so workers only read the store (what is analysed already, the traces of
earlier releases) and hand back a prepared release; this process writes each in one
transaction as it arrives. Releases of one package run one after the other, oldest first, so
each reuses the one before; different packages run side by side. A release already indexed
with the same digest by the same extractor is skipped, so a batch that was interrupted resumes
where it stopped.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from errdex.errors import ErrdexError
from errdex.extract import EXTRACTOR_VERSION
from errdex.index import IndexResult, Prepared, Progress, prepare, result, write
from errdex.model import ReleaseInfo, normalize_name
from errdex.sources import open_source
from errdex.sources.spec import PipSpec, parse_spec
from errdex.store import Store


@dataclass(frozen=True)
class Options:
    """How every release of a batch is read."""

    name: str | None = None
    version: str | None = None
    installed: bool = False
    cache_dir: Path | None = None
    force: bool = False  # index again releases already indexed with the same digest


@dataclass(frozen=True)
class Outcome:
    """What happened to one spec of a batch: indexed, unchanged (skipped) or failed."""

    spec: str
    status: str  # "indexed" | "unchanged" | "failed"
    result: IndexResult | None = None
    info: ReleaseInfo | None = None
    error: str | None = None


@dataclass
class Status:
    """The whole batch so far, for one progress view."""

    total: int
    started: float = field(default_factory=time.perf_counter)
    outcomes: list[Outcome] = field(default_factory=list)
    running: list[str] = field(default_factory=list)
    stage: str = ""  # what the release read in this process is at, e.g. "files 120/2681"

    @property
    def done(self) -> int:
        return len(self.outcomes)

    @property
    def files(self) -> int:
        return sum(o.result.files for o in self.outcomes if o.result)

    @property
    def errors(self) -> int:
        return sum(o.result.release.error_count for o in self.outcomes if o.result)

    @property
    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == "failed"]

    def files_per_second(self) -> float:
        return self.files / max(time.perf_counter() - self.started, 1e-9)


Report = Callable[[Status, Outcome | None], None]  # called when a release starts or ends


def index_many(
    specs: list[str], store: Store, options: Options = Options(), *, jobs: int | None = None, report: Report | None = None
) -> Status:
    """Index every spec into `store`; one that fails is recorded and the others go on."""
    status = Status(len(specs))
    notify = report or (lambda status, outcome: None)
    queues = _by_package(specs)
    count = min(jobs or os.cpu_count() or 1, len(queues))
    if count <= 1 or str(store.path) == ":memory:":
        for spec in specs:
            status.running, status.stage = [spec], "reading"
            notify(status, None)
            _finish(status, notify, _in_process(spec, store, options, jobs, _stage(status, notify)))
        return status
    _run_pool(queues, store, options, count, status, notify)
    return status


def _stage(status: Status, notify: Report) -> Progress:
    def progress(stage: str, done: int, total: int) -> None:
        status.stage = f"{stage} {done}/{total}"
        notify(status, None)

    return progress


def _in_process(spec: str, store: Store, options: Options, workers: int | None, progress: Progress) -> Outcome:
    started = time.perf_counter()
    try:
        prepared: Prepared | ReleaseInfo | str = _prepare(spec, store, options, workers, progress)
    except ErrdexError as exc:
        prepared = str(exc)
    return _outcome(spec, prepared, time.perf_counter() - started, store)


def _run_pool(queues: dict[str, deque[str]], store: Store, options: Options, count: int, status: Status, notify: Report) -> None:
    """Keep `count` workers busy with at most one release per package in flight."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    flying: dict[Future[tuple[Prepared | ReleaseInfo | str, float]], tuple[str, str]] = {}
    with ProcessPoolExecutor(max_workers=count, mp_context=context) as pool:
        try:
            while queues or flying:
                for key in [k for k in queues if k not in {key for key, _ in flying.values()}][: count - len(flying)]:
                    spec = queues[key].popleft()
                    if not queues[key]:
                        del queues[key]
                    flying[pool.submit(_prepare_job, spec, str(store.path), options)] = (key, spec)
                status.running = [spec for _, spec in flying.values()]
                notify(status, None)
                finished, _ = wait(list(flying), return_when=FIRST_COMPLETED)
                for future in finished:
                    _, spec = flying.pop(future)
                    _finish(status, notify, _collect(spec, future, store))
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def _collect(spec: str, future: Future[tuple[Prepared | ReleaseInfo | str, float]], store: Store) -> Outcome:
    try:
        prepared, seconds = future.result()
    except Exception as exc:  # a bug, or a worker that died (out of memory, killed): that release fails, the batch goes on
        return Outcome(spec, "failed", error=f"preparing it failed ({type(exc).__name__}: {exc})")
    return _outcome(spec, prepared, seconds, store)


def _outcome(spec: str, prepared: Prepared | ReleaseInfo | str, seconds: float, store: Store) -> Outcome:
    """Write a prepared release; or record that it was indexed already, or why it failed."""
    if isinstance(prepared, str):
        return Outcome(spec, "failed", error=prepared)
    if isinstance(prepared, ReleaseInfo):
        return Outcome(spec, "unchanged", info=prepared)
    started = time.perf_counter()
    try:
        record = write(store, prepared)
    except ErrdexError as exc:
        return Outcome(spec, "failed", error=str(exc))
    return Outcome(spec, "indexed", result(record, prepared, seconds + time.perf_counter() - started), info=prepared.info)


def _finish(status: Status, notify: Report, outcome: Outcome) -> None:
    status.outcomes.append(outcome)
    status.running = [s for s in status.running if s != outcome.spec]
    notify(status, outcome)


def _prepare_job(spec: str, db: str, options: Options) -> tuple[Prepared | ReleaseInfo | str, float]:
    """Runs in a worker: the prepared release, its info if it is indexed already, or why it failed."""
    started = time.perf_counter()
    try:
        with Store(db) as store:
            return _prepare(spec, store, options, 1, None), time.perf_counter() - started
    except ErrdexError as exc:
        return str(exc), time.perf_counter() - started


def _prepare(spec: str, store: Store, options: Options, workers: int | None, progress: Progress | None) -> Prepared | ReleaseInfo:
    """Read and prepare one release, or return its info when the store has it with the same digest."""
    with open_source(spec, name=options.name, version=options.version, installed=options.installed,
                     cache_dir=options.cache_dir) as source:
        info = source.info
        if not options.force and store.release_digest(info.package, info.version) == (info.digest, EXTRACTOR_VERSION):
            return info
        files = list(source.files())
    return prepare(info, files, store, progress=progress, workers=workers)


def _by_package(specs: list[str]) -> dict[str, deque[str]]:
    """Specs grouped by the package they name (a path or git spec is its own group), in order."""
    queues: dict[str, deque[str]] = {}
    for spec in specs:
        queues.setdefault(_package_key(spec), deque()).append(spec)
    return queues


def _package_key(spec: str) -> str:
    try:
        parsed = parse_spec(spec)
    except ErrdexError:
        return spec
    return normalize_name(parsed.requirement.name) if isinstance(parsed, PipSpec) else spec
