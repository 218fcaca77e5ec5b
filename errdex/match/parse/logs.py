"""Single-line records: logging output in its common formats, and `warnings` output.

Each known logging format is one anchored regex with bounded quantifiers; a line is only tried
against the formats its first characters allow, so lines of other output cost a few comparisons.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from errdex.match.parse.lines import ExceptionLine, Location, head, indent, split_exception, split_location
from errdex.match.parse.paths import module_file
from errdex.model import Frame

SEVERITY = {"CRITICAL": 50, "FATAL": 50, "ERROR": 40, "WARNING": 30, "WARN": 30, "INFO": 20, "DEBUG": 10}
_ABBREVIATED = {"F": "FATAL", "E": "ERROR", "W": "WARNING", "I": "INFO"}

_TS = (
    r"(?:\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?"
    r"|\d{2}/\d{2}/\d{4} \d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?"
    r"|\d{2}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?)"  # a two-digit year: '%y-%m-%d %H:%M:%S'
)
_LV = r"(?P<level>CRITICAL|FATAL|ERROR|WARNING|WARN|INFO|DEBUG)"
_NM = r"(?P<name>[A-Za-z_][\w.]{0,200})"
_FILE = r"(?P<file>[\w.\-]{1,200}):(?P<line>\d{1,9})"
_MSG = r"(?P<msg>.*)"


def _compile(*patterns: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p) for p in patterns)


_STARTS_WITH_TIME = _compile(
    rf"{_TS} - {_NM} - {_LV} - {_MSG}",  # basicConfig(format="%(asctime)s - %(name)s - %(levelname)s - ...")
    rf"{_TS} - {_LV} - {_NM} - {_MSG}",  # transformers' example scripts
    rf"{_TS} - {_LV} - {_MSG}",
    rf"{_TS} \| {_LV} {{0,8}}\| {_NM}:(?P<func>[\w<>.]{{1,200}}):(?P<line>\d{{1,9}}) - {_MSG}",  # loguru
    rf"{_TS} {_NM} {_LV}:? {_MSG}",
    # the thread or task in parentheses before the logger's name: Home Assistant's "%(threadName)s" format
    rf"{_TS} \[?{_LV}\]? {{1,8}}(?:\([^()\n]{{1,100}}\) )?(?:\[?{_NM}(?:\] |: ))?{_MSG}",
)
_STARTS_WITH_BRACKET = _compile(
    rf"\[{_LV}\|{_FILE}\] {_TS} >> {_MSG}",  # transformers: [WARNING|configuration_utils.py:687] ... >> msg
    rf"\[{_TS}\] {_LV} in {_NM}: {_MSG}",  # Flask
    rf"\[{_TS}\]\[{_NM}\]\[{_LV}\] - {_MSG}",  # Hydra
    rf"\[{_TS}\] \[?{_LV}\]? {{1,8}}(?:\[?{_NM}(?:\] |: ))?{_MSG}",
    rf"\[{_TS} - {_NM}\] {_LV}: {_MSG}",
    rf"\[{_TS}: {_LV}(?:/[\w.-]{{1,100}})?\] (?:{_NM}: )?{_MSG}",  # Celery: [... ,843: WARNING/MainProcess] msg
)
_STARTS_WITH_LEVEL = _compile(
    rf"{_LV}:{_NM}:{_MSG}",  # logging's default format "%(levelname)s:%(name)s:%(message)s"
    rf"{_LV}: {{1,8}}{_MSG}",  # uvicorn and friends
    rf"{_LV} \d{{2}}-\d{{2}} \d{{2}}:\d{{2}}:\d{{2}}(?:\.\d{{1,9}})? \[?{_FILE}\]? {_MSG}",  # vLLM
    rf"(?P<abbr>[IWEF])\d{{4}} \d{{2}}:\d{{2}}:\d{{2}}\.\d{{1,9}} {{1,8}}\d{{1,10}} {_FILE}\] {_MSG}",  # absl, glog
)
_LEVEL_STARTS = tuple(SEVERITY)
_LEVELS = "|".join(SEVERITY)
_TS_START = r"\d{4}-\d{2}-\d{2}[ T]|\d{2}/\d{2}/\d{4} |\d{2}-\d{2}-\d{2} "
# The starts of every line log_record takes, for Paste.marks.
LOG_AT = rf"[ \t]*+(?=[\d\[CFEWID])(?:{_TS_START}|\[(?:{_TS_START}|(?:{_LEVELS})\|)|(?:{_LEVELS})[: ]|[IWEF]\d{{4}} )"


@dataclass(frozen=True)
class LogRecord:
    """One logging line: its level, the logger or source it names, and the first line of its message."""

    level: str
    message: str
    frame: Frame | None


def log_record(line: str) -> LogRecord | None:
    """The logging record a line starts, if its prefix is one of the known logging formats."""
    h = head(line)
    ind = indent(h) if h[:1] in (" ", "\t") else 0
    m = _match(h[ind:] if ind else h)
    if m is None:
        return None
    groups = m.groupdict()
    level = groups.get("level") or _ABBREVIATED[groups["abbr"]]
    frame = _frame(groups.get("file"), groups.get("line"), groups.get("name"), groups.get("func"))
    return LogRecord(level, line[ind + m.start("msg") :], frame)


def is_log_line(h: str) -> bool:
    """Whether a line (its head) starts a logging record: the test without building the record."""
    return _match(h.lstrip(" \t") if h[:1] in (" ", "\t") else h) is not None


@functools.lru_cache(maxsize=8)  # a record's line is tested as a message's end, then read
def _match(h: str) -> re.Match[str] | None:
    first = h[:1]
    if first.isdigit() and (h[2:3] in ("/", "-") or h[4:5] in ("-", "/")):
        patterns = _STARTS_WITH_TIME
    elif first == "[" and (h[1:2].isdigit() or h[1:].startswith(_LEVEL_STARTS)):
        patterns = _STARTS_WITH_BRACKET
    elif h.startswith(_LEVEL_STARTS) or (first in _ABBREVIATED and h[1:5].isdigit()):
        patterns = _STARTS_WITH_LEVEL
    else:
        return None
    for pattern in patterns:
        m = pattern.match(h)
        if m:
            return m
    return None


@functools.lru_cache(maxsize=1024)
def _frame(file: str | None, line: str | None, name: str | None, function: str | None) -> Frame | None:
    """Where the record says it comes from: a file and line, or a module from the logger's name."""
    number = int(line) if line else None
    if file:
        return Frame(file=file, line=number, function=None)
    path = module_file(name or "")
    return Frame(file=path, line=number, function=function) if path else None


@dataclass(frozen=True)
class LocatedLine:
    """`path.py:687: FutureWarning: message`, as warnings (and pytest's `--tb=line`) print it."""

    indent: int
    frame: Frame
    exception: str
    message: str
    loose: bool = False  # the type reads as a class only (`PydanticDeprecatedSince20`), not as an exception


def located_exception(line: str, loose: bool = False) -> LocatedLine | None:
    """The warning or exception a line shows, if it has the shape `path:line: SomeType: message`.

    With `loose`, any capitalised or dotted name is taken for the type, as a warning category
    may be named anything.
    """
    loc = split_location(line)
    if loc is None:
        return None
    exc = split_exception(loc.rest)
    if exc is None and loose:
        exc = split_exception(loc.rest, loose=True)
        return _located(loc, exc, True) if exc else None
    if exc is None:
        return None
    return _located(loc, exc, False)


def _located(loc: Location, exc: ExceptionLine, loose: bool) -> LocatedLine:
    return LocatedLine(loc.indent, Frame(file=loc.path, line=loc.line, function=None), exc.name, exc.message, loose)
