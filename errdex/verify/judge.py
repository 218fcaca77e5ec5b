"""Whether what a snippet did proves or disproves a page's trigger or fix.

A trigger is verified when the process raised (warned, logged) this error: the exception class as indexed, a message
the error's template matches whole, and the innermost frame inside the installed packages at one of the error's
places. A fix is verified when the same call with the fix does not.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from errdex.match.align import align
from errdex.match.text import fold, squash, template_parts
from errdex.verify.sandbox import Frame, Observed

IMPORT_FAILURES = frozenset({"ImportError", "ModuleNotFoundError"})


@dataclass(frozen=True)
class Place:
    """A place the error is raised at: release-relative file, first and last line of the statement."""

    file: str
    line: int
    end_line: int


@dataclass(frozen=True)
class Expected:
    """The error as indexed: what a run must show to be this error."""

    kind: str  # error | warning | log
    exception: str | None  # as the code writes it (`ValueError`, `errors.MissingSchema`); None: not resolved
    template: str | None
    places: tuple[Place, ...]


@dataclass(frozen=True)
class Event:
    """One thing a run raised, warned or logged, with its innermost frame inside the installed packages."""

    exception: str | None  # qualified class (for a log record: None)
    names: tuple[str, ...]  # the qualified names of its classes, itself first
    message: str
    frame: Frame | None
    file: str | None  # `frame`'s file relative to site-packages
    frames: tuple[Frame, ...]  # the whole traceback, innermost last (a warning or a record: its call site)


@dataclass(frozen=True)
class Verdict:
    status: str  # verified | disproved | cannot run | timed out | stopped
    detail: str  # what was observed, in words
    event: Event | None  # what it raised (warned, logged) that the verdict is about


def judge(role: str, expected: Expected, observed: Observed, site_packages: tuple[Path, ...]) -> Verdict:
    """The verdict on one run of a page's trigger or call to try (`role` "trigger", "candidate") or its fix ("fix")."""
    if observed.outcome == "timed out":
        return Verdict("timed out", observed.stopped or "it ran out of time", None)
    if observed.outcome == "stopped":
        return Verdict("stopped", f"the sandbox stopped it: {observed.stopped}", None)
    if observed.outcome == "crashed":
        return Verdict("cannot run", f"it crashed: {observed.stopped}", None)
    events = _events(expected.kind, observed, site_packages)
    ours = next((e for e in events if _is_ours(e, expected)), None)
    raised = _raised(observed, site_packages)
    if ours is None and raised is not None and _short(raised.exception) in IMPORT_FAILURES:
        return Verdict("cannot run", f"it could not import what it needs: {_shown(raised)}", raised)
    if role != "fix":
        if ours is not None:
            return Verdict("verified", f"it {_verb(expected.kind)} {_shown(ours)}", ours)
        elsewhere = next((e for e in events if _same_text(e, expected)), None)
        if elsewhere is not None:
            return Verdict(
                "disproved", f"it {_verb(expected.kind)} this message at {_where(elsewhere)}, not here", elsewhere
            )
        if raised is not None:
            return Verdict("disproved", f"it raised {_shown(raised)} instead", raised)
        return Verdict("disproved", f"it ran to the end without {_doing(expected.kind)} this error", None)
    if ours is not None:
        return Verdict("disproved", f"the fixed call still {_verb(expected.kind)} {_shown(ours)}", ours)
    if raised is not None and _same_text(raised, expected):  # the same message from another place: not this check
        return Verdict("verified", f"it ran without this error here; it raised it at {_where(raised)}", raised)
    after = f"; it raised {_shown(raised)}, another error" if raised is not None else ""
    return Verdict("verified", f"it ran without this error{after}", raised)


def _events(kind: str, observed: Observed, site_packages: tuple[Path, ...]) -> list[Event]:
    if kind == "warning":
        return [_event(w.category, w.names, w.message, (w.frame,), site_packages) for w in observed.warned]
    if kind == "log":
        return [_event(None, (), r.message, (r.frame,), site_packages) for r in observed.logged]
    raised = _raised(observed, site_packages)
    return [raised] if raised is not None else []


def _raised(observed: Observed, site_packages: tuple[Path, ...]) -> Event | None:
    r = observed.raised
    return None if r is None else _event(r.exception, r.names, r.message, r.frames, site_packages)


def _event(
    exception: str | None, names: tuple[str, ...], message: str, frames: tuple[Frame, ...], roots: tuple[Path, ...]
) -> Event:
    inside = [(f, rel) for f in frames if (rel := relative(f.file, roots)) is not None]
    frame, file = inside[-1] if inside else (None, None)
    return Event(exception, names, message, frame, file, frames)


def relative(file: str, roots: tuple[Path, ...]) -> str | None:
    """A frame's file as a release names it (`transformers/generation/configuration_utils.py`); None outside."""
    path = Path(file)
    for root in roots:
        if path.is_relative_to(root):
            return path.relative_to(root).as_posix()
    return None


def _is_ours(event: Event, expected: Expected) -> bool:
    if not _same_text(event, expected) or event.frame is None:
        return False
    return any(event.file == p.file and p.line <= event.frame.line <= max(p.line, p.end_line) for p in expected.places)


def _same_text(event: Event, expected: Expected) -> bool:
    """The class as indexed (by its own name: the code may write it through any module) and the message whole."""
    if expected.exception is not None and expected.kind != "log":
        wanted = _short(expected.exception)
        if wanted not in {_short(n) for n in event.names[:1]}:
            return False
    if expected.template is None:
        return True
    text = squash(event.message)
    return align(template_parts(expected.template), fold(text), text).exact


def _where(event: Event) -> str:
    return f"{event.file}:{event.frame.line}" if event.file and event.frame else "a place outside the package"


def _short(name: str | None) -> str:
    return (name or "").rsplit(".", 1)[-1]


def _shown(event: Event) -> str:
    name = _short(event.exception) if event.exception else "a log record"
    return f"{name}: {event.message}" if event.message else name


def _verb(kind: str) -> str:
    return {"warning": "warned", "log": "logged"}.get(kind, "raised")


def _doing(kind: str) -> str:
    return {"warning": "warning", "log": "logging"}.get(kind, "raising")
