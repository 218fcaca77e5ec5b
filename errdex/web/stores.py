"""One Store per server thread: a SQLite connection is never shared between threads.

Opening a Store is cheap and the index is in WAL mode, so each request thread reads with its own
connection while `errdex index` may be writing.
"""

from __future__ import annotations

import threading
from pathlib import Path

from errdex.store import Store


class StorePool:
    """Hands each thread its own Store on the same index file; closes them all at shutdown."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = path
        self._local = threading.local()
        self._opened: list[Store] = []
        self._lock = threading.Lock()

    def get(self) -> Store:
        store = getattr(self._local, "store", None)
        if store is None:
            store = Store(self.path)
            self._local.store = store
            with self._lock:
                self._opened.append(store)
        return store

    def close(self) -> None:
        with self._lock:
            opened, self._opened = self._opened, []
        for store in opened:
            store.close()
