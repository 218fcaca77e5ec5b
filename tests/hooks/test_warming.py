"""What a hook loads when it starts: the matcher's tables for the indexed packages installed here, in a thread."""

from __future__ import annotations

from pathlib import Path

from errdex.hooks.warming import load, warm_in_background
from errdex.indexing import index
from errdex.match.tables import forget, tables_for
from errdex.store import Store
from tests.fixtures import shop, write_tree


def test_a_hook_loads_the_indexed_packages_installed_here_in_a_thread_once(tmp_path: Path) -> None:
    db = tmp_path / "hooks.db"
    with Store(db) as store:
        index("click", store, installed=True)
        index(str(write_tree(tmp_path / "shop", shop())), store)  # indexed, not installed here
    forget()
    thread = warm_in_background(db)
    assert thread is not None and warm_in_background(db) is None  # once per index
    thread.join(timeout=120)
    with Store(db) as store:
        assert tables_for(store).loaded() == {"click"}
    assert load(tmp_path / "none.db") is None and not (tmp_path / "none.db").exists()  # no index is made
