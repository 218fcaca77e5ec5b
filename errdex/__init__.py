"""errdex: where a Python library's error comes from, what it means and how to fix it.

The public API, documented in docs/api.md; each name is imported on first use, so `import errdex` stays cheap:

- `index(spec, store)` indexes a release into a `Store` and returns an `IndexResult`;
- `explain(text, store=...)` matches a pasted error and returns a `MatchResult` of `Candidate`s;
- `build_page(store, error_id, ...)` builds the explanation `Page` of an error (docs/page.md);
- `install()`, `uninstall()`, `fingerprint(exc)`, `before_send` and the IPython extension are the hooks;
- `ErrdexError` is the base of the errors errdex raises about its inputs, sources and index.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from errdex.errors import ErrdexError
    from errdex.hooks import (
        before_send,
        fingerprint,
        install,
        load_ipython_extension,
        uninstall,
        unload_ipython_extension,
    )
    from errdex.indexing import IndexResult, index
    from errdex.match import Candidate, MatchResult, explain
    from errdex.pages import Page, build_page
    from errdex.store import Store

_HOMES = {
    "explain": "errdex.match",
    "MatchResult": "errdex.match",
    "Candidate": "errdex.match",
    "index": "errdex.indexing",
    "IndexResult": "errdex.indexing",
    "Store": "errdex.store",
    "build_page": "errdex.pages",
    "Page": "errdex.pages",
    "ErrdexError": "errdex.errors",
    "install": "errdex.hooks",
    "uninstall": "errdex.hooks",
    "fingerprint": "errdex.hooks",
    "before_send": "errdex.hooks",
    "load_ipython_extension": "errdex.hooks",
    "unload_ipython_extension": "errdex.hooks",
}

__all__ = [
    "Candidate",
    "ErrdexError",
    "IndexResult",
    "MatchResult",
    "Page",
    "Store",
    "before_send",
    "build_page",
    "explain",
    "fingerprint",
    "index",
    "install",
    "load_ipython_extension",
    "uninstall",
    "unload_ipython_extension",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'errdex' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
