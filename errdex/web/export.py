"""`errdex export-site`: the server's pages and JSON twins written as a static site.

The pages are rendered from the same view data and templates as the server's, with links that
point between files (StaticLinks) instead of routes. Search needs a server, so the static site
has none; everything else is there: the home page, each release's list, each error's page in
each release that has it (and, under its bare id, in the newest one), and the JSON of each.
Each release's error pages are first built from its code in one pass (explain.prebuild, which
reads every file once and keeps the pages in the index); the pages are then rendered and
written by worker processes, each with its own connection to the index.
"""

from __future__ import annotations

import functools
import json
import multiprocessing
import os
import shutil
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from errdex.pages import prebuild
from errdex.store import Store
from errdex.web import views
from errdex.web.links import StaticLinks, static_path
from errdex.web.render import STATIC, Renderer, highlight_css

ExportProgress = Callable[[str, int, int], None]  # stage, done, total
Job = tuple[str, str, bool]  # error id, version, whether it is the newest release that has it
CHUNK = 8


@dataclass
class ExportResult:
    """How many HTML pages and JSON files were written, and the error pages that could not be built."""

    pages: int = 0
    files: int = 0
    failed: list[str] = field(default_factory=list)  # "ID VERSION: why"


class _Writer:
    """Writes pages and their JSON into the site's folder, counting them."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.renderer = Renderer()
        self.result = ExportResult()

    def page(self, path: str, template: str, data: Mapping[str, object], json_path: str) -> None:
        links = StaticLinks(path.count("/"))
        self._write(path, self.renderer.page(template, data, links, alternate=links.root + json_path))
        self._write(json_path, json.dumps(data, ensure_ascii=False))
        self.result.pages += 1
        self.result.files += 1

    def _write(self, path: str, text: str) -> None:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def export(
    store: Store,
    root: Path,
    packages: Iterable[str] | None = None,
    progress: ExportProgress | None = None,
    workers: int | None = None,
) -> ExportResult:
    """Write the static site for the given packages (every indexed one when None) into `root`."""
    writer = _Writer(root)
    home = views.home(store).build(store)
    wanted = {store.release(p).package for p in packages} if packages is not None else None
    home["packages"] = [p for p in home["packages"] if wanted is None or p["package"] in wanted]
    writer.page("index.html", "home.html", home, "api/index.json")
    _static_files(root)
    jobs = _package_pages(store, writer, home["packages"])
    for package in home["packages"]:
        for version in package["versions"]:
            stage = f"building {package['package']} {version}"
            prebuild(
                store,
                package["name"],
                version,
                progress=functools.partial(progress, stage) if progress else None,
            )
    result = writer.result
    for count, (written, failure) in enumerate(_error_pages(store, root, jobs, workers or os.cpu_count() or 1), 1):
        result.pages += written
        result.files += written
        if failure:
            result.failed.append(failure)
        if progress:
            progress("writing pages", count, len(jobs))
    return result


def _package_pages(store: Store, writer: _Writer, packages: list[views.PackageRow]) -> list[Job]:
    """Write each release's list; the error pages to write, each marked when its release is the newest with it."""
    newest: dict[str, str] = {}
    pairs: list[tuple[str, str]] = []
    for package in packages:
        name = package["name"]
        for version in package["versions"]:  # oldest first: the last release seen with an error is its newest
            for listing in views.package_pages(store, name, version):
                for module in listing["modules"]:
                    for group in module["exceptions"]:
                        for entry in group["errors"]:
                            pairs.append((entry["id"], version))
                            newest[entry["id"]] = version
                _write_listing(writer, name, version, listing)
    return [(eid, version, newest[eid] == version) for eid, version in pairs]


def _write_listing(writer: _Writer, name: str, version: str, listing: views.Listing) -> None:
    """One page of a release's list, also as the package's own page when the release is the newest."""
    number = listing["page"]["number"]
    writer.page(
        static_path("package", name, version, page=number),
        "package.html",
        listing,
        static_path("package", name, version, True, number),
    )
    if number == 1 and version == listing["versions"][-1]:
        writer.page(static_path("package", name), "package.html", listing, static_path("package", name, as_json=True))


def _error_pages(store: Store, root: Path, jobs: list[Job], workers: int) -> Iterator[tuple[int, str | None]]:
    """For each job in order: the pages written (each with its JSON) and why it failed, if it did.

    The jobs run in `workers` processes, or in this one.
    """
    if workers <= 1 or len(jobs) < 2 * CHUNK:
        _worker.update(store=store, writer=_Writer(root))
        try:
            yield from map(_write_error, jobs)
        finally:
            _worker.clear()
        return
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with ProcessPoolExecutor(
        workers, mp_context=context, initializer=_start, initargs=(str(store.path), str(root))
    ) as pool:
        yield from pool.map(_write_error, jobs, chunksize=CHUNK)


_worker: dict[str, Any] = {}  # this process's store and writer


def _start(store_path: str, root: str) -> None:
    """In a worker process: its own connection to the index and its own writer."""
    _worker.update(store=Store(store_path), writer=_Writer(Path(root)))


def _write_error(job: Job) -> tuple[int, str | None]:
    """Write one error's page in one release; a page that fails is reported, and the export goes on."""
    error_id, version, newest = job
    store, writer = _worker["store"], _worker["writer"]
    try:
        page = views.error(store, error_id, version, []).build(store)
        writer.page(
            static_path("error", error_id, version), "error.html", page, static_path("error", error_id, version, True)
        )
        if newest:
            writer.page(
                static_path("error", error_id), "error.html", page, static_path("error", error_id, as_json=True)
            )
    except Exception as exc:  # noqa: BLE001  (one page's failure is reported with the others, not fatal to the site)
        return 0, f"{error_id} {version}: {type(exc).__name__}: {exc}"
    return 2 if newest else 1, None


def _static_files(root: Path) -> None:
    target = root / "static"
    target.mkdir(parents=True, exist_ok=True)
    for item in STATIC.iterdir():
        if item.is_file():
            shutil.copyfile(item, target / item.name)
    (target / "highlight.css").write_text(highlight_css(), encoding="utf-8")
