"""Reading a paste one line at a time: cleaning it, splitting it and recognising single lines.

Everything here looks at a line through `head()` (at most LINE_CAP characters) with string methods
and anchored regexes whose quantifiers are bounded and unambiguous, so any input is read in
linear time; the full line is kept wherever its text ends up in a message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

LINE_CAP = 10_000  # characters of one line that are looked at to recognise it

TB_HEADERS = ("Traceback (most recent call last):", "Exception Group Traceback (most recent call last):")
CHAIN_SEPARATORS = frozenset(
    {
        "The above exception was the direct cause of the following exception:",
        "During handling of the above exception, another exception occurred:",
    }
)
_IPY_TAIL = "Traceback (most recent call last)"

_ANSI_RE = re.compile(
    r"\x1b(?:\[[0-?]{0,64}[ -/]{0,16}[@-~]|\][^\x07\x1b]{0,4096}(?:\x07|\x1b\\)|[@-Z\\^_])?"
    r"|\x9b[0-?]{0,64}[ -/]{0,16}[@-~]"
)
_ORPHAN_SGR_RE = re.compile(r"\[\d{1,3}(?:;\d{1,3}){0,15}m")
_RANK_RE = re.compile(r"\[rank\d{1,6}\]: ?")
_NAME_RE = re.compile(r"[A-Za-z_]\w{0,199}(?:\.(?:[A-Za-z_]\w{0,199}|<locals>)){0,30}")
_DIGITS_COLON_RE = re.compile(r"(\d{1,9}):")
_BOX_RE = re.compile(r"( *)(\+-)?\+-{3,}(?: (?:\d{1,9}|\.\.\.) -{3,})?")
_MARGIN_RE = re.compile(r"( *)([|+])(?: |$)")
_EXC_SUFFIXES = ("Error", "Exception", "Warning", "Interrupt", "Exit", "Iteration", "ExceptionGroup")
_EXC_NAMES = frozenset({"Failed", "Skipped", "XFailed"})  # pytest's outcome exceptions


def head(line: str) -> str:
    """The part of a line that is looked at to recognise it."""
    return line if len(line) <= LINE_CAP else line[:LINE_CAP]


def strip_ansi(text: str) -> str:
    """Remove terminal colour and control sequences, also the SGR codes whose ESC a copy-paste lost."""
    if "\x1b" in text or "\x9b" in text:
        return _ANSI_RE.sub("", text)
    if "[0m" in text:  # "[0;31mValueError[0m": colours pasted from a web page without their ESC
        return _ORPHAN_SGR_RE.sub("", text)
    return text


@dataclass
class Paste:
    """The lines of a paste, with the nesting of exception-group boxes taken out of the text."""

    text: str  # the cleaned text the lines were split from
    lines: list[str]
    depths: list[int] | None = None  # exception-group depth of each line; None when there is no group
    boxes: dict[int, tuple[int, str]] = field(default_factory=dict)  # line -> (depth, "sub" | "end")

    def depth(self, i: int) -> int:
        return self.depths[i] if self.depths is not None else 0


def prepare(text: str, max_chars: int) -> Paste:
    """Cut a paste to its last `max_chars` characters, remove colours and split it into lines."""
    if len(text) > max_chars:
        text = text[-max_chars:]
        cut = text.find("\n", 0, LINE_CAP)
        text = text[cut + 1 :] if cut != -1 else text
    text = strip_ansi(text).replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if "[rank" in text:  # torch.distributed prefixes every line with "[rank0]: "
        lines = [_RANK_RE.sub("", line, count=1) if line.startswith("[rank") else line for line in lines]
    if "+---" in text or "Exception Group Traceback" in text:
        return _unbox(text, lines)
    return Paste(text, lines)


def _unbox(text: str, lines: list[str]) -> Paste:
    """Take the `| ` margins and `+---- 1 ----` boxes of exception-group output out of the lines.

    The group's own lines get depth 0 like plain exceptions beside it, each box level one more,
    counted from the margin of the group's first line, wherever the paste put that margin.
    """
    out: list[str] = []
    depths: list[int] = []
    boxes: dict[int, tuple[int, str]] = {}
    in_group = False
    base: int | None = 0  # the column of the outermost margin; None until a headed group shows it
    for i, line in enumerate(lines):
        h = head(line)
        box = _box(h)
        margin = None if box else _MARGIN_RE.match(h)
        column = _margin_column(box, margin)
        if margin and margin.group(2) == "+" and not in_group:  # the header: often pasted without its indent
            in_group, base = True, None
        elif box or (margin and (in_group or _opens_group(h[margin.end() :], lines, i))):
            base = column if not in_group or base is None else base
            in_group = True
        elif h.strip():  # a header pasted without its `+ ` margin still opens a group
            in_group, base = h.lstrip().startswith(TB_HEADERS[1]), None
        depth = max(0, column - (base or 0)) // 2
        if in_group and box:
            boxes[i] = (depth + 1, "end" if " " not in h.strip() else "sub")
            out.append("")
            depths.append(depth + 1)
        elif in_group and margin:
            out.append(line[margin.end() :])
            depths.append(depth)
        else:
            out.append(line)
            depths.append(0)
    return Paste(text, out, depths, boxes)


def _box(h: str) -> re.Match[str] | None:
    return _BOX_RE.fullmatch(h.rstrip())


def _margin_column(box: re.Match[str] | None, margin: re.Match[str] | None) -> int:
    """The column of the margin of the group a line belongs to (`+-+--` opens the box under it)."""
    if box:
        return len(box.group(1)) - (0 if box.group(2) else 2)
    return len(margin.group(1)) if margin else 0


def _opens_group(content: str, lines: list[str], i: int) -> bool:
    """A margin line starts group output when it holds a header or a box follows it."""
    return content.startswith(TB_HEADERS) or (i + 1 < len(lines) and _box(head(lines[i + 1])) is not None)


def indent(h: str) -> int:
    """Columns of leading blanks (a tab counts as one)."""
    return len(h) - len(h.lstrip(" \t"))


def is_tb_header(s: str) -> bool:
    """A `Traceback (most recent call last):` line, `s` being the stripped head of a line."""
    return s.startswith(TB_HEADERS)


def ipython_header(s: str) -> str | None:
    """The type named by IPython's `ValueError      Traceback (most recent call last)` line."""
    if not s.endswith(_IPY_TAIL):
        return None
    name = s[: -len(_IPY_TAIL)]
    if not name.endswith("  "):
        return None
    name = name.rstrip()
    return name if is_type_name(name) else None


def is_type_name(name: str) -> bool:
    """Whether a string is a (dotted) Python name as tracebacks print exception types."""
    return _NAME_RE.fullmatch(name) is not None


def is_exception_like(name: str) -> bool:
    """Whether a name reads as an exception or warning type even where nothing else says so."""
    last = name.rsplit(".", 1)[-1]
    return last.endswith(_EXC_SUFFIXES) or last in _EXC_NAMES


def split_exception(s: str, loose: bool = False) -> tuple[str, str] | None:
    """'ValueError: bad' -> ('ValueError', 'bad'); a type alone gives ('KeyboardInterrupt', '').

    `s` starts at the type. Without `loose` the type must read as an exception or be a qualified
    class name; with it (inside a traceback) any dotted or capitalised name before ': ' is taken.
    """
    h = s[:1000]
    k = h.find(": ")
    if k != -1:
        name, message, colon = s[:k], s[k + 2 :], True
    elif len(s) <= 1000:
        name, message = s.rstrip(), ""
        colon = name.endswith(":")
        name = name[:-1] if colon else name
    else:
        return None
    if not is_type_name(name):
        return None
    if is_exception_like(name) or (colon and _reads_as_class(name, loose)):
        return name, message
    return None


def _reads_as_class(name: str, loose: bool) -> bool:
    """'pkg.mod.SomeProblem' anywhere; inside a traceback also 'Unsupported' or 'pkg.error'."""
    last = name.rsplit(".", 1)[-1]
    if loose:
        return "." in name or last[0].isupper()
    return "." in name and last[0].isupper()


def split_location(line: str) -> tuple[int, str, int, str] | None:
    """'  src/x.py:687: rest' -> (2, 'src/x.py', 687, 'rest'): the location warnings and pytest print."""
    h = head(line)
    s = h.lstrip(" ")
    ind = len(h) - len(s)
    start = 2 if s[1:3] in (":\\", ":/") else 0
    c = s.find(":", start)
    if c <= 0:
        return None
    m = _DIGITS_COLON_RE.match(s, c + 1)
    if not m:
        return None
    path = s[:c]
    if " " in path and "/" not in path and "\\" not in path:
        return None
    rest = line[ind + m.end() :]
    return ind, path, int(m.group(1)), rest[1:] if rest.startswith(" ") else rest
