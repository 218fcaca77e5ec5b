"""One Store per thread: a SQLite connection is never shared between threads.

Opening a Store is cheap and the index is in WAL mode, so each thread reads with its own connection
while `errdex index` may be writing. The web server keeps a pool per application; the library API's
calls that name no store (`errdex.explain(text)`) share `shared_store()`, one per thread for the process.
"""

from __future__ import annotations

import atexit
import threading
import weakref
from pathlib import Path

from errdex.store.queries import Store, default_path


class StorePool:
    """Hands each thread its own Store on one index and closes them all at once.

    `path` None is the default index as it is when a thread asks: a thread whose default changed
    (`ERRDEX_DB`) gets a Store on the new one, and its old one is closed. Only the thread that
    opened a Store closes it before `close()`: another thread's may be in the middle of a query. The
    Store of a thread that ended is closed as it is freed (its thread's slot goes with the thread);
    after `close()` each thread gets a new one.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = path
        self._local = threading.local()
        self._opened: weakref.WeakSet[Store] = weakref.WeakSet()
        self._lock = threading.Lock()
        self._closes = 0  # how many times close() ran: a Store held from before one is closed

    def get(self) -> Store:
        path = self.path if self.path is not None else default_path()
        held: tuple[str | Path, int, Store] | None = getattr(self._local, "held", None)
        if held is not None and held[:2] == (path, self._closes):
            return held[2]
        store = Store(path)
        self._local.held = (path, self._closes, store)
        with self._lock:
            self._opened.add(store)
        if held is not None and held[1] == self._closes:
            held[2].close()
        return store

    def close(self) -> None:
        with self._lock:
            opened = list(self._opened)
            self._opened.clear()
            self._closes += 1
        for store in opened:
            store.close()


_SHARED = StorePool()
atexit.register(_SHARED.close)


def shared_store() -> Store:
    """This thread's Store on the default index (ERRDEX_DB, else the user's data folder): opened on first use,
    kept while the default stays the same, closed at exit."""
    return _SHARED.get()
