"""Pasted text → ParsedError: what the user's error is, where it was raised, and how it was shown.

A paste may hold a bare message, a traceback (CPython, IPython, rich; chained, exception groups),
pytest's report, logging or warnings output, with other output around it, each line maybe behind a
prefix (a container's name, a timestamp) or all of it flattened onto one line (see layout). Each reader finds the
records it knows; the main error is the record that tells most, the last one among equals:

    pytest failure > traceback > `path:line: Type: msg` > `Type: msg` > warning > log line > text

In a chained traceback the main error is the last one raised and the others go to `chained`; in
exception-group output it is the group itself, and its sub-exceptions go to `chained`. Log records rank by level.
The paste's other errors and warnings (a warning before the fatal error, the message a logger printed
above its traceback, an earlier traceback) go to `others`.
A log line names no file, but a dotted logger name ('transformers.generation.utils') is read as a
module and becomes a frame 'transformers/generation/utils.py' with no line; logging formats that
print the file and line (transformers' `[WARNING|utils.py:687]`, absl, vLLM, loguru) give those.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import NamedTuple

from errdex.errors import InputError
from errdex.match.parse.layout import relaid
from errdex.match.parse.lines import Paste, clean, strip_ansi
from errdex.match.parse.logs import SEVERITY
from errdex.match.parse.message import (
    RANK_LOCATED,
    RANK_PYTEST,
    RANK_TRACEBACK,
    Box,
    Raw,
    build,
    select,
)
from errdex.match.parse.paths import release_path
from errdex.match.parse.pytest_report import pytest_items
from errdex.match.parse.reprs import read_repr
from errdex.match.parse.scan import line_records
from errdex.match.parse.tracebacks import traceback_items
from errdex.model import ParsedError

__all__ = ["MAX_PASTE", "parse", "release_path", "strip_ansi"]

MAX_PASTE = 1_000_000  # characters considered; a longer paste keeps its end, where the exception is
MAX_OTHERS = 20  # other errors and warnings of a paste kept beside the main one: the last ones
_RECENT = 4 * MAX_OTHERS  # candidates held for the others: the latest, as readers find them
_LEAST_SEVERITY = SEVERITY["WARNING"]

_HEADER = "Traceback ("
_TRACEBACK_SIGNS = ("Traceback (most recent call last)", "File ", "Cell In[", "Input In [", "above exception", "--> ")
_PYTEST_SIGNS = ("\nE ", "FAILED ", "ERROR ")

_Key = tuple[int, int, int]  # (rank, severity, paste line): the highest wins


class _Candidate(NamedTuple):
    """A main record a reader found, the others of its chain, and how it ranks."""

    key: _Key
    raw: Raw
    chained: list[Raw]


def parse(text: str) -> ParsedError:
    """Read a pasted error message, traceback, pytest report, log or warning line."""
    body = text.rstrip()
    if not body:
        raise InputError("The pasted text is empty: paste an error message, a traceback or a log line.")
    p = relaid(clean(body, MAX_PASTE))
    best: _Candidate | None = None
    recent: deque[_Candidate] = deque(maxlen=_RECENT)
    for candidate in _candidates(p):
        if best is None or candidate.key >= best.key:
            best = candidate
        if candidate.raw.kind != "log" or candidate.key[1] >= _LEAST_SEVERITY:
            recent.append(candidate)
    if best is None:
        return ParsedError(exception=None, message="\n".join(p.lines).strip())
    others = _others(best, recent)
    raw, others = read_repr(*_told_before(best.raw, others, p.lines))
    return build(raw, best.chained, others)


def _told_before(raw: Raw, others: list[Raw], lines: list[str]) -> tuple[Raw, list[Raw]]:
    """A traceback cut before its exception line takes its exception and message from what was printed just
    before it: the record there (`logging.exception`'s message, which then leaves the others), else the plain
    text above the traceback's header (a runner's "failed with exception:" and the message). The last traceback
    of a chain was not printed after that text: it keeps its frames alone."""
    if raw.exception is not None or any(line.strip() for line in raw.lines) or not raw.frames or raw.linked:
        return raw, others
    header = next((k for k, line in enumerate(lines) if line.lstrip().startswith(_HEADER)), len(lines))
    before = [o for o in others if o.index < header and (o.exception or o.lines)]
    if before:
        told = before[-1]
        said = told.lines[: max(1, header - told.index)]  # (a record's lines run on into the traceback)
        merged = replace(raw, exception=told.exception, lines=said, kind=told.kind, printed_above=True)
        return merged, [o for o in others if o is not told]
    said = [line for line in lines[:header] if line.strip()]
    return (replace(raw, lines=said, printed_above=True), others) if said else (raw, others)


def _others(best: _Candidate, recent: Iterable[_Candidate]) -> list[Raw]:
    """The paste's errors and warnings besides the main one and its chain, in paste order: a warning
    before the fatal error, the message `logging.exception` printed above its traceback, an earlier
    traceback.

    Log records below WARNING are progress, not errors, and were left out of `recent`, which holds only
    the latest few (a long log keeps no list of all its records alive). A record two readers found (a
    traceback's last line is also a `Type: msg` line) counts once, and so does one shown twice (pytest's
    summary repeats its failures).
    """
    main = (best.raw, *best.chained)
    taken = {raw.index for raw in main}
    seen = set(map(_gist, main))
    kept: dict[int, Raw] = {}
    for candidate in recent:
        raw = candidate.raw
        gist = _gist(raw)
        if raw.index not in taken and gist not in seen:
            seen.add(gist)
            taken.add(raw.index)
            kept[raw.index] = raw
    return [kept[k] for k in sorted(kept)[-MAX_OTHERS:]]


def _gist(raw: Raw) -> tuple[str | None, str]:
    return raw.exception, raw.lines[0].strip() if raw.lines else ""


def _candidates(p: Paste) -> Iterator[_Candidate]:
    """(key, main record, its chain) for what each reader found; the highest key wins."""
    if p.boxes or _holds_any(p.text, _TRACEBACK_SIGNS):
        yield from _chain(RANK_TRACEBACK, traceback_items(p))
    if p.text.startswith("E ") or _holds_any(p.text, _PYTEST_SIGNS):
        items = pytest_items(p)
        yield from _chain(RANK_PYTEST, items.failures)
        yield from (_Candidate(_key(RANK_LOCATED, 0, raw), raw, []) for raw in items.summaries[-1:])
    for record in line_records(p):
        yield _Candidate(_key(record.rank, record.severity, record.raw), record.raw, [])


def _holds_any(text: str, signs: tuple[str, ...]) -> bool:
    """Whether one of the signs occurs in the text; a plain loop costs less than any() over an iterator."""
    for sign in signs:
        if sign in text:
            return True
    return False


def _chain(rank: int, items: Sequence[Raw | Box]) -> Iterator[_Candidate]:
    """The last chain's main record with its chain, and each record of the chains before it alone."""
    chosen = select(items)
    if chosen is not None:
        yield from (_Candidate(_key(rank, 0, raw), raw, []) for raw in chosen.earlier[-_RECENT:])
        yield _Candidate(_key(rank, 0, chosen.main), chosen.main, chosen.others)


def _key(rank: int, severity: int, raw: Raw) -> _Key:
    return (rank, severity, raw.index)
