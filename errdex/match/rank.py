"""Rank indexed errors against a parsed paste: retrieve by literal parts and frames, verify, score.

Candidates come from the literal-part index (templates filed under a word the message holds) and
from the innermost frame (errors raised in that file). Each is verified by aligning its literal
parts with the message (linear time), then scored from independent pieces of evidence:

    text       = coverage² × fit × specificity × case × exception agreement
                 (how much of the template was found; how little of the message lies outside it or in a hole
                 at its ends that swallows most of it; how many word characters its literal text found holds —
                 spaces and punctuation, which any traceback is full of, tell little; lowered when the text
                 is found only with case and quotes folded; halved for a message the interpreter writes)
    frame      = 0.92 when a place of the error is at the frame's file and line (0.9 at a frame that only
                 raised it again, further out than another re-raising frame), 0.35 at its file,
                 lowered a little when the exception disagrees (a frame is the stronger witness)
    class      = without a frame, when the paste qualifies its exception with an indexed package
                 (`click.exceptions.MissingParameter`): 0.5 shared among that package's errors raising
                 the class, when there are few (the only one gets 0.5); it takes the frame's place
    release    = 0.8 when other frames of the traceback (their source lines) point at releases of the
                 error's package that do not raise it (see versions.py), else 1
    confidence = min(1, (1 − (1 − text)(1 − frame)) × kind agreement × frame disagreement) × release

A confidence below ABSTAIN_BELOW means no answer is shown as the answer.

Only the candidates that can reach the best few are aligned: each gets an upper bound of its
confidence from its parts found whole (one `str.find` a part, exact when all are; once for all the
errors sharing a template), they are weighed highest bound first, and the rest are dropped once
the best few score above the next bound. An exact bound is the score: such a candidate is aligned
(for what its holes captured) only when it ends among the best. The answers are the same as
aligning them all, at a fraction of the cost when many templates share a message's words.
"""

from __future__ import annotations

import heapq
from typing import NamedTuple

from errdex.match.align import Alignment, align, align_bound
from errdex.match.builtin import interpreter_message
from errdex.match.copies import is_vendored
from errdex.match.frames import Agreement, FrameHint, agreement, frame_hint
from errdex.match.literals import candidates, loose_candidates
from errdex.match.tables import Cut, Tables
from errdex.match.text import fold, message_keys, squash
from errdex.match.versions import ShownFrame, Versions, shown_frames
from errdex.model import NATIVE_LANGUAGES, Kind, ParsedError, language_of

ABSTAIN_BELOW = 0.5
# Other answers are listed only while they score at least this share of the best: below it they
# are templates that share a word or two with the message (`{} for {}` after an exact match), noise
# to a reader, and weighing them was most of the work on messages with an exact answer.
RUNNER_UP_SHARE = 0.5
MAX_EXAMINE = 1000  # candidates checked for their longest literal part, rarest keys first
MAX_VERIFY = 200  # of those holding it, the most promising ones weighed further
MAX_COPIES = 100  # errors sharing an answer's template weighed as its identical copies
COPY_ROOM = 3  # answers ranked beyond the limit, for identical copies that fold into one
MAX_PARTIAL = 24  # candidates aligned word by word when no part of theirs is found whole
SPECIFICITY_HALF = 6  # word characters of literal text that make a match half as specific as it can be
# The text outside the template's literal ends (a log line's prefix, the user's words around the message) tells
# against the template a little: it may belong to a longer message. A hole at either end that takes more than
# SWALLOW_KNEE of the message tells against it up to SWALLOWED (all of it): a template made mostly of holes
# "matches" any text.
CONTEXT = 0.2
SWALLOW_KNEE = 0.8
SWALLOWED = 0.5
FRAME_EVIDENCE = {"line": 0.92, "file": 0.35}
CLASS_EVIDENCE = 0.5  # shared among the errors of the package that qualifies the paste's exception raising it
MAX_CLASS_SITES = 12  # more of them tell too little each to be weighed without words in common
RAISED_AGAIN = 0.9  # the frame evidence of a site at a frame that only raised the exception again
# How much a frame that points elsewhere lowers confidence, by what the frame is ("callee": the
# innermost frame only calls, in a traceback a library attached and may have cut, see frames.py).
FRAME_PENALTY = {
    "raise": {"package": 0.35, "callee": 0.9, "other": 0.3, "user": 0.7},
    "caller": {},  # a warning's location is wherever stacklevel points
    "module": {"package": 0.8, "other": 0.5},
}
# Exception agreement, for the text's evidence and for the frame's.
MISMATCHED_EXCEPTION = (0.45, 0.8)
BASE_EXCEPTION = (0.9, 1.0)
UNKNOWN_EXCEPTION = (0.9, 1.0)  # the paste names none, or the site raises a variable (`raise exc_cls(...)`)
MISMATCHED_KIND = (
    0.8  # not when the kind was guessed and the class is the site's (`PydanticDeprecatedSince20: ...` warns)
)
REWORDED = 0.9  # the template's text is in the message only once case and quotes are folded
# How a frame agrees with a site of compiled code that it does not point at: the frame called into the extension,
# whether the frame is the package's, the user's or another library's (`np.isnan(...)` in geotile).
_CALLS_INTO_COMPILED = ("package", "user", "other")
INTERPRETER_DISCOUNT = 0.5  # a message the interpreter writes, with no frame for the site


class Query(NamedTuple):
    """The paste's message as the matcher compares it, and what else it tells (a named tuple: quick to make)."""

    text: str  # squashed message
    folded: str  # the same with quotes folded, for searching
    exception: str | None  # short name
    exception_home: str | None  # the top-level module that qualifies it (`click` of `click.exceptions.X`)
    kind: Kind
    kind_known: bool  # shown by the paste (a warning line, a traceback), not guessed from a bare `Type: message`
    hint: FrameHint | None
    interpreter: bool  # the message is one the interpreter or the standard library writes
    frames: tuple[ShownFrame, ...]  # library frames with their source text, for telling releases apart

    @classmethod
    def of(cls, parsed: ParsedError, tops: set[str]) -> Query:
        exception = parsed.exception.rsplit(".", 1)[-1] if parsed.exception else None
        home = parsed.exception.split(".", 1)[0] if parsed.exception and "." in parsed.exception else None
        text = squash(parsed.message)
        if exception == "KeyError":
            text = _unquote_key(text)
        folded = fold(text)
        hint = frame_hint(parsed, tops)
        return cls(
            text,
            folded,
            exception,
            home,
            parsed.kind,
            parsed.source_format != "message",
            hint,
            interpreter_message(text, folded),
            shown_frames(parsed, tops),
        )


class Scored(NamedTuple):
    """One error's verdict: its confidence and what it rests on (a named tuple: quick to make, several a query)."""

    error: int
    confidence: float
    alignment: Alignment | None
    agreement: Agreement
    evidence: tuple[str, ...]
    releases: frozenset[str] = frozenset()  # the releases raising it that the paste's frames point to
    copies: tuple[int, ...] = ()  # errors raising the same message the same way, with the same evidence

    @property
    def hit(self) -> int:
        """The literal characters of the template found in the message."""
        return self.alignment.hit if self.alignment else 0

    @property
    def key(self) -> tuple[float, int]:
        """What answers are sorted by: confidence, then literal characters found."""
        return (self.confidence, self.hit)


class Weights(NamedTuple):
    """What weighs one error's evidence besides its text: frame agreement, exception, kind, release."""

    where: Agreement
    frame: float  # the frame's evidence
    text: float  # exception agreement, for the text's evidence
    frame_factor: float  # exception agreement, for the frame's
    kind: float
    penalty: float  # a frame that points elsewhere
    release: float
    discounted: bool  # the interpreter's words (the paste's, or the site's own) with no frame for the site


# The records below live inside one Ranker and are made many times a query: plain tuples, since named ones made
# queries measurably slower (about 5% at p50 on the generated queries of benchmarks/bench_match.py).
#
# At least the text's evidence for a template, and the literal characters alignment finds of it when the bound is
# exact (all its parts found whole: the bound is then what alignment gives), else None.
TextBound = tuple[float, int | None]
# Errors sharing a template (or one error at a frame's file), queued together by `_best`: their (position among the
# candidates, error) in order, and their template's bound.
Group = tuple[list[tuple[int, int]], TextBound]
# An entry of `_best`'s queue: (minus its bound, position, whether it is a group, the group or the error). At equal
# bound and position an error comes before a group.
Queued = tuple[float, int, bool, "int | Group"]
# A key of the `limit` best so far: (confidence, literal characters found, minus position; 1 for those scored before).
Kept = tuple[float, int, int]


class Ranker:
    """Scores the errors of one set of tables against one query."""

    def __init__(self, tables: Tables, query: Query) -> None:
        self.tables = tables
        self.core = tables.core
        self.q = query
        hint = query.hint
        files = {p.file for p in hint.points} | ({hint.path} if hint.path else set()) if hint else set()
        sites = [(path, site) for path in files for site in tables.raised_in(path)]
        self.in_file = {site.error for _, site in sites}
        at = [
            (site.error, hint.raised_again_at(path, site.line, site.end_line))
            for path, site in sites
            if hint and hint.at(path, site.line, site.end_line)
        ]
        self.at_line = {i for i, _ in at}
        self.raised_again = {i for i, again in at if again} - {i for i, again in at if not again}  # at no first point
        self.alignments: dict[str, Alignment] = {}  # by template
        self.text_bounds: dict[str, TextBound] = {}  # by template
        self.weights: dict[int, Weights] = {}  # by error
        self.written: dict[str, float] = {}  # by template: its case factor
        self.by_template: dict[str, list[int]] = {}  # the candidates holding their template's longest part
        self.versions = Versions(tables, query.frames)
        self.of_class = self._of_class()

    def _of_class(self) -> dict[int, float]:
        """The errors a qualified exception points to when no frame does, each with its share of CLASS_EVIDENCE:
        those of the qualifying package that raise the class, when there are few."""
        q = self.q
        if q.hint is not None or q.exception_home not in self.core.top_set or q.exception is None:
            return {}
        errors = self.core.raising(q.exception_home, q.exception)
        if len(errors) > MAX_CLASS_SITES:
            return {}
        return dict.fromkeys(errors, CLASS_EVIDENCE / len(errors)) if errors else {}

    def rank(self, limit: int) -> list[Scored]:
        """The best `limit` errors, best first."""
        folded = self.q.folded
        keys = message_keys(folded)
        pool = candidates(self.core.keys, keys, MAX_EXAMINE) if keys else []
        whole = [(i, cut) for i, cut in zip(pool, self.core.cuts_of(pool), strict=True) if cut.longest in folded]
        self.by_template = {}
        for i, cut in whole:
            self.by_template.setdefault(cut.template, []).append(i)
        if len(whole) > MAX_VERIFY:  # more templates share the message's keys than are weighed: the likeliest
            by_bound = sorted(whole, key=lambda pair: self._text_bound(pair[1])[0], reverse=True)
            likeliest = {i for i, _ in by_bound[:MAX_VERIFY]}
            whole = [(i, cut) for i, cut in whole if i in likeliest]
        scored = self._best(whole, limit, {})
        top = max(scored.values(), key=lambda s: s.key, default=None)
        # Nothing fits well: look for templates worded differently (another version). Not when the best holds the
        # message exactly in its own words: the wording is right, the evidence weak (a short template, a message the
        # interpreter writes) — unless holes at its ends took more of the message than its words hold.
        if self.q.text and (top is None or top.confidence < ABSTAIN_BELOW and not _in_its_own_words(top.alignment)):
            loose = loose_candidates(self.core.words, keys, MAX_PARTIAL)
            checked = {i for i, _ in whole}
            partial = [i for i in unique(loose + pool) if i not in checked][: 2 * MAX_PARTIAL]
            scored = self._best(list(zip(partial, self.core.cuts_of(partial), strict=True)), limit, scored)
        for i in [*self.at_line, *self.of_class]:
            if i not in scored and (s := self._score(i)) is not None:
                scored[i] = s
        ranked = self._exact_first(sorted(scored.values(), key=lambda s: s.key, reverse=True)[:limit])
        return [s for s in ranked if s.confidence >= RUNNER_UP_SHARE * ranked[0].confidence]

    def copies_of(self, s: Scored) -> list[int]:
        """The other candidates with `s`'s template and exception and its confidence: nothing in the paste tells
        them apart (at most MAX_COPIES are weighed)."""
        core = self.core
        name = core.raised(s.error).name
        out = []
        for j in self.by_template.get(core.cut(s.error).template, [])[:MAX_COPIES]:
            if j != s.error and core.raised(j).name == name:
                other = self._score(j)
                if other is not None and other.confidence == s.confidence:
                    out.append(j)
        return out

    def _exact_first(self, ranked: list[Scored]) -> list[Scored]:
        """Among answers tied for the best, those whose words the message holds with the same case and quotes
        first (`Graph is not connected.`, not `graph is not connected.`): matching folds both away."""
        tied = [s for s in ranked if s.key == ranked[0].key] if ranked else []
        if len(tied) < 2:
            return ranked
        tied.sort(key=lambda s: self._case_factor(self.core.cut(s.error).template) < 1.0)
        return tied + ranked[len(tied) :]

    def _case_factor(self, template: str) -> float:
        """REWORDED when the template's text is found only once case and quotes are folded away: the message
        was written by other code (another version's wording), or the template only resembles it."""
        found = self.written.get(template)
        if found is None:
            found = self.written[template] = 1.0 if _written_in(template, self.q.text) else REWORDED
        return found

    def _best(self, numbers: list[tuple[int, Cut]], limit: int, scored: dict[int, Scored]) -> dict[int, Scored]:
        """`scored` with those of `numbers` (errors and their cuts) among the best `limit` so far that reach
        RUNNER_UP_SHARE of the best, in their order.

        They are weighed most promising first: errors sharing a template are queued together by
        the template's rough bound (each error at a frame's file alone, by its own). When a group
        comes first, each error's bound is refined with exception, kind and frame; where the
        template's bound is exact (all its parts found whole), that is the error's score, and it
        is aligned, for the values its holes captured, only if it ends among the best. The others
        are queued by their refined bounds, and aligned when they come first. Once `limit` errors
        score more than the first bound in the queue, the rest cannot make it; nor can they once the
        bound falls below RUNNER_UP_SHARE of the best score.
        """
        # The keys of the `limit` best so far, lowest first, as the final order sorts them:
        # (confidence, literal characters found, -position); those scored before come first.
        best: list[Kept] = heapq.nlargest(limit, ((*s.key, 1) for s in scored.values())) if scored else []
        heapq.heapify(best)
        queue = self._queue(numbers)
        aligned: dict[int, Scored] = {}  # by position: the errors weighed whose bound was not exact
        while queue:
            bound, k, _, item = heapq.heappop(queue)
            if len(best) >= limit and -bound < best[0][0] or best and -bound < RUNNER_UP_SHARE * max(best)[0]:
                break  # the rest cannot make the best `limit`, nor reach the share of the best that is listed
            if isinstance(item, tuple):  # errors sharing a template
                members, (text, hit) = item
                for k, i in members:
                    if hit is not None and len(best) >= limit and (-bound, hit, -k) < best[0]:
                        break  # exact: none of the others, further down, can reach the group's bound and make the best
                    confidence = self._confidence(i, text)
                    if confidence is None:
                        continue
                    if hit is not None:  # exact: its score
                        _keep(best, limit, (confidence, hit, -k))
                    else:
                        heapq.heappush(queue, (-confidence, k, False, i))
                continue
            s = self._score(item)
            if s is not None:
                aligned[k] = s
                _keep(best, limit, (*s.key, -k))
        floor = RUNNER_UP_SHARE * max(best)[0] if best else 0.0  # those below it will not be listed: left unaligned
        among = sorted(-position for confidence, _, position in best if position <= 0 and confidence >= floor)
        return scored | {numbers[k][0]: aligned.get(k) or self.scored(numbers[k][0]) for k in among}

    def scored(self, i: int) -> Scored:
        """The verdict on an error whose score is known (its bound was exact, or it is a copy), with its alignment."""
        s = self._score(i)
        assert s is not None  # it scored before
        return s

    def _queue(self, numbers: list[tuple[int, Cut]]) -> list[Queued]:
        """The errors grouped for `_best` by template, each group queued by its rough bound.

        An error at a frame's file is a group of its own: the frame's evidence raises its bound.
        """
        in_file = self.in_file
        groups: dict[str | int, tuple[Cut, list[tuple[int, int]]]] = {}
        for k, (i, cut) in enumerate(numbers):
            key = i if i in in_file else cut.template
            group = groups.get(key)
            if group is None:
                groups[key] = (cut, [(k, i)])
            else:
                group[1].append((k, i))
        queue: list[Queued] = []
        for cut, members in groups.values():
            k, i = members[0]
            bound = self._text_bound(cut)
            queue.append((-self._rough(i, bound[0]), k, True, (members, bound)))
        heapq.heapify(queue)
        return queue

    def _score(self, i: int) -> Scored | None:
        alignment = None
        text_confidence = 0.0
        cut = self.core.cut(i)
        if cut.template and self.q.text:
            alignment = self.alignments.get(cut.template)
            if alignment is None:  # many packages raise the same template: align it once
                alignment = self.alignments[cut.template] = align(cut.parts, self.q.folded, self.q.text)
            text_confidence = _text_confidence(
                alignment.hit,
                alignment.total,
                alignment.unexplained,
                alignment.info,
                alignment.swallowed,
                len(self.q.text),
            ) * self._case_factor(cut.template)
        confidence = self._confidence(i, text_confidence)
        if confidence is None:
            return None
        weights = self._weights(i)
        releases = self.versions.agreeing(i) or frozenset()
        evidence = _evidence(alignment, weights.text, weights.where) + (
            (f"frames of {', '.join(sorted(releases))}",) if releases else ()
        )
        return Scored(i, confidence, alignment, weights.where, evidence, releases)

    def _rough(self, i: int, text: float) -> float:
        """At least the confidence of error `i` whose text's evidence is at most `text`.

        The frame's evidence is added; exception and kind, which can only lower it, are left out.
        """
        frame = (
            FRAME_EVIDENCE["line"]
            if i in self.at_line
            else FRAME_EVIDENCE["file"]
            if i in self.in_file
            else self.of_class.get(i, 0.0)
        )
        text *= INTERPRETER_DISCOUNT if self.q.interpreter and frame == 0.0 else 1.0
        return min(1.0, 1 - (1 - text) * (1 - frame))

    def _text_bound(self, cut: Cut) -> TextBound:
        """The bound of the text's evidence for a template (a few `str.find`s, once a distinct template)."""
        if not cut.template or not self.q.text:
            return (0.0, None)
        found = self.text_bounds.get(cut.template)
        if found is None:
            b = align_bound(cut.parts, self.q.folded)
            text = _text_confidence(b.hit, b.total, b.unexplained, b.info, b.swallowed, len(self.q.text))
            if b.exact:  # (the bound is the score: with everything the score weighs)
                text *= self._case_factor(cut.template)
            found = self.text_bounds[cut.template] = (text, b.hit if b.exact else None)
        return found

    def _confidence(self, i: int, text_confidence: float) -> float | None:
        """The text's and the frame's evidence combined; None when there is neither."""
        # (unpacked, not read by name: this is asked of every candidate weighed, and unpacking is the quicker)
        _, frame, text_factor, frame_factor, kind, penalty, release, discounted = self._weights(i)
        if text_confidence == 0.0 and frame == 0.0:
            return None
        if discounted:
            text_confidence *= INTERPRETER_DISCOUNT
        return (
            min(1.0, (1 - (1 - text_confidence * text_factor) * (1 - frame * frame_factor)) * kind * penalty) * release
        )

    def _weights(self, i: int) -> Weights:
        """What weighs error `i`'s evidence besides its text, worked out once per query."""
        found = self.weights.get(i)
        if found is None:
            found = self.weights[i] = self._work_out_weights(i)
        return found

    def _work_out_weights(self, i: int) -> Weights:
        core, q = self.core, self.q
        text_factor, frame_factor = self._compare_exceptions(i)
        kind = (
            1.0
            if core.kind[i] == q.kind or (not q.kind_known and core.raised(i).name == q.exception)
            else MISMATCHED_KIND
        )
        if q.hint is None:  # no frame to agree or disagree with (what agreement() says of it, without asking)
            of_class = self.of_class.get(i, 0.0)
            return Weights(
                "class" if of_class else "none",
                of_class,
                text_factor,
                frame_factor,
                kind,
                1.0,
                self.versions.factor(i),
                (q.interpreter or self._imitates(i)) and not of_class,
            )
        where = agreement(q.hint, i in self.in_file, self._at_line(i), core.package_top_sets[core.package[i]])
        if where in _CALLS_INTO_COMPILED and not q.interpreter and self._compiled(i) and not self._imitates(i):
            # no Python frame raises what compiled code raises: the innermost frame called into it (not for words the
            # interpreter writes: it raises them itself, at the call the frame shows, whatever it calls)
            where = "callee"
        frame = RAISED_AGAIN if where == "line" and i in self.raised_again else FRAME_EVIDENCE.get(where, 0.0)
        penalty = FRAME_PENALTY[q.hint.strength].get(where, 1.0)
        discounted = (q.interpreter or self._imitates(i)) and frame == 0.0
        return Weights(where, frame, text_factor, frame_factor, kind, penalty, self.versions.factor(i), discounted)

    def _imitates(self, i: int) -> bool:
        """Whether error `i`'s words are the interpreter's own (numpy's C argument parser writes `f() takes 2
        positional arguments but 3 were given` as CPython does): its words tell no more that it raised the error
        than that the interpreter did, even where the paste cut them short of being told apart."""
        written = squash(self.core.template[i] or "").replace("{}", "x")
        return interpreter_message(written, fold(written))

    def _compiled(self, i: int) -> bool:
        """Whether error `i` is raised by compiled code (C, C++, Rust; not Cython, whose frames tracebacks show)."""
        return all(language_of(p.file) in NATIVE_LANGUAGES for p in self.tables.places(i))

    def _at_line(self, i: int) -> bool:
        """Whether error `i` is raised at the frame's line in a release the frames' source lines point to (a site at
        that line only in releases they rule out is there by chance: another release's code at that number)."""
        if i not in self.at_line or self.q.hint is None:
            return False
        pointed = self.versions.pointed(self.core.package[i])
        hint = self.q.hint
        return not pointed or any(
            p.version in pointed and hint.at(p.file, p.line, p.end_line) for p in self.tables.places(i)
        )

    def _defined_elsewhere(self, i: int, bases: tuple[str, ...]) -> bool:
        """Whether the paste's exception, of the same name as error `i`'s, is another class: the paste qualifies
        it with a package (`pydantic_core._pydantic_core.ValidationError`) other than error `i`'s, which defines
        its own (its bases are known only for a class the package defines)."""
        home = self.q.exception_home
        return home is not None and bool(bases) and home not in self.core.package_top_sets[self.core.package[i]]

    def _compare_exceptions(self, i: int) -> tuple[float, float]:
        """How the paste's exception agrees with the site's: factors for text and frame evidence."""
        core, q = self.core, self.q
        raised = core.raised(i)
        own = raised.name
        if q.exception is None or not own[:1].isupper():
            return UNKNOWN_EXCEPTION
        if own == "UserWarning" and q.exception.endswith("Warning"):
            return UNKNOWN_EXCEPTION if q.exception != own else (1.0, 1.0)  # also what a helper's warn() is read as
        if own == q.exception:
            return MISMATCHED_EXCEPTION if self._defined_elsewhere(i, raised.bases) else (1.0, 1.0)
        if q.exception in raised.bases:
            return BASE_EXCEPTION
        return MISMATCHED_EXCEPTION


def _written_in(template: str, text: str) -> bool:
    """Whether a template's literal parts are in `text` as written, unfolded, in their order (each searched from
    where the one before ended: one pass over the text, however many parts)."""
    at = 0
    for part in map(squash, template.split("{}")):
        found = text.find(part, at)
        if found < 0:
            return False
        at = found + len(part)
    return True


def _in_its_own_words(alignment: Alignment | None) -> bool:
    """Whether an alignment holds the message exactly, more of it literal text than what holes at its ends took."""
    return alignment is not None and alignment.exact and alignment.swallowed <= alignment.hit


def _keep(best: list[Kept], limit: int, key: Kept) -> None:
    """Add `key` to the heap of the `limit` best keys (dropping the lowest when it is full)."""
    if len(best) >= limit:
        heapq.heappushpop(best, key)
    else:
        heapq.heappush(best, key)


def unique(items: list[int]) -> list[int]:
    return list(dict.fromkeys(items))


def _specificity(info: int) -> float:
    return 1 - 0.5 ** (info / SPECIFICITY_HALF)


_TABULATED = 1024  # word characters found for which specificity is looked up, not computed
_SPECIFICITIES = [_specificity(info) for info in range(_TABULATED)]  # asked of every candidate


def _text_confidence(hit: int, total: int, unexplained: int, info: int, swallowed: int, length: int) -> float:
    """coverage² × fit × specificity; it grows with `hit` and `info` and shrinks with `unexplained` and `swallowed`."""
    if not total:
        return 0.0
    specificity = _SPECIFICITIES[info] if info < _TABULATED else _specificity(info)
    share = swallowed / length if length else 0.0
    outside = CONTEXT * unexplained
    fit = (1 - outside / length if outside < length else 0.0) * (
        1 - SWALLOWED * max(0.0, share - SWALLOW_KNEE) / (1 - SWALLOW_KNEE)
    )
    coverage = hit / total
    return coverage**2 * fit * specificity


def _evidence(alignment: Alignment | None, exception: float, where: Agreement) -> tuple[str, ...]:
    out: list[str] = []
    if alignment is not None and alignment.hit:
        out.append(
            "message (cut short)"
            if alignment.cut
            else "message"
            if alignment.exact
            else f"message ({alignment.coverage:.0%} of the template)"
        )
    if exception >= 1.0:
        out.append("exception")
    if where in ("line", "file"):
        out.append(f"frame {where}")
    elif where == "class":
        out.append("exception class")
    return tuple(out)


def _unquote_key(text: str) -> str:
    """KeyError shows its argument's repr: `KeyError: "no key 'x'"`."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def rank(parsed: ParsedError, tables: Tables, limit: int) -> tuple[Query, list[Scored]]:
    """The query made of a paste and its best `limit` answers, identical copies folded into one."""
    query = Query.of(parsed, tables.core.top_set)
    ranker = Ranker(tables, query)
    room = COPY_ROOM
    while True:
        ranked = ranker.rank(limit + room)
        answers = _fold_copies(ranked, ranker, tables)
        if len(answers) >= limit or len(ranked) < limit + room:
            return query, answers[:limit]
        room *= 4


def _fold_copies(ranked: list[Scored], ranker: Ranker, tables: Tables) -> list[Scored]:
    """Each answer once with its identical copies, the first of them that is not a vendored copy answering."""
    taken: set[int] = set()
    out = []
    for s in ranked:
        if s.error in taken:
            continue
        same = [s.error, *(j for j in ranker.copies_of(s) if j not in taken)]
        taken.update(same)
        first = next((j for j in same if not is_vendored(tables.places(j)[0].file)), s.error)
        chosen = s if first == s.error else ranker.scored(first)
        out.append(chosen._replace(copies=tuple(j for j in same if j != first)))
    return out
