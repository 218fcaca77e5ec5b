"""The store under real processes, on each backend: kill -9 mid-index, two indexers at once, a reader during a write."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from errdex.store import Store
from errdex.store.postgres_db import WRITE_LOCK
from tests.backends import connect, is_postgres
from tests.fixtures import shop, write_tree


def big_package(root: Path, name: str, files: int = 1500) -> Path:
    """A generated package large enough that indexing it takes a moment."""
    body = "\n".join(
        f"def check_{i}(x):\n    if x not in OPTIONS_{i % 7}:\n        raise ValueError(f'bad {{x}} for check {i}')\n"
        for i in range(40)
    )
    constants = "\n".join(f"OPTIONS_{i} = ('a{i}', 'b{i}')" for i in range(7))
    tree = {"pyproject.toml": f'[project]\nname = "{name}"\nversion = "1.0"\n', f"{name}/__init__.py": ""}
    for i in range(files):
        tree[f"{name}/mod_{i}.py"] = constants + "\n\n" + body.replace("check ", f"check {i}.")
    return write_tree(root, tree)


def index_process(db: str, spec: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "errdex", "index", spec, "--db", str(db), "--json", "--workers", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def test_kill_9_during_indexing_loses_nothing_committed(tmp_path: Path, db_url: str) -> None:
    db = db_url
    root = write_tree(tmp_path / "shop", shop())
    assert index_process(db, str(root)).wait() == 0
    big = big_package(tmp_path / "big", "bigpkg")
    proc = index_process(db, str(big))
    time.sleep(1.5)
    assert proc.poll() is None, "indexing finished before it could be killed; make the package bigger"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with Store(db) as store:
        if not is_postgres(db):
            assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert [r.version for r in store.releases("shop")] == ["1.0"]
        assert len(store.errors("shop")) == 2
        assert [p.name for p in store.packages()] == ["shop"]  # no half release


def test_two_indexers_on_one_database(tmp_path: Path, db_url: str) -> None:
    db = db_url  # new: both processes create the schema at once
    first = big_package(tmp_path / "one", "pkgone", files=300)
    second = big_package(tmp_path / "two", "pkgtwo", files=300)
    procs = [index_process(db, str(first)), index_process(db, str(second))]
    assert [p.wait() for p in procs] == [0, 0], [p.stderr.read() for p in procs]
    with Store(db) as store:
        assert {p.name for p in store.packages()} == {"pkgone", "pkgtwo"}
        assert store.release("pkgone").error_count == store.release("pkgtwo").error_count == 300 * 40


def test_reader_is_not_blocked_while_a_release_is_written(tmp_path: Path, db_url: str) -> None:
    db = db_url
    root = write_tree(tmp_path / "shop", shop())
    assert index_process(db, str(root)).wait() == 0
    writer = connect(db)
    if is_postgres(db):
        writer.execute("BEGIN")
        writer.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))  # what every writer holds
    else:
        writer.execute("BEGIN IMMEDIATE")
    writer.execute("DELETE FROM sites")  # uncommitted: a write in progress
    try:
        with Store(db) as reader:
            assert len(reader.errors("shop")) == 2
    finally:
        writer.execute("ROLLBACK")
        writer.close()


@pytest.mark.parametrize("workers", [1, 2])
def test_result_does_not_depend_on_the_number_of_workers(tmp_path: Path, db_url: str, workers: int) -> None:
    from errdex.indexing import index

    big = big_package(tmp_path / "big", "wpkg", files=80)
    with Store(db_url) as store:
        result = index(str(big), store, workers=workers)
        assert result.release.error_count == 80 * 40


def test_processes_that_open_one_new_index_at_once_all_succeed(db_url: str) -> None:
    """Each creates the schema unless another did: the migrations run under the write lock."""
    code = "import sys; from errdex.store import Store; Store(sys.argv[1]).close()"
    procs = [subprocess.Popen([sys.executable, "-c", code, db_url], stderr=subprocess.PIPE) for _ in range(6)]
    assert [p.wait() for p in procs] == [0] * 6, [p.stderr.read() for p in procs]
    with Store(db_url) as store:
        assert store.stats().packages == 0


def test_new_files_stored_ahead_of_their_release_are_kept_and_reused(tmp_path: Path, db_url: str) -> None:
    """A worker stores a release's new files while the parent links it: if the release is then never
    written (an error, Ctrl-C), the store has the files and no release, and the next index analyses none."""
    from errdex.indexing import index, prepare
    from errdex.sources import open_source

    big = big_package(tmp_path / "big", "epkg", files=80)
    with Store(db_url) as store:
        with open_source(str(big)) as source:
            files = list(source.files())
            prepared = prepare(source.info, files, store, workers=2, store_files=True)
        assert prepared.new_files == [] and prepared.analysed == len({f.sha256 for f in files})
        assert store.packages() == [] and store.stats().files == prepared.analysed
        result = index(str(big), store, workers=2)
        assert (result.analysed, result.reused, result.release.error_count) == (0, len(files), 80 * 40)
