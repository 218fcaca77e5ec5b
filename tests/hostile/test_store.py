"""The store while other processes write, on each backend: a kill -9 in the middle of a release
write, a reader during a long write.

Also in tests/store/: kill -9 while analysing, two indexers at once, a reader during a write
(test_durability.py); older, corrupt and newer databases (test_store.py).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from errdex.match import explain
from errdex.store import Store
from errdex.store.postgres_db import WRITE_LOCK
from errdex.web import create_app
from tests.backends import connect, is_postgres
from tests.fixtures import shop, write_tree
from tests.store.test_durability import big_package

TURBO = "ValueError: mode must be one of ('fast', 'slow'), got 'turbo'"


def wal_size(db: Path) -> int:
    wal = db.with_name(db.name + "-wal")
    return wal.stat().st_size if wal.exists() else 0


def writing_sites(watcher: Any) -> bool:
    """PostgreSQL: another process holds the write lock and is inserting the release's sites."""
    return bool(
        watcher.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
            " WHERE l.locktype = 'advisory' AND l.granted AND a.datname = current_database()"
            " AND a.query LIKE 'INSERT INTO sites%')"
        ).fetchone()[0]
    )


def test_kill_9_in_the_middle_of_writing_a_release_leaves_no_half_release(tmp_path: Path, db_url: str) -> None:
    db = db_url
    root = write_tree(tmp_path / "shop", shop())
    assert (
        subprocess.run([sys.executable, "-m", "errdex", "index", str(root), "--db", db], capture_output=True).returncode
        == 0
    )
    before = 0 if is_postgres(db) else wal_size(Path(db))
    big = big_package(tmp_path / "big", "bigpkg", files=1500)
    proc = subprocess.Popen(
        [sys.executable, "-m", "errdex", "index", str(big), "--db", db, "--workers", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    watcher = connect(db)
    try:
        # Kill when half the release's rows are written (SQLite: the whole write takes about 30 MB of
        # log; PostgreSQL: while its sites are inserted), or as soon as another process can see a
        # second release: a write that is not one transaction.
        while proc.poll() is None:
            if (
                is_postgres(db)
                and writing_sites(watcher)
                or not is_postgres(db)
                and wal_size(Path(db)) >= before + (16 << 20)
            ):
                break
            if watcher.execute("SELECT COUNT(*) FROM releases").fetchone()[0] > 1:
                break
            time.sleep(0.005)
    finally:
        watcher.close()
    assert proc.poll() is None, "the release was written before it could be killed; make the package bigger"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with Store(db) as store:
        if not is_postgres(db):
            assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert [p.name for p in store.packages()] == ["shop"]
        assert store.db.execute("SELECT COUNT(*) FROM releases").fetchone()[0] == 1
        assert len(store.errors("shop")) == 2


@pytest.fixture
def locked(tmp_path: Path, db_url: str) -> Iterator[str]:
    """An index with an empty cache, while another connection is writing pages of a release (not committed)."""
    db = db_url
    from errdex.indexing import index

    with Store(db) as store:
        index(str(write_tree(tmp_path / "shop", shop())), store)
        store.db.execute("DELETE FROM caches")
    writer = connect(db)
    if is_postgres(db):
        writer.execute("BEGIN")
        writer.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))  # what every writer holds
        writer.execute("DELETE FROM sites")
        writer.execute(
            "INSERT INTO caches (key, generation, data) VALUES ('spill', 0, decode(repeat('00', 20000000), 'hex'))"
        )
    else:
        writer.execute("PRAGMA cache_size = 1")  # pages go to disk at once, as in a large release's write
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("DELETE FROM sites")
        writer.execute("INSERT INTO caches (key, generation, data) VALUES ('spill', 0, zeroblob(20000000))")
    try:
        yield db
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_a_cache_write_while_an_indexer_writes_is_skipped(locked: str) -> None:
    with Store(locked) as store:
        assert store.cache_put("derived", b"data") is False
        assert store.cache_get("derived") is None


def test_a_reader_is_not_blocked_by_a_writer_that_has_written_pages(locked: str) -> None:
    with Store(locked) as reader:
        assert len(reader.errors("shop")) == 2


def test_explaining_while_an_indexer_writes_answers_without_waiting_for_it(locked: str) -> None:
    with Store(locked) as store:
        result = explain(TURBO, store=store, auto_index=False)
    assert not result.abstain and result.matches[0].values == ("('fast', 'slow')", "'turbo'")


def test_the_server_starts_while_an_indexer_writes(locked: str) -> None:
    create_app(locked).state.context.warm()  # what uvicorn runs at start-up; it used to fail: database is locked
