"""The store on each backend: writing a real release, writing it again, and the reads pages and the matcher make.

For each --db, round by round in this one process: a cold index of SPEC into an empty index, the
same release indexed again (every file known, so the store's share of the time dominates), then
reads: the release's errors, the store part of 200 error pages (sites, source excerpt, related
errors), every template (what the matcher's tables are built from), a full-text search, and a
5 MB cache entry written and read. A --db is a SQLite file path (a new file each round) or a
postgresql:// URL (each round in a new schema of that database, dropped afterwards). To compare
SQLite before and after a change, run this file with each checkout's errdex on the path.

    python benchmarks/bench_store.py --db /tmp/b.db --db postgresql://user:pw@host/db
                                     [--spec transformers==5.16.0] [--rounds 2]
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from errdex.indexing import index
from errdex.sources import open_source
from errdex.store import Store

PAGES = 200


@contextmanager
def empty_index(db: str) -> Iterator[str]:
    """A new empty index at the place `db` names, removed afterwards."""
    if not db.startswith(("postgresql://", "postgres://")):
        with tempfile.TemporaryDirectory(dir=Path(db).parent) as tmp:
            yield str(Path(tmp) / Path(db).name)
        return
    import psycopg

    schema = f"bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(db, autocommit=True) as admin:
        admin.execute(f'CREATE SCHEMA "{schema}"')
        try:
            joiner = "&" if "?" in db else "?"
            yield f"{db}{joiner}options=-csearch_path%3D{schema}"
        finally:
            admin.execute(f'DROP SCHEMA "{schema}" CASCADE')


def timed(action: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    value = action()
    return time.perf_counter() - started, value


def one_round(db: str, spec: str) -> dict[str, float]:
    name = spec.partition("==")[0]
    out: dict[str, float] = {}
    with empty_index(db) as location, Store(location) as store:
        out["cold index"], _ = timed(lambda: index(spec, store))
        out["index again"], _ = timed(lambda: index(spec, store))
        out["errors of the release"], errors = timed(lambda: store.errors(name))
        sample = random.Random(1).sample([e.error_id for e in errors], min(PAGES, len(errors)))
        out[f"{len(sample)} error() reads"], _ = timed(lambda: [store.error(eid) for eid in sample])
        out["every template"], _ = timed(lambda: list(store.templates()))
        out["search 2 words"], _ = timed(lambda: store.search_templates(["cache", "implementation"]))
        blob = os.urandom(5_000_000)
        out["cache put+get 5 MB"], _ = timed(lambda: (store.cache_put("bench", blob), store.cache_get("bench")))
    return out


def label(db: str) -> str:
    return db.split("@")[-1] if "://" in db else f"sqlite {db}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--db", action="append", required=True, help="a SQLite file path or a postgresql:// URL (repeat)"
    )
    parser.add_argument("--spec", default="transformers==5.16.0")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with open_source(args.spec) as source:  # fetched (through pip, cached) before any timing
        source.info  # noqa: B018
    print(f"{args.spec}, {args.rounds} rounds, load average {os.getloadavg()[0]:.1f}")
    results: dict[str, list[dict[str, float]]] = {db: [] for db in args.db}
    for number in range(args.rounds):
        for db in args.db:  # interleaved, so that a busy machine slows every backend alike
            results[db].append(one_round(db, args.spec))
            print(f"  round {number + 1} {label(db)} done")
    for db, rounds in results.items():
        print(f"\n{label(db)} (best of {len(rounds)})")
        for key in rounds[0]:
            print(f"  {key:<24} {min(r[key] for r in rounds):8.3f}s")


if __name__ == "__main__":
    main()
