"""SQLite under the Store: one file in WAL mode, one writer at a time (BEGIN IMMEDIATE), FTS5 search.

WAL so readers (a running `errdex serve`) never block on a writer; the schema version is
`PRAGMA user_version`.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from errdex.errors import StoreError
from errdex.store.backend import WriteBusy, migrate
from errdex.store.schema import MIGRATIONS

BUSY_TIMEOUT_S = 30  # how long a release write waits for another process's write to end


class SqliteDatabase:
    """An errdex index in one SQLite file."""

    migrations = MIGRATIONS
    like = "LIKE"
    json_values = "SELECT value FROM json_each(?)"
    row_order = "rowid"
    failure = sqlite3.OperationalError

    def __init__(self, path: Path) -> None:
        self.location = path
        self.label = str(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.conn = sqlite3.connect(
                str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
            )
            # the connection's own methods, not wrappers: SQLite needs no translation
            self.execute = self.conn.execute
            self.executemany = self.conn.executemany
            self._enable_wal()
            self.conn.execute("PRAGMA foreign_keys=ON")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            migrate(self)
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"{path} is not a usable errdex index ({exc}); move it away or pass another --db"
            ) from None

    def _enable_wal(self) -> None:
        """Switch to WAL, waiting out another process doing the same on a new file.

        SQLite answers "locked" at once (without its busy handler) when two connections switch
        a new database to WAL together, so the wait is done here, bounded like any other.
        """
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        while True:
            try:
                self.conn.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def close(self) -> None:
        self.conn.close()

    def transaction(self, wait_ms: int | None = None) -> AbstractContextManager[None]:
        """One write transaction; with `wait_ms`, WriteBusy if another writer holds the lock that long."""
        if wait_ms is None:
            return _Transaction(self.conn)
        return self._impatient(wait_ms)

    @contextmanager
    def _impatient(self, wait_ms: int) -> Iterator[None]:
        self.conn.execute(f"PRAGMA busy_timeout = {int(wait_ms)}")
        try:
            with _Transaction(self.conn):
                yield
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            raise WriteBusy(f"{self.label}: another process is writing ({exc})") from None
        finally:
            self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_S * 1000}")

    def schema_version(self) -> int:
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def change_stamp(self) -> tuple[int, int] | None:
        """A value that differs once another connection committed or this one wrote (None in a transaction)."""
        if self.conn.in_transaction:
            return None
        return self.conn.execute("PRAGMA data_version").fetchone()[0], self.conn.total_changes

    def set_schema_version(self, version: int) -> None:
        self.conn.execute(f"PRAGMA user_version = {int(version)}")

    def run_script(self, script: str) -> None:
        """Each statement on its own, so that the script runs inside the caller's transaction."""
        for statement in _statements(script):
            self.conn.execute(statement)

    def search(self, words: Sequence[str], limit: int) -> list[str]:
        """Error ids whose template has every word (each an FTS5 phrase, so user text stays text), best first."""
        query = " ".join('"' + w.replace('"', '""') + '"' for w in words if w)
        if not query:
            return []
        rows = self.conn.execute(
            "SELECT error_id FROM errors_fts WHERE errors_fts MATCH ? ORDER BY rank LIMIT ?", (query, limit)
        )
        return [r[0] for r in rows]


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any exception (KeyboardInterrupt included)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            self.db.execute("COMMIT")
        else:
            self.db.execute("ROLLBACK")


def _statements(script: str) -> Iterator[str]:
    """The SQL statements of a script, one by one (so they can run inside one transaction)."""
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            yield pending
            pending = ""
    if pending.strip():
        yield pending
