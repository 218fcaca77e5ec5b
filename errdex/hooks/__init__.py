"""errdex where errors happen: the excepthook, IPython/Jupyter, pytest, error trackers, coding agents.

Everything here is lazy: importing errdex.hooks loads no matcher and opens no index; the first
error does. The public names are re-exported by `errdex` itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["before_send", "fingerprint", "install", "load_ipython_extension", "uninstall", "unload_ipython_extension"]


def install(*, warnings: bool = False, db: str | Path | None = None) -> None:
    """Explain uncaught exceptions under their traceback (and each warning site once, with `warnings`)."""
    from errdex.hooks.excepthook import install as _install

    _install(warnings=warnings, db=db)


def uninstall() -> None:
    """Restore the hooks that were in place before `install()`."""
    from errdex.hooks.excepthook import uninstall as _uninstall

    _uninstall()


def fingerprint(exc: BaseException) -> str | None:
    """The id of the raise site of `exc` (the same whatever values its message shows), or None if unknown."""
    from errdex.hooks.tracker import fingerprint as _fingerprint

    return _fingerprint(exc)


def before_send(event: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    """A sentry_sdk `before_send`: group the event by raise site and add errdex's explanation as context."""
    from errdex.hooks.tracker import before_send as _before_send

    return _before_send(event, hint)


def load_ipython_extension(ipython: Any) -> None:
    """`%load_ext errdex`: the panel under every traceback, and the `%errdex` magic."""
    from errdex.hooks.ipython import load_ipython_extension as _load

    _load(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    """`%unload_ext errdex`."""
    from errdex.hooks.ipython import unload_ipython_extension as _unload

    _unload(ipython)
