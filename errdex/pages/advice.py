"""Advice by exception class: a curated table for Python's built-in exceptions and warnings.

It is the last, generic solution on a page, used when the class (or the nearest built-in base
of a package's own class) is in the table. For ImportError the distribution to install is read
from the code when it can be: a `pip install NAME` in the message, or `is_NAME_available()` in
the condition; otherwise the advice says so instead of guessing.
"""

from __future__ import annotations

import re
from typing import TypedDict

from errdex.pages.model import SolutionBody

ADVICE: dict[str, str] = {
    "ModuleNotFoundError": "A module this code imports is not installed in the running environment. Install the "
    "distribution that provides it into the same interpreter (`python -m pip install NAME`) and restart it.",
    "ImportError": "An optional dependency is missing, or an installed one is too old or too new for this release. "
    "Install or upgrade the distribution it names in the same interpreter, then restart it.",
    "KeyError": "A key was looked up in a mapping that does not contain it. Compare the key you passed with the keys "
    "that exist (spelling, case, a name that changed between releases).",
    "TypeError": "A value of the wrong type reached the check, or a call did not match the function's parameters. "
    "Compare what you pass with the signature and the check shown above.",
    "ValueError": "The value has an accepted type but not an accepted value. The check above says which values pass.",
    "FileNotFoundError": "The path does not exist. Relative paths start at the current working directory; check the "
    "spelling and that the file is created or downloaded before this call.",
    "IsADirectoryError": "A directory was given where a file is expected: pass the path of the file itself.",
    "NotADirectoryError": "A file was given where a directory is expected: pass the folder that holds it.",
    "PermissionError": "The process may not read or write this path: check its owner and mode, or use another folder.",
    "OSError": "An operating-system call failed (a missing or unreadable file, a full disk, a network failure). The "
    "message names the path or the resource.",
    "AttributeError": "The object has no attribute of that name: often a None where an object was expected, or an "
    "attribute that another release names differently.",
    "IndexError": "A position past the end of a sequence was used: check the lengths of the inputs (an empty one, a "
    "shorter batch).",
    "LookupError": "A key or index is not present in the collection it was looked up in.",
    "NotImplementedError": "This operation is not implemented for this class or this combination of options. Use a "
    "class that implements it or, in a subclass of your own, override the method.",
    "RuntimeError": "The library reached a state it cannot continue from; the condition and the message above say "
    "which. Check the order of the calls that lead here.",
    "AssertionError": "An internal consistency check (`assert`) failed: the library expected its condition to hold "
    "for the inputs it was given. Running with `python -O` removes the check, not the cause.",
    "ZeroDivisionError": "A division by zero: an input that is used as a divisor (a size, a count, a scale) is zero.",
    "OverflowError": "A number is too large for the operation: check the magnitude of the input.",
    "RecursionError": "The call nesting got too deep: a structure refers to itself, or is deeper than supported.",
    "TimeoutError": "An operation did not finish in time: check the resource it waits for, or raise the timeout.",
    "ConnectionError": "A network connection failed: check that the host is reachable from here, or work offline "
    "with files already downloaded.",
    "UnicodeDecodeError": "Bytes could not be decoded with the expected encoding: open the file with the encoding it "
    "was written in.",
    "UnicodeError": "Text could not be encoded or decoded with the encoding used.",
    "StopIteration": "An iterator was asked for an item after it was exhausted: an input is empty or shorter than "
    "expected.",
    "DeprecationWarning": "This still works in this release but is scheduled to change or go away. Switch to the "
    "replacement the message names; `python -W error::DeprecationWarning` turns the warning into a traceback "
    "that shows the calling line.",
    "FutureWarning": "The behaviour will change in a future release. Follow the message's advice now to keep the "
    "current result; `-W error::FutureWarning` shows where it is triggered.",
    "PendingDeprecationWarning": "This will be deprecated later; plan to move to the replacement the message names.",
    "UserWarning": "The library warns about the inputs or the setup; the condition above says when. It does not stop "
    "the program.",
    "RuntimeWarning": "A doubtful run-time situation (a numeric problem, a coroutine never awaited) was noticed; the "
    "condition above says which.",
    "ResourceWarning": "A file, socket or similar resource was not closed: use a `with` block or close it.",
}
_PIP_INSTALL = re.compile(
    r"pip install\s+(?:-{1,2}[a-zA-Z-]{1,30}\s+){0,3}[`'\"]?([A-Za-z0-9][A-Za-z0-9._\[\]<>=!~,-]{0,100})"
)
_AVAILABLE = re.compile(r"\bis_([A-Za-z0-9_]{1,60}?)_available\b")


class Distribution(TypedDict):
    """A distribution the code says must be installed, and where it says so."""

    name: str
    source: str


def advice_for(exception: str | None, bases: list[str] | tuple[str, ...]) -> tuple[str, str] | None:
    """(class the advice is about, the advice) for the exception or its nearest tabled base."""
    for name in [exception or "", *bases]:
        short = name.rsplit(".", 1)[-1]
        if short in ADVICE:
            return short, ADVICE[short]
    return None


def distributions(template: str | None, condition: str | None) -> list[Distribution]:
    """What the code says must be installed: `pip install NAME` in the message, `is_NAME_available()` in the check."""
    found: dict[str, str] = {}
    for match in _PIP_INSTALL.finditer((template or "")[:5000]):
        found.setdefault(match.group(1).rstrip(".,`'\""), "named by `pip install` in the message")
    for match in _AVAILABLE.finditer((condition or "")[:5000]):
        found.setdefault(match.group(1), f"tested by `is_{match.group(1)}_available()` in the condition")
    return [{"name": name, "source": source} for name, source in found.items() if name and "{}" not in name]


def install_solution(template: str | None, condition: str | None) -> SolutionBody | None:
    """The ImportError solution: which distribution to install, from the code; None when the code does not say."""
    names = distributions(template, condition)
    if not names:
        return None
    listed = ", ".join(f"`{n['name']}` ({n['source']})" for n in names)
    command = "python -m pip install " + " ".join(n["name"] for n in names)
    return {"kind": "install", "text": f"Install what the code asks for: {listed}.", "code": command}
