"""A batch of popular packages, the newest releases of each, indexed into a new store.

Release files are listed and fetched through pip first (cached; timed apart), then each round
indexes the whole batch into a new store with the default local process pool and reports: total
time, files/s, distinct files against files seen (the content-addressed reuse), files linked
again, errors found, and store size per error. The load average is printed because the machine
may be shared; compare rounds of one run.

    python benchmarks/bench_bulk.py [--latest 3] [--rounds 2] [--workers N] [PACKAGE ...]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from errdex.errors import ErrdexError
from errdex.indexing.bulk import Outcome, Status, index_many
from errdex.indexing.versions import expand
from errdex.sources import open_source
from errdex.store import Store

POPULAR = [
    "requests",
    "urllib3",
    "idna",
    "click",
    "flask",
    "jinja2",
    "werkzeug",
    "httpx",
    "httpcore",
    "rich",
    "attrs",
    "packaging",
    "pydantic",
    "fastapi",
    "starlette",
    "sqlalchemy",
    "pytest",
    "tqdm",
    "aiohttp",
    "django",
]


def fetch_all(specs: list[str]) -> list[str]:
    """Fetch every release file (4 at a time); returns the specs that could not be fetched, with why."""

    def fetch(spec: str) -> str | None:
        try:
            with open_source(spec) as source:
                source.info  # noqa: B018
        except ErrdexError as exc:
            return f"{spec}: {exc}"
        return None

    with ThreadPoolExecutor(4) as pool:
        return [problem for problem in pool.map(fetch, specs) if problem]


def print_outcome(status: Status, outcome: Outcome | None) -> None:
    if outcome is None:
        return
    if outcome.result is not None:
        r = outcome.result
        print(
            f"  [{status.done:3}/{status.total}] {outcome.spec:<32} {r.seconds:6.2f}s  files {r.files:5}"
            f"  analysed {r.analysed:5}  linked {r.linked:5}  errors {r.release.error_count:5}"
        )
    else:
        print(f"  [{status.done:3}/{status.total}] {outcome.spec:<32} {outcome.status}: {outcome.error or ''}")


def one_round(specs: list[str], workers: int | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bulk.db"
        started = time.perf_counter()
        with Store(db) as store:
            status = index_many(specs, store, jobs=workers, report=print_outcome)
            seconds = time.perf_counter() - started
            stats = store.stats()
        size = sum(p.stat().st_size for p in Path(tmp).glob("bulk.db*"))
    results = [o.result for o in status.outcomes if o.result]
    seen = sum(r.files for r in results)
    analysed = sum(r.analysed for r in results)
    linked = sum(r.linked for r in results)
    print(f"  releases: {len(results)} indexed, {len(status.failures)} failed, of {len(specs)}")
    for outcome in status.failures:
        print(f"    failed {outcome.spec}: {outcome.error}")
    print(f"  total {seconds:.1f}s, {seen / seconds:.0f} files/s")
    print(
        f"  files seen {seen}, distinct {stats.files} ({stats.files / max(seen, 1):.1%}; analysed {analysed},"
        f" linked again {linked} = {linked / max(seen, 1):.1%} of files seen)"
    )
    print(
        f"  errors: {stats.errors} distinct, {sum(r.release.error_count for r in results)} over all releases,"
        f" {stats.sites} sites"
    )
    print(f"  store {size / 1e6:.1f} MB, {size / max(stats.errors, 1) / 1e3:.1f} kB per distinct error")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("packages", nargs="*", default=POPULAR)
    parser.add_argument("--latest", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    started = time.perf_counter()
    specs = expand(args.packages, None, args.latest)
    problems = fetch_all(specs)
    print(
        f"{len(args.packages)} packages, {len(specs)} releases listed and fetched"
        f" in {time.perf_counter() - started:.0f}s"
    )
    for problem in problems:
        print(f"  not fetched: {problem}")
    for number in range(1, args.rounds + 1):
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"round {number} (load average {load}, {os.cpu_count()} cores)")
        one_round(specs, args.workers)


if __name__ == "__main__":
    main()
