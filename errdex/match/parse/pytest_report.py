"""pytest's failure reports: `>` source lines, `E` lines, `path:line:` locations and summary lines.

In the long format each entry shows its function's source with the failing line marked `>` and
ends with `path:line: ` (the last one with the exception's type); the short format writes
`path:line: in function` and the code under it. The exception and its message are the `E` lines.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from errdex.match.parse.lines import (
    BLANKS,
    CHAIN_AT,
    CHAIN_SEPARATORS,
    LOCATED_AT,
    Paste,
    head,
    indent,
    is_section,
    is_type_name,
    line_pattern,
    split_exception,
    split_location,
)
from errdex.match.parse.message import Raw
from errdex.model import Frame

_DEF_RE = re.compile(r"[ \t]{0,40}(?:async )?def ([A-Za-z_]\w{0,200})\(")
_SUMMARY = ("FAILED ", "ERROR ")
E_LINE_AT = r"E(?: |$)"  # `E   ValueError: ...`
SUMMARY_AT = r"(?:FAILED|ERROR) "
_PYTEST_LINES = line_pattern(  # at least every line the reader acts on
    E_LINE_AT,
    r">(?: |$)",
    BLANKS + r"(?:===|___|---)",
    CHAIN_AT,
    SUMMARY_AT,
    r"[ \t]{0,40}+(?:async )?def ",
    LOCATED_AT,
)


class PytestItems(NamedTuple):
    """The exceptions of pytest's failure sections, and those of its short summary lines."""

    failures: list[Raw]
    summaries: list[Raw]


def pytest_items(p: Paste) -> PytestItems:
    """The exceptions pytest's report shows."""
    reader = _PytestReader(p)
    reader.run()
    return PytestItems(reader.failures, reader.summaries)


def _is_e_line(h: str) -> bool:
    return h[:1] == "E" and (len(h) == 1 or h[1] == " ")


class _PytestReader:
    def __init__(self, p: Paste) -> None:
        self.p = p
        self.failures: list[Raw] = []
        self.summaries: list[Raw] = []
        self.frames: list[Frame] = []
        self.function: str | None = None  # the last `def` shown in a source listing
        self.source: str | None = None  # the last `>` line
        self.e_block: tuple[int, list[str]] | None = None  # `E` lines waiting for their location
        self.linked = False

    def run(self) -> None:
        i, n = self.p.next_mark(_PYTEST_LINES, 0), len(self.p.lines)
        while i < n:
            i = self.step(i)
        self.flush(None)

    def step(self, i: int) -> int:
        """Read line `i`; the index of the next line worth reading."""
        line = self.p.lines[i]
        h = head(line)
        if _is_e_line(h):
            return self.read_e_block(i)
        if h[:1] == ">" and (len(h) == 1 or h[1] == " "):
            self.source = line[1:].strip() or None
            return self.p.next_mark(_PYTEST_LINES, i + 1)
        s = h.strip()
        if is_section(s) or s in CHAIN_SEPARATORS:
            self.flush(None)
            self.frames, self.function, self.source = [], None, None
            self.linked = s in CHAIN_SEPARATORS
        elif h.startswith(_SUMMARY):
            self.summary(i, line)
        elif (m := _DEF_RE.match(h)) is not None:
            self.function = m.group(1)
        elif h[:1] not in (" ", "\t", "") and (loc := split_location(line)) is not None:
            self.location(i, loc.path, loc.line, loc.rest.rstrip())
        return self.p.next_mark(_PYTEST_LINES, i + 1)

    def read_e_block(self, i: int) -> int:
        """Collect consecutive `E` lines, without the `E` and the indentation pytest adds."""
        lines = self.p.lines
        pad = indent(head(lines[i][1:]))
        out, j = [], i
        while j < len(lines) and _is_e_line(head(lines[j])):
            text = lines[j][1:]
            out.append(text[min(pad, indent(head(text))) :])
            j += 1
        self.flush(None)
        self.e_block = (i, out)
        return j

    def location(self, i: int, path: str, number: int, rest: str) -> None:
        if rest.startswith("in ") and len(rest) > 3 and " " not in rest[3:]:
            following = head(self.p.lines[i + 1]) if i + 1 < len(self.p.lines) else ""
            code = following.strip() if following[:1] in (" ", "\t") and not _is_e_line(following) else None
            self.frames.append(Frame(path, number, rest[3:], code or None))
        elif rest == "" or (self.e_block is not None and is_type_name(rest)):
            self.frames.append(Frame(path, number, self.function, self.source))
            self.function = self.source = None
            if rest:
                self.flush(rest)

    def flush(self, type_hint: str | None) -> None:
        """Turn the waiting `E` lines into an exception, with `type_hint` from `path:line: Type`."""
        if self.e_block is None:
            return
        index, lines = self.e_block
        self.e_block = None
        exc = split_exception(lines[0], loose=True)
        if exc is not None and (type_hint is None or _same_type(exc.name, type_hint)):
            name, body = exc.name, [exc.message, *lines[1:]]
        elif type_hint is not None or lines[0].startswith("assert "):
            name, body = type_hint or "AssertionError", lines
        else:
            return
        self.failures.append(Raw(name, body, tuple(self.frames), "pytest", index, linked=self.linked))
        self.frames, self.linked = [], False

    def summary(self, i: int, line: str) -> None:
        """`FAILED tests/test_x.py::test_y - ValueError: message` (often cut to the terminal's width)."""
        rest = line.partition(" ")[2]
        bracket = rest.find("[", 0, rest.find(" - "))  # parameters may hold " - ": test_x[a - b]
        k = rest.find(" - ", rest.find("]", bracket) if bracket != -1 else 0)
        node, text = rest[:k], rest[k + 3 :]
        if k == -1 or not (".py" in node or "::" in node) or " " in node.partition("[")[0]:
            return
        exc = split_exception(text, loose=True)
        name, first = (exc.name, exc.message) if exc is not None else (None, text)
        path, _, rest = node.partition("::")
        frame = Frame(path, None, rest.rsplit("::", 1)[-1] or None)
        self.summaries.append(Raw(name, [first], (frame,), "pytest", i))


def _same_type(written: str, short: str) -> bool:
    return written.rsplit(".", 1)[-1] == short.rsplit(".", 1)[-1]
