"""Cold index of transformers 5.16.0 against a plain single-process `ast.parse` of the same files.

Both run in this one process, one after the other, on the unpacked wheel, so the ratio is
meaningful on a shared, noisy machine. Target: ratio <= 0.5.

    python benchmarks/bench_index.py [--spec transformers==5.16.0] [--rounds 3]
"""

from __future__ import annotations

import argparse
import ast
import statistics
import tempfile
import time
import zipfile
from pathlib import Path

from errdex.index import index
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


def baseline(root: Path) -> float:
    """Plain ast.parse of every .py file, one process."""
    files = sorted(root.rglob("*.py"))
    started = time.perf_counter()
    for path in files:
        ast.parse(path.read_bytes())
    return time.perf_counter() - started


def cold_index(root: Path, name: str, version: str) -> tuple[float, int]:
    """A full index of the unpacked folder into a new database."""
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "bench.db") as store:
        started = time.perf_counter()
        result = index(str(root), store, name=name, version=version)
        return time.perf_counter() - started, result.release.site_count


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
        ratios = []
        for round_ in range(1, args.rounds + 1):
            parse_s = baseline(root)
            index_s, sites = cold_index(root, name, version)
            ratios.append(index_s / parse_s)
            print(f"round {round_}: ast.parse {parse_s:.2f}s, errdex cold index {index_s:.2f}s ({sites} sites), ratio {ratios[-1]:.2f}")
        print(f"median ratio (index / parse): {statistics.median(ratios):.2f}  (target <= 0.5)")


if __name__ == "__main__":
    main()
