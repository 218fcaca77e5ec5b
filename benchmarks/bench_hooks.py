"""How long the errdex panel takes to appear after the traceback, against the plain traceback print.

A real program raises `packaging.version.InvalidVersion` uncaught with `errdex.install()`. The
hook chain is timed inside that process: entry into the hook, the end of Python's own traceback
print (the baseline, measured in the same run), the end of the errdex panel. The first run
indexes packaging from disk (reported apart); the rounds after it are fresh processes that reuse
the index, as a program run again would. A second error in one process (IPython, a server) is
timed too, and a fresh process whose errdex modules are already imported (the difference to a
plain fresh process is the cost of importing the matcher, the page model and rich). Target: the
panel within 300 ms of the traceback, after the first index.

    python benchmarks/bench_hooks.py [--rounds 10] [--from-db INDEX.db]

`--from-db` starts from a copy of an existing index (e.g. one with transformers 5.16.0 in it), so
the matcher's tables are as large as a real user's.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

TARGET_MS = 300.0

PROGRAM = textwrap.dedent(
    """
    import json, os, sys, time
    marks = {}

    def plain(t, v, tb):
        sys.__excepthook__(t, v, tb)
        marks.setdefault("traceback", []).append(time.perf_counter())

    sys.excepthook = plain
    import errdex.hooks
    errdex.hooks.install()
    inner = sys.excepthook

    def timed(t, v, tb):
        marks.setdefault("start", []).append(time.perf_counter())
        inner(t, v, tb)
        marks.setdefault("end", []).append(time.perf_counter())
        with open(os.environ["BENCH_OUT"], "w") as f:
            json.dump(marks, f)

    sys.excepthook = timed
    from packaging.version import Version
    if os.environ.get("BENCH_PRELOAD"):
        import errdex.pages, errdex.hooks.explainer, errdex.hooks.panel
    if os.environ.get("BENCH_TWICE"):
        try:
            Version("0.x")
        except Exception:
            sys.excepthook(*sys.exc_info())
    Version("1.0.x")
    """
)


def run_once(program: Path, db: Path, out: Path, twice: bool = False, preload: bool = False) -> dict[str, list[float]]:
    env = {k: v for k, v in os.environ.items() if k not in ("BENCH_TWICE", "BENCH_PRELOAD", "PYTHONDONTWRITEBYTECODE")}
    env.update({"ERRDEX_DB": str(db), "BENCH_OUT": str(out), "COLUMNS": "100"})  # bytecode is cached, as when installed
    if twice:
        env["BENCH_TWICE"] = "1"
    if preload:
        env["BENCH_PRELOAD"] = "1"
    done = subprocess.run([sys.executable, str(program)], env=env, capture_output=True, text=True, timeout=600)
    if "╭─ errdex" not in done.stderr:
        raise SystemExit(f"no errdex panel was printed:\n{done.stderr}")
    return json.loads(out.read_text())


def latencies(marks: dict[str, list[float]], i: int) -> tuple[float, float]:
    """(plain traceback print, panel after the traceback) in milliseconds for the i-th error."""
    return (marks["traceback"][i] - marks["start"][i]) * 1000, (marks["end"][i] - marks["traceback"][i]) * 1000


def summary(name: str, values: list[float]) -> str:
    return f"{name:<44} median {statistics.median(values):8.1f} ms   max {max(values):8.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--from-db", type=Path, help="start from a copy of this index")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        program, db, out = folder / "prog.py", folder / "errdex.db", folder / "marks.json"
        program.write_text(PROGRAM)
        if args.from_db:
            shutil.copy(args.from_db, db)
        first = latencies(run_once(program, db, out), 0)
        print(
            f"first error (indexes packaging from disk): traceback {first[0]:.1f} ms, panel after it {first[1]:.0f} ms"
        )
        base, panel, preloaded, warm = [], [], [], []
        for _ in range(args.rounds):
            b, p = latencies(run_once(program, db, out), 0)
            base.append(b)
            panel.append(p)
            preloaded.append(latencies(run_once(program, db, out, preload=True), 0)[1])
            warm.append(latencies(run_once(program, db, out, twice=True), 1)[1])
    print(summary("plain traceback print (baseline)", base))
    print(summary("panel after the traceback, fresh process", panel))
    print(summary("  the same with errdex's modules imported", preloaded))
    print(summary("panel after the traceback, 2nd error in process", warm))
    verdict = "meets" if max(panel) <= TARGET_MS else "MISSES"
    print(f"{verdict} the target: panel within {TARGET_MS:.0f} ms of the traceback (worst of {args.rounds} fresh runs)")


if __name__ == "__main__":
    main()
