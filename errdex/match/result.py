"""What `explain` answers: ranked candidate raise sites, or an abstention with a hint."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from errdex.match.drift import ApiAnswer, ApiAnswerJson
from errdex.model import JsonValue, Kind, ParsedError


class CandidateJson(TypedDict):
    """A candidate as `errdex explain --json` and the web's search answer write it."""

    id: str
    score: float
    confidence: float
    package: str
    version: str
    file: str
    line: int
    end_line: int
    function: str | None
    exception: str | None
    kind: Kind
    template: str | None
    values: list[str | None]
    suggestions: dict[str, list[str]]
    allowed: dict[str, list[JsonValue]]
    approximate: bool
    cut: bool
    versions: list[str]
    evidence: list[str]
    copies: list[CopyJson]
    ruled_out: bool  # the message's words rule it out in favour of the best match (see `MatchResult.alternatives`)


class CopyJson(TypedDict):
    """Another place that raises a candidate's message from identical code (a vendored copy, a twin)."""

    id: str
    package: str
    version: str
    file: str
    line: int


class FrameJson(TypedDict):
    """A frame of the paste, as `parsed` lists them."""

    file: str
    line: int | None
    function: str | None
    code: str | None


class ParsedJson(TypedDict):
    """What errdex understood of the paste."""

    exception: str | None
    message: str
    kind: Kind
    source_format: str
    frames: list[FrameJson]
    notes: list[str]
    chained: list[ParsedJson]
    others: list[ParsedJson]
    printed_above: bool


class MatchResultJson(TypedDict):
    """A whole answer: the JSON of `MatchResult`."""

    abstain: bool  # no match is confident enough to be called the source: `matches` are only the closest
    matches: list[CandidateJson]
    hint: str | None  # what would help when it abstains (index a package, paste the whole traceback)
    parsed: ParsedJson
    also: list[CandidateJson]
    api: ApiAnswerJson | None  # an interpreter's error about a library's API, answered from its indexed releases


@dataclass(frozen=True, slots=True)
class Copy:
    """Another place whose code raises a candidate's message as it does, with the same evidence: the paste cannot
    tell them apart (a module vendored into other packages, the sync and async twins of one method)."""

    id: str
    package: str
    version: str
    file: str
    line: int

    def to_json(self) -> CopyJson:
        return {"id": self.id, "package": self.package, "version": self.version, "file": self.file, "line": self.line}


@dataclass(slots=True)
class Candidate:
    """One indexed error that may have produced the paste, placed in one release.

    Not frozen, though nothing changes one: a frozen dataclass took four times as long to make, and
    five are made for every answer.
    """

    id: str
    score: float
    confidence: float  # in [0, 1]
    package: str
    version: str
    file: str
    line: int
    end_line: int  # last line of the raising statement
    function: str | None
    exception: str | None
    template: str | None
    kind: Kind = "error"
    values: tuple[str | None, ...] = ()  # the text each `{}` of the template captured
    suggestions: dict[str, list[str]] = field(default_factory=dict)  # tested name -> closest allowed values
    allowed: dict[str, list[JsonValue]] = field(default_factory=dict)  # tested name -> its resolved collection
    approximate: bool = False  # the message differs from the template (another version, reworded, cut off)
    cut: bool = False  # the message stops partway through the template (a title, a chat message cut short)
    versions: tuple[str, ...] = ()  # indexed versions that have this error, oldest first
    evidence: tuple[str, ...] = ()  # why it was chosen: "message", "exception", "frame line", ...
    copies: tuple[Copy, ...] = ()  # identical code elsewhere that the paste cannot tell from this one

    @property
    def word_for_word(self) -> bool:
        """Whether the template fits the message exactly, every literal part in place."""
        return "message" in self.evidence and not self.approximate and not self.cut

    def to_json(self, ruled_out: bool = False) -> CandidateJson:
        return {
            "id": self.id,
            "score": round(self.score, 4),
            "confidence": round(self.confidence, 4),
            "package": self.package,
            "version": self.version,
            "file": self.file,
            "line": self.line,
            "end_line": self.end_line,
            "function": self.function,
            "exception": self.exception,
            "kind": self.kind,
            "template": self.template,
            "values": list(self.values),
            "suggestions": self.suggestions,
            "allowed": self.allowed,
            "approximate": self.approximate,
            "cut": self.cut,
            "versions": list(self.versions),
            "evidence": list(self.evidence),
            "copies": [c.to_json() for c in self.copies],
            "ruled_out": ruled_out,
        }


def by_class_alone(evidence: Sequence[str]) -> bool:
    """Whether a candidate rests on its exception class alone, no word of the message matched (see rank):
    renderers say so instead of calling it approximate."""
    return "exception class" in evidence and not any(e.startswith("message") for e in evidence)


@dataclass(frozen=True)
class MatchResult:
    """The candidates, best first; `abstain` when none fits well enough to be shown as the answer."""

    abstain: bool
    matches: list[Candidate]
    parsed: ParsedError
    hint: str | None = None  # what would help, e.g. "index package numpy: errdex index numpy"
    also: list[Candidate] = field(default_factory=list)  # answers to the paste's other errors and warnings
    api: ApiAnswer | None = None  # an interpreter's error about an API, answered from the indexed releases

    @property
    def best(self) -> Candidate | None:
        return None if self.abstain or not self.matches else self.matches[0]

    @property
    def answered(self) -> bool:
        """Whether a raise site or an API change answers the paste (else, for an interpreter's error inside a
        library, the statement it failed at is the answer to look for)."""
        return self.best is not None or (self.api is not None and self.api.change is not None)

    def ruled_out(self, candidate: Candidate) -> bool:
        """Whether the message's own words rule a later candidate out: the best one's template fits the message
        word for word and this one's does not (another release's wording, a template sharing only some words)."""
        best = self.best
        return best is not None and candidate is not best and best.word_for_word and not candidate.word_for_word

    @property
    def alternatives(self) -> list[Candidate]:
        """The candidates after the best that the message does not rule out: the real alternatives to it."""
        return [c for c in self.matches[1:] if not self.ruled_out(c)]

    def to_json(self) -> MatchResultJson:
        return {
            "abstain": self.abstain,
            "matches": [c.to_json(self.ruled_out(c)) for c in self.matches],
            "hint": self.hint,
            "parsed": parsed_json(self.parsed),
            "also": [c.to_json() for c in self.also],
            "api": self.api.to_json() if self.api else None,
        }


def parsed_json(parsed: ParsedError) -> ParsedJson:
    """What errdex understood of the paste, as JSON."""
    return {
        "exception": parsed.exception,
        "message": parsed.message,
        "kind": parsed.kind,
        "source_format": parsed.source_format,
        "frames": [{"file": f.file, "line": f.line, "function": f.function, "code": f.code} for f in parsed.frames],
        "notes": list(parsed.notes),
        "chained": [parsed_json(c) for c in parsed.chained],
        "others": [parsed_json(c) for c in parsed.others],
        "printed_above": parsed.printed_above,
    }
