"""Answers for the pages that change only when the index does: an ETag, revalidation, gzip made once.

A view's key carries the index's generation, so its ETag (a digest of the key, the errdex version,
the templates and the index's name) changes exactly when the page may. Browsers revalidate every
time (`no-cache`) and get an empty 304 while it holds; the gzip body is compressed once and kept
with the page in the cache, so a cached page costs no compression per request.
"""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Callable, Hashable
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response

from errdex.pages import PAGE_CODE
from errdex.web.context import Context
from errdex.web.render import STATIC, TEMPLATES
from errdex.web.views import D, View

GZIP_LEVEL = 9  # once per page: the smallest body is worth the time
MIN_GZIP = 1_024  # bytes below which gzip's header costs more than it saves
CACHE_CONTROL = "no-cache"  # keep it, but ask each time: the index may change at any moment


async def cached_answer(
    request: Request, ctx: Context, view: View[D], form: Hashable, render: Callable[[D], str | bytes], media_type: str
) -> Response:
    """A view rendered in one form, answered 304 when the browser's copy is current, gzipped when accepted."""
    tag = etag(ctx, form, view.key)
    headers = {"ETag": tag, "Cache-Control": CACHE_CONTROL, "Vary": "Accept-Encoding"}
    if tag in _tags(request.headers.get("if-none-match")):
        return Response(status_code=304, headers=headers)
    body = await ctx.output(view, form, lambda data: _bytes(render(data)))
    if len(body) >= MIN_GZIP and _accepts_gzip(request.headers.get("accept-encoding")):
        packed = await ctx.output(view, (form, "gzip"), lambda _: gzip.compress(body, GZIP_LEVEL))
        return Response(packed, media_type=media_type, headers={**headers, "Content-Encoding": "gzip"})
    return Response(body, media_type=media_type, headers=headers)


def etag(ctx: Context, form: Hashable, key: Hashable) -> str:
    """A strong validator of one view in one form, the same in every worker process over the same index."""
    site = (PAGE_CODE, _LOOKS, ctx.store().label)
    digest = hashlib.blake2b(repr((site, form, key)).encode(), digest_size=12).hexdigest()
    return f'"{digest}"'


def _digest_of(*folders: Path) -> str:
    """What the templates and static files hold: a page's look changes with them, not with the index."""
    h = hashlib.blake2b(digest_size=12)
    for file in sorted(f for folder in folders for f in folder.rglob("*") if f.is_file()):
        h.update(file.name.encode() + b"\0" + file.read_bytes())
    return h.hexdigest()


_LOOKS = _digest_of(TEMPLATES, STATIC)


def _bytes(text: str | bytes) -> bytes:
    return text.encode() if isinstance(text, str) else text


def _tags(header: str | None) -> set[str]:
    """The entity tags of an If-None-Match header (weak ones compared by their opaque part)."""
    return {t.strip().removeprefix("W/") for t in (header or "").split(",") if t.strip()}


def _accepts_gzip(header: str | None) -> bool:
    """Whether Accept-Encoding allows gzip (`gzip;q=0` refuses it)."""
    for part in (header or "").lower().split(","):
        name, _, params = part.strip().partition(";")
        if name.strip() in ("gzip", "*"):
            return params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False
