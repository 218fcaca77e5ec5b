"""A batch on a Dask cluster: an existing scheduler by address, or a LocalCluster started here.

Dask's `Client.get_executor()` is a `concurrent.futures.Executor`, so the batch loop of
`errdex.indexing.bulk` drives it like the local process pool. Workers of a LocalCluster are processes on
this machine and open the store by path; workers behind a scheduler address may be on other
machines, so they never do (SQLite must not be shared across machines, even on a shared
filesystem) and prepare without it. Dask is optional: `pip install 'errdex[cluster]'`.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from errdex.errors import InputError
from errdex.indexing.bulk import Engine

LOCAL = "local"  # the address that starts a LocalCluster instead of connecting to a scheduler


@contextmanager
def dask_engine(address: str, workers: int | None = None) -> Iterator[Engine]:
    """An engine on the Dask scheduler at `address`, or on a LocalCluster of `workers` processes ("local")."""
    distributed = _import_distributed()
    if address == LOCAL:
        with local_cluster(workers) as cluster, distributed.Client(cluster) as client:
            yield _engine(client, reads_store=True)
        return
    with _connect(distributed, address) as client:
        yield _engine(client, reads_store=False)


def local_cluster(workers: int | None = None) -> Any:
    """A LocalCluster of `workers` single-threaded processes (default: one a core), quiet, no dashboard."""
    distributed = _import_distributed()
    return distributed.LocalCluster(
        n_workers=workers or os.cpu_count() or 1,
        threads_per_worker=1,
        processes=True,
        silence_logs=logging.ERROR,
        dashboard_address="127.0.0.1:0",
        scheduler_kwargs={"dashboard": False},  # only its health page, on a free port
    )


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError as exc:
        raise InputError(
            "indexing on a cluster needs Dask, which is not installed: pip install 'errdex[cluster]'"
        ) from exc
    return distributed


def _connect(distributed: Any, address: str) -> Any:
    """A client of the scheduler at `address`; one clear error when it cannot be reached."""
    try:
        return distributed.Client(address)
    except (OSError, ValueError) as exc:  # refused, timed out, unknown host; a malformed address
        raise InputError(
            f"cannot reach the Dask scheduler at {address!r} ({exc}); is a scheduler running there (`dask scheduler`)?"
        ) from exc


def _engine(client: Any, reads_store: bool) -> Engine:
    """One release in flight per worker thread the cluster has now (at least one)."""
    slots = max(1, sum(client.nthreads().values()))
    return Engine(client.get_executor(pure=False), slots, reads_store)
