"""Tracebacks whose line breaks were lost: a one-line search box, an issue title, a chat message.

`Traceback (most recent call last): File "/x/utils.py", line 1, in generate   self._validate(...)
File "/x/configuration_utils.py", line 687, in validate raise ValueError(...) ValueError: Invalid ...`
is put back on lines: the header, each frame and the code after it, and the exception line, which is
the first `Type: message` after a frame's code whose type reads as an exception (`split_exception`).
"""

from __future__ import annotations

import re

from errdex.match.parse.lines import split_exception

# A frame as CPython prints it; a blank before the comma is allowed, as retyped or elided frames have one.
_FRAME_RE = re.compile(
    r'File "(?P<file>[^"\n]{1,1000}+)"[ \t]?, line (?P<line>\d{1,9}+)(?:, in (?P<function>[\w<>.]{1,200}+))?'
)
_BREAK_RE = re.compile(
    r"(?:Exception Group )?Traceback \(most recent call last\):"
    r"|The above exception was the direct cause of the following exception:"
    r"|During handling of the above exception, another exception occurred:"
)
# A name that may start the exception line: after a blank or the start, before ': ' or the end.
_TYPE_AT_RE = re.compile(r"(?<!\S)[A-Za-z_][\w.]{0,200}+(?=: |:?[^\S\n]*+$)")
_WORD_RE = re.compile(r"\w")  # code or a message after a frame; a closing quote or backtick is neither
_CARETS_RE = re.compile(r"(?<!\S)[~^]{2,}+(?!\S)")  # 3.11+'s markers under a frame's code


def is_flattened(text: str, tail: int = 0) -> bool:
    """Whether the first frame line from `tail` on holds more than a frame: the test before any splitting."""
    k = text.find('File "', tail)
    if k == -1:
        return False
    start, end = text.rfind("\n", 0, k) + 1, text.find("\n", k)
    line = text[start : len(text) if end == -1 else end]
    frames = list(_FRAME_RE.finditer(line))
    return bool(frames) and _holds_more(line, frames)


def _holds_more(line: str, frames: list[re.Match[str]]) -> bool:
    """Whether a line holds a frame and more: code or another frame after it, a header before it.

    Text before a frame alone is no sign: exception groups print `|   File "..."`.
    """
    first = frames[0]
    return (
        len(frames) > 1
        or _WORD_RE.search(line, first.end()) is not None
        or _BREAK_RE.search(line, 0, first.start()) is not None
    )


def unflatten(lines: list[str]) -> list[str]:
    """The lines, each one that holds a frame with more text beside it put back on its own lines."""
    out: list[str] = []
    for line in lines:
        frames = list(_FRAME_RE.finditer(line)) if 'File "' in line else []
        if frames and _holds_more(line, frames):
            out += _split_line(line, frames)
        else:
            out.append(line)
    return out


def _split_line(line: str, frames: list[re.Match[str]]) -> list[str]:
    """A flattened line's text before its first frame, then each frame with the code and exception after it."""
    out = _segment(line[: frames[0].start()], code=False)
    for k, frame in enumerate(frames):
        end = frames[k + 1].start() if k + 1 < len(frames) else len(line)
        function = f", in {frame['function']}" if frame["function"] else ""
        out.append(f'  File "{frame["file"]}", line {frame["line"]}{function}')
        out += _segment(line[frame.end() : end], code=True)
    return out


def _segment(text: str, code: bool) -> list[str]:
    """The lines of the text between two frames: the code, the exception, headers and chain separators."""
    out: list[str] = []
    last = 0
    for m in _BREAK_RE.finditer(text):
        out += _piece(text[last : m.start()], code)
        out.append(m.group(0))
        code, last = False, m.end()
    return out + _piece(text[last:], code)


def _piece(text: str, code: bool) -> list[str]:
    """A frame's code and the exception line after it, or a text line (a message before the traceback)."""
    text = text.strip()
    if not text:
        return []
    if not code:
        return [text]
    for m in _TYPE_AT_RE.finditer(text):
        if split_exception(text[m.start() : m.end() + 2]) is not None:  # the name and ': ' decide: no copy of the rest
            source = _CARETS_RE.sub("", text[: m.start()]).strip()
            return ([f"    {source}"] if source else []) + [text[m.start() :]]
    return [f"    {_CARETS_RE.sub('', text).strip()}"]
