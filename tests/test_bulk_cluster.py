"""A batch on a real Dask cluster stores what the local process pool stores; failures and errors are clear.

One LocalCluster (2 worker processes, one thread each, no dashboard) serves the module. It is
used twice over: as workers that open the store by path (same machine), and through its
scheduler's address as a remote cluster would be, whose workers prepare without the store.
"""

from __future__ import annotations

import dataclasses
import json
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dask
import psutil
import pytest
from click.testing import CliRunner

from errdex.cli import main
from errdex.errors import InputError
from errdex.indexing.bulk import Engine, Options, index_many
from errdex.indexing.cluster import dask_engine, local_cluster
from errdex.store import Store
from tests.backends import new_index
from tests.fixtures import shop, write_tree
from tests.test_bulk import wheels


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a LocalCluster's scheduler, for the whole module; closed (workers too) after it."""
    with local_cluster(2) as cluster:
        yield cluster.scheduler_address


@pytest.fixture(params=["reads the store", "remote"])
def engine(request: pytest.FixtureRequest, scheduler: str) -> Iterator[Engine]:
    """The cluster as a remote one (workers prepare without the store), or as the same machine's."""
    with dask_engine(scheduler) as remote:
        yield remote if request.param == "remote" else dataclasses.replace(remote, reads_store=True)


def specs(folder: Path) -> list[str]:
    """Five wheels of two packages and a folder of a third."""
    return [*wheels(folder / "w"), str(write_tree(folder / "depot", {**shop("4.0"), "pyproject.toml": _depot()}))]


def _depot() -> str:
    return '[project]\nname = "depot"\nversion = "1.0"\n'


def contents(db: str) -> dict[tuple[str, str], Any]:
    """Every release of a store with its counts, digest and (error id, site) rows, comparable."""
    with Store(db) as store:
        out = {}
        for package in store.packages():
            for r in store.releases(package.name):
                sites = sorted(store.release_sites(r), key=repr)
                out[(r.package, r.version)] = (r.digest, r.file_count, r.site_count, r.error_count, r.skip_count, sites)
    return out


DEFAULT_OPTIONS = Options()


def pool_contents(specs: list[str], db: str, options: Options = DEFAULT_OPTIONS) -> dict[tuple[str, str], Any]:
    with Store(db) as store:
        status = index_many(specs, store, options, jobs=2)
    assert not status.failures
    return contents(db)


def test_a_cluster_stores_what_the_local_pool_stores(tmp_path: Path, backend: str, engine: Engine) -> None:
    batch = specs(tmp_path)
    db = new_index(backend, tmp_path, "cluster.db")
    with Store(db) as store:
        status = index_many(batch, store, engine=engine)
    assert [o.status for o in status.outcomes].count("indexed") == 6
    assert status.files == 3 * 2 + 2 * 2 + 2 and status.errors == 3 * 2 + 2 * 1 + 2
    stored = contents(db)
    assert stored == pool_contents(batch, new_index(backend, tmp_path, "pool.db"))
    assert len(stored) == 6
    with Store(db) as store:
        again = index_many(batch, store, engine=engine)
    assert [o.status for o in again.outcomes] == ["unchanged"] * 6  # resumes: nothing written twice


def test_a_failing_spec_is_recorded_and_the_rest_is_indexed(tmp_path: Path, engine: Engine) -> None:
    broken = tmp_path / "broken-1.0.tar.gz"
    broken.write_bytes(b"not an archive")
    batch = [str(tmp_path / "missing"), str(broken), *wheels(tmp_path / "w")[:2]]
    with Store(tmp_path / "errdex.db") as store:
        status = index_many(batch, store, engine=engine)
        assert [r.version for r in store.releases("shop")] == ["1.0", "2.0"]
    failed = {o.spec: o.error for o in status.failures}
    assert set(failed) == {str(tmp_path / "missing"), str(broken)}
    assert "No such file or folder" in (failed[str(tmp_path / "missing")] or "")
    assert [o.status for o in status.outcomes].count("indexed") == 2


def test_cli_on_a_cluster_reports_like_the_local_pool(tmp_path: Path, scheduler: str) -> None:
    listing = tmp_path / "list.txt"
    specs = wheels(tmp_path / "w")
    listing.write_text("\n".join([*specs, str(tmp_path / "missing")]) + "\n")
    db = str(tmp_path / "errdex.db")
    first = CliRunner().invoke(main, ["index", "-r", str(listing), "--cluster", scheduler, "--json", "--db", db])
    assert first.exit_code == 1, first.output
    statuses = {e["spec"]: e["status"] for e in json.loads(first.stdout)}  # in the order they ended
    assert statuses == {**{spec: "indexed" for spec in specs}, str(tmp_path / "missing"): "failed"}
    again = CliRunner().invoke(main, ["index", "-r", str(listing), "--cluster", scheduler, "--db", db])
    assert again.exit_code == 1
    assert "6 releases: 0 indexed, 5 unchanged, 1 failed" in again.stdout
    assert "missing" in again.stderr and "No such file or folder" in again.stderr


def test_cli_starts_a_local_cluster_and_shuts_it_down(tmp_path: Path) -> None:
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    args = ["index", *wheels(tmp_path / "w"), "--cluster", "local", "--workers", "2", "--json"]
    result = CliRunner().invoke(main, [*args, "--db", str(tmp_path / "e.db")])
    assert result.exit_code == 0, result.output
    assert [e["status"] for e in json.loads(result.stdout)] == ["indexed"] * 5
    assert {p.pid for p in psutil.Process().children(recursive=True) if p.is_running()} <= before


def test_an_unreachable_scheduler_is_named_and_nothing_is_lost(tmp_path: Path) -> None:
    db = str(tmp_path / "errdex.db")
    kept = wheels(tmp_path / "w")[0]
    assert CliRunner().invoke(main, ["index", kept, "--db", db]).exit_code == 0
    address = f"tcp://127.0.0.1:{_closed_port()}"
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        result = CliRunner().invoke(main, ["index", *wheels(tmp_path / "w"), "--cluster", address, "--db", db])
    assert result.exit_code == 1
    assert f"cannot reach the Dask scheduler at '{address}'" in result.stderr
    assert "Traceback" not in result.output
    with Store(db) as store:
        assert [r.version for r in store.releases("shop")] == ["1.0"]


def test_installed_distributions_are_not_read_by_remote_workers(tmp_path: Path) -> None:
    args = ["index", "click", "--installed", "--cluster", "tcp://127.0.0.1:1", "--db", str(tmp_path / "e.db")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1 and "--installed reads this environment" in result.stderr


def test_a_missing_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if errdex[cluster] were not installed
    with pytest.raises(InputError, match=r"pip install 'errdex\[cluster\]'"):
        with dask_engine("local"):
            pass
    result = CliRunner().invoke(main, ["index", str(tmp_path), "--cluster", "local", "--db", str(tmp_path / "e.db")])
    assert result.exit_code == 1 and "errdex[cluster]" in result.stderr


@pytest.mark.network
def test_real_releases_on_a_cluster_equal_the_local_pool(tmp_path: Path, engine: Engine, release_cache: Path) -> None:
    batch = ["packaging==24.0", "packaging==24.1"]
    options = Options(cache_dir=release_cache)
    db = str(tmp_path / "cluster.db")
    with Store(db) as store:
        status = index_many(batch, store, options, engine=engine)
        again = index_many(batch, store, options, engine=engine)
    assert [o.status for o in status.outcomes] == ["indexed", "indexed"], status.failures
    assert [o.status for o in again.outcomes] == ["unchanged", "unchanged"]  # a resumed batch skips them on any worker
    assert contents(db) == pool_contents(batch, str(tmp_path / "pool.db"), options)


def _closed_port() -> int:
    """A local port nothing listens on (it was free a moment ago)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
