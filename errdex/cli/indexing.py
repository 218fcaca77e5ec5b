"""`errdex index`: index releases with a progress bar and a summary line each."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from errdex import terminal
from errdex.cli import console, db_option, err_console, fail, json_option, main, print_json, reports_errors
from errdex.errors import ErrdexError
from errdex.index import index as index_release
from errdex.store import Store


@main.command()
@click.argument("specs", nargs=-1, required=True)
@click.option("--name", help="Package name to record (overrides the metadata).")
@click.option("--version", "version_", help="Version to record (overrides the metadata).")
@click.option("--installed", is_flag=True, help="Index installed distributions by name, from this environment.")
@click.option("--workers", type=click.IntRange(1, 64), help="Processes for analysing files (default: all cores).")
@db_option
@json_option
@reports_errors
def index(specs: tuple[str, ...], name: str | None, version_: str | None, installed: bool, workers: int | None, db_path: str | None, as_json: bool) -> None:
    """Index the errors of releases: NAME, NAME==VERSION, a folder, a .whl/.zip/.tar.gz, git+REPO@REV.

    Each SPEC is indexed on its own; one that fails is reported and the others still are.
    """
    failures = 0
    results = []
    with Store(db_path) as store:
        for spec in specs:
            try:
                with _progress(spec, quiet=as_json) as (progress, message):
                    result = index_release(spec, store, name=name, version=version_, installed=installed,
                                           progress=progress, on_message=message, workers=workers)
            except ErrdexError as exc:
                failures += 1
                results.append({"spec": spec, "error": str(exc)})
                fail(str(exc))
                continue
            results.append({"spec": spec, **terminal.index_result_json(result)})
            if not as_json:
                console.print(terminal.index_summary(result))
    if as_json:
        print_json(results)
    if failures:
        sys.exit(1)


@contextmanager
def _progress(spec: str, quiet: bool) -> Iterator[tuple[Callable[[str, int, int], None], Callable[[str], None]]]:
    if quiet or not err_console.is_terminal:
        yield (lambda stage, done, total: None), (lambda line: None)
        return
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err_console, transient=True) as bar:
        task = bar.add_task(f"{spec}: reading", total=None)

        def progress(stage: str, done: int, total: int) -> None:
            bar.update(task, description=f"{spec}: {stage}", completed=done, total=total)

        def message(line: str) -> None:
            bar.update(task, description=f"{spec}: {line}")

        yield progress, message


