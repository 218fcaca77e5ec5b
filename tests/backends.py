"""Where tests put an index: a SQLite file, or a fresh database on the test PostgreSQL server.

ERRDEX_TEST_POSTGRES names the server: a postgresql:// URL whose user may create databases
(.ci/postgres starts one and prints it). Without it, the PostgreSQL variant of a test is skipped.
Every database made here is dropped at the end of the session (tests/conftest.py).
"""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from errdex.store import postgres_schema, schema
from errdex.store.backend import is_postgres_url

BACKENDS = ["sqlite", "postgresql"]
SKIP_REASON = "the PostgreSQL variant needs ERRDEX_TEST_POSTGRES=postgresql://... (.ci/postgres starts a server)"


class PostgresServer:
    """The test server: makes throwaway databases, and drops them all when closed."""

    def __init__(self, url: str) -> None:
        import psycopg

        self.url = url
        self.admin = psycopg.connect(url, autocommit=True)
        self.made: list[str] = []

    def database(self, template: str | None = None) -> str:
        """The URL of a new empty database, or of a copy of `template` (a database URL).

        A template must have no other sessions: theirs are ended first (a Store whose connection
        ends opens it again on its next read, as after a server restart).
        """
        name = f"errdex_test_{uuid.uuid4().hex[:16]}"
        copy = ""
        if template:
            source = database_name(template)
            self.admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                (source,),
            )
            copy = f' TEMPLATE "{source}"'
        self.admin.execute(f'CREATE DATABASE "{name}"{copy}')
        self.made.append(name)
        return with_database(self.url, name)

    def close(self) -> None:
        for name in self.made:
            self.admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self.admin.close()


_server: PostgresServer | None = None


def postgres() -> PostgresServer:
    """The test server (connected on first use), or skip the test when there is none."""
    global _server
    url = os.environ.get("ERRDEX_TEST_POSTGRES")
    if not url:
        pytest.skip(SKIP_REASON)
    if _server is None:
        _server = PostgresServer(url)
    return _server


def close_postgres() -> None:
    global _server
    if _server is not None:
        _server.close()
        _server = None


def new_index(backend: str, folder: Path, name: str = "errdex.db") -> str:
    """Where a test's empty index goes: a file in `folder`, or a new PostgreSQL database."""
    if backend == "postgresql":
        return postgres().database()
    return str(folder / name)


def copy_index(location: str | Path, folder: Path, name: str = "copy.db") -> str:
    """A copy of an index that a test may change (PostgreSQL: a database made from it as a template)."""
    if is_postgres(location):
        return postgres().database(template=str(location))
    shutil.copyfile(location, folder / name)
    return str(folder / name)


def is_postgres(location: str | Path) -> bool:
    return is_postgres_url(location)


def with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


def database_name(url: str) -> str:
    return urlsplit(url).path.lstrip("/")


def migrations(location: str | Path) -> list[str]:
    """The schema steps of the backend that holds `location`."""
    return postgres_schema.MIGRATIONS if is_postgres(location) else schema.MIGRATIONS


def set_schema_version_sql(location: str | Path, version: int) -> str:
    if is_postgres(location):
        return f"UPDATE schema_version SET version = {int(version)}"
    return f"PRAGMA user_version = {int(version)}"


def blob_sql(location: str | Path, data: bytes) -> str:
    """A literal of bytes in the backend's SQL."""
    return f"'\\x{data.hex()}'::bytea" if is_postgres(location) else f"X'{data.hex()}'"


def break_index(location: str | Path) -> None:
    """Make `location` something no Store can use: a file of garbage, a database that holds other tables."""
    if is_postgres(location):
        run_sql(location, "CREATE TABLE packages (unrelated INTEGER)")
    else:
        Path(location).write_text("this is not a database\n" * 100)


def run_sql(location: str | Path, script: str) -> None:
    """Run SQL on the database itself, not through a Store (to set up what a Store must cope with)."""
    if is_postgres(location):
        import psycopg

        with psycopg.connect(str(location), autocommit=True) as conn:
            conn.execute(script)  # type: ignore[arg-type]
        return
    import sqlite3

    conn = sqlite3.connect(location)
    try:
        conn.executescript(script)
    finally:
        conn.close()


def connect(location: str | Path) -> Any:
    """A plain DB-API connection to the database, in autocommit mode."""
    if is_postgres(location):
        import psycopg

        return psycopg.connect(str(location), autocommit=True)
    import sqlite3

    return sqlite3.connect(location, isolation_level=None)
