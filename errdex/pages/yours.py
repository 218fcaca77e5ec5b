"""The user's own line, fixed: the frame of a pasted traceback where their code called into the package, with the
value the message shows replaced by the one the page's example fix or the message itself gives.

`requests.get('localhost:8000/api')` raised `Invalid URL 'localhost:8000/api': No scheme supplied. Perhaps you meant
https://localhost:8000/api?`; the user's frame shows the call, the literal in it is the value the message shows, and
the message proposes a value built around it: the fixed line is `requests.get('https://localhost:8000/api')`. Only a
literal written in the line is replaced (a value the line passes by name is not in it), only in the user's own code
(a frame outside the package and outside installed packages), and only with a value the page already gives.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from errdex.model import Frame
from errdex.pages.model import ExampleFix, MessageHole, Solution, UserInput, YourLine
from errdex.pages.values import readings

_INSTALLED = ("site-packages/", "dist-packages/", "/lib/python")
_AROUND = ".,;:!?)]}('\"`“”‘’"  # sentence punctuation and quotes around a value the message proposes


def your_line(
    frames: Sequence[Frame],
    file: str,
    user: UserInput,
    example_fix: ExampleFix | None,
    solutions: Sequence[Solution],
) -> YourLine | None:
    """The user's line with their value replaced, or None when the paste shows no line of theirs writing it."""
    frame = _users_frame(frames, file.split("/", 1)[0])
    if frame is None or frame.code is None or frame.line is None:
        return None
    for hole, value in _shown_values(user):
        written = _literal_in(frame.code, value)
        found = _replacement(hole, value, example_fix, solutions) if written is not None else None
        if written is None or found is None:
            continue
        after, why = found
        return {
            "file": frame.file,
            "line": frame.line,
            "before": frame.code.strip(),
            "after": frame.code.strip().replace(written, after, 1),
            "value_before": written,
            "value_after": after,
            "source": why,
        }
    return None


def _shown_values(user: UserInput) -> list[tuple[MessageHole, str]]:
    """Each hole with the user's value as text (`'x'` shown by `repr` is `x`), each reading of it."""
    out = []
    for hole, value in zip(user["holes"], user["values"], strict=False):
        if value is not None:
            out += [(hole, str(reading)) for reading in readings(value, hole["shown_as"])]
    return out


def _users_frame(frames: Sequence[Frame], package: str) -> Frame | None:
    """The frame that called into the package: the one just outside its innermost run of frames, when it is the
    user's own code (not an installed package's)."""
    inside = [_in_package(f.file, package) for f in frames]
    if not inside or not inside[-1]:
        return None
    i = len(frames) - 1
    while i >= 0 and inside[i]:
        i -= 1
    if i < 0:
        return None
    path = frames[i].file.replace("\\", "/")
    return None if any(part in path for part in _INSTALLED) else frames[i]


def _in_package(path: str, package: str) -> bool:
    normal = path.replace("\\", "/")
    return f"/{package}/" in normal or normal.startswith(f"{package}/")


def _literal_in(code: str, value: str) -> str | None:
    """The literal the line writes the value as (`'flash'`, `"flash"`, `3`), when it writes exactly one."""
    found: list[str] = []
    try:
        tree = ast.parse(code.strip(), mode="exec")
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and not isinstance(node.value, bool) and str(node.value) == value:
            segment = ast.get_source_segment(code.strip(), node)
            if segment is not None:
                found.append(segment)
    return found[0] if len(set(found)) == 1 else None


def _replacement(
    hole: MessageHole, value: str, example_fix: ExampleFix | None, solutions: Sequence[Solution]
) -> tuple[str, str] | None:
    """The value to write instead, and where it comes from: the example fix's, when it changes this input from the
    user's value; else a value the message proposes built around theirs (`https://` + their URL)."""
    if example_fix is not None and example_fix["input"] == hole["code"] and example_fix["value_before"] is not None:
        if _same(example_fix["value_before"], value):
            return example_fix["value_after"], "the example fix"
    for solution in solutions:
        if solution["kind"] != "message_advice":
            continue
        for token in re.split(r"\s+", solution["text"]):
            proposed = token.strip(_AROUND)
            if value in proposed and proposed != value:
                return repr(proposed), "the message"
    return None


def _same(code: str, value: str) -> bool:
    """Whether a value written as code (`'flash'`) is the user's value as the message shows it (`flash`)."""
    try:
        return str(ast.literal_eval(code)) == value
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return False
