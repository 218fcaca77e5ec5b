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
from errdex.match.parse.embedded import embedded
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
        re.compile(
            _CALLABLE + r" takes (?:from \d+ to )?\d+ positional arguments? but (?P<name>\d+) "
            r"(?:positional arguments? )?(?:\(and \d+ keyword-only arguments?\) )?(?:were|was) given"
        ),
    ),
    ("module_attribute", re.compile(r"module '(?P<module>[\w.]+)'? has no attribute '(?P<name>\w+)")),
    ("attribute", re.compile(r"(?:type object |')(?P<owner>[\w.]+)'? (?:object )?has no attribute '(?P<name>\w+)'")),
    ("import_name", re.compile(r"cannot import name '(?P<name>\w+)'? from '(?P<module>[\w.]+)")),
    ("import_name", re.compile(r"cannot import name '?(?P<name>\w+)'?$")),
    ("module", re.compile(r"No module named '?(?P<module>[\w.]+)")),
)
_RAISED = ("TypeError", "AttributeError", "ImportError", "ModuleNotFoundError")
_UNMISTAKABLE: dict[Asked, str] = {
    "module_attribute": "AttributeError",
    "import_name": "ImportError",
    "module": "ModuleNotFoundError",
}
MAX_LINES = 200  # lines of an untyped paste looked into
_BUILTIN_TYPES = frozenset(
    "NoneType int float complex bool str bytes bytearray list tuple dict set frozenset function "
    "builtin_function_or_method method module type object generator coroutine NotImplementedType".split()
)
_CALLED = re.compile(r"(?<![\w.])(?P<name>[A-Za-z_][\w.]*)\s*\(")  # a call in a source line: `x.y.Name(`
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
_BOLDED = re.compile(r"(?<![\w.])([A-Z]\w*\.)(init)\(\)")  # `Cls.init()`: a class's `__init__`, Markdown-bolded
_IMPORT = re.compile(r"^\s*from\s+(?P<module>[\w.]+)\s+import\b")


@dataclass(frozen=True, slots=True)
class ApiQuestion:
    """What an interpreter's message asks of an API.

    `asked` is the kind of message; `name` the parameter (keyword, missing), attribute or imported name, or for too
    many positional arguments how many were given;
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
    """The API question a pasted interpreter error asks, or None when its message is not one of these. A paste with
    no exception type is read inside the user's words (`I get ImportError: cannot import name ...`); one whose
    words carry no type at all is asked only the interpreter's unmistakable phrases (`cannot import name 'x' from`,
    `No module named`, `module 'x' has no attribute`), anywhere in it."""
    parsed = embedded(parsed)
    exception = (parsed.exception or "").rpartition(".")[2] or None
    if exception is not None and exception not in _RAISED:
        return None
    text = parsed.message.strip()
    lines = text.splitlines()[:1] if exception else text.splitlines()[:MAX_LINES]
    for line in map(_unmangled, lines):
        for asked, pattern in _PATTERNS:
            found = pattern.search(line) if exception or asked in _UNMISTAKABLE else None
            if found is not None:
                return _question(parsed, asked, exception or _UNMISTAKABLE[asked], found.groupdict())
    return None


def _question(parsed: ParsedError, asked: Asked, exception: str, groups: dict[str, str | None]) -> ApiQuestion | None:
    line = _user_line(parsed)
    called = tuple(m.group("name") for m in _CALLED.finditer(line or ""))
    owner = groups.get("callable") or groups.get("owner")
    if asked == "attribute" and owner in _BUILTIN_TYPES:
        return None  # `'NoneType' object has no attribute`: a value that is not what the code expects, no API drift
    module = groups.get("module")
    if asked == "import_name" and module is None and line is not None:
        imported = _IMPORT.match(line)
        module = imported.group("module") if imported else None
    return ApiQuestion(asked, exception, groups.get("name"), owner, module, called, line)


def _unmangled(message: str) -> str:
    """The message as the interpreter wrote it, from what a web page or chat made of it: typographic quotes back to
    `'`, and a class's `__init__` whose underscores Markdown took for bold (`Cls.init()`; a function named `init`,
    such as `wandb.init()`, is left as it is)."""
    message = message.translate(_QUOTES)
    return _BOLDED.sub(lambda m: f"{m.group(1)}__{m.group(2)}__()", message)


def _user_line(parsed: ParsedError) -> str | None:
    """The source line of the last frame outside any installed package (the user's call into the library)."""
    for frame in reversed(parsed.frames):
        if release_path(frame.file) is None:
            return frame.code
    return None
