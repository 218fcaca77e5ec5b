"""The errdex web application: HTML pages and their JSON twins over one index.

`create_app(store_path)` builds an ASGI app (FastAPI) that uvicorn serves. Each page's data comes
from `errdex.web.views`; the HTML route renders it with a template, the JSON route returns it as
is. Every failure, HTML or JSON, has one shape: {"error": {"status", "title", "message"}}.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from http import HTTPStatus
from pathlib import Path
from typing import TypedDict

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import Scope

from errdex.errors import ErrdexError, InputError, NotIndexedError
from errdex.web import api, docs, pages
from errdex.web.cached import MIN_GZIP
from errdex.web.context import Context
from errdex.web.headers import SecurityHeaders
from errdex.web.limits import MAX_BODY, MAX_QUERY, Refuse, RequestLimits
from errdex.web.links import ServerLinks
from errdex.web.render import STATIC

log = logging.getLogger("errdex.web")


def create_app(store_path: str | Path | None = None) -> FastAPI:
    """The web application over the index at `store_path` (the default index when None)."""
    context = Context(store_path)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        context.warm()
        yield
        context.close()

    app = FastAPI(
        title="errdex",
        summary="Where a Python library's error comes from, what it means and how to fix it.",
        description=api.DESCRIPTION,
        version=api.API_VERSION,
        openapi_url=None,  # errdex.web.docs serves the document, completed, and its own /docs
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
        telemetry={
            "tracing": False,
            "metrics": False,
            "logs": False,
            "operation_spans": False,
            "auto_configure": False,
        },
    )
    app.state.context = context
    app.add_middleware(GZipMiddleware, minimum_size=MIN_GZIP)  # what is not answered from the cache, gzipped
    app.add_middleware(RequestLimits, max_body=MAX_BODY, max_query=MAX_QUERY, refuse=_refusal(context))
    app.add_middleware(SecurityHeaders)  # outermost: refusals get the headers too
    app.include_router(api.router)
    app.include_router(pages.router)
    app.include_router(docs.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    _handle_errors(app)
    return app


def _refusal(context: Context) -> Refuse:
    """How RequestLimits answers a request it refuses: the one error shape."""

    def refuse(scope: Scope, status: int) -> Response:
        return problem(context, scope["path"], status, _LIMIT_MESSAGES[status])

    return refuse


def _handle_errors(app: FastAPI) -> None:
    """Map every failure to one shape: JSON under /api, an HTML page elsewhere."""

    def answer(request: Request, status: int, message: str, headers: Mapping[str, str] | None = None) -> Response:
        return problem(request.app.state.context, request.scope["path"], status, message, headers)

    def with_status(status: int) -> Callable[[Request, Exception], Awaitable[Response]]:
        async def handler(request: Request, exc: Exception) -> Response:
            return answer(request, status, str(exc))

        return handler

    for exc_type, status in _STATUS_OF_ERROR:
        app.add_exception_handler(exc_type, with_status(status))

    @app.exception_handler(NotIndexedError)
    async def not_indexed(request: Request, exc: NotIndexedError) -> Response:
        # the command that would index it is for the site's owner, not for a visitor
        return answer(request, 404, f"{exc.what}. {_NOT_HERE}")

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        return answer(request, 400, _validation_message(exc))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        return answer(request, exc.status_code, _http_message(exc), exc.headers)

    @app.exception_handler(Exception)
    async def crashed(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error on %s", request.scope["path"])
        return answer(request, 500, "errdex failed on this request; the server's log has the details.")


def problem(
    context: Context, path: str, status: int, message: str, headers: Mapping[str, str] | None = None
) -> Response:
    """The one error shape, as JSON for the API and as a page for people."""
    data = error_json(status, message)
    if path.startswith("/api"):
        return JSONResponse(data, status_code=status, headers=headers)
    html = context.renderer.page("problem.html", data, ServerLinks(), alternate=None)
    return HTMLResponse(html, status_code=status, headers=headers)


class ProblemDetail(TypedDict):
    status: int
    title: str
    message: str


class Problem(TypedDict):
    error: ProblemDetail


def error_json(status: int, message: str) -> Problem:
    """{"error": {"status": 404, "title": "Not Found", "message": "..."}}: the API's only error shape."""
    return {"error": {"status": status, "title": HTTPStatus(status).phrase, "message": message}}


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p not in ("query", "path", "body"))
        parts.append(f"{where}: {err.get('msg', 'invalid')}" if where else str(err.get("msg", "invalid")))
    return "Invalid request: " + "; ".join(parts) + "."


# Most specific first: Starlette picks the handler of the nearest class in the exception's MRO.
_STATUS_OF_ERROR = ((InputError, 400), (ErrdexError, 503))
_NOT_HERE = "Search for your error from the home page, or see there what this site has indexed."
_LIMIT_MESSAGES = {
    413: f"The request body is larger than {MAX_BODY // 1024} KiB. Paste only the error and its traceback.",
    414: f"The query string is longer than {MAX_QUERY} bytes; POST long pastes to /search or /api/search.",
}
_HTTP_MESSAGES = {
    404: "There is no page at this address. Start from the home page, or search for your error.",
    405: "This address does not accept that method.",
    **_LIMIT_MESSAGES,
}


def _http_message(exc: HTTPException) -> str:
    return _HTTP_MESSAGES.get(exc.status_code, str(exc.detail))
