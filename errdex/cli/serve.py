"""`errdex serve` (the web site and JSON API) and `errdex export-site` (the same pages as static files)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from errdex.cli import console, db_option, main, reports_errors, require_extra
from errdex.errors import ErrdexError, InputError
from errdex.store import Store

H11_MAX_HEAD = 64 * 1024  # bytes of a request line and headers uvicorn reads; the app refuses long queries itself


@main.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (keep it local unless you mean to share).",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on (0: any free port).",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Server processes (one per core serves most).",
)
@db_option
@reports_errors
def serve(host: str, port: int, workers: int, db_path: str | None) -> None:
    """Serve the web site and JSON API over the index: paste an error, read its page."""
    require_extra("web", "serve")
    import uvicorn

    with Store(db_path) as store:  # fail now, as one clear line, if the index cannot be opened
        path, label = store.path, store.label
    if isinstance(path, Path):
        path = path.resolve()
        label = str(path)
    os.environ["ERRDEX_DB"] = str(path)  # each worker process opens the same index (create_app(None) reads it)
    console.print(
        f"errdex: serving {label} on http://{host}:{port}/"
        f" with {workers} process{'es' if workers > 1 else ''} (Ctrl-C stops)"
    )
    uvicorn.run(
        "errdex.web:create_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level="warning",
        h11_max_incomplete_event_size=H11_MAX_HEAD,
    )


@main.command("export-site")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--package", "packages", multiple=True, help="Only this package (repeat for more; default: every indexed one)."
)
@click.option("--workers", type=click.IntRange(1, 64), help="Processes building error pages (default: all cores).")
@db_option
@reports_errors
def export_site(directory: Path, packages: tuple[str, ...], workers: int | None, db_path: str | None) -> None:
    """Write the site's pages and their JSON files into DIRECTORY, for hosting without a server."""
    require_extra("web", "export-site")
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    from errdex.web.export import export

    if directory.exists() and any(directory.iterdir()) and not (directory / "index.html").is_file():
        raise InputError(f"{directory} is not empty and holds no exported site; choose an empty or new folder.")
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Store(db_path) as store, Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("exporting", total=None)

        def show(stage: str, done: int, total: int) -> None:
            progress.update(task, description=stage, completed=done, total=total)

        result = export(store, directory, packages or None, show, workers)
    console.print(f"errdex: wrote {result.pages} pages and {result.files} JSON files to {directory}")
    if result.failed:
        shown = "; ".join(result.failed[:3])
        raise ErrdexError(
            f"{len(result.failed)} error pages could not be built (the rest of the site is written): {shown}"
        )
