"""What every request of one application shares: its index, its page cache and its templates."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request

from errdex.match import explain
from errdex.store import Store
from errdex.web.links import Links
from errdex.web.memo import Memo
from errdex.web.render import Renderer
from errdex.web.stores import StorePool

MEMO_SIZE = 1_024  # views and rendered pages kept in memory (an error page is ~20 KB of data, ~30 KB of HTML)
WARM_UP = "ValueError: errdex warm-up"


class Context:
    """The index (one connection per thread), the page cache and the template renderer."""

    def __init__(self, store_path: str | Path | None) -> None:
        self.stores = StorePool(store_path)
        self.memo = Memo(MEMO_SIZE)
        self.renderer = Renderer()

    def html(self, template: str, data: dict[str, Any], links: Links, alternate: str | None) -> str:
        """The page rendered, remembered while `data` itself (a cached view) is the one asked for.

        Views that come from the Memo are the same object on every request until the index
        changes, so their HTML is rendered once; any other data renders anew.
        """
        key = ("html", template, id(data), alternate)
        seen, html = self.memo.get(key, lambda: (data, self.renderer.page(template, data, links, alternate=alternate)))
        return html if seen is data else self.renderer.page(template, data, links, alternate=alternate)

    def store(self) -> Store:
        """This thread's Store."""
        return self.stores.get()

    def warm(self) -> None:
        """Load the matcher's tables now, so the first search does not wait for them."""
        explain(WARM_UP, store=self.store(), auto_index=False, fetch=False)

    def close(self) -> None:
        self.stores.close()


async def context(request: Request) -> Context:
    """The application's Context, for route dependencies."""
    return request.app.state.context
