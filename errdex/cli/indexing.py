"""`errdex index`: index one release or a whole batch, with one progress view and a summary."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any

import click
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from errdex import terminal
from errdex.cli import (
    console,
    db_option,
    err_console,
    fail,
    json_option,
    main,
    print_json,
    reports_errors,
)
from errdex.errors import InputError
from errdex.indexing.bulk import Engine, Options, Outcome, Status, index_many
from errdex.indexing.cluster import LOCAL, dask_engine
from errdex.indexing.versions import expand, read_list
from errdex.sources.spec import folder_of_the_name
from errdex.store import Store


@main.command()
@click.argument("specs", nargs=-1)
@click.option(
    "-r",
    "--list",
    "lists",
    multiple=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also index every spec of this file (one a line, # comments); may be repeated.",
)
@click.option("--versions", help="For each package name: every release in this PEP 440 range, e.g. '>=5.10,<=5.16'.")
@click.option(
    "--latest",
    type=click.IntRange(1, 10_000),
    help="For each package name: its newest N releases (in --versions if given).",
)
@click.option("--force", is_flag=True, help="Index again releases already indexed with the same digest.")
@click.option("--name", help="Package name to record (overrides the metadata).")
@click.option("--version", "version_", help="Version to record (overrides the metadata).")
@click.option("--installed", is_flag=True, help="Index installed distributions by name, from this environment.")
@click.option("--workers", type=click.IntRange(1, 64), help="Processes to use (default: all cores).")
@click.option(
    "--cluster",
    metavar="ADDRESS|local",
    help="Prepare releases on a Dask cluster: its scheduler's address (tcp://host:8786), or 'local' to start "
    "one here with --workers processes; this process still writes the index. Needs errdex[cluster].",
)
@db_option
@json_option
@reports_errors
def index(
    specs: tuple[str, ...],
    lists: tuple[Path, ...],
    versions: str | None,
    latest: int | None,
    force: bool,
    name: str | None,
    version_: str | None,
    installed: bool,
    workers: int | None,
    cluster: str | None,
    db_path: str | None,
    as_json: bool,
) -> None:
    """Index the errors of releases: NAME, NAME==VERSION, a folder, a .whl/.zip/.tar.gz, git+REPO@REV.

    Each release is indexed on its own; one that fails is reported and the others still are.
    A release already indexed with the same digest is skipped (unless --force), so running an
    interrupted batch again resumes it. With several packages, releases are prepared in parallel,
    by local processes or by the workers of a Dask cluster (--cluster).
    """
    wanted = list(specs) + [spec for path in lists for spec in read_list(path)]
    if not wanted:
        raise InputError("Nothing to index: give a SPEC or -r FILE (see errdex index --help)")
    if installed and (versions or latest):
        raise InputError("--versions and --latest choose releases to download; they do not apply with --installed")
    if installed and cluster and cluster != LOCAL:
        raise InputError("--installed reads this environment; workers of a remote --cluster cannot")
    for hint in dict.fromkeys(_folder_hint(spec, installed) for spec in wanted):
        if hint is not None:
            err_console.print(Text.assemble(("hint: ", "bold yellow"), hint))
    releases = expand(wanted, versions, latest)
    options = Options(name=name, version=version_, installed=installed, force=force)
    with Store(db_path) as store, _engine(cluster, workers) as engine, _view(len(releases), as_json) as report:
        try:
            status = index_many(releases, store, options, jobs=workers, report=report, engine=engine)
        except KeyboardInterrupt:
            fail("interrupted; the releases written so far are kept: run the same command again to resume")
            sys.exit(130)
    if as_json:
        print_json([_outcome_json(o, _folder_hint(o.spec, installed)) for o in status.outcomes])
    else:
        _summary(status)
    if status.failures:
        sys.exit(1)


def _engine(cluster: str | None, workers: int | None) -> AbstractContextManager[Engine | None]:
    """The Dask cluster asked for, or None for the local process pool."""
    return dask_engine(cluster, workers) if cluster else nullcontext()


def _folder_hint(spec: str, installed: bool) -> str | None:
    """What to run when a package name to fetch is also a folder here: the name wins, as with pip."""
    folder = None if installed else folder_of_the_name(spec)
    return None if folder is None else f"{folder} is a folder here; to index it, run errdex index {folder}"


def _outcome_json(outcome: Outcome, hint: str | None) -> dict[str, Any]:
    entry: dict[str, Any] = {"spec": outcome.spec, "status": outcome.status}
    if hint is not None:
        entry["hint"] = hint
    if outcome.result is not None:
        entry.update(terminal.index_result_json(outcome.result), linked=outcome.result.linked)
    elif outcome.info is not None:
        entry.update(package=outcome.info.package, version=outcome.info.version, digest=outcome.info.digest)
    if outcome.error is not None:
        entry["error"] = outcome.error
    return entry


def _outcome_line(outcome: Outcome) -> Text | None:
    if outcome.result is not None:
        return terminal.index_summary(outcome.result)
    if outcome.info is not None:
        return Text.assemble(
            ("unchanged ", "dim"),
            (f"{outcome.info.package} {outcome.info.version}", "bold"),
            ": already indexed with the same digest (--force indexes it again)",
        )
    return None


def _summary(status: Status) -> None:
    """One line for the batch, then each failure with its reason."""
    if status.total > 1:
        counts = {s: sum(1 for o in status.outcomes if o.status == s) for s in ("indexed", "unchanged", "failed")}
        console.print(
            f"{status.done} releases: {counts['indexed']} indexed, {counts['unchanged']} unchanged,"
            f" {counts['failed']} failed;"
            f" {status.files} files ({status.files_per_second():.0f}/s), {status.errors} errors"
        )
    if status.total > 1 and status.failures:
        table = Table("spec", "why it failed", title="failed", title_justify="left", show_lines=False)
        for outcome in status.failures:
            table.add_row(Text(outcome.spec), Text(outcome.error or ""))
        err_console.print(table)


@contextmanager
def _view(total: int, quiet: bool) -> Iterator[Callable[[Status, Outcome | None], None]]:
    """One progress bar for the whole batch; each release's line is printed above it as it ends."""

    def report_line(status: Status, outcome: Outcome | None) -> None:
        if outcome is None:
            return
        if outcome.error is not None:
            fail(f"{outcome.spec}: {outcome.error}")
        elif not quiet:
            line = _outcome_line(outcome)
            if line is not None:
                console.print(line)

    if quiet or not err_console.is_terminal:
        yield report_line
        return
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[stats]}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=err_console, transient=True) as bar:
        task = bar.add_task("releases", total=total, stats="")

        def report(status: Status, outcome: Outcome | None) -> None:
            now = ", ".join(status.running[:3]) + (
                f" {status.stage}" if len(status.running) == 1 and status.stage else ""
            )
            stats = f"{status.files_per_second():.0f} files/s · {status.errors} errors · {len(status.failures)} failed"
            bar.update(task, completed=status.done, stats=stats, description=now or "releases")
            report_line(status, outcome)

        yield report
