"""Bounded requests: an over-long query string gets 414 and an over-large body 413, before any route runs.

A body that declares its size is refused before a byte of it is read; one sent without a
Content-Length is counted while it is read and refused as soon as it passes the limit.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 1_048_576  # bytes of a POSTed paste (1 MiB)
MAX_QUERY = 8_192  # bytes of a query string (long pastes are POSTed)
Refuse = Callable[[Scope, int], Response]


class RequestLimits:
    """ASGI middleware: refuses requests over `max_query` bytes of query or `max_body` bytes of body."""

    def __init__(self, app: ASGIApp, *, max_body: int, max_query: int, refuse: Refuse) -> None:
        self.app = app
        self.max_body = max_body
        self.max_query = max_query
        self.refuse = refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = self._refusal(scope)
        if status is not None:
            await self.refuse(scope, status)(scope, receive, send)
            return
        await self.app(scope, self._counting(receive), send)

    def _refusal(self, scope: Scope) -> int | None:
        if len(scope.get("query_string", b"")) > self.max_query:
            return 414
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_body:
            return 413
        return None

    def _counting(self, receive: Receive) -> Receive:
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise HTTPException(413)
            return message

        return counted
