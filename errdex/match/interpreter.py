"""The interpreter's messages about an API, read as a question: which name, or which parameter of what, was missing.

CPython writes these itself (no library raises them), so the index of raise sites cannot answer them; the API
of the indexed releases can (see `match.drift`). The callable or class a message names may be short
(`__init__()`, `fit()`): the user's own line, printed under the outermost frame that calls into the library,
usually names it (`TrainingArguments(output_dir=..., evaluation_strategy=...)`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from errdex.match.parse import release_path
from errdex.model import ParsedError

Asked = Literal["keyword", "missing", "positional", "module_attribute", "attribute", "import_name", "module"]

_CALLABLE = r"(?P<callable>[A-Za-z_][\w.]*|<lambda>)\(\)"
_PATTERNS: tuple[tuple[Asked, re.Pattern[str]], ...] = (
    ("keyword", re.compile(_CALLABLE + r" got an unexpected keyword argument '(?P<name>\w+)'")),
    (
        "missing",
        re.compile(_CALLABLE + r" missing \d+ required (?:positional|keyword-only) arguments?: '(?P<name>\w+)'"),
    ),
    (
        "positional",
        re.compile(_CALLABLE + r" takes (?:from \d+ to )?\d+ positional arguments? but \d+ (?:were|was) given"),
    ),
    ("module_attribute", re.compile(r"module '(?P<module>[\w.]+)' has no attribute '(?P<name>\w+)'")),
    ("attribute", re.compile(r"(?:type object |')(?P<owner>[\w.]+)'? (?:object )?has no attribute '(?P<name>\w+)'")),
    ("import_name", re.compile(r"cannot import name '(?P<name>\w+)' from '(?P<module>[\w.]+)'")),
    ("import_name", re.compile(r"cannot import name '?(?P<name>\w+)'?$")),
    ("module", re.compile(r"No module named '(?P<module>[\w.]+)'")),
)
_CALLED = re.compile(r"(?<![\w.])(?P<name>[A-Za-z_][\w.]*)\s*\(")  # a call in a source line: `x.y.Name(`
_IMPORT = re.compile(r"^\s*from\s+(?P<module>[\w.]+)\s+import\b")


@dataclass(frozen=True, slots=True)
class ApiQuestion:
    """What an interpreter's message asks of an API.

    `asked` is the kind of message; `name` the parameter (keyword, missing), attribute or imported name;
    `owner` the callable or class it belongs to as far as the message and the user's line tell (`TrainingArguments`,
    `DataFrame`, `fit`); `module` the module named (attributes of a module, imports, missing modules).
    `called` are the names the user's own line calls, innermost last, for a message that names only `__init__`.
    """

    asked: Asked
    exception: str
    name: str | None
    owner: str | None
    module: str | None
    called: tuple[str, ...] = ()
    user_line: str | None = None  # the source line of the user's frame that called into the library, if printed


def question_of(parsed: ParsedError) -> ApiQuestion | None:
    """The API question a pasted interpreter error asks, or None when its message is not one of these."""
    exception = (parsed.exception or "").rpartition(".")[2]
    if exception not in ("TypeError", "AttributeError", "ImportError", "ModuleNotFoundError"):
        return None
    message = parsed.message.strip().splitlines()[0] if parsed.message.strip() else ""
    for asked, pattern in _PATTERNS:
        found = pattern.search(message)
        if found is None:
            continue
        groups = found.groupdict()
        line = _user_line(parsed)
        called = tuple(m.group("name") for m in _CALLED.finditer(line or ""))
        owner = groups.get("callable") or groups.get("owner")
        module = groups.get("module")
        if asked == "import_name" and module is None and line is not None:
            imported = _IMPORT.match(line)
            module = imported.group("module") if imported else None
        return ApiQuestion(asked, exception, groups.get("name"), owner, module, called, line)
    return None


def _user_line(parsed: ParsedError) -> str | None:
    """The source line of the last frame outside any installed package (the user's call into the library)."""
    for frame in reversed(parsed.frames):
        if release_path(frame.file) is None:
            return frame.code
    return None
