"""Per-line prefixes: what `docker compose`, process managers, CI runners and loggers put before each line.

`web-1  | `, `Jan 01 12:00:00 host app[123]: `, `2024-01-01T00:00:00.1234567Z `, `168.5s | 231 | `,
`2024-05-01 12:00:03,123 ERROR [worker] `: nothing here names a product. A run of consecutive lines whose
starts have one shape (word runs, digit runs, blanks and punctuation, in one order) up to a separator
(`| `, `: `, `] `, `) `, `- `, or a blank after a timestamp-like run) carries a prefix. It is taken off
only when that shows more of a traceback, or else more records, than the lines with it: a log file's
levels and an exception line's type are prefixes of the same shape, and they tell the reader something.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from typing import NamedTuple

from errdex.match.parse.lines import (
    CHAIN_AT,
    EXCEPTION_AT,
    FRAME_AT,
    IPY_HEADER_AT,
    LOCATED_AT,
    TB_HEADER_AT,
    head,
)
from errdex.match.parse.logs import LOG_AT
from errdex.match.parse.pytest_report import E_LINE_AT, SUMMARY_AT

TAIL = 65_536  # characters at the end of a paste where signs of a prefix or of a flattened traceback are looked for
_SHAPE_CAP = 160  # characters of a line whose shape is read: a prefix is shorter
_SEPARATORS = frozenset("|:])>-;")
_NONBLANK_RE = re.compile(r"\S")
_EDGE = 4096  # characters at each end of a paste where its first and last two lines are looked for
_NAME_CHARS = string.ascii_letters + string.digits + "_."
# Record signs a prefix hides: the first of each, not at its line's start, says the paste may carry prefixes.
_SIGNS = ("Traceback (most recent call last)", 'File "', "Error: ", "Exception: ", "Warning: ")
_TRACEBACK_RE = re.compile("(?:" + "|".join((TB_HEADER_AT, CHAIN_AT, IPY_HEADER_AT, FRAME_AT)) + ")")
_RECORD_RE = re.compile("(?:" + "|".join((EXCEPTION_AT, LOG_AT, LOCATED_AT, E_LINE_AT, SUMMARY_AT)) + ")")
# A line's shape: runs of digits, of letters and of blanks become one '9', 'a' and ' '.
_CLASSES = str.maketrans(
    {
        **dict.fromkeys(map(ord, string.digits), "9"),
        **dict.fromkeys(map(ord, string.ascii_letters + "_"), "a"),
        ord("\t"): " ",
    }
)
_RUNS = tuple((re.compile(one + "{2,}"), one) for one in "9a ")  # literal replacements run in C
# Where a prefix may end: after a separator, or after a word once a run of digits (a time, a pid) came.
_FIRST_CUT_RE = re.compile(r".{0,160}?(?:[|:\])>;\-](?= )|9[^ ]*+(?= ))")
_MAX_CUTS = 6  # prefixes tried per run: a timestamp, a host, a process and a separator are four
_MAX_LEVELS = 3  # passes over the lines: a prefix in two parts that not every line carries whole takes two
_TOKEN_PATTERNS = {"9": r"[0-9]++", "a": r"[A-Za-z_]++", " ": r"[ \t]++"}  # a shape's runs, read back


class _Score(NamedTuple):
    """What a run of lines shows a reader: lines of a traceback, then lines that start a record."""

    traceback: int
    records: int


def may_carry_prefixes(text: str) -> bool:
    """Whether the paste may carry prefixes: the cheap test before reading shapes.

    Its first two or last two lines start alike, and a record sign stands after a prefix on its line. Only the
    paste's end is searched for the sign, where the error is: the test costs the same for any paste.
    """
    if not (_alike(_edge_lines(text, 0)) or _alike(_edge_lines(text, -1))):
        return False
    tail = max(0, len(text) - TAIL)
    for sign in _SIGNS:
        k = text.find(sign, tail)
        if k != -1 and not _at_line_start(text, k):
            return True
    return False


def _edge_lines(text: str, end: int) -> list[str]:
    """The heads of the first (end 0) or last (end -1) two non-blank lines of a text.

    Only the text's first or last _EDGE characters are looked at, whatever lies between its lines.
    """
    lines: list[str] = []
    k = 0 if end == 0 else len(text)
    while len(lines) < 2:
        if end == 0:
            m = _NONBLANK_RE.search(text, k, _EDGE)
            if m is None:
                break
            start = text.rfind("\n", 0, m.start()) + 1
            k = text.find("\n", m.start())
            k = len(text) if k == -1 else k
            lines.append(text[start : min(k, start + _SHAPE_CAP)])
        else:
            window = max(0, len(text) - _EDGE)
            k = window + len(text[window:k].rstrip())
            if k == window:
                break
            start = text.rfind("\n", 0, k) + 1
            lines.append(text[start : min(k, start + _SHAPE_CAP)])
            k = start
    return lines


def _alike(lines: list[str]) -> bool:
    """Whether two lines start with one shape up to where a prefix may first end."""
    if len(lines) < 2:
        return False
    a, b = lines[0][:1], lines[1][:1]
    if a != b and not (a.isdigit() and b.isdigit()):  # the cheap test: most pastes' lines start otherwise
        return False
    keys = [_FIRST_CUT_RE.match(shape + " ") for shape in _shapes(lines)]  # a line may hold only the prefix
    return all(keys) and len({key.group(0) for key in keys if key}) == 1


def _at_line_start(text: str, k: int) -> bool:
    """Whether no prefix-like text comes before `k` on its line: none holding a separator or a digit.

    The sign's own name ('Value' of 'ValueError: ') does not count, nor the words before IPython's,
    rich's and exception groups' headers (`ValueError      Traceback`, `╭──── Traceback`, `+ Exception Group`).
    """
    start = text.rfind("\n", 0, k) + 1
    before = text[start:k].rstrip(_NAME_CHARS).strip(" \t|+")  # blanks and bars: an exception group's margin
    return not any(c in _SEPARATORS or c.isdigit() for c in before)


def strip_prefixes(lines: list[str]) -> list[str]:
    """The lines with the prefix of each run of lines that carries one taken off.

    A prefix may be two: `(RayTrainWorker pid=1) [rank1]:   File ...`, where the lines a worker printed blank
    carry the first part only and so end the prefix all lines share there. What a pass took off can show the
    next part as a prefix of its own: passes go on while one takes something off.
    """
    for _ in range(_MAX_LEVELS):
        shapes = _shapes(lines)
        out = list(lines)
        stripped = [_strip_run(out, lines, shapes, run) for run in _runs(shapes)]
        if not any(stripped):
            break
        lines = out
    return lines


def _shapes(lines: list[str]) -> list[str]:
    """Each line's shape: a run of digits is '9', of letters 'a', of blanks ' '; other characters stay.

    Made for the whole text at once (a translation and one substitution per class run in C), then split.
    """
    text = "\n".join(line[:_SHAPE_CAP] for line in lines).translate(_CLASSES)
    for run, one in _RUNS:
        text = run.sub(one, text)
    return text.split("\n")


class _Run(NamedTuple):
    """Lines [start, end) around a run of lines whose first possible prefix has one shape; `members` are the
    lines that have one. The lines between two runs belong to the first: they may hold a part of its prefix."""

    start: int
    end: int
    members: list[int]


def _runs(shapes: list[str]) -> list[_Run]:
    """Each run of two or more lines whose first possible prefix has one shape.

    Blank lines and lines where no prefix can end stay inside a run; a line with another start ends it.
    """
    groups: list[list[int]] = []
    key: str | None = None
    members: list[int] = []
    for i, shape in enumerate(shapes):
        m = _FIRST_CUT_RE.match(shape)
        if m is None:
            continue
        if m.group(0) != key:
            if len(members) >= 2:
                groups.append(members)
            key, members = m.group(0), []
        members.append(i)
    if len(members) >= 2:
        groups.append(members)
    if not groups:
        return []
    ends = [group[0] for group in groups[1:]] + [len(shapes)]
    return [
        _Run(0 if k == 0 else groups[k - 1][-1] + 1, end, group)
        for k, (group, end) in enumerate(zip(groups, ends, strict=True))
    ]


def _cuts(common: str) -> list[int]:
    """Where in a shape a prefix may end (before the blank that follows it), first ones first.

    Blanks and bars alone are no prefix: exception groups draw their nesting with them.
    """
    cuts: list[int] = []
    digits = False
    for k in range(1, len(common) + 1):
        before = common[k - 1]
        digits = digits or before == "9"
        after = common[k] if k < len(common) else " "  # a line holding only the prefix ends the common part
        if after == " " and (before in _SEPARATORS or (digits and before in "9a")) and common[:k].strip(" |+"):
            cuts.append(k)
            if len(cuts) == _MAX_CUTS:
                break
    return cuts


def _strip_run(out: list[str], lines: list[str], shapes: list[str], run: _Run) -> bool:
    """Take the run's prefix off its lines when that shows most, the longest such prefix among equals;
    whether one was."""
    common = _common_start([shapes[i] for i in run.members])
    block = lines[run.start : run.end]
    best, best_cut = _score(block), 0
    cuts = _cuts(common)
    for cut in cuts:
        pattern = _prefix_pattern(common[:cut])
        score = _score([_cut(line, pattern) for line in block])
        if score > best or (best_cut and score == best):
            best, best_cut = score, cut
    if best_cut:
        pattern = _prefix_pattern(common[:best_cut])
        parts = [_prefix_pattern(common[:cut]) for cut in cuts if cut < best_cut]
        out[run.start : run.end] = [_cut(line, pattern, parts) for line in block]
    return best_cut != 0


def _common_start(shapes: list[str]) -> str:
    """The longest start all the shapes share (that of the least and the greatest)."""
    first, last = min(shapes), max(shapes)
    k = 0
    while k < len(first) and first[k] == last[k]:
        k += 1
    return first[:k]


def _prefix_pattern(tokens: str) -> re.Pattern[str]:
    """A regex for a prefix of this shape and the one blank after it; more blanks are the line's own."""
    parts = [_TOKEN_PATTERNS.get(t) or re.escape(t) for t in tokens]
    return re.compile("".join(parts) + "[ \t]?")


def _cut(line: str, pattern: re.Pattern[str], parts: Sequence[re.Pattern[str]] = ()) -> str:
    """The line without the prefix; a blank line for one that holds only a first part of it (a worker's blank
    line that carries its name but not the rank after it)."""
    m = pattern.match(line)
    if m:
        return line[m.end() :]
    bare = line.rstrip()
    return "" if any(part.fullmatch(bare) for part in parts) else line


def _score(lines: list[str]) -> _Score:
    """How many lines a reader would take as a traceback's and as a record's first line."""
    traceback = records = 0
    for line in lines:
        h = head(line)
        if _TRACEBACK_RE.match(h):
            traceback += 1
        elif _RECORD_RE.match(h):
            records += 1
    return _Score(traceback, records)
