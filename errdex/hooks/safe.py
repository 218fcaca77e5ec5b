"""The promise every hook keeps: errdex never breaks the program it watches.

Whatever goes wrong inside errdex (a damaged index, a bug, Ctrl-C while it indexes) becomes one
line on stderr; the program's own traceback has already been printed and its exit code is not
touched. ERRDEX_DEBUG=1 adds errdex's own traceback under that line, for bug reports.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

MAX_LINE = 300


@contextmanager
def never_fails(what: str, stream: TextIO | None = None) -> Iterator[None]:
    """Run a block; any exception in it (KeyboardInterrupt too) is reported in one line and dropped."""
    try:
        yield
    except BaseException as exc:  # noqa: BLE001 - the whole point: nothing may escape into the user's program
        if isinstance(exc, SystemExit):
            raise
        note(f"could not {what} ({_one_line(exc)})", stream)
        if os.environ.get("ERRDEX_DEBUG"):
            _write("".join(traceback.format_exception(exc)), stream)


def note(text: str, stream: TextIO | None = None) -> None:
    """One 'errdex: ...' line on stderr (or `stream`); a closed or broken stream is ignored."""
    _write(f"errdex: {text}\n", stream)


def _one_line(exc: BaseException) -> str:
    try:
        message = " ".join(str(exc).split())
    except Exception:  # noqa: BLE001 - an exception whose str() fails
        message = ""
    line = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return line if len(line) <= MAX_LINE else line[: MAX_LINE - 1] + "…"


def _write(text: str, stream: TextIO | None) -> None:
    try:
        out = stream if stream is not None else sys.stderr
        if out is not None:
            out.write(text)
            out.flush()
    except Exception:  # noqa: BLE001 - stderr closed or replaced by something broken: stay silent
        pass
