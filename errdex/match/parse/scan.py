"""Records that start on one line: logging output, warnings, `path:line: Type: msg`, bare `Type: msg`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from errdex.match.parse.lines import LINE_CAP, Paste, head, indent
from errdex.match.parse.logs import SEVERITY, LocatedLine, located_exception, log_record
from errdex.match.parse.message import (
    RANK_BARE_ERROR,
    RANK_BARE_WARNING,
    RANK_LOCATED,
    RANK_LOG,
    RANK_WARNING,
    STOP_LINES,
    STOP_OR_RECORD_LINES,
    Raw,
    bare_exception,
    is_boundary,
    read_message,
)
from errdex.model import Frame

_BLANK_OR_INDENTED_LINES = re.compile(r"\n(?=\s|\Z)")  # for Paste.marks, like a line_pattern


class LineRecord(NamedTuple):
    """A record that starts on one line, and how much it tells (see message.RANK_*; a log record's level)."""

    rank: int
    severity: int
    raw: Raw


def line_records(p: Paste) -> Iterator[LineRecord]:
    """Each one-line record of the paste, in order.

    A bare `Type: msg` is tried first, as it is most pastes' only line: the order changes no result,
    for such a line (a name without ':' or blanks, then ': ') is never a log record nor `path:line:`.
    """
    lines, n = p.lines, len(p.lines)
    i = p.next_mark(STOP_OR_RECORD_LINES, 0)
    while i < n:
        line = lines[i]
        end = i + 1
        if (exc := bare_exception(line)) is not None:
            message = read_message(p, i, exc.message, records=indent(head(line)))
            end = message.end
            rank = RANK_BARE_WARNING if exc.name.endswith("Warning") else RANK_BARE_ERROR
            yield LineRecord(rank, 0, Raw(exc.name, message.lines, (), "message", i))
        elif (record := log_record(line)) is not None:
            message = read_message(p, i, record.message, records=LINE_CAP)  # at any indentation
            end = message.end
            frames = (record.frame,) if record.frame else ()
            raw = Raw(None, message.lines, frames, "log", i, kind="log")
            yield LineRecord(RANK_LOG, SEVERITY[record.level], raw)
        elif (located := located_exception(line, loose=True)) is not None and (read := _read_located(p, i, located)):
            raw, end = read
            yield LineRecord(RANK_WARNING if raw.kind == "warning" else RANK_LOCATED, 0, raw)
        i = p.next_mark(STOP_OR_RECORD_LINES, end)


def _read_located(p: Paste, i: int, located: LocatedLine) -> tuple[Raw, int] | None:
    """A warning's message lines and the source line `warnings` prints under them, more indented.

    A type that reads as a class only is a warning category when that source line follows, else
    the line is no record (None).
    """
    lines, n = p.lines, len(p.lines)
    code, j = None, _next_stop(p, i + 1)
    while j < n:
        h = head(lines[j])
        ind = indent(h)
        if ind == len(h) or is_boundary(p, j):
            break
        if ind > located.indent:
            code = h.strip()
            break
        j = _next_stop(p, j + 1)
    body = [located.message, *lines[i + 1 : j]]
    frame = Frame(located.frame.file, located.frame.line, None, code)
    end = j + 1 if code is not None else j
    if located.loose and code is None:
        return None
    if located.exception.endswith("Warning") or located.loose:
        return Raw(located.exception, body, (frame,), "warning", i, kind="warning"), end
    return Raw(located.exception, body, (frame,), "pytest", i), end


def _next_stop(p: Paste, j: int) -> int:
    return min(p.next_mark(STOP_LINES, j), p.next_mark(_BLANK_OR_INDENTED_LINES, j))
