"""Loading the matcher's tables for some packages up front: their first query then loads nothing more."""

from __future__ import annotations

from pathlib import Path

from errdex.indexing import index
from errdex.match import explain, warm
from errdex.match.tables import forget, tables_for
from tests.fixtures import write_tree
from tests.match.packages import loaded_state, shop_store

KILN_TRACEBACK = """Traceback (most recent call last):
  File "/home/me/bake.py", line 3, in <module>
    fire(900)
  File "/usr/lib/python3/site-packages/kiln/core.py", line 3, in fire
    raise ValueError(f"temperature {degrees} is above the limit")
ValueError: temperature 900 is above the limit
"""


def package(root: Path, name: str, message: str) -> str:
    """A folder holding release 1.0 of `name`, whose `name/core.py` raises ValueError(`message`) on line 3."""
    code = f'def fire(degrees):\n    if degrees > 800:\n        raise ValueError(f"{message}")\n'
    files = {"pyproject.toml": f'[project]\nname = "{name}"\nversion = "1.0"\n', f"{name}/core.py": code}
    return str(write_tree(root / name, {f"{name}/__init__.py": "", **files}))


def test_the_first_queries_of_loaded_packages_load_nothing_more(tmp_path: Path, backend: str) -> None:
    with shop_store(tmp_path, "1.0", "2.0", backend=backend) as store:
        index(package(tmp_path, "kiln", "temperature {degrees} is above the limit"), store)
        index(package(tmp_path, "oven", "oven at {degrees} degrees is too hot"), store)
        forget()  # as in a new process
        tables = tables_for(store)
        loaded = warm(store, ["shop", "KILN", "not-indexed"])
        assert loaded.packages == ("kiln", "shop") and loaded.errors > 0 and loaded.files > 0
        assert tables.loaded() == {"shop", "kiln"}
        held = loaded_state(tables.core)

        shop = explain("ShopError: size must be positive, got -1", store=store).best
        kiln = explain(KILN_TRACEBACK, store=store).best
        assert shop is not None and shop.package == "shop" and shop.evidence == ("message", "exception")
        assert kiln is not None and kiln.package == "kiln" and "frame line" in kiln.evidence
        assert loaded_state(tables.core) == held

        oven = explain("ValueError: oven at 900 degrees is too hot", store=store).best
        assert oven is not None and oven.package == "oven"
        assert loaded_state(tables.core) != held  # what the package left out read for its first query
        assert warm(store, ["kiln"]).errors == 0  # loaded before: not again
