"""Load test of `errdex serve` on loopback: /api/search and /errors/{id} under concurrent clients.

The real server (uvicorn, one process, started as `errdex serve`) runs over an index with
transformers 5.16.0; this process is the load generator (httpx, asyncio). Error pages are first
requested once each, so that each page is built from the code before the load starts (that cold
build is reported on its own line); then every client loops for the given time, alternating
search and error page requests, with a cap on the number of requests so the run is bounded.

    python benchmarks/bench_web.py [--db PATH] [--clients 32] [--seconds 30] [--errors 50]

Without --db the release is indexed once into ~/.cache/errdex-bench/ and that index is reused.
Targets on 2 cores: p99 <= 50 ms for error pages, <= 100 ms for search, zero errors.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from errdex.index import index
from errdex.store import Store

SPEC = "transformers==5.16.0"
FLAGSHIP = (
    "ValueError: Invalid `cache_implementation` (flash). Choose one of: ('static', 'offloaded_static', "
    "'sliding_window', 'hybrid', 'hybrid_chunked', 'offloaded_hybrid', 'offloaded_hybrid_chunked', 'dynamic', "
    "'offloaded', 'quantized', 'paged')"
)
MAX_REQUESTS = 500_000
TARGETS_MS = {"error page": 50.0, "search": 100.0}


@dataclass
class Samples:
    """Latencies (seconds) and failures of one kind of request."""

    times: list[float] = field(default_factory=list)
    errors: int = 0


def bench_db(path: str | None) -> Path:
    """The index to serve: the one given, or transformers indexed once into the bench cache."""
    if path:
        return Path(path)
    target = Path.home() / ".cache" / "errdex-bench" / "transformers-5.16.0.db"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        with Store(target) as store:
            index(SPEC, store)
    return target


def workload(db: Path, errors: int, seed: int) -> tuple[list[str], list[str]]:
    """Error page paths and search pastes drawn from the index's newest transformers release."""
    rng = random.Random(seed)
    with Store(db) as store:
        rows = [(eid, site) for eid, site in store.errors("transformers") if site.template and site.kind == "error"]
    chosen = rng.sample(rows, min(errors, len(rows)))
    pages = ["/errors/44c51e6e70d45f6a"] + [f"/errors/{eid}" for eid, _ in chosen]
    pastes = [FLAGSHIP] + [f"{site.exception or 'Exception'}: {site.template.replace('{}', 'foo')}" for _, site in chosen]
    return pages, pastes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "errdex", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db)]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"errdex serve exited: {proc.stderr.read().decode() if proc.stderr else ''}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api", timeout=5).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("errdex serve did not start within 120 s")


async def warm(client: httpx.AsyncClient, pages: list[str]) -> list[float]:
    """Request each error page once (two at a time), so the load phase measures serving, not building."""
    times: list[float] = []
    gate = asyncio.Semaphore(2)

    async def one(path: str) -> None:
        async with gate:
            started = time.perf_counter()
            response = await client.get(path, timeout=600)
            times.append(time.perf_counter() - started)
            response.raise_for_status()

    await asyncio.gather(*(one(p) for p in pages))
    return times


async def load(client: httpx.AsyncClient, pages: list[str], pastes: list[str], clients: int, seconds: float) -> dict[str, Samples]:
    """`clients` closed loops for `seconds`, alternating search and error page requests."""
    results = {"search": Samples(), "error page": Samples()}
    deadline = time.perf_counter() + seconds
    budget = [MAX_REQUESTS]

    async def client_loop(number: int) -> None:
        rng = random.Random(number)
        turn = number
        while time.perf_counter() < deadline and budget[0] > 0:
            budget[0] -= 1
            turn += 1
            kind = "search" if turn % 2 else "error page"
            request = (client.get("/api/search", params={"q": rng.choice(pastes)}) if kind == "search"
                       else client.get(rng.choice(pages)))
            started = time.perf_counter()
            try:
                response = await request
                ok = response.status_code == 200
            except httpx.HTTPError:
                ok = False
            results[kind].times.append(time.perf_counter() - started)
            results[kind].errors += not ok

    await asyncio.gather(*(client_loop(n) for n in range(clients)))
    return results


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=1000, method="inclusive")[int(q * 10) - 1] if len(values) > 1 else values[0]


def report(results: dict[str, Samples], seconds: float, cold: list[float]) -> bool:
    cold.sort()
    print(f"cold page builds: {len(cold)} pages, p50 {cold[len(cold) // 2] * 1000:.0f} ms, max {cold[-1] * 1000:.0f} ms")
    met = True
    total = sum(len(s.times) for s in results.values())
    print(f"{'':12} {'requests':>9} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'errors':>7}  target p99")
    for kind, s in results.items():
        p50, p99 = percentile(s.times, 50) * 1000, percentile(s.times, 99) * 1000
        ok = p99 <= TARGETS_MS[kind] and s.errors == 0
        met &= ok
        print(f"{kind:12} {len(s.times):9d} {len(s.times) / seconds:8.0f} {p50:8.1f} {p99:8.1f} {max(s.times) * 1000:8.1f} "
              f"{s.errors:7d}  <= {TARGETS_MS[kind]:.0f} ms {'met' if ok else 'MISSED'}")
    print(f"{'all':12} {total:9d} {total / seconds:8.0f}")
    return met


async def run(args: argparse.Namespace) -> bool:
    db = bench_db(args.db)
    pages, pastes = workload(db, args.errors, args.seed)
    port = free_port()
    server = start_server(db, port)
    limits = httpx.Limits(max_connections=args.clients, max_keepalive_connections=args.clients)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", limits=limits, timeout=30) as client:
            cold = await warm(client, pages)
            started = time.perf_counter()
            results = await load(client, pages, pastes, args.clients, args.seconds)
            elapsed = time.perf_counter() - started
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"errdex serve on 127.0.0.1, {os.cpu_count()} cores, {args.clients} clients for {elapsed:.1f} s, "
          f"{len(pages)} error pages, {len(pastes)} pastes")
    return report(results, elapsed, cold)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="Index to serve (default: transformers 5.16.0, indexed once into ~/.cache/errdex-bench).")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--errors", type=int, default=50, help="Distinct error pages (and search pastes) in the mix.")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sys.exit(0 if asyncio.run(run(args)) else 1)


if __name__ == "__main__":
    main()
