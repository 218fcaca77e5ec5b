"""errdex: where a Python library's error comes from, what it means and how to fix it.

The public API is imported on first use, so `import errdex` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from errdex.hooks import (
        fingerprint,
        install,
        load_ipython_extension,
        uninstall,
        unload_ipython_extension,
    )
    from errdex.match import Candidate, MatchResult, explain

__all__ = [
    "Candidate",
    "MatchResult",
    "explain",
    "fingerprint",
    "install",
    "load_ipython_extension",
    "uninstall",
    "unload_ipython_extension",
]

_HOMES = {
    "Candidate": "errdex.match",
    "MatchResult": "errdex.match",
    "explain": "errdex.match",
    "fingerprint": "errdex.hooks",
    "install": "errdex.hooks",
    "uninstall": "errdex.hooks",
    "load_ipython_extension": "errdex.hooks",
    "unload_ipython_extension": "errdex.hooks",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'errdex' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
