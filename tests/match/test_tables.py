"""The matcher's tables: built once per store generation, stored in the index, loaded back the same."""

from __future__ import annotations

import marshal
import sys
from pathlib import Path

from errdex.indexing import index
from errdex.match import explain
from errdex.match.tables import CORE_KEY, Core, FixedWidth, forget, tables_for
from errdex.store import Store
from tests.match.packages import shop_store, write_shop


def test_tables_are_stored_and_loaded_back(tmp_path: Path, backend: str) -> None:
    with shop_store(tmp_path, "1.0", backend=backend) as store:
        built = tables_for(store).core
        forget()
        loaded = tables_for(store).core
        assert loaded is not built
        assert list(loaded.ids) == list(built.ids) and loaded.template == built.template
        assert loaded.keys == built.keys and list(loaded.package) == list(built.package)
        places = tables_for(store).places(loaded.template.index("Unknown mode {}. Choose one of: {}"))
        assert [(p.version, p.file, p.line, p.function) for p in places] == [
            ("1.0", "shop/cart.py", 14, "Cart.__init__")
        ]


def test_indexing_a_release_makes_new_tables(tmp_path: Path, backend: str) -> None:
    with shop_store(tmp_path, "1.0", backend=backend) as store:
        before = tables_for(store).core
        index(str(write_shop(tmp_path, "2.0")), store)
        after = tables_for(store).core
        assert "Unknown mode {}; please choose one of {}" in after.template
        assert "Unknown mode {}; please choose one of {}" not in before.template


def test_templates_that_are_not_ascii_are_loaded_back_and_found(tmp_path: Path) -> None:
    folder = write_shop(tmp_path, "1.0")
    raising = 'def check(v):\n    raise ValueError(f"Ungültige Größe für {v}")\n'
    (folder / "shop" / "umlaut.py").write_text(raising, encoding="utf-8")
    with Store(tmp_path / "umlaut.db") as store:
        index(str(folder), store)
        built = tables_for(store).core
        forget()
        loaded = tables_for(store).core
        assert loaded.template == built.template and loaded.keys == built.keys and loaded.words == built.words
        assert "Ungültige Größe für {}" in loaded.template and loaded.template.text.isascii()
        assert loaded.keys.keys.text.isascii() and loaded.keys.apart
        found = explain("ValueError: Ungültige Größe für 12", store=store, auto_index=False).matches[0]
        assert (found.file, found.template) == ("shop/umlaut.py", "Ungültige Größe für {}")


def test_damaged_tables_or_of_another_byte_order_are_ignored(tmp_path: Path, backend: str) -> None:
    assert Core.loads(b"not marshal data") is None
    other_order = "big" if sys.byteorder == "little" else "little"
    assert Core.loads(marshal.dumps((other_order, ()))) is None  # written on a machine of the other byte order
    with shop_store(tmp_path, "1.0", backend=backend) as store:
        store.cache_put(CORE_KEY, b"\x00garbage")
        forget()
        assert tables_for(store).core.template  # rebuilt


def test_fixed_width_ids_iterate_and_stop() -> None:
    ids = FixedWidth("aaaabbbbcccc", 4)
    assert list(ids) == ["aaaa", "bbbb", "cccc"] and len(ids) == 3 and ids[1] == "bbbb"
    assert dict(enumerate(ids)) == {0: "aaaa", 1: "bbbb", 2: "cccc"}
