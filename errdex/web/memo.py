"""A small thread-safe LRU for page data that is slow to build and the same for every visitor.

Keys carry the store's generation, so a page cached before a release was (re)indexed is never
served after it: the new generation makes a new key and the old entry ages out.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from threading import Lock
from typing import TypeVar

T = TypeVar("T")
MISSING = object()


class Memo:
    """Least-recently-used values by key, built at most once per key while it stays cached."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[Hashable, object] = OrderedDict()
        self._lock = Lock()

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        """The cached value of `key`, or `build()` stored under it."""
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]  # type: ignore[return-value]  # what build() gave for this key
        value = build()
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)
        return value

    def peek(self, key: Hashable) -> object:
        """The cached value of `key`, or MISSING; never builds."""
        with self._lock:
            if key not in self._values:
                return MISSING
            self._values.move_to_end(key)
            return self._values[key]

    def __len__(self) -> int:
        return len(self._values)
