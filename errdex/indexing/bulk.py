"""Index many releases: workers read and analyse them, this process writes them.

SQLite has one writer, so workers only read the store (what is analysed already, the traces of
earlier releases) and hand back a prepared release; this process writes each in one
transaction as it arrives. Releases of one package run one after the other, oldest first, so
each reuses the one before; different packages run side by side. A release already indexed
with the same digest by the same extractor is skipped, so a batch that was interrupted resumes
where it stopped.

Workers are a local process pool, or the executor of an `Engine` (a Dask cluster's, see
`errdex.indexing.cluster`). Workers on other machines cannot open the store by path: they prepare
as if it were empty (every file analysed, every file linked), which stores the same rows at a
higher cost, and are told only which releases of the package are indexed already, so that a
batch still resumes without redoing them.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    Executor,
    Future,
    ProcessPoolExecutor,
    wait,
)
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from errdex.caches import EXTRACTOR_VERSION
from errdex.errors import ErrdexError
from errdex.indexing.pipeline import (
    IndexResult,
    Prepared,
    Progress,
    prepare,
    result,
    write,
)
from errdex.model import ReleaseInfo, normalize_name
from errdex.sources import open_source
from errdex.sources.spec import PipSpec, parse_spec
from errdex.store import ReleaseDigest, Store


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


@dataclass(frozen=True)
class Engine:
    """Where a batch's releases are prepared: an executor, how many at once, whether it can open the store."""

    executor: Executor
    slots: int  # releases in flight at once
    reads_store: bool  # workers open the store by its path (same machine); else they prepare without it


Report = Callable[[Status, Outcome | None], None]  # called when a release starts or ends
Digests = dict[tuple[str, str], ReleaseDigest | None]  # (package, version) -> what says it is current
JobResult = tuple[Prepared | ReleaseInfo | str, float]  # what a worker hands back, and its seconds


def index_many(
    specs: list[str],
    store: Store,
    options: Options = Options(),
    *,
    jobs: int | None = None,
    report: Report | None = None,
    engine: Engine | None = None,
) -> Status:
    """Index every spec into `store`; one that fails is recorded and the others go on."""
    status = Status(len(specs))
    notify = report or (lambda status, outcome: None)
    queues = _by_package(specs)
    if engine is not None:
        _run_pool(queues, store, options, engine, status, notify)
        return status
    count = min(jobs or os.cpu_count() or 1, len(queues))
    if count <= 1 or str(store.path) == ":memory:":
        for spec in specs:
            status.running, status.stage = [spec], "reading"
            notify(status, None)
            _finish(status, notify, _in_process(spec, store, options, jobs, _stage(status, notify)))
        return status
    with _local_pool(count) as local:
        _run_pool(queues, store, options, local, status, notify)
    return status


@contextmanager
def _local_pool(count: int) -> Iterator[Engine]:
    """Worker processes on this machine; on an interrupt, queued releases are dropped, not waited for."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=count, mp_context=context) as pool:
        try:
            yield Engine(pool, count, reads_store=True)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


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


def _run_pool(
    queues: dict[str, deque[str]], store: Store, options: Options, engine: Engine, status: Status, notify: Report
) -> None:
    """Keep the engine's slots busy with at most one release per package in flight."""
    db = str(store.path) if engine.reads_store and str(store.path) != ":memory:" else None
    flying: dict[Future[JobResult], tuple[str, str]] = {}
    try:
        while queues or flying:
            for key in [k for k in queues if k not in {key for key, _ in flying.values()}][
                : engine.slots - len(flying)
            ]:
                spec = queues[key].popleft()
                if not queues[key]:
                    del queues[key]
                digests = None if db else _indexed_digests(store, options.name or key)
                flying[engine.executor.submit(_prepare_job, spec, db, options, digests)] = (key, spec)
            status.running = [spec for _, spec in flying.values()]
            notify(status, None)
            finished, _ = wait(list(flying), return_when=FIRST_COMPLETED)
            for future in finished:
                _, spec = flying.pop(future)
                _finish(status, notify, _collect(spec, future, store, recheck=db is None and not options.force))
    except BaseException:
        for future in flying:
            future.cancel()
        raise


def _indexed_digests(store: Store, package: str) -> Digests:
    """What a worker without the store needs to skip a release indexed already: the package's digests."""
    releases = store.releases(package)
    return {(normalize_name(r.package), r.version): store.release_digest(r.package, r.version) for r in releases}


def _collect(spec: str, future: Future[JobResult], store: Store, recheck: bool) -> Outcome:
    """The outcome of a worker's job; `recheck` when the worker could not see whether the store has the release."""
    try:
        prepared, seconds = future.result()
    except (
        Exception
    ) as exc:  # a bug, or a worker that died (out of memory, killed): that release fails, the batch goes on
        return Outcome(spec, "failed", error=f"preparing it failed ({type(exc).__name__}: {exc})")
    if recheck and isinstance(prepared, Prepared) and _current(prepared.info, store, None):
        prepared = prepared.info  # e.g. a path spec, whose package was unknown when the job was sent
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
    return Outcome(
        spec, "indexed", result(record, prepared, seconds + time.perf_counter() - started), info=prepared.info
    )


def _finish(status: Status, notify: Report, outcome: Outcome) -> None:
    status.outcomes.append(outcome)
    status.running = [s for s in status.running if s != outcome.spec]
    notify(status, outcome)


def _prepare_job(spec: str, db: str | None, options: Options, digests: Digests | None) -> JobResult:
    """Runs in a worker: the prepared release, its info if it is indexed already, or why it failed.

    Without `db` the worker cannot open the store: it prepares against an empty one, and
    `digests` says which releases of the package are indexed already.
    """
    started = time.perf_counter()
    try:
        with Store(db or ":memory:") as store:
            return _prepare(spec, store, options, 1, None, digests), time.perf_counter() - started
    except ErrdexError as exc:
        return str(exc), time.perf_counter() - started


def _prepare(
    spec: str,
    store: Store,
    options: Options,
    workers: int | None,
    progress: Progress | None,
    digests: Digests | None = None,
) -> Prepared | ReleaseInfo:
    """Read and prepare one release, or return its info when it is indexed with the same digest."""
    with open_source(
        spec, name=options.name, version=options.version, installed=options.installed, cache_dir=options.cache_dir
    ) as source:
        info = source.info
        if not options.force and _current(info, store, digests):
            return info
        files = list(source.files())
    return prepare(info, files, store, progress=progress, workers=workers)


def _current(info: ReleaseInfo, store: Store, digests: Digests | None) -> bool:
    """Whether the release is indexed with this digest by this extractor, with the layout its source now shows
    (a layout not learned this time, offline, leaves the recorded one standing): asks the store, or what was shipped."""
    key = (normalize_name(info.package), info.version)
    stored = store.release_digest(*key) if digests is None else digests.get(key)
    if stored is None or (stored.digest, stored.extractor_version) != (info.digest, EXTRACTOR_VERSION):
        return False
    return stored.repository_folder == info.repository_folder and info.layout in (None, stored.layout)


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
