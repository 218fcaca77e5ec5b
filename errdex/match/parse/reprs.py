"""An exception printed as its repr inside a log record: `ERROR: TemplateSyntaxError('Missing end of comment tag')`,
`Error in tracer callback: AttributeError("'NoneType' object has no attribute 'append'")`.

A record that is only the repr is that exception: its type and the string's value are the record. One where other
words come first keeps them (a library's own log template may hold the repr: `Error in {} callback: {}`), and the
exception the repr names becomes one more of the paste's errors.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import NamedTuple

from errdex.match.parse.lines import is_exception_like
from errdex.match.parse.message import Raw, string_value

# `Name(` and one str literal (its quote escaped inside), maybe Python 2's `,` after it, then `)`: possessive runs
_REPR = re.compile(r"""(?<![\w.])([A-Za-z_][\w.]{0,200}+)\(('(?:[^'\\\n]|\\.)*+'|"(?:[^"\\\n]|\\.)*+"),?\)""")


class ExceptionRepr(NamedTuple):
    """`Name('message')` found in a line: the type, the string's value, and whether the line holds nothing else."""

    name: str
    message: str
    whole: bool


def exception_repr(line: str) -> ExceptionRepr | None:
    """The last exception repr in a line, if any."""
    if "('" not in line and '("' not in line:  # the cheap test: most lines hold no call on a string
        return None
    found = None
    for m in _REPR.finditer(line):
        if is_exception_like(m.group(1)):
            found = m
    value = string_value(found.group(2)) if found else None
    if found is None or value is None:
        return None
    return ExceptionRepr(found.group(1), value, found.group(0) == line.strip())


def read_repr(raw: Raw, others: list[Raw]) -> tuple[Raw, list[Raw]]:
    """The main record and the others once an exception repr in the main record's first line is read.

    Only a record without a type holds one: a log record, or a cut traceback that took a logged message. A
    record that is only the repr becomes the exception; a log line's own frame (its logger) did not raise it.
    """
    if raw.exception is not None or not raw.lines:
        return raw, others
    found = exception_repr(raw.lines[0])
    if found is None:
        return raw, others
    if found.whole:
        frames = () if raw.source_format == "log" else raw.frames
        fmt = "message" if raw.source_format == "log" else raw.source_format
        return replace(
            raw, exception=found.name, lines=[found.message], frames=frames, source_format=fmt, kind=None
        ), others
    inner = Raw(found.name, [found.message], (), "message", raw.index)
    return raw, sorted([*others, inner], key=lambda o: o.index)
