"""Explanation page build time on a real index: cold (nothing cached), after `prebuild`, and warm.

The web must answer a page in <= 50 ms p99, so the expensive part of a page (call graph over
the release, versions, ways in) is cached in the store; `prebuild` fills that cache for a whole
release ahead of the first request. Cold pages are built on a fresh copy of the index, so no
cache from an earlier round is reused; the first requests after a prebuild on another fresh copy.

    python benchmarks/bench_page.py --db INDEX.db [--sample 40] [--warm 2000] [--seed 1] [--no-prebuild]
    python benchmarks/bench_page.py --spec transformers==5.16.0   # indexes into a temporary file first
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from errdex.indexing import index
from errdex.pages import build_page, prebuild
from errdex.store import Store

FLAGSHIP = "44c51e6e70d45f6a"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(label: str, seconds: list[float]) -> None:
    ms = [s * 1000 for s in seconds]
    print(
        f"{label:<34} n={len(ms):<5} p50={percentile(ms, 0.5):8.2f} ms  p99={percentile(ms, 0.99):8.2f} ms"
        f"  max={max(ms):8.2f} ms  mean={statistics.mean(ms):8.2f} ms"
    )


def timed(store: Store, error_id: str, values: list[str] | None = None, site: tuple[str, int] | None = None) -> float:
    started = time.perf_counter()
    build_page(store, error_id, values=values, site=site)
    return time.perf_counter() - started


def sample_ids(store: Store, count: int, seed: int) -> list[str]:
    ids = [e.error_id for package in store.packages() for e in store.errors(package.name)]
    rng = random.Random(seed)
    chosen = rng.sample(ids, min(count, len(ids)))
    return [FLAGSHIP, *[i for i in chosen if i != FLAGSHIP]] if FLAGSHIP in ids else chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="an index to read (copied, never changed)")
    parser.add_argument("--spec", default="transformers==5.16.0", help="what to index when --db is not given")
    parser.add_argument("--sample", type=int, default=40, help="errors built cold")
    parser.add_argument("--warm", type=int, default=2000, help="warm builds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-prebuild", action="store_true", help="skip the prebuild round (it takes minutes on a large release)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        pristine = Path(tmp) / "pristine.db"
        if args.db:
            with Store(args.db) as source:
                source.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            shutil.copy(args.db, pristine)
        else:
            with Store(pristine) as store:
                index(args.spec, store)
        work = Path(tmp) / "work.db"
        shutil.copy(pristine, work)
        with Store(work) as store:
            ids = sample_ids(store, args.sample, args.seed)
            cold = [timed(store, eid) for eid in ids]
            report("cold (first build of an error)", cold)
            report("cold, flagship only", cold[:1])
            rng = random.Random(args.seed)
            warm = [timed(store, rng.choice(ids)) for _ in range(args.warm)]
            report("warm (static part cached)", warm)
            filled = [timed(store, FLAGSHIP, ["statc", "('static',)"]) for _ in range(args.warm // 4)]
            report("warm flagship with user values", filled)
        if not args.no_prebuild:
            after_prebuild(pristine, Path(tmp) / "prebuilt.db")


def after_prebuild(pristine: Path, work: Path) -> None:
    """Prebuild every release of a fresh copy (every place of each error too), then time every first request."""
    shutil.copy(pristine, work)
    with Store(work) as store:
        for package in store.packages():
            for release in store.releases(package.name):
                done = prebuild(store, release.package, release.version, every_place=True)
                print(
                    f"prebuild {done['package']} {done['version']}: callers of {done['functions']} functions in"
                    f" {done['callers_seconds']:.1f} s, {done['pages']} pages in {done['pages_seconds']:.1f} s"
                )
        sites = [
            indexed
            for package in store.packages()
            for release in store.releases(package.name)
            for indexed in store.release_sites(release)
        ]
        ids = list(dict.fromkeys(e.error_id for e in sites))
        report("first request after prebuild", [timed(store, eid) for eid in ids])
        report("first request of a place", [timed(store, e.error_id, site=(e.site.file, e.site.line)) for e in sites])
        report("flagship with values, prebuilt", [timed(store, FLAGSHIP, ["statc", "('static',)"]) for _ in range(200)])


if __name__ == "__main__":
    main()
