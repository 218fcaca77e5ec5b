"""A package's history: index the API and errors of consecutive releases, cold and incremental, and read the API.

In this one process: every release file is fetched first (through pip, cached; no timing includes a download).
Then COLD releases are each indexed into a store of their own (the cost of one release alone), and all RELEASES are
indexed into one store in version order (the incremental cost: files seen in an earlier release are not analysed
again). The figure is incremental / cold, per release and on average. The API's share of analysing a file is
timed on one core against the rest of the analysis of the same files, in the same run. Last, the API view of one
release (`errdex api PACKAGE SYMBOL`): in this process (the target is < 50 ms) and as a whole `errdex` process,
against `errdex --version` as its baseline. The load average is printed: compare ratios of one run.

    python benchmarks/bench_history.py [--package transformers] [--versions 4.46.0 ...] [--cold 2] [--symbol NAME]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the repository root, so that `benchmarks` imports by that name
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from packaging.version import Version

from errdex.extract import analyse_file
from errdex.extract.api import api_of
from errdex.indexing import index
from errdex.match.api_view import api_view
from errdex.sources import open_source
from errdex.store import Store

# transformers' consecutive releases from 4.46.0 (pre-releases excluded), as the package index lists them
TRANSFORMERS = (
    "4.46.0 4.46.1 4.46.2 4.46.3 4.47.0 4.47.1 4.48.0 4.48.1 4.48.2 4.48.3 "
    "4.49.0 4.50.0 4.50.1 4.50.2 4.50.3 4.51.0 4.51.1 4.51.2 4.51.3 4.52.0"
).split()


def fetch(spec: str) -> None:
    """Bring the release file into the cache so that no timing includes a download."""
    with open_source(spec) as source:
        source.info  # noqa: B018


def timed_index(spec: str, store: Store) -> float:
    started = time.perf_counter()
    index(spec, store)
    return time.perf_counter() - started


def api_share(spec: str) -> tuple[float, float]:
    """Seconds on one core to read the API of every file of a release, and to analyse them for errors."""
    with open_source(spec) as source:
        files = [(f.path, f.data) for f in source.files()]
    started = time.perf_counter()
    for path, data in files:
        api_of(path, data)
    api = time.perf_counter() - started
    started = time.perf_counter()
    for path, data in files:
        analyse_file(path, data)
    return api, time.perf_counter() - started


def view_times(db: Path, package: str, symbol: str, rounds: int = 20) -> list[float]:
    """Milliseconds of `api_view` for one symbol of the newest release, in this process (warm)."""
    out = []
    with Store(db) as store:
        api_view(store, package, None, symbol)
        for _ in range(rounds):
            started = time.perf_counter()
            api_view(store, package, None, symbol)
            out.append((time.perf_counter() - started) * 1000)
    return out


def process_seconds(args: list[str], rounds: int = 5) -> float:
    """The median wall time of a whole `errdex` process."""
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "errdex", *args], check=True, capture_output=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", default="transformers")
    parser.add_argument("--versions", nargs="*", default=TRANSFORMERS, help="consecutive releases, oldest first")
    parser.add_argument("--cold", type=int, default=2, help="releases (first, last, ...) also indexed alone")
    parser.add_argument("--symbol", default="TrainingArguments")
    args = parser.parse_args()
    versions = sorted(args.versions, key=Version)
    specs = [f"{args.package}=={v}" for v in versions]
    print(f"load average {os.getloadavg()[0]:.2f}; {len(specs)} releases of {args.package}")
    for spec in specs:
        fetch(spec)
    api, errors = api_share(specs[0])
    print(f"one core, {specs[0]}: API {api:.1f}s, error analysis {errors:.1f}s: the API adds {api / errors:.0%}")
    with tempfile.TemporaryDirectory() as tmp:
        cold: dict[str, float] = {}
        for spec in [specs[0], specs[-1], *specs[1:-1]][: args.cold]:
            with Store(Path(tmp) / f"cold-{spec}.db") as store:
                cold[spec] = timed_index(spec, store)
            print(f"cold        {spec}: {cold[spec]:6.1f}s")
        db = Path(tmp) / "history.db"
        incremental = []
        with Store(db) as store:
            for spec in specs:
                seconds = timed_index(spec, store)
                incremental.append(seconds)
                ratio = f"  ({seconds / cold[spec]:.2f} of its cold index)" if spec in cold else ""
                print(f"incremental {spec}: {seconds:6.1f}s{ratio}")
        mean_cold = statistics.mean(cold.values())
        later = incremental[1:]
        print(
            f"{len(specs)} releases in {sum(incremental):.0f}s; each after the first: "
            f"mean {statistics.mean(later):.1f}s = {statistics.mean(later) / mean_cold:.2f} of a cold index "
            f"({mean_cold:.1f}s)"
        )
        views = sorted(view_times(db, args.package, args.symbol))
        print(
            f"api view ({args.symbol}) in process: median {statistics.median(views):.1f} ms, "
            f"max {views[-1]:.1f} ms (target < 50 ms)"
        )
        whole = process_seconds(["api", args.package, args.symbol, "--db", str(db)])
        bare = process_seconds(["--version"])
        print(
            f"errdex api as a process: {whole * 1000:.0f} ms; "
            f"errdex --version: {bare * 1000:.0f} ms ({whole / bare:.1f}x)"
        )


if __name__ == "__main__":
    main()
