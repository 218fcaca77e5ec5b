"""What the analysis of one file gives, as records: its raw sites, helper calls, classes and imports.

An analysis depends only on the file's path and bytes; the store keeps it as compressed JSON by content
hash, so each record has `to_json` and `from_json` (plain lists and dicts, the fields in a fixed order;
reading one back gives an equal record). Raw sites become `model.Site`s when the release is linked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from errdex.model import Binding, Kind, PriorCheck, WrittenAt

HoleSources = tuple[tuple[str, ...], ...]  # per `{}` of a template: the expressions it shows (see `Site.holes`)
Json = Any  # what `json.loads` gives


class ParamRef(NamedTuple):
    """A parameter of the function a site or call is in: its name and its position in a call (None: keyword-only)."""

    name: str
    position: int | None

    def takes(self, key: int | str) -> bool:
        """Whether a call's argument (by position or keyword) is this parameter."""
        return key == self.name or key == self.position


class Pending(NamedTuple):
    """A name whose value comes from another module, with the expression to evaluate once the release is known."""

    name: str
    source: str


class Imported(NamedTuple):
    """What a module-level name is imported as: `import module` (name None) or `from module import name`."""

    module: str
    name: str | None


@dataclass(frozen=True, slots=True)
class Template:
    """A message's template and the expressions its holes show."""

    text: str
    holes: HoleSources = ()

    def to_json(self) -> Json:
        return [self.text, [list(h) for h in self.holes]]

    @classmethod
    def from_json(cls, data: Json) -> Template:
        return cls(data[0], tuple(map(tuple, data[1])))


@dataclass(frozen=True, slots=True)
class ClassMessage:
    """A message an exception class writes itself, cut where the first argument it is given goes.

    `parts` are the template's text between those places (one part: the argument is not shown);
    `stripped` the characters the class strips from the argument's end (`message.rstrip('.')`).
    """

    parts: tuple[str, ...]
    stripped: str = ""

    def to_json(self) -> Json:
        return [list(self.parts), self.stripped]

    @classmethod
    def from_json(cls, data: Json) -> ClassMessage:
        return cls(tuple(data[0]), data[1])


@dataclass(frozen=True, slots=True)
class ClassRecord:
    """A class of the file: its bases as written, the attributes it sets on self, the messages it writes."""

    qualname: str
    line: int
    bases: tuple[str, ...]
    attributes: tuple[str, ...]
    messages: tuple[ClassMessage, ...] = ()

    def to_json(self) -> Json:
        return [self.qualname, self.line, list(self.bases), list(self.attributes), [m.to_json() for m in self.messages]]

    @classmethod
    def from_json(cls, data: Json) -> ClassRecord:
        qualname, line, bases, attributes, messages = data
        return cls(qualname, line, tuple(bases), tuple(attributes), tuple(map(ClassMessage.from_json, messages)))


@dataclass(frozen=True, slots=True)
class Values:
    """What a site's (or call's) names resolve to in its own file, and the names left for linking."""

    resolved: dict[str, Json] = field(default_factory=dict)  # name -> JSON value
    resolved_from: dict[str, str] = field(default_factory=dict)  # name -> "path:line" of its definition
    pending: tuple[Pending, ...] = ()
    checks: tuple[str, ...] = ()  # settings the conditions test that did not resolve
    bindings: dict[str, tuple[Binding, ...]] = field(default_factory=dict)  # names bound under conditions

    def to_json(self) -> Json:
        bindings = {name: [b.to_json() for b in found] for name, found in self.bindings.items()}
        return [self.resolved, self.resolved_from, [list(p) for p in self.pending], list(self.checks), bindings]

    @classmethod
    def from_json(cls, data: Json) -> Values:
        resolved, resolved_from, pending, checks, bindings = data
        found = {name: tuple(map(Binding.from_json, b)) for name, b in bindings.items()}
        return cls(resolved, resolved_from, tuple(Pending(*p) for p in pending), tuple(checks), found)


@dataclass(frozen=True, slots=True)
class RawSite:
    """A site as one file's analysis sees it, before linking (names from other modules still pending).

    `templates` is empty when the message has none (`reason` says why). A raise helper's site has
    `message_param` (and `exception_param` when its class is a parameter too); a site made at a
    helper's raise for a caller (see `helpers.py`) has `written_at`.
    """

    kind: Kind
    exception: str | None
    templates: tuple[Template, ...]
    reason: str | None
    line: int
    end_line: int
    function: str
    owner: str | None  # the class the site is in (its qualname), if any
    clauses: tuple[str, ...]
    values: Values
    message_source: str
    level: str | None = None
    message_later: bool = False  # the message is not the first argument (see `package._as_printed`)
    message_attribute: str | None = None  # `raise E(self.x)`: x may be a property of the class
    exception_attribute: str | None = None  # `raise self.x(...)`: x may be set in `__init__`
    message_param: ParamRef | None = None
    exception_param: ParamRef | None = None
    written_at: WrittenAt | None = None
    prior_checks: tuple[PriorCheck, ...] = ()
    buffer: str | None = None  # compiled code that writes its message into an error's field: the field (`error_msg`)

    def to_json(self) -> Json:
        written = self.written_at
        return [
            self.kind,
            self.exception,
            [t.to_json() for t in self.templates],
            self.reason,
            self.line,
            self.end_line,
            self.function,
            self.owner,
            list(self.clauses),
            self.values.to_json(),
            self.message_source,
            self.level,
            self.message_later,
            self.message_attribute,
            self.exception_attribute,
            list(self.message_param) if self.message_param else None,
            list(self.exception_param) if self.exception_param else None,
            [written.file, written.line, written.function] if written else None,
            [check.to_json() for check in self.prior_checks],
            self.buffer,
        ]

    @classmethod
    def from_json(cls, data: Json) -> RawSite:
        (kind, exception, templates, reason, line, end_line, function, owner, clauses, values, source, level) = data[
            :12
        ]
        later, message_attribute, exception_attribute, message_param, exception_param, written, prior, buffer = data[
            12:
        ]
        return cls(
            kind,
            exception,
            tuple(map(Template.from_json, templates)),
            reason,
            line,
            end_line,
            function,
            owner,
            tuple(clauses),
            Values.from_json(values),
            source,
            level,
            later,
            message_attribute,
            exception_attribute,
            ParamRef(*message_param) if message_param else None,
            ParamRef(*exception_param) if exception_param else None,
            WrittenAt(*written) if written else None,
            tuple(map(PriorCheck.from_json, prior)),
            buffer,
        )


@dataclass(frozen=True, slots=True)
class CallArg:
    """An argument of a recorded call that may matter to a raise helper: a message the caller writes
    (its templates and source), a parameter of the caller passed along, or an exception class."""

    key: int | str  # position or keyword
    templates: tuple[Template, ...] = ()
    source: str | None = None  # the message's expression
    param: ParamRef | None = None
    exception: str | None = None  # the class named

    def to_json(self) -> Json:
        return [
            self.key,
            [t.to_json() for t in self.templates],
            self.source,
            list(self.param) if self.param else None,
            self.exception,
        ]

    @classmethod
    def from_json(cls, data: Json) -> CallArg:
        key, templates, source, param, exception = data
        return cls(
            key, tuple(map(Template.from_json, templates)), source, ParamRef(*param) if param else None, exception
        )


@dataclass(frozen=True, slots=True)
class HelperCall:
    """A call that passes a message (or a parameter) along: it may call a raise helper (see `helpers.py`)."""

    callee: str  # as written: "fail", "self.fail", "errors.fail"
    receiver: str | None  # the class of the object called on, when known
    line: int
    end_line: int
    function: str
    owner: str | None  # the class the call is in, if any
    clauses: tuple[str, ...]
    args: tuple[CallArg, ...]
    values: Values

    @property
    def called(self) -> str:
        """The last part of what it calls (`fail` for `self.parser.fail`)."""
        return self.callee.rsplit(".", 1)[-1]

    def to_json(self) -> Json:
        return [
            self.callee,
            self.receiver,
            self.line,
            self.end_line,
            self.function,
            self.owner,
            list(self.clauses),
            [a.to_json() for a in self.args],
            self.values.to_json(),
        ]

    @classmethod
    def from_json(cls, data: Json) -> HelperCall:
        callee, receiver, line, end_line, function, owner, clauses, args, values = data
        return cls(
            callee,
            receiver,
            line,
            end_line,
            function,
            owner,
            tuple(clauses),
            tuple(map(CallArg.from_json, args)),
            Values.from_json(values),
        )


@dataclass(frozen=True, slots=True)
class FileAnalysis:
    """Everything linking needs of one file, or the reason it was skipped (with the sites found before a
    budget ran out, if any)."""

    skip: str | None
    sites: tuple[RawSite, ...] = ()
    calls: tuple[HelperCall, ...] = ()
    properties: dict[str, tuple[str, ...]] = field(default_factory=dict)  # property qualname -> its templates
    attribute_classes: dict[str, str] = field(default_factory=dict)  # "Class.attr" -> the class it defaults to
    classes: tuple[ClassRecord, ...] = ()
    imports: dict[str, Imported] = field(default_factory=dict)
    compiled_classes: tuple[ClassRecord, ...] = ()  # a C++ file's exception classes and their bases, as written

    def callees(self) -> list[str]:
        """The names its recorded calls call (last part): which files may call a helper of that name."""
        return sorted({c.called for c in self.calls})

    def __reduce__(self) -> tuple[Any, tuple[Json]]:
        """Pickled (to the process that links, see `indexing.pipeline`) as its JSON form: plain lists and dicts
        pickle in half the time the records take (as fast to load)."""
        return FileAnalysis.from_json, (self.to_json(),)

    def to_json(self) -> Json:
        return {
            "skip": self.skip,
            "sites": [s.to_json() for s in self.sites],
            "calls": [c.to_json() for c in self.calls],
            "properties": {k: list(v) for k, v in self.properties.items()},
            "attribute_classes": self.attribute_classes,
            "classes": [c.to_json() for c in self.classes],
            "imports": {k: list(v) for k, v in self.imports.items()},
            "compiled_classes": [c.to_json() for c in self.compiled_classes],
        }

    @classmethod
    def from_json(cls, data: Json) -> FileAnalysis:
        return cls(
            data["skip"],
            tuple(map(RawSite.from_json, data["sites"])),
            tuple(map(HelperCall.from_json, data["calls"])),
            {k: tuple(v) for k, v in data["properties"].items()},
            data["attribute_classes"],
            tuple(map(ClassRecord.from_json, data["classes"])),
            {k: Imported(*v) for k, v in data["imports"].items()},
            tuple(map(ClassRecord.from_json, data["compiled_classes"])),
        )
