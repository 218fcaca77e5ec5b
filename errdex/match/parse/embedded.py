"""An exception written inside the user's own words or an application's log line: `Pandas 1.5.0 returns the
error ValueError: columns cannot be a set`, `I got "django.core.exceptions.ImproperlyConfigured: The SECRET_KEY
setting must not be empty"`, `job 7 failed: requests.exceptions.MissingSchema: Invalid URL ...`.

Only a paste read as a bare message with no type is looked into, and the matcher weighs this reading beside
the paste as written (a library's log message may itself hold `Exception: ...`). The type is the last name on
a line that reads as an exception's (`...Error`, `...Exception`, `...Warning`, or a known one) followed by
`: `; the message runs from there to the end of that line, less a quote or backtick opened before the type.
"""

from __future__ import annotations

import re
from dataclasses import replace

from errdex.match.parse.lines import is_exception_like
from errdex.model import ParsedError

# A dotted name, then ": " (one regex without nested quantifiers: linear in the line).
_TYPED = re.compile(r"(?<![\w.])([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*): ")
_QUOTES = "\"'`\u201c\u201d\u2018\u2019"
_ERROR_MODULES = frozenset({"exceptions", "exception", "errors", "error", "exc"})
MAX_LINE = 4000  # characters of a line looked into: the rest of a long line is not the user's sentence


def embedded(parsed: ParsedError) -> ParsedError:
    """`parsed` with the exception and message found inside its words, or unchanged when there is none."""
    if parsed.exception is not None or parsed.source_format != "message":
        return parsed
    for line in reversed(parsed.message.splitlines()):
        found = _typed_in(line[:MAX_LINE])
        if found is not None:
            name, message = found
            return replace(parsed, exception=name, message=message)
    return parsed


def _names_an_exception(name: str) -> bool:
    """An exception's or warning's name by its own look, or a class in a module of exceptions
    (`django.core.exceptions.ImproperlyConfigured`, `sqlalchemy.exc.NoResultFound`)."""
    module, _, last = name.rpartition(".")
    return is_exception_like(name) or (last[:1].isupper() and module.rpartition(".")[2] in _ERROR_MODULES)


def _typed_in(line: str) -> tuple[str, str] | None:
    """The last exception-like `Type: message` inside a line that does not start with it."""
    last = None
    for m in _TYPED.finditer(line):
        if m.start() > 0 and _names_an_exception(m.group(1)):
            last = m
    if last is None:
        return None
    message = line[last.end() :].strip()
    opened = line[: last.start()].rstrip()[-1:]
    if opened and opened in _QUOTES and message[-1:] in _QUOTES:
        message = message[:-1].rstrip()
    return (last.group(1), message) if message else None
