"""Reading a paste by lines: cleaning it, splitting it, finding and recognising the lines that matter.

A reader never walks every line in Python. Each recogniser comes with a line-start pattern
(`*_AT`) that accepts at least every line the recogniser takes; `Paste.next_mark` finds the next
such line with one `re.finditer` over the whole text, so noise costs C speed only. Recognisers look
at a line through `head()` (at most LINE_CAP characters) with string methods and anchored regexes
whose quantifiers are bounded or possessive: any input is read in linear time.
"""

from __future__ import annotations

import bisect
import re
import string
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

LINE_CAP = 10_000  # characters of one line that are looked at to recognise it

TB_HEADERS = ("Traceback (most recent call last):", "Exception Group Traceback (most recent call last):")
CHAIN_SEPARATORS = frozenset(
    {
        "The above exception was the direct cause of the following exception:",
        "During handling of the above exception, another exception occurred:",
    }
)
_IPY_TAIL = "Traceback (most recent call last)"
_EXC_SUFFIXES = ("Error", "Exception", "Warning", "Interrupt", "Exit", "Iteration", "ExceptionGroup")
_EXC_NAMES = ("Failed", "Skipped", "XFailed")  # pytest's outcome exceptions

# Blanks within one line, before what a line pattern looks for. Possessive: what follows them never
# starts with a blank, so giving some back cannot match; it only retried every alternative per blank.
BLANKS = r"[^\S\n]*+"
TB_HEADER_AT = BLANKS + r"(?:Exception Group )?Traceback \(most recent call last\):"
CHAIN_AT = BLANKS + r"(?:The above exception was the direct cause|During handling of the above exception)"
# IPython's `ValueError      Traceback (most recent call last)`: a name (up to 10000 characters), then
# spaces or, for a long one, "Traceback" right after it. Possessive runs: a lazy name tried the rest
# of the pattern after each of its characters, on every line.
IPY_HEADER_AT = BLANKS + r"(?:\S{1,10000}+[ ]++Traceback|\S{10,10009}+(?<=\STraceback)) \(most recent call last\)"
FRAME_AT = BLANKS + r"(?:File |Cell In\[|Input In \[)"
# What split_exception takes without `loose`: a dotted name before ':', or a name ending like an
# exception type. A lookbehind needs one width, so it holds the last four letters of each suffix;
# the few other names it admits ('Caption') split_exception turns down.
_ENDINGS = "|".join(sorted({name[-4:] for name in (*_EXC_SUFFIXES, *_EXC_NAMES)}))
EXCEPTION_AT = rf"[ \t]*+[A-Za-z_](?:[\w<>]*+\.[\w.<>]*+:|[\w.<>]*+(?<={_ENDINGS})(?::|[^\S\n]*$))"
LOOSE_EXCEPTION_AT = (
    r"[ \t]*+[A-Za-z_](?:[\w.<>]*+:|(?:[\w<>]*+\.)++[A-Z][\w<>]*+[^\S\n]*$)"  # or a qualified class alone
)
# What split_location takes. The runs are possessive: a shorter one would end before a character
# other than ':', so giving characters back can never match; it only cost a pass per line.
LOCATED_AT = r"[^:\n]{1,10000}+:(?:[\\/][^:\n]{0,10000}+:)?\d{1,9}+:"


def line_pattern(*alternatives: str) -> re.Pattern[str]:
    """A pattern for `Paste.marks`: lines that one of the alternatives matches from their start.

    It looks for the newline before each non-empty line (a literal search is much faster than
    `^`), so it runs over the text with a newline put in front; no alternative may match a newline.
    """
    return re.compile("\n(?=[^\n])(?:" + "|".join(alternatives) + ")", re.MULTILINE)


_ANSI_RE = re.compile(
    r"\x1b(?:\[[0-?]{0,64}[ -/]{0,16}[@-~]|\][^\x07\x1b]{0,4096}(?:\x07|\x1b\\)|[@-Z\\^_])?"
    r"|\x9b[0-?]{0,64}[ -/]{0,16}[@-~]"
)
_ORPHAN_SGR_RE = re.compile(r"\[\d{1,3}(?:;\d{1,3}){0,15}m")
_RANK_RE = re.compile(r"^\[rank\d{1,6}\]: ?", re.MULTILINE)
_NAME_STARTS = frozenset(string.ascii_letters + "_")  # of a name, as _NAME_RE reads it
_NAME_RE = re.compile(r"[A-Za-z_]\w{0,199}(?:\.(?:[A-Za-z_]\w{0,199}|<locals>)){0,30}")
_DIGITS_COLON_RE = re.compile(r"(\d{1,9}):")
_GROUP_AT = re.compile(r"^(?: *[|+]|[^\S\n]*Exception Group Traceback)", re.MULTILINE)
_BOX_RE = re.compile(r"( *)(\+-)?\+-{3,}(?: (?:\d{1,9}|\.\.\.) -{3,})?")
_MARGIN_RE = re.compile(r"( *)([|+])(?: |$)")


class ExceptionLine(NamedTuple):
    """A `Type: message` line as read: the type as written, and the message's first line."""

    name: str
    message: str


class Location(NamedTuple):
    """`  src/x.py:687: rest`, the location warnings and pytest print, and the text after it."""

    indent: int
    path: str
    line: int
    rest: str


class BoxLine(NamedTuple):
    """A line of exception-group output that draws a box: `+---- 1 ----` (sub) or `+--------` (end)."""

    depth: int
    kind: Literal["sub", "end"]


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

    text: str  # the lines joined by "\n": what line patterns run over
    lines: list[str]
    depths: dict[int, int] = field(default_factory=dict)  # exception-group depth of group lines; else 0
    boxes: dict[int, BoxLine] = field(default_factory=dict)  # by line
    edges: list[int] = field(default_factory=list)  # where group output changes depth, in order
    _marks: dict[int, list[int]] = field(default_factory=dict, repr=False)  # by id: hashing a pattern is slow
    _scanned: str = field(init=False, repr=False)  # the text after a newline, for line patterns

    def __post_init__(self) -> None:
        self._scanned = "\n" + self.text

    def depth(self, i: int) -> int:
        return self.depths.get(i, 0)

    def marks(self, pattern: re.Pattern[str]) -> list[int]:
        """The lines a line pattern matches, found once with one pass over the text."""
        found = self._marks.get(id(pattern))
        if found is None:
            found = self._marks[id(pattern)] = _line_numbers(self._scanned, pattern, len(self.lines))
        return found

    def next_mark(self, pattern: re.Pattern[str], j: int) -> int:
        """The first line at or after `j` that `pattern` matches or where group depth changes.

        Past the last line the answer is known: a reader asking there (after a one-line paste's
        only record, say) needs no marks.
        """
        if j >= len(self.lines):
            return len(self.lines)
        marks = self._marks.get(id(pattern))
        if marks is None:
            marks = self.marks(pattern)
        k = bisect.bisect_left(marks, j)
        found = marks[k] if k < len(marks) else len(self.lines)
        return min(found, _first_at(self.edges, j, found)) if self.edges else found


def _line_numbers(scanned: str, pattern: re.Pattern[str], line_count: int) -> list[int]:
    """The numbers of the lines where a line pattern matches in "\n" + text: newlines before it.

    In a one-line paste (most pastes) the pattern can only match at its one newline: one `match`.
    """
    if line_count == 1:
        return [0] if pattern.match(scanned) else []
    numbers: list[int] = []
    line, last = -1, 0
    count, append = scanned.count, numbers.append
    for start in map(re.Match.start, pattern.finditer(scanned)):
        line += count("\n", last, start + 1)
        last = start + 1
        append(line)
    return numbers


def _first_at(sorted_lines: list[int], j: int, default: int) -> int:
    k = bisect.bisect_left(sorted_lines, j)
    return sorted_lines[k] if k < len(sorted_lines) else default


def clean(text: str, max_chars: int) -> str:
    """Cut a paste to its last `max_chars` characters, remove colours, line-end variants and rank prefixes."""
    if len(text) > max_chars:
        text = text[-max_chars:]
        cut = text.find("\n", 0, LINE_CAP)
        text = text[cut + 1 :] if cut != -1 else text
    text = strip_ansi(text)
    if "\r" in text:  # one scan where most pastes have none, not one per replace
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "[rank" in text:  # torch.distributed prefixes every line with "[rank0]: "
        text = _RANK_RE.sub("", text)
    return text


def split_paste(text: str, lines: list[str] | None = None) -> Paste:
    """The lines of a cleaned paste (`lines` when the caller has them), exception-group boxes taken out."""
    lines = text.split("\n") if lines is None else lines
    first_group = _GROUP_AT.search(text) if ("+---" in text or "Exception Group Traceback" in text) else None
    if first_group is None:
        return Paste(text, lines)
    return _unbox(lines, text.count("\n", 0, first_group.start()))


def _unbox(lines: list[str], start: int) -> Paste:
    """Take the `| ` margins and `+---- 1 ----` boxes of exception-group output out of the lines.

    The group's own lines get depth 0 like plain exceptions beside it, each box level one more,
    counted from the margin of the group's first line, wherever the paste put that margin.
    Lines before `start` hold no group output.
    """
    out = lines[:start]
    depths: dict[int, int] = {}
    boxes: dict[int, BoxLine] = {}
    edges: list[int] = []
    in_group = False
    base: int | None = 0  # the column of the outermost margin; None until a headed group shows it
    previous = -1  # the depth of the last group line, -1 outside group output
    for i in range(start, len(lines)):
        line = lines[i]
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
        depth = max(0, column - base) // 2 if base is not None else 0
        if in_group and box:
            boxes[i] = BoxLine(depth + 1, "end" if " " not in h.strip() else "sub")
            out.append("")
            depth += 1
        elif in_group and margin:
            out.append(line[margin.end() :])
        else:
            out.append(line)
            if h.strip() and previous != -1:
                edges.append(i)
                previous = -1
            continue
        depths[i] = depth
        if depth != previous or i in boxes:
            edges.append(i)
        previous = depth
    return Paste("\n".join(out), out, depths, boxes, edges)


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


def is_blank(line: str) -> bool:
    return not line or line.isspace()


def is_section(s: str) -> bool:
    """pytest's `==== FAILURES ====`, `____ test_x ____`, `---- Captured log call ----` titles."""
    c = s[:1]
    return c in ("=", "_", "-") and s[:3] == c * 3 and s[-3:] == c * 3 and " " in s


def is_tb_header(s: str) -> bool:
    """A `Traceback (most recent call last):` line, `s` being the stripped head of a line."""
    return s.startswith(TB_HEADERS)


def ipython_header(s: str) -> str | None:
    """The type named by IPython's `ValueError      Traceback (most recent call last)` line.

    IPython right-aligns the second part in 75 columns, so a long type name touches it.
    """
    if not s.endswith(_IPY_TAIL):
        return None
    name = s[: -len(_IPY_TAIL)].rstrip()
    return name if name and is_type_name(name) else None


def is_type_name(name: str) -> bool:
    """Whether a string is a (dotted) Python name as tracebacks print exception types."""
    return _NAME_RE.fullmatch(name) is not None


def is_exception_like(name: str) -> bool:
    """Whether a name reads as an exception or warning type even where nothing else says so."""
    module, _, last = name.rpartition(".")
    # `cv2.error`, `zlib.error`, `socket.error`: C extension modules name their exception `error`
    return last.endswith(_EXC_SUFFIXES) or last in _EXC_NAMES or (bool(module) and last == "error")


def split_exception(s: str, loose: bool = False) -> ExceptionLine | None:
    """'ValueError: bad' -> ('ValueError', 'bad'); a type alone gives ('KeyboardInterrupt', '').

    `s` starts at the type. Without `loose` the type must read as an exception or be a qualified
    class name; with it (inside a traceback) any dotted or capitalised name before ': ' is taken.
    """
    if s[:1] not in _NAME_STARTS:  # the cheap test first: most lines that are no `Type: msg` fail it
        return None
    k = s.find(": ", 0, 1000)
    if k != -1:
        name, message, colon = s[:k], s[k + 2 :], True
    elif len(s) <= 1000:
        name, message = s.rstrip(), ""
        colon = name.endswith(":")
        name = name[:-1] if colon else name
    else:
        return None
    if " " in name or not is_type_name(name):
        return None
    if is_exception_like(name) or (colon and _reads_as_class(name, loose)) or (loose and _is_qualified_class(name)):
        return ExceptionLine(name, message)
    return None


def _reads_as_class(name: str, loose: bool) -> bool:
    """'pkg.mod.SomeProblem' anywhere; inside a traceback also 'Unsupported' or 'pkg.error'."""
    if loose:
        return "." in name or name.rsplit(".", 1)[-1][0].isupper()
    return _is_qualified_class(name)


def _is_qualified_class(name: str) -> bool:
    """'click.exceptions.Abort': what a traceback prints for an exception raised without a message."""
    return "." in name and name.rsplit(".", 1)[-1][:1].isupper()


def split_location(line: str) -> Location | None:
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
    return Location(ind, path, int(m.group(1)), rest[1:] if rest.startswith(" ") else rest)
