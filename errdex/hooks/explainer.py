"""A live exception or warning → an Explanation: plain data every hook renders its own way.

Only what Python already printed is given to the matcher (the traceback text of one exception,
or the warning line), so the explanation can show the message's values and never a frame's
local variables. The distributions the frames ran in are indexed from disk on first sight.
"""

from __future__ import annotations

import linecache
import threading
from dataclasses import dataclass, replace
from types import FrameType, TracebackType
from typing import Any

from errdex.errors import ErrdexError
from errdex.hooks.chain import chain, leaf, message_only, printed, summary, type_name
from errdex.hooks.dists import (
    Installed,
    LazyIndex,
    OnIndex,
    distribution_of_frame,
    distributions,
    stack_frames,
    traceback_frames,
)
from errdex.hooks.safe import note
from errdex.match import Candidate, MatchResult, explain
from errdex.match.rank import ABSTAIN_BELOW
from errdex.model import normalize_name
from errdex.store import Store, default_path

MAX_TRIES = 3  # exceptions of one chain given to the matcher, last raised first
MAX_CANDIDATES = 5


@dataclass(frozen=True)
class Explanation:
    """What errdex can say about one error: the best raise site and its page, or why it abstains."""

    error: str  # 'InvalidVersion: Invalid version: ...' (one line) of the exception explained
    exception: str  # its type as printed: 'packaging.version.InvalidVersion'
    candidate: Candidate | None  # None when errdex abstains
    page: dict[str, Any] | None
    check: str | None  # the guarding condition of the exact raise site
    hint: str | None
    earlier: bool  # the explained exception is not the last raised one of the chain
    others: tuple[str, ...]  # one-line summaries of the chain's other exceptions, last raised first
    packages: tuple[str, ...]  # 'name version' of the installed distributions the frames ran in
    indexed: tuple[str, ...]  # 'name version' indexed from disk to answer this one

    @property
    def found(self) -> bool:
        return self.candidate is not None

    def to_json(self) -> dict[str, Any]:
        """A compact JSON form (for error trackers and tools)."""
        c = self.candidate
        solutions = (self.page or {}).get("solutions") or []
        return {
            "error": self.error,
            "exception": self.exception,
            "id": c.id if c else None,
            "package": c.package if c else None,
            "version": c.version if c else None,
            "site": f"{c.file}:{c.line}" if c else None,
            "function": c.function if c else None,
            "template": c.template if c else None,
            "values": list(c.values) if c else [],
            "suggestions": c.suggestions if c else {},
            "check": self.check,
            "solution": solutions[0].get("text") if solutions else None,
            "confidence": c.confidence if c else None,
            "hint": self.hint,
            "others": list(self.others),
            "packages": list(self.packages),
        }


class Explainer:
    """Explains live errors against one index; opens it on first use and keeps it for the process."""

    def __init__(self, store: Store | None = None, on_index: OnIndex | None = None, auto_index: bool = True) -> None:
        self._store = store
        self._on_index = on_index
        self._auto_index = auto_index
        self._lazy: LazyIndex | None = None
        self._lock = threading.Lock()

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = Store()
        return self._store

    def exception(self, exc: BaseException, page: bool = True) -> Explanation:
        """Explain the last raised exception of `exc`'s chain, or the latest earlier one errdex can place.

        Without `page` only the raise site is looked up (what a fingerprint needs).
        """
        with self._lock:
            raised = [leaf(e) for e in chain(exc)]
            dists, indexed = self._prepare([f for e in raised for f in traceback_frames(e.__traceback__)])
            tried: list[tuple[BaseException, MatchResult, Candidate | None]] = []
            for e in raised[:MAX_TRIES]:
                tried.append((e, *self._match(e)))
                if tried[-1][2] is not None:
                    break
            chosen, result, best = next((t for t in tried if t[2] is not None), tried[0])
            found = Explanation(
                error=summary(chosen),
                exception=type_name(chosen),
                candidate=best,
                page=None,
                check=None,
                hint=None if best is not None else _compiled_hint(chosen.__traceback__) or _elsewhere(result) or _nothing_fits(dists),
                earlier=chosen is not raised[0],
                others=tuple(summary(e) for e in raised if e is not chosen),
                packages=_versions(dists),
                indexed=tuple(indexed),
            )
            return self._with_page(found) if page else found

    def warning(self, text: str, frame: FrameType | None) -> Explanation:
        """Explain a warning from its printed line; `frame` is where it was issued (for its distributions)."""
        with self._lock:
            frames = stack_frames(frame)
            dists, indexed = self._prepare(frames)
            result = explain(text, store=self.store, auto_index=self._auto_index, limit=MAX_CANDIDATES)
            best = on_frames(result, frames)
            found = Explanation(
                error=text.strip().splitlines()[0] if text.strip() else text,
                exception=result.parsed.exception or "Warning",
                candidate=best,
                page=None,
                check=None,
                hint=None if best is not None else _elsewhere(result) or _nothing_fits(dists),
                earlier=False,
                others=(),
                packages=_versions(dists),
                indexed=tuple(indexed),
            )
            return self._with_page(found)

    def _match(self, exc: BaseException) -> tuple[MatchResult, Candidate | None]:
        """The matcher's answer for one exception, and its best candidate that the frames confirm."""
        frames = traceback_frames(exc.__traceback__)
        rewritten = rewritten_by_library(frames)
        text = message_only(exc) if rewritten else printed(exc)
        result = explain(text, store=self.store, auto_index=self._auto_index, limit=MAX_CANDIDATES)
        return result, on_frames(result, frames, rewritten)

    def _prepare(self, frames: list[FrameType]) -> tuple[list[Installed], list[str]]:
        dists = distributions(frames)
        if not self._auto_index:
            return dists, []
        if self._lazy is None:
            self._lazy = LazyIndex(self.store, self._on_index)
        return dists, self._lazy.ensure(dists)

    def _with_page(self, found: Explanation) -> Explanation:
        c = found.candidate
        if c is None:
            return found
        page = self._page(c)
        return replace(found, page=page and for_site(page, c), check=self._check(c))

    def _page(self, c: Candidate) -> dict[str, Any] | None:
        from errdex.explain import build_page  # loaded only when there is something to explain

        try:
            return build_page(self.store, c.id, c.version, list(c.values), c.suggestions)  # type: ignore[arg-type]
        except ErrdexError:
            return None

    def _check(self, c: Candidate) -> str | None:
        """The condition guarding the very site that raised (an error may be raised at several sites)."""
        try:
            record = self.store.error(c.id, c.version)
        except ErrdexError:
            return None
        for site in record.sites:
            if site.file == c.file and site.line == c.line:
                return site.condition
        return None


GENERAL_SOLUTIONS = frozenset({"exception_advice", "install"})  # true at every site of an error


def for_site(page: dict[str, Any], c: Candidate) -> dict[str, Any]:
    """The page, without what it derives from another site's check when the error is raised at several.

    A page describes an error's first site; the user's values are judged against that site's
    check, so when another site raised, only what holds at every site is kept.
    """
    if (page.get("file"), page.get("line")) == (c.file, c.line):
        return page
    solutions = [s for s in page.get("solutions") or [] if s.get("kind") in GENERAL_SOLUTIONS]
    return {**page, "solutions": solutions, "example_fix": None, "triggers": [], "user_input": None}


def _versions(dists: list[Installed]) -> tuple[str, ...]:
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
        if c.confidence >= ABSTAIN_BELOW and ran:
            return c
    return None


def rewritten_by_library(frames: list[FrameType]) -> bool:
    """A traceback that ends in frames of generated code (`<template>`) right after a library's `raise`.

    Template engines (Jinja2, Mako) replace their own frames with frames that point into the
    template; the printed frames then do not say where the error was raised, only its message does.
    """
    if len(frames) < 2 or not frames[-1].f_code.co_filename.startswith("<"):
        return False
    return distribution_of_frame(frames[-2]) is not None


def _elsewhere(result: MatchResult) -> str | None:
    c = None if result.abstain or not result.matches else result.matches[0]
    if c is None:
        return None
    return (f"the closest indexed message ({c.package} {c.version}, errdex show {c.id}) is raised in {c.file}, "
            "which this error did not run through, so it is not the answer.")


def _nothing_fits(dists: list[Installed]) -> str:
    if dists:
        return f"no message in the Python source of {', '.join(_versions(dists))} fits this error."
    return ("this error was raised outside installed packages (your code, the standard library or the "
            "interpreter), which errdex does not index.")


def _compiled_hint(tb: TracebackType | None) -> str | None:
    """When the innermost frame is in a distribution and is a call, not a `raise`, compiled code made the message."""
    last = None
    while tb is not None:
        last, tb = tb, tb.tb_next
    if last is None:
        return None
    frame = last.tb_frame
    line = linecache.getline(frame.f_code.co_filename, last.tb_lineno).strip()
    if distribution_of_frame(frame) is None or not line or line.startswith("raise") or " raise " in line:
        return None
    place = f"{_inside_package(frame.f_code.co_filename, str(frame.f_globals.get('__name__')))}:{last.tb_lineno}"
    return (f"the traceback ends at a call in {place}, not at a `raise`: the message was made by compiled code "
            "(or in frames the library hides from tracebacks), not by Python source that errdex reads.")


def _inside_package(path: str, module: str) -> str:
    """'/…/site-packages/pydantic/main.py' → 'pydantic/main.py' (the path as errdex shows sites)."""
    posix = path.replace("\\", "/")
    cut = posix.rfind("/" + module.partition(".")[0] + "/")
    return posix[cut + 1:] if cut >= 0 else posix


_SHARED: dict[str, Explainer] = {}
_SHARED_LOCK = threading.Lock()


def shared(db: str | None = None) -> Explainer:
    """The process-wide explainer for an index (default: ERRDEX_DB or the user's data folder)."""
    path = str(db) if db else str(default_path())
    with _SHARED_LOCK:
        if path not in _SHARED:
            _SHARED[path] = Explainer(Store(path), on_index=_announce)
        return _SHARED[path]


def _announce(dist: str, version: str) -> None:
    note(f"indexing {dist} {version} from its installed files (once; later errors reuse it)")
