"""The records of a failing statement, apart from the code that finds them: finder, renderer and JSON share them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypedDict

OperationKind = Literal["attribute", "subscript", "call", "iterate", "operator", "unpack", "other"]
# why a value bound in the code may be None, each a form the code itself shows
NoneReason = Literal["none literal", "get call", "getattr default", "conditional", "parameter default", "regex match"]
BindingForm = Literal[
    "assign",
    "augmented",
    "unpacked",
    "loop",
    "with",
    "except",
    "import",
    "walrus",
    "definition",
    "comprehension",
    "lambda",
]
CheckForm = Literal["if", "elif", "while", "assert", "comparison"]
NOT_PASSED = "not passed (the default applies)"  # what a caller passes for a parameter it leaves out
NOT_RESOLVED = "not resolved"  # ... when what it passes is not known (`*args`, `**kwargs`, no call)


@dataclass(frozen=True, slots=True)
class Parameter:
    """The parameter a value arrived through: its name and its default as written (None: it has no default)."""

    name: str
    default: str | None
    line: int  # the function's `def` line
    may_be_none: NoneReason | None  # "parameter default" when the default is `None`

    def to_json(self) -> ParameterJson:
        return {"name": self.name, "default": self.default, "line": self.line, "may_be_none": self.may_be_none}


@dataclass(frozen=True, slots=True)
class LocalBinding:
    """A statement of the function (or module, class body) before the failing line that binds the root name."""

    line: int
    form: BindingForm
    source: str  # the value assigned as written (`kwargs.get('device')`; the whole `for` header for a loop)
    may_be_none: NoneReason | None

    def to_json(self) -> LocalBindingJson:
        return {"line": self.line, "form": self.form, "source": self.source, "may_be_none": self.may_be_none}


@dataclass(frozen=True, slots=True)
class AttributeAssignment:
    """`self.attr = ...` in a method (or `attr = ...` in the body) of the class or a base class of the same file."""

    owner: str  # the qualified name of the method (`Cls.__init__`), or of the class for its body
    line: int
    source: str
    may_be_none: NoneReason | None

    def to_json(self) -> AttributeAssignmentJson:
        return {"owner": self.owner, "line": self.line, "source": self.source, "may_be_none": self.may_be_none}


@dataclass(frozen=True, slots=True)
class NearbyCheck:
    """A test in the same function before the failing line that mentions the failing value or one it is read from."""

    line: int
    form: CheckForm
    test: str  # the test's source
    # where the failing statement lies: in the branch the test leads into when true ("body"), when false ("else"),
    # or None: the check comes before it, not around it
    branch: Literal["body", "else"] | None
    mentions: str  # what of the failing value it tests: the value itself, or one it is read from (`a.b` of `a.b.c`)

    def to_json(self) -> NearbyCheckJson:
        return {
            "line": self.line,
            "form": self.form,
            "test": self.test,
            "branch": self.branch,
            "mentions": self.mentions,
        }


@dataclass(frozen=True, slots=True)
class CallerPlace:
    """A call of the function found in the release, and what it passes for the parameter."""

    function: str  # the calling function's qualified name
    file: str
    line: int
    call: str  # the call as written (cut)
    passes: str  # the argument as written; "not passed (the default applies)"; "not resolved"

    def to_json(self) -> CallerPlaceJson:
        return {
            "function": self.function,
            "file": self.file,
            "line": self.line,
            "call": self.call,
            "passes": self.passes,
        }


@dataclass(frozen=True, slots=True)
class Callers:
    """The callers of the function found within the release, and what the search could not see."""

    found: tuple[CallerPlace, ...]
    unresolved: int  # uses of the function's name on objects whose class is not known (counted, not claimed)
    truncated: bool
    not_followed: tuple[str, ...]  # the kinds of use the search cannot see (`getattr()` by string, ...)

    def to_json(self) -> CallersJson:
        return {
            "found": [c.to_json() for c in self.found],
            "unresolved": self.unresolved,
            "truncated": self.truncated,
            "not_followed": list(self.not_followed),
        }


@dataclass(frozen=True, slots=True)
class Origin:
    """Where the failing value comes from within the function: its root name (`x`, or `self.attr` for an attribute
    of self), the root's bindings before the line, the parameter it arrived through, the class's assignments to it."""

    root: str
    bindings: tuple[LocalBinding, ...]
    parameter: Parameter | None
    attribute_assignments: tuple[AttributeAssignment, ...]  # for a `self.attr` root
    callers: Callers | None  # for a parameter: who calls the function and what they pass
    # for a name the scope neither binds nor has as a parameter: its bindings at module level (any line)
    module_bindings: tuple[LocalBinding, ...] = ()

    def to_json(self) -> OriginJson:
        return {
            "root": self.root,
            "bindings": [b.to_json() for b in self.bindings],
            "module_bindings": [b.to_json() for b in self.module_bindings],
            "parameter": self.parameter.to_json() if self.parameter else None,
            "attribute_assignments": [a.to_json() for a in self.attribute_assignments],
            "callers": self.callers.to_json() if self.callers else None,
        }


@dataclass(frozen=True, slots=True)
class Key:
    """The key or index a subscript uses, as written, and where it comes from when it is read from a name."""

    source: str
    origin: Origin | None  # None for a literal key, or one read from no name

    def to_json(self) -> KeyJson:
        return {"source": self.source, "origin": self.origin.to_json() if self.origin else None}


@dataclass(frozen=True, slots=True)
class Operation:
    """One sub-expression of the statement the message fits: what was done to which value."""

    kind: OperationKind
    expression: str  # the value operated on as written (`self.config.quantization_config`)
    line: int  # its first line
    operation: str  # the whole operation as written (`self.config.quantization_config.to_dict`)
    name: str | None  # the attribute, key, keyword or operator the message names
    value_type: str | None  # the type the message gives the value (`NoneType`), when it gives one
    origin: Origin | None  # None when the expression has no root name (a call's result, a literal)
    checks: tuple[NearbyCheck, ...]
    key: Key | None = None  # for a subscript (or a `.pop(key)` a KeyError fits): the key it uses

    def to_json(self) -> OperationJson:
        return {
            "kind": self.kind,
            "expression": self.expression,
            "line": self.line,
            "operation": self.operation,
            "name": self.name,
            "value_type": self.value_type,
            "origin": self.origin.to_json() if self.origin else None,
            "checks": [c.to_json() for c in self.checks],
            "key": self.key.to_json() if self.key else None,
        }


@dataclass(frozen=True, slots=True)
class Scope:
    """The function holding the statement (None on `FailingStatement`: at module level or in a class body)."""

    qualname: str  # `PreTrainedModel.from_pretrained`, `f.<locals>.g`
    line: int  # its `def` line

    def to_json(self) -> ScopeJson:
        return {"qualname": self.qualname, "line": self.line}


@dataclass(frozen=True, slots=True)
class FailingStatement:
    """The statement of a release at a traceback's line, and what its code says of the operation that failed.

    When the traceback printed its line and the release's line differs, `matches_release` is False and nothing
    else is analysed (`operations` is empty): the frame ran other code than this release's.
    """

    package: str
    version: str
    file: str
    line: int  # the traceback's line
    start: int  # the statement's lines (for a compound statement, its header: `for ... in ...:`)
    end: int
    text: str  # the statement's source, dedented
    matches_release: bool
    printed: str | None  # the line the traceback printed, if any
    exception: str | None
    message: str
    function: Scope | None  # None at module level or in a class body
    in_class: str | None  # the class whose body holds the statement (directly, outside a method)
    operations: tuple[Operation, ...]  # every sub-expression the message fits; several: none is picked
    understood: bool  # the message is one this module reads (an interpreter's message it knows the form of)
    explicit: bool  # the statement is a `raise` or an `assert`: the code raises the error itself, the interpreter not
    same_line_in: tuple[str, ...] = ()  # other indexed versions whose file holds the same line (statement_for)

    def to_json(self) -> FailingStatementJson:
        """The record as the JSON API gives it (every key always present; null where the record holds None)."""
        return {
            "package": self.package,
            "version": self.version,
            "file": self.file,
            "line": self.line,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "matches_release": self.matches_release,
            "printed": self.printed,
            "exception": self.exception,
            "message": self.message,
            "function": self.function.to_json() if self.function else None,
            "in_class": self.in_class,
            "operations": [o.to_json() for o in self.operations],
            "understood": self.understood,
            "explicit": self.explicit,
            "same_line_in": list(self.same_line_in),
        }


class ParameterJson(TypedDict):
    name: str
    default: str | None  # null: the parameter has no default
    line: int
    may_be_none: NoneReason | None


class LocalBindingJson(TypedDict):
    line: int
    form: BindingForm
    source: str
    may_be_none: NoneReason | None


class AttributeAssignmentJson(TypedDict):
    owner: str
    line: int
    source: str
    may_be_none: NoneReason | None


class NearbyCheckJson(TypedDict):
    line: int
    form: CheckForm
    test: str
    branch: Literal["body", "else"] | None
    mentions: str


class CallerPlaceJson(TypedDict):
    function: str
    file: str
    line: int
    call: str
    passes: str


class CallersJson(TypedDict):
    found: list[CallerPlaceJson]
    unresolved: int
    truncated: bool
    not_followed: list[str]


class OriginJson(TypedDict):
    root: str
    bindings: list[LocalBindingJson]
    module_bindings: list[LocalBindingJson]
    parameter: ParameterJson | None
    attribute_assignments: list[AttributeAssignmentJson]
    callers: CallersJson | None  # null: not searched (the root is no parameter)


class KeyJson(TypedDict):
    source: str
    origin: OriginJson | None


class OperationJson(TypedDict):
    kind: OperationKind
    expression: str
    line: int
    operation: str
    name: str | None
    value_type: str | None
    origin: OriginJson | None  # null: the value is read from no name (a call's result, a literal)
    checks: list[NearbyCheckJson]
    key: KeyJson | None  # null: no subscript


class ScopeJson(TypedDict):
    qualname: str
    line: int


class FailingStatementJson(TypedDict):
    """`FailingStatement.to_json()`: the failing statement of a traceback, for the JSON API."""

    package: str
    version: str
    file: str
    line: int
    start: int
    end: int
    text: str
    matches_release: bool
    printed: str | None
    exception: str | None
    message: str
    function: ScopeJson | None  # null: at module level or in a class body (`in_class`)
    in_class: str | None
    operations: list[OperationJson]
    understood: bool
    explicit: bool
    same_line_in: list[str]
