"""errdex: where a Python library's error comes from, what it means and how to fix it.

The public API is imported on first use, so `import errdex` stays cheap.

`errdex.explain` is the function of that name even though `errdex/explain/` is also a package
(the explanation pages): importing that package would otherwise rebind the attribute to the
package, so the attribute is a property of this module's class, which the import system's
rebinding cannot replace. The package stays reachable as `sys.modules["errdex.explain"]` and
through `from errdex.explain import ...`.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from errdex.hooks import fingerprint, install, load_ipython_extension, uninstall, unload_ipython_extension
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


class _Errdex(types.ModuleType):
    """This module, with `explain` always the function."""

    @property
    def explain(self) -> Any:
        return importlib.import_module("errdex.match").explain

    @explain.setter
    def explain(self, value: Any) -> None:
        """The import system binding the `errdex.explain` package here: it stays in sys.modules."""


sys.modules[__name__].__class__ = _Errdex
