"""PostgreSQL under the Store (psycopg 3), so that several servers and indexers can share one index.

Reads run in autocommit, each statement on its own snapshot, as SQLite's do. Writers take one
advisory lock for the length of their transaction, so they go one at a time as in SQLite
(no deadlocks between two indexers that share files or errors) while readers never wait.
A connection the server dropped (a restart, a failover) is opened again by the next read or
write, so a long-running `errdex serve` outlives it. Imported only when a postgresql:// URL is
opened.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from errdex.errors import StoreError
from errdex.store.backend import WriteBusy, migrate
from errdex.store.postgres_schema import MIGRATIONS, WORDS

try:
    import psycopg
    from psycopg.abc import Buffer
    from psycopg.conninfo import conninfo_to_dict, make_conninfo
    from psycopg.types.string import StrDumperUnknown
except ImportError:  # pragma: no cover - depends on what is installed
    psycopg = None  # type: ignore[assignment]  # not installed: opening a PostgreSQL store says so
    StrDumperUnknown = object  # type: ignore[assignment,misc]  # so that the dumper class below still defines

# The key of the advisory lock every writer holds ("errdex" and a 1), in this database only.
WRITE_LOCK = 0x6572_7264_6578_0001
CONNECT_TIMEOUT = 10


class PostgresDatabase:
    """An errdex index in a PostgreSQL database."""

    migrations = MIGRATIONS
    like = "ILIKE"
    json_values = "SELECT jsonb_array_elements_text(CAST(? AS jsonb))"
    row_order = "id"
    failure = psycopg.Error if psycopg is not None else Exception

    def __init__(self, url: str) -> None:
        self.location = url
        self.label = redacted(url)
        if psycopg is None:
            raise StoreError(f"{self.label} is a PostgreSQL index, which needs psycopg: pip install 'errdex[postgres]'")
        self.writing = False
        self.conn = self._connect()
        try:
            migrate(self)
        except psycopg.Error as exc:
            self.conn.close()
            raise StoreError(
                f"{self.label} is not a usable errdex index ({_first_line(exc)}); pass another --db"
            ) from None
        except BaseException:
            self.conn.close()
            raise

    def _connect(self) -> psycopg.Connection[Any]:
        try:
            conninfo = self.location
            if "connect_timeout" not in conninfo_to_dict(conninfo):
                conninfo = make_conninfo(conninfo, connect_timeout=CONNECT_TIMEOUT)
            conn = psycopg.connect(conninfo, autocommit=True)
        except psycopg.Error as exc:
            raise StoreError(
                f"cannot open the PostgreSQL index {self.label} ({_first_line(exc)});"
                " check the URL and that the server is running"
            ) from None
        conn.adapters.register_dumper(str, _TextWithoutNul)
        return conn

    def close(self) -> None:
        self.conn.close()

    def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor[Any]:
        try:
            return self.conn.execute(_dialect(sql), params)
        except psycopg.OperationalError:
            if self.writing or not self.conn.broken:
                raise  # a write's transaction is lost with its connection: its caller must know
            self.conn = self._connect()  # a read, once more on a new connection
            return self.conn.execute(_dialect(sql), params)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with self.conn.cursor() as cursor:
            cursor.executemany(_dialect(sql), rows)

    @contextmanager
    def transaction(self, wait_ms: int | None = None) -> Iterator[None]:
        """BEGIN, wait for the write lock, ... COMMIT; ROLLBACK on any exception (KeyboardInterrupt included).

        With `wait_ms`, WriteBusy if another writer holds the lock that long.
        """
        self.execute("SELECT 1")  # a read: opens the connection again if the server dropped it
        self.writing = True
        try:
            with self.conn.transaction():
                if wait_ms is not None:
                    self.conn.execute(f"SET LOCAL lock_timeout = {int(wait_ms)}")
                self.conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
                yield
        except psycopg.errors.LockNotAvailable as exc:
            if wait_ms is None:
                raise
            raise WriteBusy(f"{self.label}: another process is writing ({_first_line(exc)})") from None
        finally:
            self.writing = False

    def change_stamp(self) -> None:
        """Unknown: PostgreSQL has no cheap sign of another connection's commit."""
        return None

    def schema_version(self) -> int:
        # pg_tables through the statement's snapshot, not to_regclass: in a transaction that began
        # before another process created the table, to_regclass still answers from a stale cache.
        exists = self.conn.execute(
            "SELECT 1 FROM pg_catalog.pg_tables"
            " WHERE tablename = 'schema_version' AND schemaname = ANY (current_schemas(false))"
        ).fetchone()
        if exists is None:
            return 0
        row = self.conn.execute("SELECT version FROM schema_version").fetchone()
        return 0 if row is None else int(row[0])

    def set_schema_version(self, version: int) -> None:
        self.conn.execute("UPDATE schema_version SET version = %s", (version,))

    def run_script(self, script: str) -> None:
        self.conn.execute(script)  # no parameters: one round trip, several statements

    def search(self, words: Sequence[str], limit: int) -> list[str]:
        """Error ids whose template has every word (each a phrase of its own words), best first."""
        words = [w for w in words if w]
        if not words:
            return []
        phrase = "phraseto_tsquery('simple', " + WORDS.format(text='CAST(? AS TEXT) COLLATE "C"') + ")"
        query = " && ".join([phrase] * len(words))
        rows = self.execute(
            f"SELECT error_id FROM errors_fts, (SELECT {query} AS q) AS wanted WHERE words @@ q"
            " ORDER BY ts_rank(words, q) DESC, error_id LIMIT ?",
            [*words, limit],
        )
        return [r[0] for r in rows]


class _TextWithoutNul(StrDumperUnknown):
    """Strings as psycopg sends them, but a NUL (which PostgreSQL text cannot hold, and a hostile
    source's string literal can) becomes U+FFFD, instead of failing the whole release."""

    def dump(self, obj: str) -> Buffer | None:
        return super().dump(obj.replace("\x00", "\ufffd") if "\x00" in obj else obj)


def redacted(url: str) -> str:
    """The URL without its password or query (which may hold one): for messages."""
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    user = f"{parts.username}@" if parts.username else ""
    return f"{parts.scheme}://{user}{host}{parts.path}"


@lru_cache(maxsize=512)
def _dialect(sql: str) -> str:
    """The Store's SQL for psycopg: `?` outside quotes becomes `%s`, a literal `%` becomes `%%`."""
    out: list[str] = []
    quoted = False
    for char in sql:
        if char == "'":
            quoted = not quoted
        if char == "%":
            out.append("%%")
        elif char == "?" and not quoted:
            out.append("%s")
        else:
            out.append(char)
    return "".join(out)


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
