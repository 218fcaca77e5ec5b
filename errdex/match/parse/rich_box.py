"""Tracebacks drawn by rich (`rich.traceback`, used by typer, accelerate, streamlit, ...).

Rich draws the frames inside a box (or between two rules) headed `Traceback (most recent call
last)`: each frame is `path:line in function`, wrapped to the console's width, then its code with
`❱` on the line that ran, optionally a `locals` panel. The exception line follows the box.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from errdex.match.parse.lines import BLANKS
from errdex.model import Frame

RICH_HEADER_AT = BLANKS + r"[╭─]─{0,400} Traceback \(most recent call last\) ─"  # for Paste.marks
_TITLE = "Traceback (most recent call last)"
_MAX_BOX_LINES = 5_000  # rich shows at most 100 frames by default; a box is far shorter
_MAX_HEADER = 2_000  # characters of wrapped text that may still make one `path:line in function`
_FRAME_RE = re.compile(r"(\S.*):(\d{1,9}) ?in ?(\S{1,500})")  # rich drops the blank it wraps at
_CODE_RE = re.compile(r"(❱ *)?(\d{1,9})(?: (.*))?")
_PANEL = ("╭", "│", "╰")


def rich_header(s: str) -> bool:
    """`╭──── Traceback (most recent call last) ────╮` or the same between rules, `s` stripped."""
    return s.startswith(("╭─", "──")) and s.strip("╭╮─ ") == _TITLE


class RichBox(NamedTuple):
    """The frames a rich box shows, and the paste line after the box."""

    frames: list[Frame]
    end: int


def read_rich_box(lines: list[str], i: int, column: int) -> RichBox:
    """The frames of the rich box whose header is line `i` at `column`, and the line after the box."""
    boxed = lines[i][column : column + 1] == "╭"
    frames: list[Frame] = []
    pending: list[str] = []  # pieces of a frame's header, wrapped over lines
    end = min(len(lines), i + 1 + _MAX_BOX_LINES)
    for j in range(i + 1, end):
        text = _inner(lines[j][column:], boxed)
        if text is None:
            return RichBox(frames, j + 1)
        if not text or text.startswith(_PANEL) or (text.startswith("...") and text.endswith("...")):
            continue  # between frames, a locals panel, `... 4 frames hidden ...`
        code = _CODE_RE.fullmatch(text)
        if code and not (pending and _FRAME_RE.fullmatch("".join(pending) + text)):  # `…py:` + `687 in f`
            pending = []
            if code.group(1) and frames:
                frames[-1] = _with_code(frames[-1], int(code.group(2)), code.group(3))
            continue
        pending.append(text)
        frame = _FRAME_RE.fullmatch("".join(pending))
        if frame:
            frames.append(Frame(frame.group(1), int(frame.group(2)), frame.group(3)))
            pending = []
        elif sum(map(len, pending)) > _MAX_HEADER:
            pending = []
    return RichBox(frames, end)


def _inner(row: str, boxed: bool) -> str | None:
    """A row's text inside the box, or None on the row that closes it."""
    if boxed:
        if row.startswith("╰"):
            return None
        row = row[1:] if row.startswith("│") else row
        row = row.rstrip()
        return (row[:-1] if row.endswith("│") else row).strip()
    text = row.strip()
    return None if text and not text.strip("─") else text


def _with_code(frame: Frame, line: int, code: str | None) -> Frame:
    """The frame with the line `❱` points at; indent guides (`│   │`) are not code."""
    source = (code or "").lstrip(" │").strip() or None
    return Frame(frame.file, frame.line if frame.line is not None else line, frame.function, frame.code or source)
