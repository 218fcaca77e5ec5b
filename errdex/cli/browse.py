"""`errdex list`, `errdex show`, `errdex packages`: read what is indexed."""

from __future__ import annotations

from dataclasses import asdict

import click
from rich.table import Table

from errdex import terminal
from errdex.cli import console, db_option, full_option, json_option, main, print_json, reports_errors
from errdex.pages import build_page
from errdex.pages.record import site_json
from errdex.store import Store


@main.command("list")
@click.argument("package")
@click.option("--version", "version_", help="Release to list (default: the newest indexed).")
@click.option("--exception", help="Only errors of this exception class (or a subclass of it).")
@click.option("--kind", type=click.Choice(["error", "warning", "log"]), help="Only this kind of site.")
@db_option
@json_option
@reports_errors
def list_(
    package: str, version_: str | None, exception: str | None, kind: str | None, db_path: str | None, as_json: bool
) -> None:
    """List the errors a release of PACKAGE can raise."""
    with Store(db_path) as store:
        release = store.release(package, version_)
        errors = store.errors(package, release.version, exception=exception, kind=kind)
    if as_json:
        print_json(
            [
                {"id": e.error_id, "package": release.package, "version": release.version, **site_json(e.site)}
                for e in errors
            ]
        )
        return
    console.print(terminal.error_table(release, errors))


def _place(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[str, int] | None:
    """`path/to/file.py:123` as (file, line)."""
    if value is None:
        return None
    file, _, line = value.rpartition(":")
    if not file or not line.isdigit():
        raise click.BadParameter(f"{value!r} is no FILE:LINE (e.g. pandas/core/frame.py:1234)", ctx, param)
    return file, int(line)


@main.command()
@click.argument("error_id")
@click.option("--version", "version_", help="Release to show it in (default: the newest that has it).")
@click.option(
    "--at",
    "place",
    metavar="FILE:LINE",
    callback=_place,
    help="The page of one of the error's places (a line of its raise), when it has several.",
)
@full_option
@db_option
@json_option
@reports_errors
def show(
    error_id: str, version_: str | None, place: tuple[str, int] | None, full: bool, db_path: str | None, as_json: bool
) -> None:
    """Explain one error by its id: what it means, when it happens, how to fix it, related errors, versions."""
    with Store(db_path) as store:
        page = build_page(store, error_id, version_, site=place)
    if as_json:
        print_json(page)
        return
    if full:
        console.print(terminal.page_panel(page))
        return
    whole = f"errdex show {page['id']} --version {page['version']} --full"
    console.print(terminal.FirstFitting(terminal.first_screens(page, whole)))


@main.command()
@db_option
@json_option
@reports_errors
def packages(db_path: str | None, as_json: bool) -> None:
    """What is indexed: packages, their releases and error counts."""
    with Store(db_path) as store:
        rows = store.packages()
        releases = {row.name: [r.version for r in store.releases(row.name)] for row in rows}
    if as_json:
        print_json([{**asdict(row), "versions": releases[row.name]} for row in rows])
        return
    table = Table("package", "releases", "errors")
    for row in rows:
        table.add_row(row.package, ", ".join(releases[row.name]), str(row.errors))
    console.print(table if rows else "Nothing is indexed yet. Try: errdex index transformers==5.16.0")
