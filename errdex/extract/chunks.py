"""Split a module's text into statement-sized chunks without parsing it.

Parsing whole files is the cost of indexing, and most code raises nothing: a chunk is a
top-level statement or a class member, found by cheap regular expressions over the text (a
statement starts at the block's indentation, outside any triple-quoted string). Only chunks
that can raise, warn or log are parsed; the rest are kept as text and parsed on demand when a
constant they define is needed. A chunk that does not parse makes the caller fall back to
parsing the whole file, so a wrong split costs time, never correctness.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Literal

ChunkKind = Literal["def", "class", "import", "assign", "other"]

# Words without which a piece of code has no site: `raise`, `assert`, `warn(`, `logger.error(` ...
# Plain substring tests are much faster than one regular expression with alternatives.
INTERESTING_WORDS = ("raise", "assert", "warn", ".error", ".exception", ".critical", ".fatal")
_TRIPLE = re.compile(r"\"\"\"|'''")
_STATEMENT_START = r"(?:[A-Za-z_@])"
_CONTINUATION = r"(?!(?:else|elif|except|finally)\b)"  # clauses that go on the statement above
_INDENTED_START = re.compile(r"\n([ \t]+)" + _STATEMENT_START)
_ASSIGN_TARGET = re.compile(r"([A-Za-z_]\w*)\s*(?::[^=\n]*)?=(?!=)")
_SELF_ATTRIBUTE = re.compile(r"self\.([A-Za-z_]\w*)[ \t]*(?::[^=\n]{0,200})?=(?!=)")
_DEFINITION = re.compile(r"^[ \t]*((?=(?:async[ \t]+)?def[ \t]|class[ \t]))", re.M)
_CLASS_FIELD = re.compile(r"\n[ \t]+([A-Za-z_]\w*)[ \t]*:[^=\n]{0,200}(?:=|\n)")


@dataclass(frozen=True)
class Chunk:
    """One statement of a block: where it starts (1-based line) and its text, indentation kept."""

    kind: ChunkKind
    line: int
    text: str
    name: str | None  # the function, class or assigned name; None for other statements

    @property
    def interesting(self) -> bool:
        return is_interesting(self.text)


def is_interesting(text: str) -> bool:
    """Whether a piece of code may contain a site (a superset: false hits only cost time)."""
    return any(word in text for word in INTERESTING_WORDS)


def string_spans(text: str) -> list[tuple[int, int]]:
    """Offsets of triple-quoted strings, so that statement starts inside them are ignored."""
    spans: list[tuple[int, int]] = []
    open_at = -1
    quote = ""
    for m in _TRIPLE.finditer(text):
        if open_at < 0:
            open_at, quote = m.start(), m.group()
        elif m.group() == quote and not _escaped(text, m.start()):
            spans.append((open_at, m.end()))
            open_at = -1
    if open_at >= 0:
        spans.append((open_at, len(text)))
    return spans


def _escaped(text: str, pos: int) -> bool:
    backslashes = 0
    while pos > 0 and text[pos - 1] == "\\":
        backslashes += 1
        pos -= 1
    return backslashes % 2 == 1


def split_block(text: str, indent: str, first_line: int, spans: list[tuple[int, int]] | None = None) -> list[Chunk]:
    """The statements of a block whose statements start with exactly `indent`.

    `text` is the block's text; `first_line` the file line of its first character.
    """
    if spans is None:
        spans = string_spans(text)
    pattern = re.compile("^" + re.escape(indent) + _CONTINUATION + _STATEMENT_START, re.M)
    starts = [m.start() for m in pattern.finditer(text) if not _inside(spans, m.start())]
    starts = _merge_decorators(text, starts, len(indent))
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    chunks = []
    line = first_line
    for begin, end in zip(starts, starts[1:] + [len(text)]):
        body = text[begin:end]
        chunks.append(_classify(body, line, len(indent)))
        line += body.count("\n")
    return chunks


def _inside(spans: list[tuple[int, int]], pos: int) -> bool:
    i = bisect.bisect_left(spans, (pos, pos)) - 1
    return i >= 0 and spans[i][0] < pos < spans[i][1]


def _merge_decorators(text: str, starts: list[int], width: int) -> list[int]:
    """Keep a decorator with the definition it decorates."""
    merged: list[int] = []
    after_decorator = False
    for pos in starts:
        if not after_decorator:
            merged.append(pos)
        after_decorator = text.startswith("@", pos + width)
    return merged


def _classify(body: str, line: int, width: int) -> Chunk:
    head = body[width:]
    if head.startswith("@"):  # decorators, whose arguments may take several lines, then the definition
        m = _DEFINITION.search(head)
        head = head[m.end(1) :] if m else ""
    if head.startswith(("def ", "async def ")):
        name = head.split("def ", 1)[1].split("(", 1)[0].strip()
        return Chunk("def", line, body, name)
    if head.startswith("class "):
        name = re.split(r"[(:\s]", head[6:].lstrip(), maxsplit=1)[0]
        return Chunk("class", line, body, name)
    if head.startswith(("import ", "from ")):
        return Chunk("import", line, body, None)
    m = _ASSIGN_TARGET.match(head)
    if m and not head.startswith(("if ", "for ", "while ", "with ", "try", "return ", "print(")):
        return Chunk("assign", line, body, m.group(1))
    return Chunk("other", line, body, None)


def class_parts(chunk: Chunk) -> tuple[str, list[Chunk]] | None:
    """Split a class chunk into its header (decorators, `class X(...):`, docstring) and members.

    Returns None when the body is not an indented block we can split (a one-line class).
    """
    text = chunk.text
    spans = string_spans(text)
    body = _body_start(text, spans)
    if body is None:
        return None
    begin, indent = body
    header = text[:begin]
    inner = [(a - begin, b - begin) for a, b in spans if b > begin]
    return header, split_block(text[begin:], indent, chunk.line + header.count("\n"), inner)


def _body_start(text: str, spans: list[tuple[int, int]]) -> tuple[int, str] | None:
    """Where the body of a class chunk starts, and its indentation: the first indented statement
    outside strings and outside the brackets of a header that spans several lines."""
    depth = at = 0
    for m in _INDENTED_START.finditer(text):
        begin = m.start(1)
        if _inside(spans, begin):
            continue
        depth += _bracket_balance(text, spans, at, begin)
        at = begin
        if depth == 0:
            return begin, m.group(1)
    return None


def _bracket_balance(text: str, spans: list[tuple[int, int]], begin: int, end: int) -> int:
    """Brackets opened minus closed in text[begin:end], triple-quoted strings left out."""
    balance = 0
    i = bisect.bisect_left(spans, (begin, begin))
    i = i - 1 if i > 0 and spans[i - 1][1] > begin else i
    for span_begin, span_end in [*spans[i:], (end, end)]:
        piece = text[begin : min(span_begin, end)]
        balance += sum(piece.count(c) for c in "([{") - sum(piece.count(c) for c in ")]}")
        begin = max(begin, span_end)
        if begin >= end:
            break
    return balance


def self_attributes(text: str) -> tuple[str, ...]:
    """Names a class sets on `self` (and its annotated fields): the settings its checks refer to."""
    names = dict.fromkeys(_SELF_ATTRIBUTE.findall(text))
    names.update(dict.fromkeys(_CLASS_FIELD.findall(text)))
    return tuple(names)
