"""What a live error's frames prove or rule out about the matcher's answer, and why errdex abstains.

A pasted traceback is text; a live one is the truth about where the error ran. These checks use
it: a candidate site must be in a file the error ran through, the page is asked for the very
place the frames show (one error can be raised at many places, each with its own check), and an
abstention says as precisely as it can why.
"""

from __future__ import annotations

import linecache
from types import FrameType, TracebackType

from errdex.hooks.dists import Installed, distribution_of_frame, distributions
from errdex.match import Candidate, MatchResult
from errdex.match.rank import ABSTAIN_BELOW
from errdex.model import NATIVE_LANGUAGES, FileLine, Frame, language_of, normalize_name


def raised_at(c: Candidate, frames: list[FrameType]) -> FileLine | None:
    """(file, line) where the frames ran in the candidate's file, innermost first: the place that raised.

    None when no frame is in that file (a library rewrote its frames): then the page must speak
    for every place of the error.
    """
    suffix = "/" + c.file
    for frame in reversed(frames):
        if frame.f_code.co_filename.replace("\\", "/").endswith(suffix):
            return FileLine(c.file, frame.f_lineno)
    return None


def shown(frames: list[FrameType]) -> tuple[Frame, ...]:
    """The live frames as a pasted traceback shows them (innermost last), each with its source line."""
    return tuple(
        Frame(f.f_code.co_filename, f.f_lineno, f.f_code.co_name, linecache.getline(f.f_code.co_filename, f.f_lineno))
        for f in frames
    )


def versions(dists: list[Installed]) -> tuple[str, ...]:
    return tuple(f"{d.name} {d.version}" for d in dists)


def on_frames(result: MatchResult, frames: list[FrameType], rewritten: bool = False) -> Candidate | None:
    """The best confident candidate raised in a file the frames actually ran through.

    A live error knows where it ran: a site in a file that is not on the traceback (or stack) did
    not raise it, however well its template fits the message. When a library rewrote its frames
    (`rewritten`), a site in one of the traceback's distributions is the most that can be checked.
    """
    if result.abstain:
        return None
    files = {f.f_code.co_filename.replace("\\", "/") for f in frames}
    packages = {normalize_name(d.name) for d in distributions(frames)} if rewritten else set()
    for c in result.matches:
        ran = any(f.endswith("/" + c.file) for f in files) or normalize_name(c.package) in packages
        if c.confidence >= ABSTAIN_BELOW and (ran or _called_into(c, frames)):
            return c
    return None


def _called_into(c: Candidate, frames: list[FrameType]) -> bool:
    """Whether a site of compiled code can have raised it: no frame shows compiled code, so the innermost frame
    must be a call (not a `raise`) made by the site's own distribution, by one that requires it (pydantic calls
    pydantic-core's validator) or by code of no distribution (the user's `a.reshape(4)` calls numpy's C)."""
    if language_of(c.file) not in NATIVE_LANGUAGES or not frames:
        return False
    last = frames[-1]
    line = _source_line(last.f_code.co_filename, last.f_lineno)
    if not line or _is_raise(line):
        return False
    dist = distribution_of_frame(last)
    return dist is None or normalize_name(c.package) in {normalize_name(dist.name), *requirements(dist.name)}


def requirements(dist: str) -> set[str]:
    """The normalised names of the distributions an installed one requires (any extra, any marker)."""
    import importlib.metadata

    from packaging.requirements import InvalidRequirement, Requirement

    try:
        listed = importlib.metadata.requires(dist) or []
    except importlib.metadata.PackageNotFoundError:
        return set()
    names = set()
    for text in listed:
        try:
            names.add(normalize_name(Requirement(text).name))
        except InvalidRequirement:
            continue
    return names


def rewritten_by_library(frames: list[FrameType]) -> bool:
    """A traceback that ends in frames of generated code (`<template>`) right after a library's `raise`.

    Template engines (Jinja2, Mako) replace their own frames with frames that point into the
    template; the printed frames then do not say where the error was raised, only its message does.
    """
    if len(frames) < 2 or not frames[-1].f_code.co_filename.startswith("<"):
        return False
    return distribution_of_frame(frames[-2]) is not None


def elsewhere(result: MatchResult) -> str | None:
    """Why the matcher's best answer is not shown: it was raised in a file this error did not run through."""
    c = None if result.abstain or not result.matches else result.matches[0]
    if c is None:
        return None
    return (
        f"the closest indexed message ({c.package} {c.version}, errdex show {c.id}) is raised in {c.file}, "
        "which this error did not run through, so it is not the answer."
    )


def nothing_fits(dists: list[Installed], tb: TracebackType | None) -> str:
    """Why nothing is shown when no indexed message fits."""
    if dists:
        return f"no message in the Python source of {', '.join(versions(dists))} fits this error."
    said = (
        "this error was raised outside installed packages (your code, the standard library or the "
        "interpreter), which errdex does not index"
    )
    if _ends_at_a_raise(tb):
        return said + "."
    return (
        "raised outside installed packages' Python: by your code, the standard library, the interpreter or"
        " compiled code the last line called (errdex index NAME==VERSION reads a library's)."
    )


def _ends_at_a_raise(tb: TracebackType | None) -> bool:
    """Whether the innermost frame's line is a `raise` (what compiled code raises ends at a call instead)."""
    last = _innermost(tb)
    return last is None or _is_raise(_source_line(last.tb_frame.f_code.co_filename, last.tb_lineno))


def compiled_hint(tb: TracebackType | None) -> str | None:
    """When the innermost frame is in a distribution and is a call, not a `raise`, compiled code made the message."""
    last = _innermost(tb)
    if last is None:
        return None
    frame = last.tb_frame
    line = _source_line(frame.f_code.co_filename, last.tb_lineno)
    dist = distribution_of_frame(frame)
    if dist is None or not line or _is_raise(line):
        return None
    place = f"{_inside_package(frame.f_code.co_filename, str(frame.f_globals.get('__name__')))}:{last.tb_lineno}"
    release = f"{dist.name}=={dist.version}"
    return (
        f"the traceback ends at a call in {place}, not at a `raise`: the message was made by compiled code "
        "(or in frames the library hides from tracebacks). An installed package has no compiled sources to read;"
        f" `errdex index {release}` reads them from its sdist."
    )


def _innermost(tb: TracebackType | None) -> TracebackType | None:
    """The traceback's last entry: where the exception was raised, or the call it surfaced from."""
    last = None
    while tb is not None:
        last, tb = tb, tb.tb_next
    return last


def _source_line(file: str, line: int) -> str:
    return linecache.getline(file, line).strip()


def _is_raise(line: str) -> bool:
    """Whether a source line raises (a `raise` statement, or one after `if x:` on the same line)."""
    return line.startswith("raise") or " raise " in line


def _inside_package(path: str, module: str) -> str:
    """'/…/site-packages/pydantic/main.py' → 'pydantic/main.py' (the path as errdex shows sites)."""
    posix = path.replace("\\", "/")
    cut = posix.rfind("/" + module.partition(".")[0] + "/")
    return posix[cut + 1 :] if cut >= 0 else posix
