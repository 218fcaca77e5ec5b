"""Reuse across releases: index a release cold, then the next ones into the same store.

Each round, in this one process: a cold index of BASE (transformers 5.16.0) into a new store,
then each of NEXT (5.16.1 and 5.17.0) indexed into a copy of that store, then indexed again
there (every file known). The ratio next / cold is the figure: the target is <= 0.1. Release files
are fetched (through pip, cached) before any timing. The load average is printed because the
machine may be shared: compare the ratios of one round, not times across runs.

Then, once per NEXT, what reuse finer than whole files could at best leave: the new files are split
into their statements (functions, class members, top-level statements) as the fast path splits them,
and only the statements it must parse and visit that the same path in BASE does not hold are parsed
and visited. Timed on one core against analysing every file of BASE on one core, in the same run.

    python benchmarks/bench_reuse.py [--base transformers==5.16.0] [--next transformers==5.16.1 ...] [--rounds 2]
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import tempfile
import time
from pathlib import Path

from errdex.extract import analyse_file
from errdex.extract.chunks import defined_names
from errdex.extract.file import _parse_chunk, chunks_to_visit, decode
from errdex.extract.scope import ModuleScope
from errdex.extract.visitor import SiteVisitor
from errdex.indexing import IndexResult, index
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
    return (
        f"  {label:<48} {seconds:7.2f}s  files {result.files:5}  analysed {result.analysed:5}"
        f"  linked {result.linked:5}  sites {result.release.site_count:6}{ratio}"
    )


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


def _statements(path: str, data: bytes) -> tuple[ModuleScope, list]:
    """A file split as the fast path splits it: its module scope filled, and the statements it visits."""
    text, _ = decode(data)
    module = ModuleScope(path)
    return module, chunks_to_visit(text or "", module)


def statement_bound(base: str, spec: str) -> str:
    """The least analysis any reuse of unchanged statements leaves for `spec` after `base`, on one core.

    Splitting the new files must be done whatever is reused; then only the visited statements that
    the file at the same path in `base` does not hold (same text, same enclosing classes) are parsed
    and visited. Compared with analysing every file of `base` on one core.
    """
    with open_source(base) as source:
        old = {f.path: f for f in source.files()}
    known = {f.sha256 for f in old.values()}
    with open_source(spec) as source:
        new = [f for f in source.files() if f.sha256 not in known]
    started = time.process_time()
    for f in old.values():
        analyse_file(f.path, f.data)
    cold = time.process_time() - started
    held = {}
    for f in new:
        if f.path in old:
            held[f.path] = {(c.text, tuple(s)) for c, s in _statements(f.path, old[f.path].data)[1]}
    visited = changed = 0
    split = visit = 0.0
    for f in new:
        started = time.process_time()
        module, todo = _statements(f.path, f.data)
        split_done = time.process_time()
        visitor = SiteVisitor(module, defined_names("\n".join(chunk.text for chunk, _ in todo)))
        for chunk, scopes in todo:
            visited += len(chunk.text)
            if (chunk.text, tuple(scopes)) not in held.get(f.path, ()):
                changed += len(chunk.text)
                for stmt in _parse_chunk(chunk):
                    visitor.visit_in_scopes(stmt, scopes)
        split += split_done - started
        visit += time.process_time() - split_done
    return (
        f"statement-level reuse at best: {changed / max(visited, 1):.0%} of the visited statements' bytes are new;"
        f" splitting the new files {split:.2f}s + visiting what is new {visit:.2f}s of one core ="
        f" {(split + visit) / cold:.3f} of analysing all of {base} ({cold:.2f}s)"
    )


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
        print(
            f"  ratios: {', '.join(f'{s}: {r:.3f}' for s, r in zip(args.following, ratios, strict=True))}"
            "  (target <= 0.1)"
        )
    for spec in args.following:
        print(f"{spec}: {statement_bound(args.base, spec)}")


if __name__ == "__main__":
    main()
