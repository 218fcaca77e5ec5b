"""`errdex export-site`: the server's pages and JSON twins written as a static site.

The pages are rendered from the same view data and templates as the server's, with links that
point between files (StaticLinks) instead of routes. Search needs a server, so the static site
has none; everything else is there: the home page, each release's list, each error's page in
each release that has it, and the JSON of each.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from errdex.store import Store
from errdex.web import views
from errdex.web.links import StaticLinks, static_path
from errdex.web.memo import Memo
from errdex.web.render import STATIC, Renderer, highlight_css

Progress = Callable[[int, int], None]


@dataclass
class ExportResult:
    """How many HTML pages and JSON files were written."""

    pages: int = 0
    files: int = 0


class _Writer:
    """Writes pages and their JSON into the site's folder, counting them."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.renderer = Renderer()
        self.result = ExportResult()

    def page(self, path: str, template: str, data: dict[str, Any], json_path: str | None) -> None:
        links = StaticLinks(path.count("/"))
        alternate = links.root + json_path if json_path else None
        self._write(path, self.renderer.page(template, data, links, alternate=alternate))
        self.result.pages += 1
        if json_path:
            self._write(json_path, json.dumps(data, ensure_ascii=False))
            self.result.files += 1

    def _write(self, path: str, text: str) -> None:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def export(store: Store, root: Path, packages: Iterable[str] | None = None, progress: Progress | None = None) -> ExportResult:
    """Write the static site for the given packages (every indexed one when None) into `root`."""
    writer = _Writer(root)
    memo = Memo(1)
    home = views.home(store)
    wanted = {store.release(p).package for p in packages} if packages is not None else None
    home["packages"] = [p for p in home["packages"] if wanted is None or p["package"] in wanted]
    writer.page("index.html", "home.html", home, "api/index.json")
    _static_files(root)
    work = [(p["name"], v) for p in home["packages"] for v in p["versions"]]
    total = sum(store.release(name, v).error_count for name, v in work)
    done = 0
    newest: dict[str, str] = {}
    for name, version in work:
        listing = views.package(store, memo, name, version, None, None)
        _package_pages(writer, name, version, listing, version == listing["versions"][-1])
        for module in listing["modules"]:
            for group in module["exceptions"]:
                for entry in group["errors"]:
                    page = views.error(store, memo, entry["id"], version, [])
                    writer.page(static_path("error", entry["id"], version), "error.html", page, static_path("error", entry["id"], version, True))
                    newest[entry["id"]] = version
                    done += 1
                    if progress:
                        progress(done, total)
    for error_id, version in newest.items():
        page = views.error(store, memo, error_id, version, [])
        writer.page(static_path("error", error_id), "error.html", page, static_path("error", error_id, as_json=True))
    return writer.result


def _package_pages(writer: _Writer, name: str, version: str, listing: dict[str, Any], is_newest: bool) -> None:
    writer.page(static_path("package", name, version), "package.html", listing, static_path("package", name, version, True))
    if is_newest:
        writer.page(static_path("package", name), "package.html", listing, static_path("package", name, as_json=True))


def _static_files(root: Path) -> None:
    target = root / "static"
    target.mkdir(parents=True, exist_ok=True)
    for item in STATIC.iterdir():
        if item.is_file():
            shutil.copyfile(item, target / item.name)
    (target / "highlight.css").write_text(highlight_css(), encoding="utf-8")
