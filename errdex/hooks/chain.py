"""Which exceptions a traceback shows, in the order Python prints them.

Python prints a chain from the first raised to the last (`__cause__`, else `__context__` unless
suppressed); the last one is what stopped the program and is the one errdex explains first.
An exception group stands for its first leaf, the error that was actually raised inside it.
"""

from __future__ import annotations

import traceback

MAX_CHAIN = 16
MAX_SUMMARY = 160


def chain(exc: BaseException) -> list[BaseException]:
    """The exceptions of `exc`'s printed chain, last raised first (cycle-safe, bounded)."""
    out: list[BaseException] = []
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen and len(out) < MAX_CHAIN:
        seen.add(id(current))
        out.append(current)
        current = _previous(current)
    return out


def _previous(exc: BaseException) -> BaseException | None:
    if exc.__cause__ is not None:
        return exc.__cause__
    return None if exc.__suppress_context__ else exc.__context__


def leaf(exc: BaseException) -> BaseException:
    """The first exception inside (nested) exception groups, or `exc` itself."""
    depth = 0
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions and depth < MAX_CHAIN:
        exc = exc.exceptions[0]
        depth += 1
    return exc


def type_name(exc: BaseException) -> str:
    """The exception's type as the traceback prints it: 'packaging.version.InvalidVersion'."""
    cls = type(exc)
    module = cls.__module__
    return cls.__qualname__ if module in ("builtins", "__main__") else f"{module}.{cls.__qualname__}"


def summary(exc: BaseException) -> str:
    """'Type: first line of the message', cut to one short line."""
    try:
        text = str(exc)
    except Exception:  # a broken __str__ must not break errdex; Python prints such values this way too
        text = "<exception str() failed>"
    first = text.strip().splitlines()[0] if text.strip() else ""
    line = f"{type(exc).__name__}: {first}" if first else type(exc).__name__
    return line if len(line) <= MAX_SUMMARY else line[: MAX_SUMMARY - 1] + "…"


def printed(exc: BaseException) -> str:
    """The traceback of this one exception (without its chain) exactly as Python prints it."""
    return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__, chain=False))


def message_only(exc: BaseException) -> str:
    """The last line(s) Python prints for an exception: 'Type: message' (and its notes), no frames."""
    return "".join(traceback.format_exception_only(type(exc), exc))
