"""Frame lines a terminal or an issue's editor wrapped: `  File "C:\\...\\site-p` / `ackages\\x\\y.py", line 9, in f`,
or `  File "/x/y.py",` / `line 9, in f`. Each is put back on one line, so its file and line are read."""

from __future__ import annotations

import re

# A frame line cut before its `, line N`: its file name unclosed, or closed and followed by nothing but a comma.
_CUT_FRAME = re.compile(r'(?m)^[ \t]*File "[^"\n]*("?,?)[ \t]*$')
_REST = re.compile(r'^[ \t]*[^"\n]*"?,? ?line \d+')


def may_be_wrapped(text: str) -> bool:
    """A cheap test: a frame line of the paste stops before its line number."""
    return 'File "' in text and _CUT_FRAME.search(text) is not None


def rejoin(lines: list[str]) -> list[str]:
    """The lines with each cut frame line joined to the next one, when that one holds the rest (`..., line N`)."""
    out: list[str] = []
    k = 0
    while k < len(lines):
        line = lines[k]
        cut = _CUT_FRAME.fullmatch(line)
        if cut is not None and k + 1 < len(lines) and _REST.match(lines[k + 1]):
            closed = cut.group(1).startswith('"')
            out.append(line.rstrip() + (" " if closed else "") + lines[k + 1].lstrip())
            k += 2
            continue
        out.append(line)
        k += 1
    return out
