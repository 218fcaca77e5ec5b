"""Load now what the first answers about some packages would load, for a process answering many (a server, a hook)."""

from __future__ import annotations

from collections.abc import Collection

from errdex.match.autoindex import installed_version
from errdex.match.suggest import load_scorer
from errdex.match.tables import Loaded, tables_for
from errdex.store import Store


def warm(store: Store, packages: Collection[str] | None = None) -> Loaded:
    """Load the matcher's tables of `store` for `packages` (None: every indexed package; see `Tables.load`), the
    version installed here of those with several releases indexed (it chooses among an error's places) and the
    scorer of did-you-mean: the first answer about each package is then as quick as the next. What it loads is
    kept per store path and generation, as the tables are."""
    tables = tables_for(store)
    loaded = tables.load(packages)
    for p in tables.core.loaded:
        if len(tables.releases(p)) > 1:
            installed_version(tables.core.packages[p])
    load_scorer()
    return loaded
