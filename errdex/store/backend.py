"""Which database a location names, what the Store needs of it, and how its schema is brought up to date.

The Store writes one SQL that SQLite and PostgreSQL both accept (`?` marks, ON CONFLICT,
RETURNING); a Database runs it in its own dialect and supplies the few fragments that differ.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

from errdex.errors import StoreError

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class WriteBusy(StoreError):
    """Another process held the write lock longer than a write that may be skipped would wait."""


Row = tuple[Any, ...]  # one result row; its columns are the SELECT's, in order


class Cursor(Protocol):
    """The result of one statement, as both drivers give it."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Row | None: ...

    def fetchall(self) -> list[Row]: ...

    def __iter__(self) -> Iterator[Row]: ...


class Database(Protocol):
    """One connection to an errdex index, running the Store's portable SQL.

    Read-only properties, so that each backend may narrow them (a SQLite index is a Path, a
    PostgreSQL one a URL; each driver raises its own error class).
    """

    @property
    def location(self) -> str | Path: ...  # what opens it again (a file path or a URL)

    @property
    def label(self) -> str: ...  # how messages name it (never with a password)

    @property
    def migrations(self) -> Sequence[str]: ...  # numbered schema steps, the same in every backend

    @property
    def like(self) -> str: ...  # LIKE that ignores ASCII case, as SQLite's does

    @property
    def json_values(self) -> str: ...  # a subquery of the strings in one JSON array parameter

    @property
    def row_order(self) -> str: ...  # the column that orders the rows of `classes` as they were inserted

    @property
    def failure(self) -> type[Exception]: ...  # what the driver raises when a write cannot be done (read-only, full)

    def execute(self, sql: str, params: Sequence[Any] = (), /) -> Cursor: ...

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]], /) -> object: ...

    def transaction(self, wait_ms: int | None = None) -> AbstractContextManager[None]: ...

    def schema_version(self) -> int: ...

    def change_stamp(self) -> tuple[int, int] | None: ...  # differs once the data may have changed; None: unknown

    def set_schema_version(self, version: int) -> None: ...

    def run_script(self, script: str) -> None: ...

    def search(self, words: Sequence[str], limit: int) -> list[str]: ...

    def close(self) -> None: ...


def is_postgres_url(location: str | Path) -> bool:
    """True for a postgresql:// or postgres:// URL (a Path never is one: it folds the //)."""
    return isinstance(location, str) and location.lower().startswith(POSTGRES_SCHEMES)


def open_database(location: str | Path) -> Database:
    """The database at `location`: PostgreSQL for a URL (psycopg is imported only then), else a SQLite file."""
    if is_postgres_url(location):
        from errdex.store.postgres_db import PostgresDatabase

        return PostgresDatabase(str(location))
    from errdex.store.sqlite_db import SqliteDatabase

    return SqliteDatabase(Path(location))


def migrate(db: Database) -> None:
    """Apply the migrations this database lacks, holding the write lock (indexers may race)."""
    latest = len(db.migrations)
    if db.schema_version() == latest:
        return
    with db.transaction():
        version = db.schema_version()
        if version > latest:
            raise StoreError(f"{db.label} was written by a newer errdex (schema {version}); upgrade errdex")
        for number in range(version, latest):
            db.run_script(db.migrations[number])
        db.set_schema_version(latest)
