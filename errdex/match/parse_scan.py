"""Records that start on one line: logging output, warnings, `path:line: Type: msg`, bare `Type: msg`."""

from __future__ import annotations

from collections.abc import Iterator

from errdex.match.parse_lines import Paste, head, indent, split_exception
from errdex.match.parse_log import SEVERITY, Located, located_exception, log_record
from errdex.match.parse_message import (
    RANK_BARE_ERROR,
    RANK_BARE_WARNING,
    RANK_LOCATED,
    RANK_LOG,
    RANK_WARNING,
    Raw,
    is_boundary,
    read_message,
)
from errdex.model import Frame


def line_records(p: Paste) -> Iterator[tuple[int, int, Raw]]:
    """(rank, severity, record) for each one-line record of the paste, in order."""
    lines, i, n = p.lines, 0, len(p.lines)
    while i < n:
        line = lines[i]
        h = head(line)
        ind = indent(h)
        if ind == len(h):
            i += 1
            continue
        record = log_record(line)
        if record is not None:
            body, end = read_message(p, i, record.message, records=True)
            frames = (record.frame,) if record.frame else ()
            yield RANK_LOG, SEVERITY[record.level], Raw(None, body, frames, "log", i, kind="log")
        elif (located := located_exception(line)) is not None:
            raw, end = _read_located(p, i, located)
            yield (RANK_WARNING if raw.kind == "warning" else RANK_LOCATED), 0, raw
        elif (exc := split_exception(line[ind:])) is not None:
            body, end = read_message(p, i, exc[1], records=True)
            warning = exc[0].endswith("Warning")
            yield (RANK_BARE_WARNING if warning else RANK_BARE_ERROR), 0, Raw(exc[0], body, (), "message", i)
        else:
            end = i + 1
        i = end


def _read_located(p: Paste, i: int, located: Located) -> tuple[Raw, int]:
    """A warning's message lines and the source line `warnings` prints under them, indented."""
    lines, n = p.lines, len(p.lines)
    body, code, j = [located.message], None, i + 1
    while j < n:
        h = head(lines[j])
        ind = indent(h)
        if ind == len(h):
            break
        if ind > located.indent:
            code = h.strip()
            j += 1
            break
        if is_boundary(p, j):
            break
        body.append(lines[j])
        j += 1
    frame = Frame(located.frame.file, located.frame.line, None, code)
    if located.exception.endswith("Warning"):
        return Raw(located.exception, body, (frame,), "warning", i, kind="warning"), j
    return Raw(located.exception, body, (frame,), "pytest", i), j
