"""Plain data passed between the stages: sources → extract → store → match / explain.

Every class here is a frozen dataclass with no behaviour beyond small derived values, so that
each stage can be tested on its own and the page model can be rendered by any front end.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Literal, NamedTuple

Kind = Literal["error", "warning", "log"]
SourceKind = Literal["wheel", "sdist", "archive", "folder", "git", "installed"]
# What a JSON document holds (what `json.loads` gives back), for values errdex passes on as they were read.
JsonValue = None | bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"]
# The language a release's file is written in: Python modules, and the compiled sources beside them.
Language = Literal["python", "cython", "c", "cpp", "rust"]
# Compiled to machine code: no traceback shows their frames (Cython's it does), and tree-sitter parses them.
NATIVE_LANGUAGES: tuple[Language, ...] = ("c", "cpp", "rust")
# File endings of compiled sources, longest first; `.h` is read as C++ (whose grammar takes most C headers too).
COMPILED_SUFFIXES: tuple[tuple[str, Language], ...] = (
    (".c.src", "c"),
    (".h.src", "c"),
    (".pxi.in", "cython"),
    (".pyx.in", "cython"),
    (".pyx", "cython"),
    (".pxd", "cython"),
    (".pxi", "cython"),
    (".c", "c"),
    (".cc", "cpp"),
    (".cpp", "cpp"),
    (".cxx", "cpp"),
    (".cu", "cpp"),
    (".cuh", "cpp"),
    (".h", "cpp"),
    (".hh", "cpp"),
    (".hpp", "cpp"),
    (".hxx", "cpp"),
    (".rs", "rust"),
)


@dataclass(frozen=True)
class SourceFile:
    """One file of a release (a Python module, or a compiled source beside them): its path and raw bytes."""

    path: str  # posix path as imported, e.g. "transformers/generation/configuration_utils.py"; a compiled source's
    # path in the project tree, e.g. "numpy/_core/src/multiarray/shape.c"
    data: bytes

    @cached_property
    def sha256(self) -> str:
        """Computed once: the release's digest, the store's content address and the pool all ask for it."""
        return hashlib.sha256(self.data).hexdigest()


def language_of(path: str) -> Language | None:
    """The language of a release's file by its name; None for a file errdex does not read."""
    if path.endswith(".py"):
        return "python"
    lowered = path.lower()
    return next((language for suffix, language in COMPILED_SUFFIXES if lowered.endswith(suffix)), None)


def way_note(reaches_check: bool, name: str, passed_on: bool = False) -> str:
    """What renderers add to a way in that only sets the input: a call of it does not run the check, so it reads
    as no way to the error (empty for one that reaches it); one that `passed_on` hands it down unchanged to the
    check's function, which the call may or may not get to."""
    if passed_on:
        return (
            f"passes `{name}` on unchanged to the check's function (whether the call gets to the check is not decided)"
        )
    return "" if reaches_check else f"sets `{name}` without running the check"


@dataclass(frozen=True, slots=True)
class RepoLayout:
    """Where a release's files sit in its project tree, so that links name the repository's paths.

    `prefix` is the folder before the top-level package ("src", "lib", "" at the root); `learned_from`
    is the kind of tree whose paths showed it: the release's own (sdist, archive, folder, git) or, for
    a wheel, the sdist of the same release (listed, never built).
    """

    prefix: str
    learned_from: SourceKind

    def repository_path(self, path: str) -> str:
        """An import path as the project tree has it: `transformers/x.py` -> `src/transformers/x.py`."""
        return f"{self.prefix}/{path}" if self.prefix else path


@dataclass(frozen=True)
class ReleaseInfo:
    """What a source says about the release it reads, before any code is looked at."""

    package: str  # the distribution's name as published, e.g. "transformers"
    version: str
    spec: str  # what the user asked for, e.g. "transformers==5.16.0" or "./mypkg"
    source_kind: SourceKind
    digest: str  # sha256 of the archive, the git commit, or a hash over the files' hashes
    repository_url: str | None = None
    layout: RepoLayout | None = None  # None: not known (a wheel without an sdist, installed files)
    repository_folder: str | None = None  # the project's folder in its repository, as its metadata names it


class ClassPlace(NamedTuple):
    """A class of a release: the file that defines it and its qualified name there."""

    file: str
    qualname: str


class FileLine(NamedTuple):
    """A place in a release as a traceback names it: a file and one line of the raising statement."""

    file: str
    line: int


@dataclass(frozen=True)
class Snippet:
    """Lines `start`..`end` (1-based, inclusive) of a file around a site."""

    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class WrittenAt:
    """Where a raise helper's caller wrote the message the helper raises: a place and its function."""

    file: str
    line: int
    function: str


ConditionKind = Literal["available", "type_checking", "platform", "version", "other"]
BINDINGS_KEY = "<bindings>"  # where a site's `bindings` are kept inside its stored `resolved` JSON (not a name)
PRIOR_KEY = "<prior checks>"  # where a site's `prior_checks` are kept inside its stored `resolved` JSON (not a name)
# What a page's renderers say when its `solutions` are empty: no fix is padded in where the code supports none.
NO_FIX = "No fix is derived from the code of this check; what it means says what makes it fire."


def held_reason(held_by: str) -> str:
    """What a page says of the message of a raise of an object it does not resolve (`raise ERRORS[key]`)."""
    return f"class and message not resolved: the exception object `{held_by}` holds them"


def class_shown(
    kind: str,
    exception: str | None,
    level: str | None,
    class_parameter: str | None,
    returned_by: str | None,
    held_by: str | None = None,
) -> str:
    """The class a page's header names: a parameter's argument, a function's return value or an object the raise
    looks up (`raise ERRORS[key]`) is no class of that name, an unknown one is said."""
    if class_parameter:
        return f"the class passed as `{class_parameter}`"
    if returned_by:  # the class it always builds, when the page resolved one (`exception` then names it)
        built = f": {exception}" if exception and exception != returned_by else ""
        return f"what `{returned_by}(...)` returns{built}"
    if held_by:
        return f"the exception object `{held_by}`"
    return exception or level or ("category not resolved" if kind == "warning" else "")


@dataclass(frozen=True, slots=True)
class PriorCheck:
    """An earlier raising check of the site's function on its path (`if test: raise ...`, or the nested
    tests that lead to such a raise, joined with `and`): the site is reached only when `test` is false."""

    line: int  # the line of the `if` whose test it is (the innermost one, for nested tests)
    test: str  # the source of the test that raises when true

    def to_json(self) -> JsonValue:
        return [self.line, self.test]

    @classmethod
    def from_json(cls, data: JsonValue) -> PriorCheck:
        if not isinstance(data, list) or len(data) != 2:
            raise ValueError(f"not a prior check: {data!r}")
        line, test = data
        return cls(int(line), str(test))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Condition:
    """A test a module- or class-level binding holds under: an `if` test (`holds`: it is true) or the
    exceptions a `try`'s handler catches (`holds`: one was raised), with the kind of thing it tests."""

    test: str  # the `if` test's source, or the handler's exception(s) as written
    holds: bool
    form: Literal["if", "except"]
    kind: ConditionKind

    @property
    def installed(self) -> bool:
        """Whether it holds on the package's normal import path: an availability test passed, no ImportError."""
        return self.kind == "available" and self.holds == (self.form == "if")


@dataclass(frozen=True, slots=True)
class Binding:
    """One value a module- or class-level name may have, with the conditions it holds under (none: always);
    `known` False: it could not be resolved (unknown, never shown as an empty value)."""

    conditions: tuple[Condition, ...]
    file: str
    line: int
    value: JsonValue = None
    known: bool = True

    def to_json(self) -> JsonValue:
        conditions: list[JsonValue] = [[c.test, c.holds, c.form, c.kind] for c in self.conditions]
        return {
            "conditions": conditions,
            "file": self.file,
            "line": self.line,
            "value": self.value,
            "known": self.known,
        }

    @classmethod
    def from_json(cls, data: dict[str, JsonValue]) -> Binding:
        conditions = tuple(Condition(*c) for c in data["conditions"])  # type: ignore[misc, union-attr]
        return cls(conditions, data["file"], data["line"], data["value"], data["known"])  # type: ignore[arg-type]


@dataclass(frozen=True)
class Site:
    """One place in one release that raises an error, issues a warning or logs a problem.

    `template` is the message with every interpolated part written `{}`; it is None when the
    message cannot be resolved statically, and `reason` then says why. `holes` are, for each `{}` of
    the template, the sources of the expressions it shows (several where adjacent parts merged into
    one hole, none where unknown); () when the template's holes are not known one by one.
    """

    kind: Kind
    exception: str | None  # as written: "ValueError", "errors.ConfigError"; warning category; None for logs
    exception_bases: tuple[str, ...]  # resolved base classes, nearest first, when defined in the package
    template: str | None
    reason: str | None
    file: str
    line: int
    end_line: int
    function: str  # qualified name of the enclosing function or class, "<module>" at top level
    clauses: tuple[str, ...]  # source of each guarding `if` condition (or negated one, assert), innermost last
    resolved: dict[str, JsonValue] = field(default_factory=dict)  # name -> statically resolved value
    resolved_from: dict[str, str] = field(default_factory=dict)  # name -> "path:line" of its definition
    checks: tuple[str, ...] = ()  # attribute / parameter names the condition tests, e.g. ("cache_implementation",)
    snippet: Snippet = Snippet(0, 0, "")
    message_source: str = ""  # the message expression as source (ast.unparse), for display and ids
    level: str | None = None  # for logs: "warning", "error", "warning_once", ...
    holes: tuple[tuple[str, ...], ...] = ()
    written_at: WrittenAt | None = None  # for a raise helper's site: the caller that wrote its message
    # name -> each value it may have, for names bound more than once under conditions (see `Binding`)
    bindings: dict[str, tuple[Binding, ...]] = field(default_factory=dict)
    prior_checks: tuple[PriorCheck, ...] = ()  # the raising checks before it on its path, first first

    @property
    def condition(self) -> str | None:
        """The guarding conditions as one expression's source (`a and (b or c)`), None when unguarded."""
        if len(self.clauses) < 2:
            return self.clauses[0] if self.clauses else None
        return " and ".join(map(_grouped, self.clauses))


_LOOSER_THAN_AND = (" or ", " if ", "lambda")  # words of what binds less tightly than `and` (`:=` is bracketed)


def _grouped(clause: str) -> str:
    """A clause in brackets when it may bind less tightly than `and` (brackets around one that does not do no harm)."""
    return f"({clause})" if any(word in clause for word in _LOOSER_THAN_AND) else clause


@dataclass(frozen=True)
class ClassInfo:
    """A class defined in a release: its bases as written and the attributes it sets on self."""

    file: str
    qualname: str
    line: int
    bases: tuple[str, ...]
    attributes: tuple[str, ...]


@dataclass(frozen=True)
class Skip:
    """A file of a release that was not analysed, and why (it does not parse, it is too big, ...)."""

    file: str
    reason: str


@lru_cache(maxsize=4096)  # a release's every site asks for its package's
def normalize_name(name: str) -> str:
    """The PEP 503 normalised form of a distribution name: 'Foo_Bar' -> 'foo-bar'."""
    out: list[str] = []
    dash = False
    for ch in name.strip().lower():
        if ch in "-_.":
            dash = True
            continue
        if dash and out:
            out.append("-")
        dash = False
        out.append(ch)
    return "".join(out)


@lru_cache(maxsize=65536)  # most errors are raised at several sites (copied code)
def error_id(package: str, kind: str, exception: str | None, template: str | None, message_source: str) -> str:
    """A stable 16-hex-digit id for one error of one package, the same in every release.

    It depends on the package, the exception's own name (not the module path it is written
    with) and the template; a message that has no template is identified by its source. The
    key is only hashed, never read back: its separators and the prefix that keeps a source from
    hashing like a template are bytes of the hash input, and changing them would change every id.
    """
    exc = (exception or kind).rsplit(".", 1)[-1]
    text = template if template is not None else "\x00src:" + message_source
    key = "\x1f".join((normalize_name(package), kind, exc, text))
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:16]


@dataclass(frozen=True)
class Frame:
    """One frame of a pasted traceback."""

    file: str
    line: int | None
    function: str | None
    code: str | None = None  # the source line the traceback showed, if any


@dataclass(frozen=True)
class ParsedError:
    """What errdex understood of a pasted message, log line or traceback.

    `exception` is the type as written ("ValueError", "transformers.utils.SomeError") or None
    when the paste has no type; `message` is the text after "Type: " with the interpreter's own
    additions (notes, "Did you mean") removed; `frames` are innermost last.
    """

    exception: str | None
    message: str
    frames: tuple[Frame, ...] = ()
    kind: Kind = "error"
    notes: tuple[str, ...] = ()
    chained: tuple[ParsedError, ...] = ()  # the other exceptions of a chained paste, in order shown
    others: tuple[ParsedError, ...] = ()  # errors and warnings outside the main one's chain, in order shown
    # The message was printed above the traceback these frames come from (by a logger or a test runner), not raised
    # with them: the frames may point at the message's site, never against it.
    printed_above: bool = False
    source_format: str = "message"  # message | traceback | ipython | pytest | log | warning


@dataclass(frozen=True)
class ReleaseRecord:
    """An indexed release as the store knows it."""

    package: str
    version: str
    spec: str
    source_kind: str
    digest: str
    repository_url: str | None
    indexed_at: str
    file_count: int
    site_count: int
    error_count: int
    skip_count: int
    layout: RepoLayout | None = None  # where the files sit in the project tree, None when not known
    repository_folder: str | None = None  # the project's folder in its repository (a monorepo's), when named


@dataclass(frozen=True)
class Related:
    """An error that shares another's function, or the setting (attribute of its class) it checks."""

    id: str
    template: str
    exception: str | None
    file: str
    line: int
    function: str
    relation: str  # "function" | "setting"
    setting: str | None = None  # for "setting": the attribute of the class both checks read (`weights`)


@dataclass(frozen=True)
class ErrorRecord:
    """One error of one release: its first site (with snippet), all its sites, related errors."""

    id: str
    release: ReleaseRecord
    site: Site
    sites: tuple[Site, ...]
    related: tuple[Related, ...] = ()


ApiKind = Literal[
    "class",
    "function",
    "method",
    "property",
    "attribute",
    "import",
    "star",
    "lazy",
    "exported",
    "deprecated",
    "removed",
]
ParamKind = Literal["positional_only", "positional_or_keyword", "var_positional", "keyword_only", "var_keyword"]


@dataclass(frozen=True, slots=True)
class ApiParam:
    """One parameter of a function's signature, or a field a dataclass-like class takes in its `__init__`."""

    name: str
    kind: ParamKind
    default: str | None  # the default's source; None when the parameter is required (or is *args / **kwargs)


@dataclass(frozen=True, slots=True)
class ApiDeprecation:
    """A parameter or name that still works but warns: the warning's category and message (a template, `{}` for
    what is computed), its line, and the name the code gives as its replacement (None when it names none)."""

    name: str
    category: str | None
    message: str | None
    line: int
    replacement: str | None


@dataclass(frozen=True, slots=True)
class ApiSymbol:
    """One name a module of a release defines or exports, read statically.

    `qualname` is its name inside the module ("TrainingArguments", "DataFrame.append"). An `import` or `lazy`
    export names what it refers to in `target` (a dotted path); a `star` import the module it copies names from.
    `deprecated` and `removed` are names a module's `__getattr__` still answers with a warning, or refuses (and
    `<module>` the module itself when it warns on import). `exported` is a name its `__all__` lists; an `exported`
    `*` takes in the `__all__` of the module in `target` (None: what it adds is not known statically).
    """

    qualname: str
    kind: ApiKind
    line: int
    params: tuple[ApiParam, ...] | None = None  # functions, methods, and classes whose fields make their __init__
    bases: tuple[str, ...] = ()  # classes: as written
    target: str | None = None
    deprecations: tuple[ApiDeprecation, ...] = ()  # of its parameters (functions), or of the name itself
    message: str | None = None  # removed / deprecated names: the message the module writes, as a template

    @property
    def leaf(self) -> str:
        """The last part of its name: what an interpreter's message names."""
        return self.qualname.rpartition(".")[2]


@dataclass(frozen=True, slots=True)
class ApiEntry:
    """An API symbol where a release has it: the file (module path) it is in."""

    file: str
    symbol: ApiSymbol

    @property
    def module(self) -> str:
        """The module's dotted name, from its file ("pkg/sub/__init__.py" → "pkg.sub")."""
        parts = self.file.removesuffix(".py").split("/")
        if parts[-1] == "__init__":
            parts.pop()
        return ".".join(parts)

    @property
    def path(self) -> str:
        """The symbol's full dotted path ("transformers.training_args.TrainingArguments")."""
        return f"{self.module}.{self.symbol.qualname}"
