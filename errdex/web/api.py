"""The JSON API: each route returns the same dict its HTML page renders, described in OpenAPI."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import JSONResponse, Response

from errdex.errors import InputError
from errdex.model import FileLine
from errdex.pages.model import Page
from errdex.web import views
from errdex.web.cached import cached_answer
from errdex.web.context import Context, context
from errdex.web.forms import paste_from_body
from errdex.web.limits import MAX_BODY, MAX_QUERY
from errdex.web.openapi import example, returns

API_VERSION = "1"
DESCRIPTION = (
    "Every HTML page of errdex has a JSON twin here with the same data. Errors always have the shape "
    '`{"error": {"status": 404, "title": "Not Found", "message": "..."}}`. Query strings are limited '
    f"to {MAX_QUERY} bytes (414 beyond) and request bodies to {MAX_BODY} bytes (413 beyond): POST long pastes."
)

_ERROR_SHAPE = {
    "type": "object",
    "properties": {
        "error": {
            "type": "object",
            "properties": {"status": {"type": "integer"}, "title": {"type": "string"}, "message": {"type": "string"}},
            "required": ["status", "title", "message"],
        }
    },
    "required": ["error"],
}
# FastAPI's declared type of a router's `responses` (OpenAPI objects are free-form JSON).
_PROBLEMS: dict[int | str, dict[str, Any]] = {
    status: {"description": text, "content": {"application/json": {"schema": _ERROR_SHAPE}}}
    for status, text in (
        (400, "The request is unusable (empty paste, bad filter)"),
        (404, "Not indexed"),
        (413, "The body is too large"),
        (414, "The query string is too long"),
    )
}
PASTE = "ValueError: Invalid `cache_implementation` (flash). Choose one of: static, dynamic, paged"
_PASTE_BODY = {
    "requestBody": {
        "required": True,
        "description": "The paste: a form field `q`, a JSON object with `q`, or the text itself.",
        "content": {
            "application/json": {
                "schema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
                "examples": example({"q": PASTE}),
            },
            "application/x-www-form-urlencoded": {
                "schema": {"type": "object", "properties": {"q": {"type": "string"}}},
                "examples": example({"q": PASTE}),
            },
            "text/plain": {"schema": {"type": "string"}, "examples": example(PASTE)},
        },
    }
}

router = APIRouter(prefix="/api", tags=["api"], responses=_PROBLEMS)
Ctx = Annotated[Context, Depends(context)]
Version = Annotated[
    str | None,
    Query(
        max_length=views.MAX_VERSION_CHARS,
        description="Release to show (default: the newest indexed that has it).",
        openapi_examples=example("5.16.0"),
    ),
]
Values = Annotated[
    list[str],
    Query(
        description="The user's captured values for the template's {} holes, in order.",
        openapi_examples=example(["flash", "static, dynamic, paged"]),
    ),
]
Limit = Annotated[int, Query(ge=1, le=20, description="Matches to return.", openapi_examples=example(1))]


async def posted_paste(request: Request) -> str:
    """The paste a POST carries (read within the application's body limit)."""
    return paste_from_body(request.headers.get("content-type"), await request.body())


def _json(data: Mapping[str, object]) -> bytes:
    return bytes(JSONResponse(data).body)


async def _cached_json(request: Request, ctx: Context, view: views.View[views.D]) -> Response:
    """A view's JSON, serialised once while its data stays cached."""
    return await cached_answer(request, ctx, view, "json", _json, "application/json")


@router.get(
    "",
    summary="What is indexed: packages, releases, error counts",
    responses=returns(views.Home, "Each indexed package with its releases and error count, and the index's totals"),
)
async def index(request: Request, ctx: Ctx) -> Response:
    return await _cached_json(request, ctx, views.home(ctx.store()))


_MATCHES = returns(views.SearchAnswer, "The ranked matches, with the values captured, or an abstention with a hint")


@router.get("/search", summary="Match a pasted error message, log line or traceback", responses=_MATCHES)
async def search(
    ctx: Ctx,
    q: Annotated[str, Query(description="The pasted text.", openapi_examples=example(PASTE))],
    limit: Limit = views.SEARCH_LIMIT,
) -> JSONResponse:
    return JSONResponse(await ctx.search(q, limit))


@router.post("/search", summary="Match a long paste sent in the body", openapi_extra=_PASTE_BODY, responses=_MATCHES)
async def search_posted(
    ctx: Ctx, paste: Annotated[str, Depends(posted_paste)], limit: Limit = views.SEARCH_LIMIT
) -> JSONResponse:
    return JSONResponse(await ctx.search(paste, limit))


@router.get(
    "/packages/{package}",
    summary="A release's errors grouped by module and exception, with counts",
    responses=returns(views.Listing, "One page of the release's errors, with the release and the counts"),
)
async def package(
    request: Request,
    ctx: Ctx,
    package: Annotated[str, Path(description="The package, as indexed", openapi_examples=example("transformers"))],
    version: Version = None,
    kind: Annotated[str | None, Query(description="error, warning or log", openapi_examples=example("error"))] = None,
    exception: Annotated[
        str | None,
        Query(
            max_length=views.MAX_EXCEPTION_CHARS,
            description="Only this exception class or its subclasses",
            openapi_examples=example("ValueError"),
        ),
    ] = None,
    page: Annotated[
        int,
        Query(
            ge=1,
            le=views.MAX_PAGE,
            description=f"Page of the list ({views.PAGE_ERRORS} errors a page at most, whole modules)",
            openapi_examples=example(1),
        ),
    ] = 1,
) -> Response:
    return await _cached_json(request, ctx, views.package(ctx.store(), package, version, kind, exception, page))


@router.get(
    "/errors/{error_id}",
    summary="The explanation page of one error",
    responses=returns(Page, "The page: the error, what it means, solutions, how it is reached (docs/page.md)"),
)
async def error(
    request: Request,
    ctx: Ctx,
    error_id: Annotated[
        str,
        Path(
            description="The error's id: 16 hexadecimal digits, from a match or a package's list",
            openapi_examples=example("44c51e6e70d45f6a"),
        ),
    ],
    version: Version = None,
    value: Values = [],  # noqa: B006  (FastAPI copies defaults)
    file: Annotated[
        str | None,
        Query(
            max_length=views.MAX_FILE_CHARS,
            description="With line: the place that raised, when the error is raised at several.",
            openapi_examples=example("transformers/generation/configuration_utils.py"),
        ),
    ] = None,
    line: Annotated[
        int | None,
        Query(ge=1, description="With file: the line of the place that raised.", openapi_examples=example(687)),
    ] = None,
) -> Response:
    if (file is None) != (line is None):
        raise InputError("give both file and line (a positive number), or neither")
    site = FileLine(file, line) if file is not None and line is not None else None
    return await _cached_json(request, ctx, views.error(ctx.store(), error_id, version, value, site))
