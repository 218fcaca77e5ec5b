"""The first answer about each package from a warm server, against the same queries asked again (the baseline).

A copy of the index is served by a real `errdex serve`; once it answers, each indexed package is
asked its first query, a real message of that package (a template of the index with its holes
filled, the exception's name before it), and then every query is asked again, `--repeats` times:
the steady state. Each round starts a new server and asks each package a new message. Three ways
of measuring, each against its baseline in the same run:

- http: the round trip of GET /api/search on loopback (httpx), as a client sees it;
- server: the time of `views.search` (what /api/search runs) in a fresh process per round, after
  `Context.warm()` as the server's startup runs it; and the same after only the warm-up the server
  did before (one message matched: the core tables loaded, no package's shards): before and after;
- library: `errdex.explain(text)` twice in one fresh process without a store (the store kept for
  the process), against opening and closing the default store around each call, as it was before.

Memory: the resident size (VmRSS) of the fresh process before and after `Context.warm()`, and
after the first queries when it was not warmed. Target: first answer per package <= 2 ms p99 (server).

    python benchmarks/bench_first_answer.py --db INDEX.db [--rounds 5] [--repeats 20] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict
from urllib.parse import quote_plus

import httpx

from errdex.store import Store

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # this file runs as a script: the repository root, for benchmarks.bench_web
from benchmarks.bench_web import free_port, start_server  # noqa: E402

TARGET_MS = 2.0
VALUE = "spam42"  # what fills each hole of a template
WORD = re.compile(r"[A-Za-z]{3,}")
Queries = dict[str, list[str]]  # package -> one message a round


class ServerTimes(TypedDict):
    """What a fresh process measured of views.search (ms), and its resident size (KB) at three moments."""

    first: list[float]
    again: list[float]
    warm_ms: float
    rss: list[int]  # before the warm-up, after it, after the first answers


class LibraryTimes(TypedDict):
    calls: list[float]  # ms, the first call and the second


def draw(db: Path, rounds: int, seed: int) -> Queries:
    """`rounds` messages of each package: templates of errors with a known exception and words around a hole."""
    rng = random.Random(seed)
    queries: Queries = {}
    with Store(db) as store:
        for row in store.packages():
            sites = sorted(
                {
                    (e.site.exception.rsplit(".", 1)[-1], e.site.template)
                    for e in store.errors(row.name)
                    if e.site.exception and e.site.template and _usable(e.site.exception, e.site.template)
                }
            )
            chosen = rng.sample(sites, min(rounds, len(sites)))
            queries[row.package] = [f"{name}: {template.replace('{}', VALUE)}" for name, template in chosen]
    return {package: texts for package, texts in queries.items() if len(texts) == rounds}


def _usable(exception: str, template: str) -> bool:
    """A class name (not a variable holding one) and a template with a hole and at least three words."""
    return exception.rsplit(".", 1)[-1][:1].isupper() and "{}" in template and len(WORD.findall(template)) >= 3


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def line(label: str, ms: list[float], baseline: list[float] | None = None) -> str:
    ratio = f"  p99 ratio to the baseline {percentile(ms, 0.99) / percentile(baseline, 0.99):5.2f}" if baseline else ""
    return f"{label:<52} n={len(ms):<5} p50={percentile(ms, 0.5):7.2f} ms  p99={percentile(ms, 0.99):7.2f} ms{ratio}"


# -- in a fresh process --------------------------------------------------------------------------


def rss_kb() -> int:
    for row in Path("/proc/self/status").read_text().splitlines():
        if row.startswith("VmRSS:"):
            return int(row.split()[1])
    return 0


def child_server(db: str, texts: list[str], repeats: int, warmed: bool) -> ServerTimes:
    """Time views.search on a new Context: each text once (first answers), then again `repeats` times."""
    from errdex.match import explain
    from errdex.web import views
    from errdex.web.context import Context

    context = Context(db)
    store = context.store()
    before = rss_kb()
    started = time.perf_counter()
    if warmed:
        context.warm()
    else:  # what Context.warm did before: one message matched
        explain("ValueError: errdex warm-up", store=store)
    warm_ms = (time.perf_counter() - started) * 1000
    after_warm = rss_kb()
    first: list[float] = []
    again: list[float] = []
    for text in texts:
        started = time.perf_counter()
        views.search(store, text)
        first.append((time.perf_counter() - started) * 1000)
    after_first = rss_kb()
    for _ in range(repeats):
        for text in texts:
            started = time.perf_counter()
            views.search(store, text)
            again.append((time.perf_counter() - started) * 1000)
    context.close()
    return {"first": first, "again": again, "warm_ms": warm_ms, "rss": [before, after_warm, after_first]}


def child_library(text: str, shared: bool) -> LibraryTimes:
    """`errdex.explain(text)` twice without a store; or, as before, with the default store opened around each call."""
    import errdex

    times = []
    for _ in range(2):
        started = time.perf_counter()
        if shared:
            errdex.explain(text)
        else:
            with errdex.Store() as store:
                errdex.explain(text, store=store)
        times.append((time.perf_counter() - started) * 1000)
    return {"calls": times}


def in_fresh_process(mode: str, db: Path, texts: list[str], repeats: int = 0) -> str:
    """What `--child mode` printed (JSON), run in a new interpreter with the index as its default."""
    done = subprocess.run(
        [sys.executable, __file__, "--child", mode, "--db", str(db), "--repeats", str(repeats)],
        input=json.dumps(texts),
        env={**os.environ, "ERRDEX_DB": str(db)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    if done.returncode != 0:
        raise SystemExit(f"the {mode} process failed:\n{done.stderr}")
    return done.stdout


def server_times(mode: str, db: Path, texts: list[str], repeats: int) -> ServerTimes:
    out: ServerTimes = json.loads(in_fresh_process(mode, db, texts, repeats))
    return out


def library_times(mode: str, db: Path, text: str) -> LibraryTimes:
    out: LibraryTimes = json.loads(in_fresh_process(mode, db, [text]))
    return out


# -- over HTTP ---------------------------------------------------------------------------------------


def http_round(db: Path, texts: list[str], repeats: int) -> tuple[list[float], list[float], int]:
    """First answers and repeats of a new `errdex serve`, as round trips; the server's resident size after them."""
    port = free_port()
    server = start_server(db, port, 1)
    first: list[float] = []
    again: list[float] = []
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
            for passes, out in ((1, first), (repeats, again)):
                for _ in range(passes):
                    for text in texts:
                        started = time.perf_counter()
                        client.get(f"/api/search?q={quote_plus(text)}").raise_for_status()
                        out.append((time.perf_counter() - started) * 1000)
        status = Path(f"/proc/{server.pid}/status").read_text()
        rss = int(next(r for r in status.splitlines() if r.startswith("VmRSS:")).split()[1])
    finally:
        server.terminate()
        server.wait(timeout=30)
    return first, again, rss


@dataclass
class Results:
    """Every timing of a run (ms) by what was measured, and the memory and warm-up figures."""

    times: dict[str, list[float]] = field(default_factory=dict)
    rss: dict[str, list[list[int]]] = field(default_factory=lambda: {"server-warmed": [], "server-unwarmed": []})
    warm_ms: list[float] = field(default_factory=list)
    server_rss: list[int] = field(default_factory=list)
    slowest: list[tuple[float, float, str]] = field(default_factory=list)  # warmed: first, its repeats' p50, package

    def add(self, label: str, ms: list[float]) -> None:
        self.times.setdefault(label, []).extend(ms)


def run(args: argparse.Namespace) -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "index.db"
        shutil.copyfile(args.db, db)  # never the index itself: serving and matching write caches into it
        queries = draw(db, args.rounds, args.seed)
        server_times("server-warmed", db, [], 0)  # the tables built and stored once, as in an index served before
        print(
            f"{len(queries)} packages of {args.db}, {args.rounds} rounds ({len(queries) * args.rounds} first"
            f" answers), {args.repeats} repeats; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}"
        )
        results = Results()
        for r in range(args.rounds):
            order = random.Random(args.seed + r).sample(sorted(queries), len(queries))
            texts = [queries[p][r] for p in order]
            first, again, rss = http_round(db, texts, args.repeats)
            results.add("http first", first)
            results.add("http again", again)
            results.server_rss.append(rss)
            for mode, kept in results.rss.items():
                out = server_times(mode, db, texts, args.repeats)
                results.add(f"{mode} first", out["first"])
                results.add(f"{mode} again", out["again"])
                kept.append(out["rss"])
                if mode == "server-warmed":
                    results.warm_ms.append(out["warm_ms"])
                    results.slowest += [
                        (ms, percentile(out["again"][k :: len(texts)], 0.5), package)
                        for k, (ms, package) in enumerate(zip(out["first"], order, strict=True))
                    ]
            for library in ("library-shared", "library-per-call"):
                calls = library_times(library, db, texts[0])["calls"]
                results.add(f"{library} first call", calls[:1])
                results.add(f"{library} second call", calls[1:])
        return report(results)


def report(results: Results) -> bool:
    times = results.times
    print("over HTTP (loopback round trips, httpx):")
    print(line("  first answer per package", times["http first"], times["http again"]))
    print(line("  the same queries again (baseline)", times["http again"]))
    print("server-side (views.search in a fresh process):")
    for mode, label in (("server-warmed", "after Context.warm()"), ("server-unwarmed", "after the old warm-up only")):
        print(line(f"  first answer per package, {label}", times[f"{mode} first"], times[f"{mode} again"]))
        print(line("    the same queries again (baseline)", times[f"{mode} again"]))
    slowest = ", ".join(f"{p} {ms:.2f} ms ({again:.2f} again)" for ms, again, p in sorted(results.slowest)[-3:])
    print(f"  slowest first answers after Context.warm(): {slowest}")
    print("library: errdex.explain(text) without a store, in a fresh process:")
    for label, mode in (("the store kept for the process", "library-shared"), ("opened per call", "library-per-call")):
        print(line(f"  first call, {label}", times[f"{mode} first call"]))
        print(line(f"  second call, {label}", times[f"{mode} second call"]))
    shared, per_call = times["library-shared second call"], times["library-per-call second call"]
    print(f"  second call, p50 kept / opened per call: {percentile(shared, 0.5) / percentile(per_call, 0.5):.2f}")
    warmed, cold = results.rss["server-warmed"], results.rss["server-unwarmed"]

    def mb(rows: list[list[int]], k: int) -> float:
        return percentile([row[k] for row in rows], 0.5) / 1024

    print(
        f"memory (VmRSS, p50 of rounds): {mb(warmed, 0):.1f} MB before Context.warm(), {mb(warmed, 1):.1f} MB after"
        f" (warm-up {percentile(results.warm_ms, 0.5):.0f} ms); not warmed, {mb(cold, 2):.1f} MB after the first"
        f" answers; errdex serve after a round {percentile(results.server_rss, 0.5) / 1024:.1f} MB"
    )
    p99 = percentile(times["server-warmed first"], 0.99)
    met = p99 <= TARGET_MS
    print(
        f"target: first answer per package <= {TARGET_MS:.0f} ms p99 server-side:"
        f" {p99:.2f} ms, {'met' if met else 'MISSED'}"
    )
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="Index to copy and serve (it is never opened in place).")
    parser.add_argument(
        "--rounds", type=int, default=5, help="New servers (and fresh processes), one query a package each."
    )
    parser.add_argument("--repeats", type=int, default=20, help="Times each query is asked again (the baseline).")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", help=argparse.SUPPRESS)  # a fresh process: its texts (JSON) on stdin
    args = parser.parse_args()
    if args.child:
        texts = json.loads(sys.stdin.read())
        if args.child.startswith("server"):
            print(json.dumps(child_server(args.db, texts, args.repeats, args.child == "server-warmed")))
        else:
            print(json.dumps(child_library(texts[0], args.child == "library-shared")))
        return
    sys.exit(0 if run(args) else 1)


if __name__ == "__main__":
    main()
