"""The HTML pages: each renders the same dict as its JSON twin and links to it with rel="alternate".

The pages that are the same for every visitor (home, package, error) are plain Starlette
endpoints that read their few parameters themselves: answered from the cache, they skip FastAPI's
dependency resolution, which would otherwise be most of their cost. They are not in the OpenAPI
description; their JSON twins are, with every parameter documented.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.datastructures import QueryParams

from errdex.errors import InputError
from errdex.model import FileLine
from errdex.web import views
from errdex.web.api import Ctx, posted_paste
from errdex.web.cached import cached_answer
from errdex.web.context import Context
from errdex.web.limits import MAX_QUERY
from errdex.web.links import MAX_VALUES_IN_LINK, ServerLinks
from errdex.web.render import highlight_css

router = APIRouter(include_in_schema=False)
LINKS = ServerLinks()


async def _cached_page(request: Request, template: str, view: views.View[views.D], alternate: str | None) -> Response:
    """A page the same for every visitor: rendered once while its data stays cached."""
    ctx: Context = request.app.state.context
    return await cached_answer(
        request,
        ctx,
        view,
        ("html", template, alternate),
        lambda data: ctx.renderer.page(template, data, LINKS, alternate=alternate),
        "text/html; charset=utf-8",
    )


def _search_page(ctx: Context, paste: str, alternate: str | None) -> HTMLResponse:
    return HTMLResponse(ctx.renderer.page("search.html", views.search(ctx.store(), paste), LINKS, alternate=alternate))


async def home(request: Request) -> Response:
    ctx: Context = request.app.state.context
    return await _cached_page(request, "home.html", views.home(ctx.store()), LINKS.api_home())


@router.get("/search")
def search(ctx: Ctx, q: Annotated[str, Query()] = "") -> Response:
    if not q.strip():
        return RedirectResponse(LINKS.home(), status_code=303)
    return _search_page(ctx, q, LINKS.api_search(q))


@router.post("/search")
def search_posted(ctx: Ctx, paste: Annotated[str, Depends(posted_paste)]) -> Response:
    """A paste from a form: sent on to its `?q=` address when that fits a query, so the answer can be reloaded
    and shared without posting again; a longer one is answered here."""
    if not paste.strip():
        return RedirectResponse(LINKS.home(), status_code=303)
    paste = paste.replace("\r\n", "\n")  # a form sends a textarea's line breaks as CRLF
    address = LINKS.search(paste)
    if address is not None and len(address) <= MAX_QUERY:
        return RedirectResponse(address, status_code=303)
    return _search_page(ctx, paste, LINKS.api_search(paste) if len(paste) <= MAX_VALUES_IN_LINK else None)


async def package(request: Request) -> Response:
    ctx: Context = request.app.state.context
    name, query = request.path_params["package"], request.query_params
    version, kind, exception = query.get("version"), query.get("kind") or None, query.get("exception") or None
    page = _page(query)
    view = views.package(ctx.store(), name, version, kind, exception, page)
    return await _cached_page(request, "package.html", view, LINKS.api_package(name, version, kind, exception, page))


async def error(request: Request) -> Response:
    ctx: Context = request.app.state.context
    query = request.query_params
    error_id, version, values, site = (
        request.path_params["error_id"],
        query.get("version"),
        query.getlist("value"),
        _site(query),
    )
    view = views.error(ctx.store(), error_id, version, values, site)
    return await _cached_page(request, "error.html", view, LINKS.api_error(error_id, version, values, site))


def _page(query: QueryParams) -> int:
    """The `page` parameter: a page number, 1 when absent."""
    page = query.get("page") or "1"
    if not page.isdigit() or len(page) > 6:
        raise InputError(f"page must be a number from 1 to {views.MAX_PAGE}")
    return int(page)


def _site(query: QueryParams) -> FileLine | None:
    """The `file` and `line` parameters, both or neither."""
    file, line = query.get("file"), query.get("line")
    if file is None and line is None:
        return None
    if not file or not line or not line.isdigit() or len(line) > 9:
        raise InputError("give both file and line (a positive number), or neither")
    return FileLine(file, int(line))


for path, endpoint in (("/", home), ("/p/{package}", package), ("/errors/{error_id}", error)):
    router.add_route(path, endpoint, methods=["GET"], include_in_schema=False)


@router.get("/favicon.ico")
def favicon() -> RedirectResponse:
    """Browsers ask for it wherever a page names no icon (the JSON answers): the site's icon is an SVG."""
    return RedirectResponse(LINKS.static("favicon.svg"), status_code=301)


@router.get("/static/highlight.css")
def highlight_stylesheet() -> Response:
    """The excerpts' colours, generated by pygments (served before the static folder is looked at)."""
    return Response(highlight_css(), media_type="text/css", headers={"Cache-Control": "public, max-age=3600"})
