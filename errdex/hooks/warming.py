"""Load, when a hook starts, what its first explanation will read: the first error is answered as quickly as the next.

In a background thread: the program, the notebook, the test session or the agent goes on at once
(starting the thread imports nothing), and an error raised before the loading ends is answered all
the same, loading what it needs itself.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from errdex.match.tables import Loaded

_started: set[str] = set()  # the indexes a thread was started for in this process (None: the default one)
_lock = threading.Lock()


def warm_in_background(
    db: str | Path | None = None, around: Callable[[], AbstractContextManager[None]] = nullcontext
) -> threading.Thread | None:
    """Start `load(db)` in a daemon thread, inside `around()`, once per index and process; None when it was started
    before. A failure there says nothing: the first explanation meets it again, and reports it."""
    with _lock:
        if str(db) in _started:
            return None
        _started.add(str(db))
    thread = threading.Thread(target=_quietly, args=(db, around), name="errdex-warm", daemon=True)
    thread.start()
    return thread


def _quietly(db: str | Path | None, around: Callable[[], AbstractContextManager[None]]) -> None:
    try:
        with around():
            load(db)
    except Exception:  # noqa: BLE001 - a missing or broken index, a failing import: reported by the first error
        pass


def load(db: str | Path | None = None) -> Loaded | None:
    """Import the page code and load the matcher's tables of index `db` (default: ERRDEX_DB or the user's data
    folder) for its packages installed here, those this process can raise from, on a connection of this thread's
    own; None when there is no index yet (none is made)."""
    import errdex.pages  # noqa: F401  # what every explanation builds
    from errdex.match import warm
    from errdex.match.autoindex import installed_version
    from errdex.store import Store, default_path, is_postgres_url

    location = db or default_path()
    if not is_postgres_url(location) and not Path(location).is_file():
        return None
    with Store(location) as store:
        installed = [row.name for row in store.packages() if installed_version(row.name) is not None]
        return warm(store, installed)
