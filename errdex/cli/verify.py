"""`errdex verify`: run a page's trigger and fix in a sandbox (the only command that runs a package's code)."""

from __future__ import annotations

import json
import time
from contextlib import nullcontext
from pathlib import Path

import click
from rich.console import Group, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from errdex.cli import console, db_option, err_console, json_option, main, print_json, reports_errors
from errdex.errors import InputError
from errdex.match import explain
from errdex.store import Store
from errdex.verify import ErrorCheck, check_report, clean, corpus_cases, summarize, verify_error, verify_release
from errdex.verify.sandbox import isolation_available

STATUS_STYLE = {
    "verified": "green",
    "disproved": "red",
    "cannot run": "yellow",
    "timed out": "yellow",
    "stopped": "red",
}


@main.command()
@click.argument("target", required=False)
@click.option("--version", "version_", help="Release of the error (default: the newest indexed that has it).")
@click.option("--message", help="Your error message: the trigger is then made with the values it shows.")
@click.option("--sample", type=click.IntRange(1), help="Verify N errors of the release TARGET, drawn at random.")
@click.option("--all", "all_", is_flag=True, help="Verify every error of the release TARGET.")
@click.option("--seed", type=int, default=0, show_default=True, help="The draw of --sample.")
@click.option("--jobs", type=click.IntRange(1, 64), default=2, show_default=True, help="Snippets run at a time.")
@click.option(
    "--corpus",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write each verified trigger's observed error as a matcher corpus case (a JSON list).",
)
@click.option("--clean", "clean_", is_flag=True, help="Remove the environments verify installed, and exit.")
@db_option
@json_option
@reports_errors
def verify(
    target: str | None,
    version_: str | None,
    message: str | None,
    sample: int | None,
    all_: bool,
    seed: int,
    jobs: int,
    corpus: Path | None,
    clean_: bool,
    db_path: str | None,
    as_json: bool,
) -> None:
    """Run an error's trigger and fix (TARGET is its id), or those of a release's errors (TARGET is NAME or
    NAME==VERSION with --sample N or --all), each in an isolated process of an environment that holds the release.

    Indexing never runs code; this does, only when asked: install only packages you would install anyway.
    """
    if clean_:
        removed = clean()
        if as_json:
            print_json({"removed": removed})
        else:
            console.print(f"Removed {removed} environment(s).")
        return
    if target is None:
        raise InputError("Give an error id, or a release with --sample N or --all (errdex verify --help).")
    bulk = sample is not None or all_
    if bulk and message:
        raise InputError("--message is for one error id, not for --sample or --all.")
    started = time.monotonic()
    with Store(db_path) as store:
        if bulk:
            checks = _bulk(store, target, version_, sample, seed, jobs, as_json)
        else:
            values = _values(store, target, message) if message else None
            said = f"Running the snippets of {target} (the network cut off by {isolation_available()})"
            with err_console.status(said) if not as_json else nullcontext():
                checks = [verify_error(store, target, version_, values=values)]
    if corpus is not None:
        cases = corpus_cases(checks)
        corpus.write_text(json.dumps(cases, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        err_console.print(f"Wrote {len(cases)} corpus case(s) to {corpus}.")
    summary = summarize(checks, time.monotonic() - started)
    if as_json:
        print_json({"summary": summary.__dict__, "errors": [check_report(c) for c in checks]})
        return
    if bulk:
        console.print(_runs_table(checks))
        console.print(_summary_table(summary.statuses, summary.fixes))
        console.print(summary.line())
        return
    console.print(_one(checks[0]))


def _values(store: Store, error_id: str, message: str) -> list[str | None]:
    """What the user's message shows for the error's holes (it must match this error)."""
    for candidate in explain(message, store=store, limit=20).matches:
        if candidate.id == error_id:
            return list(candidate.values)
    raise InputError(f"The message does not match error {error_id}; check the id with `errdex explain`.")


def _bulk(
    store: Store, spec: str, version: str | None, sample: int | None, seed: int, jobs: int, quiet: bool
) -> list[ErrorCheck]:
    name, _, pinned = spec.partition("==")
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        disable=quiet,
    ) as progress:
        task = progress.add_task(f"reading {spec}", total=None)

        def step(what: str, done: int, total: int) -> None:
            said = "building pages" if what == "pages" else "running snippets"
            progress.update(task, completed=done, total=total, description=said)

        return verify_release(store, name, pinned or version, sample, seed, jobs, progress=step)


def _runs_table(checks: list[ErrorCheck]) -> Table:
    """One row a snippet that ran: the error, what ran, the verdict and what was seen."""
    table = Table("error", "snippet", "verdict", "what it did")
    for check in checks:
        for run in check.runs:
            status = run.verdict.status
            table.add_row(
                check.error_id, run.snippet.role, Text(status, style=STATUS_STYLE[status]), run.verdict.detail
            )
    return table


def _summary_table(triggers: dict[str, int], fixes: dict[str, int]) -> Table:
    table = Table("verdict", "triggers", "fixes")
    for status in STATUS_STYLE:
        table.add_row(Text(status, style=STATUS_STYLE[status]), str(triggers.get(status, 0)), str(fixes.get(status, 0)))
    return table


def _one(check: ErrorCheck) -> RenderableType:
    parts: list[RenderableType] = [Text(f"{check.error_id} in {check.package} {check.version}", style="bold")]
    for run in check.runs:
        parts.append(
            Text.assemble((f"{run.snippet.role}: ", "bold"), (run.verdict.status, STATUS_STYLE[run.verdict.status]))
        )
        parts.append(Syntax(run.snippet.code, "python", background_color="default"))
        parts.append(Text(f"{run.verdict.detail} (Python {run.record.python}; network: {run.record.isolation})"))
    for snippet, reason in check.snippets.not_runnable:
        parts.append(Text(f"{snippet.role}: not run: {reason}", style="dim"))
    if check.snippets.missing:
        parts.append(Text(f"trigger: not run: {check.snippets.missing}", style="dim"))
    return Group(*parts)
