"""A live exception or warning → an Explanation: plain data every hook renders its own way.

Only what Python already printed is given to the matcher (the traceback text of one exception,
or the warning line), so the explanation can show the message's values and never a frame's
local variables. The distributions the frames ran in are indexed from disk on first sight.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from types import FrameType
from typing import TYPE_CHECKING, TypedDict

from errdex.errors import ErrdexError, NotIndexedError
from errdex.hooks.chain import chain, leaf, message_only, printed, summary, type_name
from errdex.hooks.dists import (
    Installed,
    LazyIndex,
    OnIndex,
    distributions,
    stack_frames,
    traceback_frames,
)
from errdex.hooks.evidence import (
    compiled_hint,
    elsewhere,
    nothing_fits,
    on_frames,
    raised_at,
    rewritten_by_library,
    shown,
    versions,
)
from errdex.hooks.safe import note
from errdex.match import Candidate, MatchResult, explain
from errdex.match.drift import ApiAnswer, ApiAnswerJson
from errdex.model import FileLine, Frame, ParsedError
from errdex.store import Store, default_path

if TYPE_CHECKING:  # the pages are loaded only when there is an error to explain
    from errdex.pages.model import Page
    from errdex.pages.statement_model import FailingStatement, FailingStatementJson

MAX_TRIES = 3  # exceptions of one chain given to the matcher, last raised first
MAX_CANDIDATES = 5


class ExplanationJson(TypedDict):
    """An explanation as compact JSON: the error, the raise site found (or nulls), its check and first solution."""

    error: str
    exception: str
    id: str | None
    package: str | None
    version: str | None
    site: str | None
    function: str | None
    template: str | None
    values: list[str | None]
    suggestions: dict[str, list[str]]
    check: str | None
    solution: str | None
    confidence: float | None
    hint: str | None
    others: list[str]
    packages: list[str]
    api: ApiAnswerJson | None
    statement: FailingStatementJson | None


@dataclass(frozen=True)
class Explanation:
    """What errdex can say about one error: the best raise site and its page, or why it abstains."""

    error: str  # 'InvalidVersion: Invalid version: ...' (one line) of the exception explained
    exception: str  # its type as printed: 'packaging.version.InvalidVersion'
    candidate: Candidate | None  # None when errdex abstains
    page: Page | None
    check: str | None  # the guarding condition of the place that raised (what all its places share, when unknown)
    hint: str | None
    earlier: bool  # the explained exception is not the last raised one of the chain
    others: tuple[str, ...]  # one-line summaries of the chain's other exceptions, last raised first
    packages: tuple[str, ...]  # 'name version' of the installed distributions the frames ran in
    indexed: tuple[str, ...]  # 'name version' indexed from disk to answer this one
    api: ApiAnswer | None = None  # an interpreter's error about a library's API: the change that explains it
    statement: FailingStatement | None = None  # else, for an interpreter's error inside a library: where it failed

    def to_json(self) -> ExplanationJson:
        """A compact JSON form (for error trackers and tools)."""
        c = self.candidate
        solutions = self.page["solutions"] if self.page else []
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
            "solution": solutions[0]["text"] if solutions else None,
            "confidence": c.confidence if c else None,
            "hint": self.hint,
            "others": list(self.others),
            "packages": list(self.packages),
            "api": self.api.to_json() if self.api else None,
            "statement": self.statement.to_json() if self.statement else None,
        }


class Explainer:
    """Explains live errors against one index, one at a time."""

    def __init__(self, store: Store, on_index: OnIndex | None = None, auto_index: bool = True) -> None:
        self.store = store
        self._on_index = on_index
        self._auto_index = auto_index
        self._lazy: LazyIndex | None = None
        self._lock = threading.Lock()

    def exception(self, exc: BaseException, page: bool = True, start: str | None = None) -> Explanation:
        """Explain the last raised exception of `exc`'s chain, or the latest earlier one errdex can place.

        Without `page` only the raise site is looked up (what a fingerprint needs). `start` is the
        file where the caller's own frames begin (a test file): the frames before it belong to a
        runner (pytest and its plugins) and say nothing about the error.
        """
        with self._lock:
            raised = [leaf(e) for e in chain(exc)]
            dists, indexed = self._prepare([f for e in raised for f in _frames(e, start)])
            tried: list[tuple[BaseException, MatchResult, Candidate | None]] = []
            for e in raised[:MAX_TRIES]:
                tried.append((e, *self._match(e, start)))
                if tried[-1][2] is not None:
                    break
            chosen, result, best = next((t for t in tried if t[2] is not None), tried[0])
            found = Explanation(
                error=summary(chosen),
                exception=type_name(chosen),
                candidate=best,
                page=None,
                check=None,
                hint=None
                if best is not None
                else compiled_hint(chosen.__traceback__)
                or elsewhere(result)
                or nothing_fits(dists, chosen.__traceback__),
                earlier=chosen is not raised[0],
                others=tuple(summary(e) for e in raised if e is not chosen),
                packages=versions(dists),
                indexed=tuple(indexed),
                api=result.api if best is None else None,
            )
            if page and not result.answered and result.parsed.frames:
                found = replace(found, statement=self._statement(result.parsed))
            return self._with_page(found, _frames(chosen, start)) if page else found

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
                hint=None if best is not None else elsewhere(result) or nothing_fits(dists, None),
                earlier=False,
                others=(),
                packages=versions(dists),
                indexed=tuple(indexed),
            )
            return self._with_page(found, frames)

    def _match(self, exc: BaseException, start: str | None) -> tuple[MatchResult, Candidate | None]:
        """The matcher's answer for one exception, and its best candidate that the frames confirm."""
        frames = _frames(exc, start)
        rewritten = rewritten_by_library(frames)
        text = message_only(exc) if rewritten else printed(exc)
        result = explain(text, store=self.store, auto_index=self._auto_index, limit=MAX_CANDIDATES)
        return result, on_frames(result, frames, rewritten)

    def _statement(self, parsed: ParsedError) -> FailingStatement | None:
        """The library statement the interpreter failed at (its modules are loaded only when asked)."""
        from errdex.pages.statement import statement_for

        return statement_for(self.store, parsed)

    def _prepare(self, frames: list[FrameType]) -> tuple[list[Installed], list[str]]:
        dists = distributions(frames)
        if not self._auto_index:
            return dists, []
        if self._lazy is None:
            self._lazy = LazyIndex(self.store, self._on_index)
        return dists, self._lazy.ensure(dists)

    def _with_page(self, found: Explanation, frames: list[FrameType]) -> Explanation:
        c = found.candidate
        if c is None:
            return found
        page = self._page(c, raised_at(c, frames), shown(frames))
        return replace(found, page=page, check=page["condition"] if page else None)

    def _page(self, c: Candidate, site: FileLine | None, frames: tuple[Frame, ...]) -> Page | None:
        """The page of the place the frames show; of all the error's places when they show none of them."""
        from errdex.pages import (
            build_page,  # loaded only when there is something to explain
        )

        for place in dict.fromkeys((site, None)):
            try:
                return build_page(self.store, c.id, c.version, list(c.values), c.suggestions, place, frames)
            except NotIndexedError:  # the frames' line is not one of the error's places
                continue
            except ErrdexError:
                return None
        return None


def _frames(exc: BaseException, start: str | None) -> list[FrameType]:
    """The exception's traceback frames, from the first one in `start` on (all of them when none is)."""
    frames = traceback_frames(exc.__traceback__)
    first = next((i for i, f in enumerate(frames) if start is not None and f.f_code.co_filename == start), 0)
    return frames[first:]


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
