"""`errdex verify --sample N` on the newest releases of six packages, as users run it (one `errdex` process each).

For each package: the newest release is indexed into this benchmark's own store (fetched through pip, cached), then
`errdex verify --sample N NAME --json` runs as a whole process. Reported per package: errors sampled, errors whose
page gives a trigger, triggers run, verified, disproved, cannot run, timed out or stopped, fixes verified, and time
per error; and the issue's target: of the errors whose check tests a value a public call passes (a way in imported
from the package), how many triggers were verified. Then every page with a disproved trigger is built again and
must not present it as a call that raises (its trigger's text begins with the verdict).

The baseline, in the same run: every verified trigger run again with the environment's interpreter as a plain
`python -c` (no sandbox, no limits): the ratio sandboxed / plain is the sandbox's cost.

    python benchmarks/bench_verify.py [--sample 100] [--seed 0] [--packages requests click ...] [--db PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from errdex.pages import build_page
from errdex.store import Store
from errdex.verify.envs import environment

PACKAGES = ("requests", "click", "jinja2", "packaging", "pydantic", "transformers")
DEFAULT_DB = Path.home() / ".cache" / "errdex-bench" / "verify.db"


def errdex(*args: str, db: Path) -> subprocess.CompletedProcess[str]:
    """One whole `errdex` process, as a user runs it."""
    command = [sys.executable, "-m", "errdex", *args, "--db", str(db)]
    return subprocess.run(command, capture_output=True, text=True, check=True)


def newest_indexed(name: str, db: Path) -> str:
    """Index the newest release of `name` (nothing when it is current) and give its version."""
    errdex("index", name, db=db)
    with Store(db) as store:
        return store.release(name).version


def plain_seconds(name: str, version: str, codes: list[str]) -> float:
    """The baseline: the same snippets run with no sandbox, one `python -c` each."""
    env = environment(name, version)
    started = time.perf_counter()
    for code in codes:
        subprocess.run([str(env.interpreter), "-c", code], capture_output=True, check=False, timeout=300)
    return time.perf_counter() - started


def certain_disproved(db: Path, version: str, ids: list[str]) -> int:
    """Pages that show a disproved trigger without saying so first."""
    wrong = 0
    with Store(db) as store:
        for error_id in ids:
            page = build_page(store, error_id, version)
            if page["triggers"] and not page["triggers"][0]["text"].startswith("Disproved by running it"):
                wrong += 1
    return wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sample", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--packages", nargs="+", default=list(PACKAGES))
    parser.add_argument("--db", type=Path, default=DEFAULT_DB)
    parser.add_argument("--out", type=Path, help="Write each package's `errdex verify --json` report here (a folder).")
    args = parser.parse_args()
    args.db.parent.mkdir(parents=True, exist_ok=True)
    print(f"load average {os.getloadavg()[0]:.2f}; store {args.db}")
    header = "package version errors trigger run verified disproved cannot-run timed/stopped fixes-ok public verified%"
    print(header + " s/error sandbox/plain certain-disproved")
    totals = [0, 0]
    for name in args.packages:
        version = newest_indexed(name, args.db)
        started = time.perf_counter()
        proc = errdex(
            "verify", "--sample", str(args.sample), "--seed", str(args.seed), "--jobs", str(args.jobs),
            f"{name}=={version}", "--json", db=args.db,
        )  # fmt: skip
        seconds = time.perf_counter() - started
        report = json.loads(proc.stdout)
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f"{name}-{version}.json").write_text(proc.stdout)
        s = report["summary"]
        runs = [(e, r) for e in report["errors"] for r in e["runs"]]
        verified = [r for _, r in runs if r["role"] != "fix" and r["status"] == "verified"]
        sandboxed = sum(r["seconds"] or 0.0 for r in verified)
        plain = plain_seconds(name, version, [r["code"] for r in verified]) if verified else 0.0
        disproved = [e["id"] for e, r in runs if r["role"] == "trigger" and r["status"] == "disproved"]
        public = [e for e in report["errors"] if e["public_value"]]
        public_ok = sum(1 for e in public if e["trigger"] == "verified")
        totals[0] += len(public)
        totals[1] += public_ok
        st = s["statuses"]
        print(
            f"{name} {version} {s['errors']} {s['with_trigger']} {s['ran']} {st.get('verified', 0)}"
            f" {st.get('disproved', 0)} {st.get('cannot run', 0)} {st.get('timed out', 0) + st.get('stopped', 0)}"
            f" {s['fixes'].get('verified', 0)}/{sum(s['fixes'].values())} {public_ok}/{len(public)}"
            f" {public_ok / max(len(public), 1):.0%} {seconds / max(s['errors'], 1):.2f}"
            f" {sandboxed / plain if plain else float('nan'):.2f} {certain_disproved(args.db, version, disproved)}"
        )
    print(f"all: {totals[1]} of {totals[0]} errors whose check tests a value a public call passes verified"
          f" ({totals[1] / max(totals[0], 1):.0%}; target >= 50%)")  # fmt: skip


if __name__ == "__main__":
    main()
