"""A small package, in two versions, that the matcher tests index from a folder in tmp_path."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from pathlib import Path

from errdex.indexing import index
from errdex.match.tables import Core
from errdex.store import Store
from tests.backends import new_index
from tests.fixtures import write_tree

CART = """
import logging
import warnings

from shop.errors import ShopError

logger = logging.getLogger(__name__)
MODES = ("fast", "slow", "steady")


class Cart:
    def __init__(self, mode="fast", size=1):
        if mode not in MODES:
            raise ValueError(f"Unknown mode {mode!r}. Choose one of: {MODES}")
        if size <= 0:
            raise ShopError(f"size must be positive, got {size}")
        if size > 100:
            warnings.warn(f"size {size} is large and checkout will be slow", FutureWarning)
        if mode == "slow":
            logger.warning("Slow mode uses %s workers for %s items", 1, size)

    def find(self, pattern):
        raise ValueError(f"bad pattern (.*)+[a-z]{{2,}} \\\\d+$ ^ | {pattern} (?P<x>")
"""

CHECKS = """
def check_{name}(value):
    if value is None:
        raise TypeError(f"value for {{value}} must not be None")
    raise KeyError(f"no item named {{value!r}}")
"""


def shop_files(version: str = "1.0") -> dict[str, str]:
    """The shop package; version 2.0 words its mode error differently."""
    cart = (
        CART
        if version == "1.0"
        else CART.replace(
            'f"Unknown mode {mode!r}. Choose one of: {MODES}"', 'f"Unknown mode {mode!r}; please choose one of {MODES}"'
        )
    )
    return {
        "pyproject.toml": f'[project]\nname = "shop"\nversion = "{version}"\n',
        "shop/__init__.py": "",
        "shop/errors.py": "class ShopError(ValueError):\n    pass\n",
        "shop/cart.py": textwrap.dedent(cart),
        "shop/alpha.py": CHECKS.format(name="alpha"),
        "shop/beta.py": "\n\n" + CHECKS.format(name="beta"),
    }


def write_shop(root: Path, version: str = "1.0") -> Path:
    folder = root / f"shop-{version}"
    for rel, text in shop_files(version).items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return folder


def shop_store(root: Path, *versions: str, backend: str = "sqlite") -> Store:
    """A store (in `root`, or a new PostgreSQL database) with the given versions of shop indexed."""
    store = Store(new_index(backend, root, "shop.db"))
    for version in versions or ("1.0",):
        index(str(write_shop(root, version)), store)
    return store


def module_index(root: Path, backend: str, package: str, module: str, code: str) -> str:
    """Where an index (in `root`, or a new PostgreSQL database) of a package of one module holding `code` is:
    `package` 1.0 with `package/module.py`."""
    folder = write_tree(
        root / f"{package}-1.0",
        {
            "pyproject.toml": f'[project]\nname = "{package}"\nversion = "1.0"\n',
            f"{package}/__init__.py": "",
            f"{package}/{module}.py": code,
        },
    )
    where = new_index(backend, root, f"{package}.db")
    with Store(where) as store:
        index(str(folder), store)
    return where


def loaded_state(core: Core) -> tuple[frozenset[object], ...]:
    """What the matcher's tables have read or worked out since they were loaded: the shards read from the store, the
    templates cut, the classes named, the releases and source files read (by key), whether the class names are."""
    held: list[Iterable[object]] = [
        core.error_shards,
        core.file_shards,
        core.cuts,
        core.raised_names,
        core.releases,
        core.sources,
        [core.exception_names is not None],
    ]
    return tuple(map(frozenset, held))
