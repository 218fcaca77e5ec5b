"""Fixtures shared by every test module: real releases indexed once per test session.

Real releases are downloaded through pip into ~/.cache/errdex-tests (ERRDEX_TEST_CACHE
overrides it) the first time, so a second run of the suite is offline.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.index import index
from errdex.store import Store

TEST_CACHE = Path(os.environ.get("ERRDEX_TEST_CACHE", Path.home() / ".cache" / "errdex-tests"))
FLAGSHIP = "transformers==5.16.0"


@pytest.fixture(scope="session")
def release_cache() -> Path:
    """Where real releases fetched by tests are kept between runs."""
    TEST_CACHE.mkdir(parents=True, exist_ok=True)
    return TEST_CACHE


@pytest.fixture(scope="session")
def transformers_db(tmp_path_factory: pytest.TempPathFactory, release_cache: Path) -> Path:
    """A database file with the real transformers 5.16.0 wheel indexed (read-only for tests)."""
    path = tmp_path_factory.mktemp("transformers") / "errdex.db"
    with Store(path) as store:
        index(FLAGSHIP, store, cache_dir=release_cache)
    return path


@pytest.fixture
def transformers_store(transformers_db: Path) -> Iterator[Store]:
    """The shared transformers index, opened for one test."""
    with Store(transformers_db) as store:
        yield store
