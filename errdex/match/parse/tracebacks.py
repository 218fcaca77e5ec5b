"""CPython, IPython and rich tracebacks, plain, chained or grouped, read in one pass over the lines.

A traceback is a header (or a first frame, when the header was not pasted), frames with their
code lines, and the exception line: the first line not indented past the header that reads as
`Type: message`. Lines that fit none of these (interleaved output, logging) are passed over;
the reader only visits lines its line patterns match, and the line under each frame.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from errdex.match.parse.lines import (
    BLANKS,
    CHAIN_AT,
    CHAIN_SEPARATORS,
    EXCEPTION_AT,
    FRAME_AT,
    IPY_HEADER_AT,
    LOOSE_EXCEPTION_AT,
    TB_HEADER_AT,
    Paste,
    head,
    indent,
    ipython_header,
    is_tb_header,
    line_pattern,
    split_exception,
)
from errdex.match.parse.logs import is_log_line
from errdex.match.parse.message import Box, Raw, read_message
from errdex.match.parse.rich_box import RICH_HEADER_AT, read_rich_box, rich_header
from errdex.model import Frame

_IPY7_PATH = r"(?:[/~<.\[]|[A-Za-z]:\\|[\w.-]+/)"  # IPython 7 frames start with a path or Colab's [path](url)
_MARKER_RE = re.compile(r"-{1,20}> ?(\d{1,9})(?: (.*))?")  # IPython's `----> 5 code`
_TRACEBACK_LINES = line_pattern(  # at least every line the reader acts on, but the one under a frame
    TB_HEADER_AT,
    CHAIN_AT,
    IPY_HEADER_AT,
    RICH_HEADER_AT,
    FRAME_AT,
    EXCEPTION_AT,
    LOOSE_EXCEPTION_AT,
    BLANKS + r"-{1,20}>",
    BLANKS + _IPY7_PATH,
)
_NONBLANK_LINES = line_pattern(BLANKS + r"\S")
_LINE_TAIL_RE = re.compile(r"(\d{1,9})(?:, in (.+))?")
_CELL_RE = re.compile(r"Cell In\[(\d{1,9})\], line (\d{1,9})(?:, in (.+))?")
_INPUT_RE = re.compile(r"Input In \[(\d{1,9})\](?:, line \d{1,9})?, in (.+)")
_IPY7_PATH_RE = re.compile(_IPY7_PATH)
_NUMBERED_RE = re.compile(r"[^\S\n]*+(?:-{1,20}> ?)?\d{1,9}(?: |$)")  # IPython's source lines under a frame
_SOURCES = (".py", ".pyx")  # the files of a frame IPython < 7 printed without its traceback's header
_CUT_TYPE_RE = re.compile(r"[A-Za-z_][\w.]{0,1000}")  # an exception line cut in its type: `urllib3.exceptions.`
_CODE_LINES = 5  # lines under a frame: its code, 3.11's carets, 3.13's elision
_SKIPPED = ("[Previous line repeated", "[... skipping")


@dataclass
class _Frame:
    """A frame while its lines are still being read."""

    file: str
    line: int | None
    function: str | None
    code: str | None = None

    def freeze(self) -> Frame:
        return Frame(self.file, self.line, self.function, self.code)


def traceback_items(p: Paste) -> list[Raw | Box]:
    """Every exception of every traceback in the paste, and the group boxes between them, in order."""
    return _TracebackReader(p).run()


class _TracebackReader:
    def __init__(self, p: Paste) -> None:
        self.p = p
        self.items: list[Raw | Box] = []
        self.waiting: set[int] = set()  # depths where a chain separator waits for its exception
        self.frames: list[_Frame] | None = None  # None outside a traceback
        self.fmt = "traceback"
        self.base = 0  # the indentation of the traceback's header
        self.header_type: str | None = None  # the type IPython names in its header
        self.start = 0  # the line of the traceback's header
        self.after_marker = False  # the last line was a group box or a chain separator
        self.expect_code = False  # the last line was a frame of a CPython traceback
        self.frame_at = 0  # the line of the last frame read

    def run(self) -> list[Raw | Box]:
        i, n = self.p.next_mark(_TRACEBACK_LINES, 0), len(self.p.lines)
        while i < n:
            i = self.step(i)
        self.close()
        return self.items

    def step(self, i: int) -> int:
        """Read line `i`; the index of the next line worth reading."""
        expect_code, self.expect_code = self.expect_code, False
        if i in self.p.boxes:
            self.close()
            box = self.p.boxes[i]
            self.items.append(Box(i, box.depth, box.kind))
            self.after_marker = True
            return self.next(i)
        h = head(self.p.lines[i])
        s = h.strip()
        if not s:
            return self.next(i)
        after_marker, self.after_marker = self.after_marker, False
        if is_tb_header(s):
            self.open(i, "traceback", indent(h), None)
        elif (named := ipython_header(s)) is not None:
            self.open(i, "ipython", indent(h), named)
        elif s in CHAIN_SEPARATORS:
            self.close()
            self.waiting.add(self.p.depth(i))
            self.after_marker = True
        elif rich_header(s):
            self.open(i, "traceback", indent(h), None)
            rich = read_rich_box(self.p.lines, i, indent(h))
            self.frames = [_Frame(f.file, f.line, f.function, f.code) for f in rich.frames]
            return rich.end
        elif self.frame(i, h, s):
            self.expect_code = self.fmt == "traceback"
        elif self.frames is not None:
            return self.in_traceback(i, h, s, expect_code)
        else:
            return self.idle(i, h, after_marker)
        return self.next(i)

    def next(self, i: int) -> int:
        if self.expect_code:
            return i + 1
        if self.after_marker:
            return self.p.next_mark(_NONBLANK_LINES, i + 1)
        return self.p.next_mark(_TRACEBACK_LINES, i + 1)

    def open(self, i: int, fmt: str, base: int, header_type: str | None) -> list[_Frame]:
        """Start a traceback (ending the one before); the list its frames go into."""
        self.close()
        self.frames, self.fmt, self.base, self.header_type, self.start = [], fmt, base, header_type, i
        return self.frames

    def close(self) -> None:
        """End a traceback; one IPython named in its header counts even when its last line is missing."""
        if self.frames:
            depth = self.p.depth(self.start)
            linked = self.linked(depth)
            if self.header_type:
                self.items.append(Raw(self.header_type, [""], self.freeze(), "ipython", self.start, depth, linked))
            else:  # cut before its exception line: its frames still say where it was raised
                raw = Raw(None, [""], self.freeze(), self.fmt, self.start, depth, linked, self.raised())
                self.items.append(raw)
        self.frames = None

    def raised(self) -> bool:
        """Whether a traceback cut before its exception line shows that its last frame raised: that frame's code
        is a `raise`, or the paste ends in the start of the exception line (`urllib3.exceptions.`)."""
        last = (self.frames or [])[-1]
        if last.code is not None and last.code.startswith("raise"):
            return True
        lines = self.p.lines
        for j in range(self.frame_at + 1, min(self.frame_at + _CODE_LINES, len(lines))):
            h = head(lines[j])
            if h.strip() and indent(h) <= self.base:
                rest = (line.strip() for line in lines[j + 1 :])
                return _CUT_TYPE_RE.fullmatch(h.strip()) is not None and not any(rest)
        return False

    def freeze(self) -> tuple[Frame, ...]:
        return tuple(f.freeze() for f in self.frames or ())

    def frame(self, i: int, h: str, s: str) -> bool:
        """Read a frame line, starting a traceback whose header was not pasted if need be."""
        ind = indent(h)
        fmt, found = "traceback", _cpython_frame(s)
        if found is None:
            fmt, found = "ipython", _ipython_frame(s)
        if found is None and self.frames is not None and self.fmt == "ipython" and ind <= self.base:
            found = _ipython7_frame(s)
        # IPython < 7 pasted without its header: a path, then numbered source lines
        if found is None and self.frames is None and _IPY7_PATH_RE.match(s) and self.numbered_after(i):
            found = _ipython7_frame(s)
            found = found if found is not None and found.file.endswith(_SOURCES) else None
        if found is None:
            return False
        frames = self.frames
        if frames is None:
            frames = self.open(i, fmt, max(0, ind - 2 if fmt == "traceback" else ind), None)
        frames.append(found)
        self.frame_at = i
        return True

    def numbered_after(self, i: int) -> bool:
        """Whether IPython's numbered source lines (`    399`, `--> 401 code`) follow line `i`, maybe after the
        rest of the line a terminal wrapped."""
        lines = self.p.lines
        return any(_NUMBERED_RE.match(head(lines[j])) for j in range(i + 1, min(i + 3, len(lines))))

    def in_traceback(self, i: int, h: str, s: str, expect_code: bool) -> int:
        frames = self.frames or []
        marker = _MARKER_RE.fullmatch(s) if self.fmt == "ipython" else None
        if marker:
            if frames:
                _set_code(frames[-1], int(marker.group(1)), marker.group(2))
        elif s.startswith(_SKIPPED):
            pass
        elif indent(h) > self.base:
            if expect_code and not _is_decoration(s):
                _set_code(frames[-1], None, s)
        elif not is_log_line(h):
            exc = split_exception(self.p.lines[i][indent(h) :], loose=True)
            if exc is not None:
                message = read_message(self.p, i, exc.message)
                self.add(i, exc.name, message.lines)
                return message.end
        return self.next(i)

    def idle(self, i: int, h: str, after_marker: bool) -> int:
        """An exception line outside a traceback: a cause or group member printed without one."""
        exc = split_exception(self.p.lines[i][indent(h) :], loose=after_marker)
        if exc is None:
            return self.next(i)
        message = read_message(self.p, i, exc.message)
        if after_marker or message.end in self.p.boxes or self.separator_at(message.end):
            self.frames, self.fmt, self.header_type = [], "traceback", None
            self.add(i, exc.name, message.lines)
        return message.end

    def separator_at(self, i: int) -> bool:
        return i < len(self.p.lines) and head(self.p.lines[i]).strip() in CHAIN_SEPARATORS

    def add(self, i: int, name: str, lines: list[str]) -> None:
        depth = self.p.depth(i)
        self.items.append(Raw(name, lines, self.freeze(), self.fmt, i, depth, self.linked(depth)))
        self.frames = None

    def linked(self, depth: int) -> bool:
        """Whether a chain separator at this depth waits for the record ending now (which takes it)."""
        linked = depth in self.waiting
        self.waiting.discard(depth)
        return linked


def _set_code(frame: _Frame, line: int | None, code: str | None) -> None:
    if frame.line is None:
        frame.line = line
    if frame.code is None and code and code.strip():
        frame.code = code.strip()


def _is_decoration(s: str) -> bool:
    """3.11+ caret lines (`~~~^^^`) and 3.13's `...<2 lines>...` elisions."""
    return not s.strip("^~ ") or (s.startswith("...<") and s.endswith(">..."))


def _cpython_frame(s: str) -> _Frame | None:
    """`File "x.py", line 5, in f` (no function for a SyntaxError's location)."""
    if not s.startswith('File "'):
        return None
    k = s.rfind('", line ')
    m = _LINE_TAIL_RE.fullmatch(s, k + 8) if k > 6 else None
    return _Frame(s[6:k], int(m.group(1)), m.group(2)) if m else None


def _ipython_frame(s: str) -> _Frame | None:
    """`File ~/x.py:687, in C.f(self)`, `Cell In[3], line 5`, `Input In [3], in <cell line: 5>()`."""
    if s.startswith("File "):
        k = s.find(", in ")
        location = s[5:k] if k != -1 else s[5:]
        path, _, number = location.rpartition(":")
        if not path or not number.isdigit() or len(number) > 9:
            return None
        return _Frame(path, int(number), _function(s[k + 5 :]) if k != -1 else None)
    if s.startswith("Cell In["):
        m = _CELL_RE.fullmatch(s)
        return _Frame(f"Cell In[{m.group(1)}]", int(m.group(2)), _function(m.group(3))) if m else None
    if s.startswith("Input In ["):
        m = _INPUT_RE.fullmatch(s)
        return _Frame(f"Input In [{m.group(1)}]", None, _function(m.group(2))) if m else None
    return None


def _ipython7_frame(s: str) -> _Frame | None:
    """`/x/utils.py in generate(self, **kwargs)` and Colab's `[/x/utils.py](url) in generate(...)`; `/x/utils.py in`
    when a terminal wrapped the line before the function."""
    k = s.find(" in ")
    if k == -1 and s.endswith(" in"):
        k = len(s) - 3
    if k <= 0 or not _IPY7_PATH_RE.match(s):
        return None
    path = s[:k]
    if path.startswith("[") and "](" in path:
        path = path[1 : path.index("](")]
    return _Frame(path, None, _function(s[k + 4 :]))


def _function(text: str | None) -> str | None:
    """'GenerationConfig.validate(self, strict)' -> 'GenerationConfig.validate'."""
    if not text:
        return None
    k = text.find("(")
    return (text[:k] if k > 0 else text).strip() or None
