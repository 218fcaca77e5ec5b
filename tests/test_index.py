"""The indexing pipeline leaves the process's garbage collector as it found it."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from errdex.indexing import index
from errdex.store import Store
from tests.fixtures import write_tree


@pytest.mark.parametrize("enabled", [True, False])
def test_index_restores_the_garbage_collector(tmp_path: Path, enabled: bool) -> None:
    root = write_tree(
        tmp_path / "src", {"pkg/__init__.py": "def f(x):\n    if x:\n        raise ValueError(f'bad {x}')\n"}
    )
    (gc.enable if enabled else gc.disable)()
    try:
        with Store(tmp_path / "index.db") as store:
            result = index(str(root), store, name="pkg", version="1.0")
        assert gc.isenabled() is enabled
        assert result.release.site_count == 1
    finally:
        gc.enable()
