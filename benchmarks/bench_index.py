"""Cold index of transformers 5.16.0 against a plain single-process `ast.parse` of the same files.

Both run in this one process, interleaved round by round, on the unpacked wheel, so the ratio
is meaningful on a shared, noisy machine. Target: wall-clock ratio <= 0.5. CPU seconds (this
process and its workers) are printed too: on a machine busy with other work the wall-clock
ratio understates what two cores give, the CPU ratio does not depend on the load. Each timed
run ends with a full garbage collection, so that what a run leaves for the collector is paid
by that run (indexing pauses the collector while it works).

    python benchmarks/bench_index.py [--spec transformers==5.16.0] [--rounds 3]
"""

from __future__ import annotations

import argparse
import ast
import gc
import os
import resource
import statistics
import tempfile
import time
import zipfile
from pathlib import Path

from errdex.indexing import index
from errdex.sources import default_cache_dir
from errdex.store import Store


def unpack(spec: str, into: Path) -> Path:
    """Fetch the release through errdex's own source (pip, cached) and unpack its wheel."""
    name, _, version = spec.partition("==")
    cache = default_cache_dir()
    wheels = sorted(cache.rglob(f"{name}-{version}-*.whl"))
    if not wheels:
        with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "warm.db") as store:
            index(spec, store)
        wheels = sorted(cache.rglob(f"{name}-{version}-*.whl"))
    with zipfile.ZipFile(wheels[0]) as zf:
        zf.extractall(into)
    return into


def cpu_seconds() -> float:
    """CPU time of this process and of its finished child processes."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def baseline(root: Path) -> tuple[float, float]:
    """Plain ast.parse of every .py file, one process: (wall, cpu) seconds."""
    files = sorted(root.rglob("*.py"))
    started, cpu = time.perf_counter(), cpu_seconds()
    for path in files:
        ast.parse(path.read_bytes())
    gc.collect()
    return time.perf_counter() - started, cpu_seconds() - cpu


def cold_index(root: Path, name: str, version: str) -> tuple[float, float, int]:
    """A full index of the unpacked folder into a new database: (wall, cpu, sites)."""
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "bench.db") as store:
        started, cpu = time.perf_counter(), cpu_seconds()
        result = index(str(root), store, name=name, version=version)
        gc.collect()
        return time.perf_counter() - started, cpu_seconds() - cpu, result.release.site_count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spec", default="transformers==5.16.0")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    name, _, version = args.spec.partition("==")
    with tempfile.TemporaryDirectory() as tmp:
        root = unpack(args.spec, Path(tmp) / "src")
        files = list(root.rglob("*.py"))
        size = sum(p.stat().st_size for p in files)
        print(f"{args.spec}: {len(files)} files, {size / 1e6:.1f} MB")
        print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        wall_ratios, cpu_ratios = [], []
        for round_ in range(1, args.rounds + 1):
            parse_wall, parse_cpu = baseline(root)
            index_wall, index_cpu, sites = cold_index(root, name, version)
            wall_ratios.append(index_wall / parse_wall)
            cpu_ratios.append(index_cpu / parse_cpu)
            print(
                f"round {round_}: ast.parse {parse_wall:.2f}s wall / {parse_cpu:.2f}s cpu;"
                f" errdex cold index {index_wall:.2f}s wall / {index_cpu:.2f}s cpu ({sites} sites);"
                f" ratio {wall_ratios[-1]:.2f} wall, {cpu_ratios[-1]:.2f} cpu"
            )
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(
            f"median ratio (index / parse): {statistics.median(wall_ratios):.2f} wall (target <= 0.5),"
            f" {statistics.median(cpu_ratios):.2f} cpu"
        )


if __name__ == "__main__":
    main()
