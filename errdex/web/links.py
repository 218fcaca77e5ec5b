"""Where each page lives: one set of link builders for the server, one for the exported static site.

Templates only ever ask a Links object for an address, so the same template renders for both.
A link the static site cannot have (a search, a filtered list) is None and is shown as text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import quote, urlencode

from errdex.model import FileLine

_UNSAFE = re.compile(r"[^A-Za-z0-9._+-]")
MAX_NAME = 120
_FOLDERS = {
    ("package", False): "p",
    ("package", True): "api/packages",
    ("error", False): "errors",
    ("error", True): "api/errors",
}
# The captured values travel to the error page in its link only while the link stays short.
MAX_VALUES_IN_LINK = 2_000


def _query(params: dict[str, str | list[str] | tuple[str, ...] | None]) -> str:
    pairs: list[tuple[str, str]] = []
    for key, value in params.items():
        if value is None or value == "":
            continue
        pairs += [(key, v) for v in value] if isinstance(value, (list, tuple)) else [(key, value)]
    return "?" + urlencode(pairs) if pairs else ""


def _page(page: int) -> dict[str, str]:
    """The `page` parameter, left out for the first page."""
    return {"page": str(page)} if page > 1 else {}


def _segment(text: str) -> str:
    return quote(text, safe="")


def _site(site: FileLine | None) -> dict[str, str]:
    """The place that raised, as the `file` and `line` parameters of an error page."""
    return {"file": site[0], "line": str(site[1])} if site else {}


class ServerLinks:
    """Addresses on the running server: clean paths with query parameters."""

    static_site = False

    def home(self) -> str:
        return "/"

    def search(self, q: str | None = None) -> str | None:
        return "/search" + _query({"q": q})

    def package(
        self,
        name: str,
        version: str | None = None,
        kind: str | None = None,
        exception: str | None = None,
        page: int = 1,
    ) -> str | None:
        return f"/p/{_segment(name)}" + _query(
            {"version": version, "kind": kind, "exception": exception, **_page(page)}
        )

    def error(
        self, error_id: str, version: str | None = None, values: Sequence[str | None] = (), site: FileLine | None = None
    ) -> str:
        shown = [v for v in values if v is not None]
        carried = shown if sum(len(v) for v in shown) <= MAX_VALUES_IN_LINK else []
        return f"/errors/{_segment(error_id)}" + _query({"version": version, "value": carried, **_site(site)})

    def api_home(self) -> str:
        return "/api"

    def api_search(self, q: str | None = None) -> str | None:
        return "/api/search" + _query({"q": q})

    def api_package(
        self,
        name: str,
        version: str | None = None,
        kind: str | None = None,
        exception: str | None = None,
        page: int = 1,
    ) -> str | None:
        return f"/api/packages/{_segment(name)}" + _query(
            {"version": version, "kind": kind, "exception": exception, **_page(page)}
        )

    def api_error(
        self, error_id: str, version: str | None = None, values: Sequence[str | None] = (), site: FileLine | None = None
    ) -> str:
        shown = [v for v in values if v is not None]
        return f"/api/errors/{_segment(error_id)}" + _query({"version": version, "value": shown, **_site(site)})

    def api_docs(self) -> str | None:
        return "/docs"

    def static(self, name: str) -> str:
        return f"/static/{name}"


class StaticLinks:
    """Relative addresses between the files of an exported site, from a page `depth` folders deep.

    Layout: index.html, p/NAME.html (newest release), p/NAME/VERSION.html (and ~page2.html ... for
    the next pages of a long list), errors/ID.html (newest release that has it),
    errors/ID/VERSION.html, and api/... with the same names ending in .json.
    """

    static_site = True

    def __init__(self, depth: int) -> None:
        self.root = "../" * depth

    def home(self) -> str:
        return self.root + "index.html"

    def search(self, q: str | None = None) -> str | None:
        return None

    def package(
        self,
        name: str,
        version: str | None = None,
        kind: str | None = None,
        exception: str | None = None,
        page: int = 1,
    ) -> str | None:
        return self._package(name, version, kind, exception, page, as_json=False)

    def error(
        self, error_id: str, version: str | None = None, values: Sequence[str | None] = (), site: FileLine | None = None
    ) -> str:
        return self.root + static_path("error", error_id, version, as_json=False)

    def api_home(self) -> str:
        return self.root + "api/index.json"

    def api_search(self, q: str | None = None) -> str | None:
        return None

    def api_package(
        self,
        name: str,
        version: str | None = None,
        kind: str | None = None,
        exception: str | None = None,
        page: int = 1,
    ) -> str | None:
        return self._package(name, version, kind, exception, page, as_json=True)

    def api_error(
        self, error_id: str, version: str | None = None, values: Sequence[str | None] = (), site: FileLine | None = None
    ) -> str:
        return self.root + static_path("error", error_id, version, as_json=True)

    def api_docs(self) -> str | None:
        return None

    def static(self, name: str) -> str:
        return f"{self.root}static/{name}"

    def _package(
        self, name: str, version: str | None, kind: str | None, exception: str | None, page: int, as_json: bool
    ) -> str | None:
        return None if kind or exception else self.root + static_path("package", name, version, as_json, page)


Links = ServerLinks | StaticLinks


def static_path(kind: str, name: str, version: str | None = None, as_json: bool = False, page: int = 1) -> str:
    """The file an exported page is written to, relative to the site's root (the layout above).

    Names come from indexed metadata, which is untrusted: anything but letters, digits and `._+-`
    becomes `_`, and no part starts with a dot, so a name can never leave its folder. Pages after
    the first end in `~pageN`, which no name can produce.
    """
    parts = [_FOLDERS[kind, as_json], _file_name(name)]
    if version:
        parts.append(_file_name(version))
    return "/".join(parts) + (f"~page{page}" if page > 1 else "") + (".json" if as_json else ".html")


def _file_name(text: str) -> str:
    safe = _UNSAFE.sub("_", text)[:MAX_NAME]
    return "_" + safe if safe.startswith(".") or not safe else safe
