"""What every request of one application shares: its index, its page cache and its templates."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from pathlib import Path
from typing import TypeVar

from fastapi import Request
from starlette.concurrency import run_in_threadpool

from errdex.match import warm as warm_matcher
from errdex.match.tables import Loaded
from errdex.store import Store, StorePool
from errdex.web import views
from errdex.web.memo import MISSING, Memo
from errdex.web.render import Renderer
from errdex.web.views import D, SearchAnswer, View

MEMO_SIZE = 1_536  # views and their HTML and JSON kept in memory (~20 + 30 + 20 KB for an error page)
INLINE_PASTE = 4_096  # characters of a paste matched without leaving the event loop
T = TypeVar("T")


class Context:
    """The index (one connection per thread), the page cache and the template renderer."""

    def __init__(self, store_path: str | Path | None) -> None:
        self.stores = StorePool(store_path)
        self.memo = Memo(MEMO_SIZE)
        self.renderer = Renderer()
        self._matched_generation = -1  # the index generation the matcher's tables were last loaded at

    def store(self) -> Store:
        """This thread's Store."""
        return self.stores.get()

    async def output(self, view: View[D], form: Hashable, render: Callable[[D], T]) -> T:
        """A view rendered in one form (HTML, JSON), from the cache when it is there.

        A cached answer is returned at once, on the event loop; anything to build or render runs
        in a worker thread, so a page built from the code for the first time holds up no one else.
        """
        key = (form, view.key)
        cached = self.memo.peek(key)
        if cached is not MISSING:
            return cached  # type: ignore[return-value]  # what render() gave for this key
        return await run_in_threadpool(self._output, view, key, render)

    def _output(self, view: View[D], key: Hashable, render: Callable[[D], T]) -> T:
        data = self.memo.get(view.key, lambda: view.build(self.store()))
        return self.memo.get(key, lambda: render(data))

    async def search(self, text: str, limit: int) -> SearchAnswer:
        """The matcher's answer, on the event loop for a short paste (well under a millisecond).

        A long paste, or the first search after the index changed (the matcher then loads its
        tables again), runs in a worker thread instead.
        """
        generation = self.store().generation()
        if len(text) <= INLINE_PASTE and generation == self._matched_generation:
            return views.search(self.store(), text, limit)
        data = await run_in_threadpool(lambda: views.search(self.store(), text, limit))
        self._matched_generation = generation
        return data

    def warm(self) -> Loaded:
        """Load what the matcher's answers read for every indexed package, so that the first search about each is
        as quick as the next. At startup, before the first request, not in a background thread: no request then
        shares the CPU with the loading, and a server answers many queries about the packages it was started for."""
        loaded = warm_matcher(self.store())
        self._matched_generation = self.store().generation()
        return loaded

    def close(self) -> None:
        self.stores.close()


async def context(request: Request) -> Context:
    """The application's Context, for route dependencies."""
    return request.app.state.context
