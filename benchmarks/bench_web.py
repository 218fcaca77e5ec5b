"""Load test of `errdex serve` on loopback: /api/search and /errors/{id} under concurrent clients.

The real server (uvicorn, one process, started as `errdex serve`) runs over an index with
transformers 5.16.0. Error pages are first requested once each, so that each page is built from
the code before the load starts (that cold build is reported on its own line). Then two `wrk`
load generators (Debian's wrk: `apt-get install wrk`; a C program, so the load generator does not
eat the CPU the server needs) run at the same time for the given seconds, half of the connections
cycling through error pages, half through searches, each stopping early after a cap of requests.

    python benchmarks/bench_web.py [--db PATH] [--clients 32] [--seconds 30] [--errors 50]

Without --db the release is indexed once into ~/.cache/errdex-bench/ and that index is reused.
The server's CPU time per request is printed too: unlike latency it does not depend on what
else the machine is doing. Targets on 2 cores: p99 <= 50 ms for error pages, <= 100 ms for
search, zero errors.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote_plus

import httpx

from errdex.indexing import index
from errdex.store import Store

SPEC = "transformers==5.16.0"
FLAGSHIP_ID = "44c51e6e70d45f6a"
FLAGSHIP = (
    "ValueError: Invalid `cache_implementation` (flash). Choose one of: ('static', 'offloaded_static', "
    "'sliding_window', 'hybrid', 'hybrid_chunked', 'offloaded_hybrid', 'offloaded_hybrid_chunked', 'dynamic', "
    "'offloaded', 'quantized', 'paged')"
)
MAX_REQUESTS = 1_000_000  # per load generator
TARGETS_MS = {"error page": 50.0, "search": 100.0}

# Cycles through the paths; stops after MAX requests; prints one JSON line of results at the end.
WRK_SCRIPT = """
local paths = {%(paths)s}
local i = 0
local count = 0
request = function()
  i = i %% #paths + 1
  return wrk.format("GET", paths[i])
end
response = function(status, headers, body)
  count = count + 1
  if count >= %(cap)d then wrk.thread:stop() end
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests": %%d, "seconds": %%f, "non_2xx": %%d, "socket_errors": %%d, '
    .. '"p50_us": %%d, "p99_us": %%d, "max_us": %%d}\\n',
    summary.requests, summary.duration / 1e6, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max))
end
"""


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
    """Error page paths and search paths, drawn from the index's newest transformers release."""
    rng = random.Random(seed)
    with Store(db) as store:
        rows = [e.error_id for e in store.errors("transformers") if e.site.template and e.site.kind == "error"]
    chosen = rng.sample(rows, min(errors, len(rows)))
    pages = [f"/errors/{FLAGSHIP_ID}"] + [f"/errors/{eid}" for eid in chosen]
    pastes = [FLAGSHIP] + [
        f"{site.exception or 'Exception'}: {site.template.replace('{}', 'foo')}" for _, site in chosen
    ]
    return pages, ["/api/search?q=" + quote_plus(p) for p in pastes]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path, port: int, workers: int) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        "-m",
        "errdex",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        str(db),
        "--workers",
        str(workers),
    ]
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


def warm(base: str, paths: list[str]) -> list[float]:
    """Request each path once, in turn: error pages are built from the code the first time."""
    times = []
    with httpx.Client(base_url=base, timeout=600) as client:
        for path in paths:
            started = time.perf_counter()
            client.get(path).raise_for_status()
            times.append(time.perf_counter() - started)
    return times


def start_wrk(
    base: str, paths: list[str], connections: int, seconds: float, folder: Path, name: str
) -> subprocess.Popen[str]:
    script = folder / f"{name}.lua"
    script.write_text(WRK_SCRIPT % {"paths": ", ".join(json.dumps(p) for p in paths), "cap": MAX_REQUESTS})
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds:.0f}s", "--timeout", "10s", "-s", str(script), base]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wrk_result(proc: subprocess.Popen[str]) -> dict[str, float]:
    out, err = proc.communicate(timeout=600)
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise SystemExit(f"wrk failed: {err or out}")
    return json.loads(lines[-1])


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process and its child processes (the workers) have used so far (Linux /proc)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the process ended meanwhile
        if stat.parent.name == str(pid) or fields[1] == str(pid):
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def report(results: dict[str, dict[str, float]], cold: list[float], server_cpu: float) -> bool:
    cold = sorted(cold)
    print(
        f"cold page builds: {len(cold)} pages, p50 {cold[len(cold) // 2] * 1000:.0f} ms, max {cold[-1] * 1000:.0f} ms"
    )
    print(f"{'':12} {'requests':>9} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'errors':>7}  target p99")
    met = True
    for kind, r in results.items():
        errors = int(r["non_2xx"] + r["socket_errors"])
        p99 = r["p99_us"] / 1000
        ok = p99 <= TARGETS_MS[kind] and errors == 0
        met &= ok
        print(
            f"{kind:12} {int(r['requests']):9d} {r['requests'] / r['seconds']:8.0f} {r['p50_us'] / 1000:8.1f}"
            f" {p99:8.1f} {r['max_us'] / 1000:8.1f} {errors:7d}"
            f"  <= {TARGETS_MS[kind]:.0f} ms {'met' if ok else 'MISSED'}"
        )
    total = sum(r["requests"] for r in results.values())
    seconds = max(r["seconds"] for r in results.values())
    print(f"{'all':12} {int(total):9d} {total / seconds:8.0f}")
    print(
        f"server CPU per request: {server_cpu / total * 1000:.2f} ms"
        f" (about {total / server_cpu:.0f} req/s per busy core)"
    )
    return met


def run(args: argparse.Namespace) -> bool:
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: apt-get install wrk")
    db = bench_db(args.db)
    pages, searches = workload(db, args.errors, args.seed)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(db, port, args.workers)
    try:
        cold = warm(base, pages)
        for _ in range(args.workers):  # each worker process keeps its own page cache; reach them all
            warm(base, pages + searches)
        server_cpu = cpu_seconds(server.pid)
        with tempfile.TemporaryDirectory() as tmp:
            half = max(1, args.clients // 2)
            procs = {
                "error page": start_wrk(base, pages, half, args.seconds, Path(tmp), "pages"),
                "search": start_wrk(base, searches, args.clients - half, args.seconds, Path(tmp), "search"),
            }
            results = {kind: wrk_result(proc) for kind, proc in procs.items()}
        server_cpu = cpu_seconds(server.pid) - server_cpu
    finally:
        server.terminate()
        server.wait(timeout=30)
    load_avg = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"errdex serve on 127.0.0.1, {os.cpu_count()} cores (load average now {load_avg}), {args.clients} connections "
        f"for {args.seconds:.0f} s, {len(pages)} error pages, {len(searches)} pastes"
    )
    return report(results, cold, server_cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--db", help="Index to serve (default: transformers 5.16.0, indexed once into ~/.cache/errdex-bench)."
    )
    parser.add_argument(
        "--clients", type=int, default=32, help="Open connections, half for error pages, half for search."
    )
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--errors", type=int, default=50, help="Distinct error pages (and search pastes) in the mix.")
    parser.add_argument("--workers", type=int, default=1, help="Server processes (errdex serve --workers).")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sys.exit(0 if run(args) else 1)


if __name__ == "__main__":
    main()
