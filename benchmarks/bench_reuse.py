"""Reuse across releases: index a release cold, then the next ones into the same store.

Each round, in this one process: a cold index of BASE (transformers 5.16.0) into a new store,
then each of NEXT (5.16.1 and 5.17.0) indexed into a copy of that store, then indexed again
there (every file known). The ratio next / cold is the figure: the target is <= 0.1. Release files
are fetched (through pip, cached) before any timing. The load average is printed because the
machine may be shared: compare the ratios of one round, not times across runs.

    python benchmarks/bench_reuse.py [--base transformers==5.16.0] [--next transformers==5.16.1 ...] [--rounds 2]
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import tempfile
import time
from pathlib import Path

from errdex.index import IndexResult, index
from errdex.sources import open_source
from errdex.store import Store


def fetch(spec: str) -> None:
    """Bring the release file into the cache so that no timing includes a download."""
    with open_source(spec) as source:
        source.info  # noqa: B018


def changed_share(base: str, spec: str) -> str:
    """How much of `spec` is new to `base`, by files and bytes: what a file-level reuse must still analyse."""
    with open_source(base) as source:
        known = {f.sha256 for f in source.files()}
    with open_source(spec) as source:
        files = [(f.sha256 in known, len(f.data)) for f in source.files()]
    new = [size for seen, size in files if not seen]
    total = sum(size for _, size in files)
    return f"{len(new)} of {len(files)} files, {sum(new) / total:.0%} of the bytes, are new to {base}"


def read_and_hash(spec: str) -> float:
    """What any index of the release costs at least: reading its files and hashing them."""
    started = time.perf_counter()
    with open_source(spec) as source:
        hashes = {f.path: f.sha256 for f in source.files()}
    assert hashes
    return time.perf_counter() - started


def timed(spec: str, store: Store) -> tuple[float, IndexResult]:
    started = time.perf_counter()
    result = index(spec, store)
    return time.perf_counter() - started, result


def line(label: str, seconds: float, result: IndexResult, cold: float | None) -> str:
    ratio = f"  ratio {seconds / cold:.3f}" if cold else ""
    return (f"  {label:<48} {seconds:7.2f}s  files {result.files:5}  analysed {result.analysed:5}"
            f"  linked {result.linked:5}  sites {result.release.site_count:6}{ratio}")


def one_round(base: str, following: list[str]) -> list[float]:
    """Cold BASE, then each of `following` into its own copy of that store (so each comes right after BASE)."""
    with tempfile.TemporaryDirectory() as tmp:
        cold_db = Path(tmp) / "cold.db"
        with Store(cold_db) as store:
            cold, result = timed(base, store)
        print(line(f"cold {base}", cold, result, None))
        ratios = []
        for number, spec in enumerate(following):
            copy = Path(tmp) / f"next{number}.db"
            with sqlite3.connect(cold_db) as source, sqlite3.connect(copy) as target:
                source.backup(target)
            with Store(copy) as store:
                seconds, result = timed(spec, store)
                ratios.append(seconds / cold)
                print(line(f"{spec} after {base}", seconds, result, cold))
                seconds, result = timed(spec, store)
                print(line(f"{spec} again (all known)", seconds, result, cold))
                print(f"  {'  reading and hashing it alone':<48} {read_and_hash(spec):7.2f}s")
                print(f"    {changed_share(base, spec)}")
        return ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default="transformers==5.16.0")
    parser.add_argument("--next", dest="following", nargs="+", default=["transformers==5.16.1", "transformers==5.17.0"])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    for spec in [args.base, *args.following]:
        fetch(spec)
    for number in range(1, args.rounds + 1):
        print(f"round {number} (load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}, {os.cpu_count()} cores)")
        ratios = one_round(args.base, args.following)
        print(f"  ratios: {', '.join(f'{s}: {r:.3f}' for s, r in zip(args.following, ratios))}  (target <= 0.1)")


if __name__ == "__main__":
    main()
