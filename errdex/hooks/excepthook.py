"""`errdex.install()`: Python's traceback first, unchanged, then the errdex panel under it.

The hook wraps whatever `sys.excepthook` (and `threading.excepthook`) was installed before, so
the traceback is printed by the same code as without errdex; the panel follows on stderr. With
`warnings=True`, `warnings.showwarning` is wrapped too and each warning's raise site is explained
once (a warning shown at several places, through `stacklevel`, still has one raise site).
Importing this module is cheap: the matcher and the index are loaded on the first error (with `warnings=True`,
by `install` in a background thread, or by the first warning if it comes first).
"""

from __future__ import annotations

import sys
import threading
import warnings as warnings_module
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, TextIO

from errdex.hooks.safe import never_fails
from errdex.hooks.warming import warm_in_background

MAX_WARNING_SITES = 10_000  # places looked at; a program warning from ever new places stops being explained
ExceptHook = Any  # the signature of sys.excepthook / threading.excepthook / warnings.showwarning


@dataclass
class _State:
    """What `install` replaced, so that `uninstall` can put it back."""

    active: bool = False
    db: str | None = None
    excepthook: ExceptHook = None
    threading_hook: ExceptHook = None
    showwarning: ExceptHook = None
    warned: set[tuple[Any, ...]] = field(default_factory=set)  # printed places already looked at
    explained: set[tuple[str, int]] = field(default_factory=set)  # raise sites already explained


_state = _State()
_busy = threading.local()  # set while this thread explains: warnings it raises are errdex's own


@contextmanager
def _explaining() -> Iterator[None]:
    _busy.on = True
    try:
        yield
    finally:
        _busy.on = False


def install(*, warnings: bool = False, db: str | Path | None = None) -> None:
    """Explain uncaught exceptions (and, with `warnings`, each warning site once) under Python's own output.

    With `warnings`, what the explanations read is loaded in the background from now on (errdex.hooks.warming):
    a program warns many times. Without, it is not: an uncaught exception is most often the last thing a program
    does, and loading would slow every run that does not fail (the thread shares the interpreter with the program).
    """
    _state.db = str(db) if db is not None else None
    if warnings:
        warm_in_background(_state.db, around=_explaining)
    if not _state.active:
        _state.excepthook, sys.excepthook = sys.excepthook, _excepthook
        _state.threading_hook, threading.excepthook = threading.excepthook, _threading_hook
        _state.active = True
    if warnings and _state.showwarning is None:
        _state.showwarning, warnings_module.showwarning = warnings_module.showwarning, _showwarning
    elif not warnings:
        _restore_showwarning()


def uninstall() -> None:
    """Put back the hooks that were there before `install` (a hook installed after errdex's is kept)."""
    if not _state.active:
        return
    if sys.excepthook is _excepthook:
        sys.excepthook = _state.excepthook
    if threading.excepthook is _threading_hook:
        threading.excepthook = _state.threading_hook
    _restore_showwarning()
    _state.active = False


def _restore_showwarning() -> None:
    if _state.showwarning is not None and warnings_module.showwarning is _showwarning:
        warnings_module.showwarning = _state.showwarning
    _state.showwarning = None
    _state.warned.clear()
    _state.explained.clear()


def _excepthook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
    (_state.excepthook or sys.__excepthook__)(exc_type, exc, tb)
    if _state.active:
        explain_exception(exc, tb, sys.stderr)


def _threading_hook(args: threading.ExceptHookArgs) -> None:
    (_state.threading_hook or threading.__excepthook__)(args)
    if _state.active and args.exc_value is not None:
        explain_exception(args.exc_value, args.exc_traceback, sys.stderr)


def explain_exception(exc: BaseException, tb: TracebackType | None, stream: TextIO) -> None:
    """Print the panel for an exception whose traceback was just printed; never raises."""
    if not isinstance(exc, Exception):  # KeyboardInterrupt, SystemExit, GeneratorExit: nothing to explain
        return
    with never_fails("explain this error", stream), _explaining():
        from errdex.hooks.explainer import shared
        from errdex.hooks.panel import print_to

        if exc.__traceback__ is None and tb is not None:
            exc = exc.with_traceback(tb)
        print_to(shared(_state.db).exception(exc), stream)


def _showwarning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    if getattr(_busy, "on", False):
        return  # raised by errdex's own work (e.g. parsing a library's source): not the program's warning
    shown = _state.showwarning or warnings_module._showwarning_orig  # type: ignore[attr-defined]  # private: not in typeshed
    shown(message, category, filename, lineno, file, line)
    site = (category, filename, lineno)
    if site in _state.warned or len(_state.warned) >= MAX_WARNING_SITES:
        return
    _state.warned.add(site)
    stream = file if file is not None else sys.stderr
    with never_fails("explain this warning", stream), _explaining():
        from errdex.hooks.explainer import shared
        from errdex.hooks.panel import print_to

        text = warnings_module.formatwarning(message, category, filename, lineno, line)
        explanation = shared(_state.db).warning(text, sys._getframe(1))
        c = explanation.candidate
        if c is not None and (c.file, c.line) not in _state.explained:
            _state.explained.add((c.file, c.line))
            print_to(explanation, stream)
