"""Fixtures shared by every test module: real releases indexed once per test session.

Real releases are downloaded through pip into ~/.cache/errdex-tests (ERRDEX_TEST_CACHE
overrides it) the first time, so a second run of the suite is offline.

Tests that open an index take `db_url` (or `transformers_db`, or `backend` to make their own with
tests.backends.new_index) and run once per backend: SQLite, and PostgreSQL when
ERRDEX_TEST_POSTGRES names a server (tests/backends.py).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.indexing import index
from errdex.store import Store
from tests.backends import BACKENDS, close_postgres, new_index

TEST_CACHE = Path(os.environ.get("ERRDEX_TEST_CACHE", Path.home() / ".cache" / "errdex-tests"))
FLAGSHIP = "transformers==5.16.0"


@pytest.fixture(scope="session")
def release_cache() -> Path:
    """Where real releases fetched by tests are kept between runs."""
    TEST_CACHE.mkdir(parents=True, exist_ok=True)
    return TEST_CACHE


@pytest.fixture(scope="session", autouse=True)
def _drop_test_databases() -> Iterator[None]:
    """Drop the PostgreSQL databases the session made."""
    yield
    close_postgres()


@pytest.fixture(scope="session", params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The backend a test's indexes are on: "sqlite" or "postgresql"."""
    return request.param


@pytest.fixture
def db_url(backend: str, tmp_path: Path) -> str:
    """Where this test's empty index goes, once per backend: a file path or a postgresql:// URL."""
    return new_index(backend, tmp_path)


@pytest.fixture(scope="session")
def transformers_db(backend: str, tmp_path_factory: pytest.TempPathFactory, release_cache: Path) -> str:
    """An index (file or database) with the real transformers 5.16.0 wheel indexed (read-only for tests)."""
    location = new_index(backend, tmp_path_factory.mktemp("transformers"))
    with Store(location) as store:
        index(FLAGSHIP, store, cache_dir=release_cache)
    return location


@pytest.fixture
def transformers_store(transformers_db: str) -> Iterator[Store]:
    """The shared transformers index, opened for one test."""
    with Store(transformers_db) as store:
        yield store
