"""Tracebacks JSON-escaped in what a web client or a structured logger printed: an array of lines
(`"  File \"/x/y.py\", line 117, in validate",`) or one string (`"exc_info": "Traceback ...:\n  File \"/x.py\", ..."`).

The sign is a frame's `File \"`, which no unescaped traceback holds. An array's items are the run of lines around it
that are each one JSON string; a string elsewhere on a line is decoded when it holds the sign. Each becomes the lines
it holds, so the readers see the traceback as Python printed it.
"""

from __future__ import annotations

import json
import re

SIGN = 'File \\"'  # a frame's opening, escaped
# One JSON string: its quote escaped inside, possessive, so linear on any text
_STRING = r'"(?:[^"\\\n]|\\.)*+"'
_ITEM_RE = re.compile(rf"[ \t]*+{_STRING},?[ \t]*+")  # a line that is an array's item
_STRING_RE = re.compile(_STRING)
_WORD_RE = re.compile(r"\w")


def may_be_escaped(text: str, tail: int = 0) -> bool:
    """The cheap test: a frame's escaped opening from `tail` on."""
    return text.find(SIGN, tail) != -1


def unescape(lines: list[str]) -> list[str]:
    """The lines, each JSON-escaped traceback among them decoded to the lines it holds."""
    out: list[str] = []
    k, n = 0, len(lines)
    while k < n:
        j = k
        while j < n and _ITEM_RE.fullmatch(lines[j]):
            j += 1
        if j > k and any(SIGN in line for line in lines[k:j]):
            for line in lines[k:j]:
                out += _decoded(line.strip().removesuffix(",")).split("\n")
            k = j
        elif j > k:
            out += lines[k:j]
            k = j
        else:
            out += _strings_decoded(lines[k]) if SIGN in lines[k] else [lines[k]]
            k += 1
    return out


def _strings_decoded(line: str) -> list[str]:
    """A line with each JSON string that holds the sign put as the lines it holds; words around them on lines
    of their own (`"exc_info": ` is no word of the traceback, but a message before it may be)."""
    out: list[str] = []
    last = 0
    for m in _STRING_RE.finditer(line):
        if SIGN in m.group(0):
            before = line[last : m.start()]
            out += [before] if _WORD_RE.search(before) else []
            out += _decoded(m.group(0)).split("\n")
            last = m.end()
    after = line[last:]
    return out + ([after] if _WORD_RE.search(after) or not out else [])


def _decoded(string: str) -> str:
    """The value of a JSON string, or the string as written when it is not one."""
    try:
        value = json.loads(string)
    except ValueError:
        return string
    return value if isinstance(value, str) else string
