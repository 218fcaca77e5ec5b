"""Exception records as the readers find them, their messages, and the choice of the main one.

A message runs from its first line to the next line that starts something else (a traceback,
a chain separator, a log record, a prompt, ...); blank lines inside it are kept, trailing ones
are not. Notes and the interpreter's "Did you mean" are then taken out of it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from errdex.match.parse.lines import (
    BLANKS,
    CHAIN_AT,
    CHAIN_SEPARATORS,
    EXCEPTION_AT,
    IPY_HEADER_AT,
    LOCATED_AT,
    TB_HEADER_AT,
    ExceptionLine,
    Paste,
    head,
    indent,
    ipython_header,
    is_blank,
    is_section,
    is_tb_header,
    line_pattern,
    split_exception,
)
from errdex.match.parse.logs import LOG_AT, is_log_line, located_exception
from errdex.match.parse.rich_box import RICH_HEADER_AT, rich_header
from errdex.model import Frame, Kind, ParsedError

# Lines that open a PEP 678 note added by a well-known library; the note runs to the end of the
# message. A note cannot be told from a message line by its shape alone, so only these are moved.
NOTE_PREFIXES = (
    "Falsifying example:",
    "Falsifying explicit example:",
    "Trying example:",
    "Explanation:",
    "You can reproduce this example by temporarily adding",
    "You can add @seed(",
    "Unreliable test timings!",
    "while generating ",
    "Structuring class ",
    "Structuring typed dict ",
    "Structuring mapping ",
)
_SUGGESTING = frozenset({"NameError", "AttributeError", "ImportError", "ModuleNotFoundError", "UnboundLocalError"})
_SUGGESTION = ". Did you "
# `(` and a str's repr (one line, its quote escaped inside), then `, `: possessive, so linear on any text
_FIRST_ARGUMENT = re.compile(r"""\(('(?:[^'\\\n]|\\.)*+'|"(?:[^"\\\n]|\\.)*+"), """)
# How much a record tells, most first; between equals the one written last is the main one.
RANK_PYTEST, RANK_TRACEBACK, RANK_LOCATED, RANK_BARE_ERROR, RANK_WARNING, RANK_BARE_WARNING, RANK_LOG = range(7, 0, -1)
_NOISE = (">>> ", "```", "$ ", "Process finished with exit code", "Error: Process completed with exit code")
_PROMPT = (
    r"(?:\([^()\s]{1,100}\) ?)?[\w.-]{1,64}+@[\w.-]{1,64}+(?::[^\s$#]{0,300})? ?[$#%](?:[^\S\n]|$)"  # (venv) a@b:~$
    r"|In \[\d{1,9}\]: "  # IPython
    r"|PS [A-Za-z]:\\[^>\n]{0,300}> ?"  # PowerShell
)
_PROMPT_RE = re.compile(_PROMPT)
_NOTE_AT = re.compile("^(?:" + "|".join(re.escape(prefix) for prefix in NOTE_PREFIXES) + ")", re.MULTILINE)
_STOP_AT = (
    TB_HEADER_AT,
    CHAIN_AT,
    IPY_HEADER_AT,
    RICH_HEADER_AT,
    BLANKS + "(?:" + "|".join(re.escape(noise) for noise in _NOISE) + ")",
    BLANKS + "(?:" + _PROMPT + ")",
    BLANKS + "(?:===|___|---|_ _ _)",  # pytest sections, IPython's rule
    LOG_AT,
    LOCATED_AT,
)
STOP_LINES = line_pattern(*_STOP_AT)  # at least every line is_boundary takes
# `Type: msg` first: most pastes are such a line, and the first alternative that matches ends the try.
STOP_OR_RECORD_LINES = line_pattern(EXCEPTION_AT, *_STOP_AT)


@dataclass
class Raw:
    """One exception, warning or log record as a reader found it, before its message is cleaned."""

    exception: str | None
    lines: list[str]  # the message as printed, the first line starting after "Type: "
    frames: tuple[Frame, ...]
    source_format: str
    index: int  # the paste line where the exception or record is written
    depth: int = 0  # exception-group nesting
    linked: bool = False  # a chain separator stands between it and the record before it
    raised: bool = False  # cut before its exception line, it shows its last frame raised (see tracebacks)
    kind: Kind | None = None  # None: "warning" for a *Warning type, else "error"
    printed_above: bool = False  # see ParsedError.printed_above


@dataclass(frozen=True)
class Box:
    """A `+---- 1 ----` (sub) or `+--------` (end) line of exception-group output."""

    index: int
    depth: int
    kind: Literal["sub", "end"]


def is_boundary(p: Paste, j: int) -> bool:
    """Whether line `j` starts something other than the continuation of a message."""
    h = head(p.lines[j])
    s = h.strip()
    return (
        is_tb_header(s)
        or s in CHAIN_SEPARATORS
        or is_log_line(h)
        or ipython_header(s) is not None
        or rich_header(s)
        or is_noise(s)
        or is_section(s)
        or s.startswith("_ _ _")  # pytest's line between the entries of one failure
        or (len(s) >= 20 and not s.strip("="))  # unittest's rule before the next failure's `ERROR: test_x (...)`
        or _is_rule_before_header(p, j, s)
        or located_exception(h) is not None
    )


def is_noise(s: str) -> bool:
    """A shell or REPL prompt, a code fence, a CI runner's exit line: not the program's output."""
    return s.startswith(_NOISE) or _PROMPT_RE.match(s) is not None


def bare_exception(line: str) -> ExceptionLine | None:
    """The type and message of a `Type: msg` line, unless the line is a prompt's or other noise."""
    h = head(line)
    exc = split_exception(line[indent(h) :])
    return exc if exc is not None and not is_noise(h.strip()) else None


def _starts_record(line: str, deepest: int) -> bool:
    return indent(head(line)) <= deepest and bare_exception(line) is not None


def _is_rule_before_header(p: Paste, j: int, s: str) -> bool:
    """IPython's dashed rule, when an IPython traceback header follows it."""
    if len(s) < 20 or s.strip("-"):
        return False
    for k in range(j + 1, min(j + 3, len(p.lines))):
        t = head(p.lines[k]).strip()
        if t:
            return ipython_header(t) is not None
    return False


class MessageLines(NamedTuple):
    """A message's lines as printed, and the paste line after it (where reading goes on)."""

    lines: list[str]
    end: int


def read_message(p: Paste, i: int, first: str, records: int | None = None) -> MessageLines:
    """The lines of the message that starts on line `i` with `first`, and the index after it.

    With `records`, a line that reads as `SomeError: ...` indented at most that many columns also
    ends it: it starts a record of its own. One indented deeper is a line of the message, which
    Python prints as it is (`\tError: {}` under `ValueError: invalid value:`).
    """
    pattern = STOP_OR_RECORD_LINES if records is not None else STOP_LINES
    lines, n, depth = p.lines, len(p.lines), p.depth(i)
    j = p.next_mark(pattern, i + 1)
    while j < n and not (
        (p.depths and (j in p.boxes or p.depth(j) != depth))
        or is_boundary(p, j)
        or (records is not None and _starts_record(lines[j], records))
    ):
        j = p.next_mark(pattern, j + 1)
    k = j
    while k > i + 1 and is_blank(lines[k - 1]):
        k -= 1
    return MessageLines([first, *lines[i + 1 : k]], j)


def clean_message(exception: str | None, lines: list[str]) -> tuple[str, tuple[str, ...]]:
    """The message without notes and the interpreter's suggestion, and the notes."""
    text = "\n".join(lines)
    note = _NOTE_AT.search(text, len(lines[0]) + 1) if len(lines) > 1 else None
    body = text[: note.start()].rstrip() if note else text.rstrip()
    name = exception.rsplit(".", 1)[-1] if exception is not None else None
    if name in _SUGGESTING:
        body = _drop_suggestion(body)
    elif name != "KeyError":  # a KeyError's message is the repr of its key, tuples included
        body = _first_argument(body)
    return body, _notes(text[note.start() :]) if note else ()


def _first_argument(body: str) -> str:
    """The message of an exception raised with more arguments than it: Python prints all of them as
    a tuple (`("'x' must be <class 'int'> (got '1' ...).", Attribute(...), <class 'int'>, '1')`, as
    attrs' validators raise), and the first, a sentence, is what the package wrote."""
    m = _FIRST_ARGUMENT.match(body) if body.endswith(")") else None
    first = string_value(m.group(1)) if m else None
    return first if first is not None and " " in first.strip() else body


def string_value(literal: str) -> str | None:
    """The value of a str literal as Python's repr writes one, or None when it is none."""
    try:
        value = ast.literal_eval(literal)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, str) else None


def _drop_suggestion(body: str) -> str:
    """Remove "Did you mean: 'x'?" (and "Did you forget to import 'x'?"), which CPython appends."""
    cut = body.rfind("\n") + 1
    last = body[cut:]
    if cut and last.lstrip().startswith(_SUGGESTION[2:]) and last.endswith("?"):
        return body[:cut].rstrip()
    k = last.rfind(_SUGGESTION)
    if k != -1 and last.endswith("?") and len(last) - k <= 300:
        return body[: cut + k]
    return body


def _notes(text: str) -> tuple[str, ...]:
    starts = [m.start() for m in _NOTE_AT.finditer(text)]
    pieces = (text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True))
    return tuple(note for piece in pieces if (note := piece.rstrip()))


class Chain(NamedTuple):
    """The main record of a chain of exceptions, the others of the chain in the order shown, and the
    records of the paste's earlier chains."""

    main: Raw
    others: list[Raw]
    earlier: list[Raw]


def select(items: Sequence[Raw | Box]) -> Chain | None:
    """The main record of the last chain, and the others of that chain in the order shown.

    The main record is the last one raised at the outermost level. An exception group is the
    exception that was raised (its own line, `ExceptionGroup: msg (2 sub-exceptions)`), so it is
    the main record and its sub-exceptions are among the others. A traceback cut before its exception
    line counts when no exception line was pasted (then its frames are all there is), or when it is the
    paste's last, a chain separator leads to it and its last frame is where it was raised: it was raised last,
    so it is the main record. (A traceback cut among its frames may have gone on into other code.)
    """
    records = {k: item for k, item in enumerate(items) if isinstance(item, Raw)}
    last = max(records, default=-1)
    records = {
        k: record
        for k, record in records.items()
        if record.exception is not None or (k == last and record.linked and record.raised)
    } or records
    if not records:
        return None
    top = min(record.depth for record in records.values())
    outer = [k for k, record in records.items() if record.depth == top]
    t = len(outer) - 1
    while t > 0 and records[outer[t]].linked:
        t -= 1
    main = outer[-1]
    others = [record for k, record in records.items() if k >= outer[t] and k != main]
    return Chain(records[main], others, [record for k, record in records.items() if k < outer[t]])


def build(raw: Raw, chained: Sequence[Raw] = (), others: Sequence[Raw] = ()) -> ParsedError:
    """The ParsedError of a record, its message cleaned, with the other records of its chain and the
    paste's other errors and warnings."""
    message, notes = clean_message(raw.exception, raw.lines)
    kind = raw.kind or ("warning" if raw.exception and raw.exception.endswith("Warning") else "error")
    return ParsedError(
        exception=raw.exception,
        message=message,
        frames=raw.frames,
        kind=kind,
        notes=notes,
        chained=tuple(map(build, chained)),
        others=tuple(map(build, others)),
        source_format=raw.source_format,
        printed_above=raw.printed_above,
    )
