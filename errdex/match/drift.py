"""Answer an interpreter's error about a library's API from the API of its indexed releases.

`unexpected keyword argument 'evaluation_strategy'`, `module 'numpy' has no attribute 'float'`, `cannot import
name 'soft_unicode'`: the name is looked up in every indexed release of the package that can hold it, each
release says whether it has the name, has it with a deprecation warning, lacks it, or cannot tell (a `**kwargs`, a
star import), and the releases where that changes are the answer. Only indexed releases are compared, so each
boundary is stated as between two indexed releases, never as a guess about the ones in between.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Literal, TypedDict, cast

from errdex.extract.api import POSITIONAL
from errdex.match.interpreter import ApiQuestion, question_of
from errdex.match.parse import release_path
from errdex.match.presence import (
    ReleaseState,
    call_states,
    close_names,
    member_states,
    members,
    module_states,
    name_states,
    names_in_module,
    parameter_states,
    parameters,
    submodules,
)
from errdex.model import ApiEntry, ApiParam, ParsedError, normalize_name
from errdex.store import Store, version_key

ChangeKind = Literal["removed", "renamed", "added", "deprecated", "signature"]
Relation = Literal["after", "before", "unaffected", "unknown"]
MAX_PACKAGES = 4  # packages tried for one name
MAX_ELSEWHERE = 3  # other modules named where the newest release defines a name its module lacks
_VARIADIC = ("var_positional", "var_keyword")


@dataclass(frozen=True, slots=True)
class ApiChange:
    """Where the indexed releases change: the last that has it and the first that does not (or the reverse)."""

    kind: ChangeKind
    last_with: str | None  # removed / renamed: the last indexed release that has it
    first_without: str | None  # removed / renamed: the first indexed release after it that lacks it
    first_with: str | None  # added: the first indexed release that has it
    deprecated_in: str | None  # the first indexed release whose code warns about it
    warned_before: bool  # an indexed release before `deprecated_in` has it without a warning
    replacement: str | None  # what the deprecation's warning names instead
    warning: str | None  # the deprecation's message


@dataclass(frozen=True, slots=True)
class FixStep:
    """One way out: rename a keyword / name in the user's code, pin or upgrade the package, install one."""

    kind: Literal["rename", "replace", "import", "pin", "upgrade", "install"]  # replace: use `new` (not a rename);
    # import: from the module `new` names (`old`: the module the code imports it from)
    old: str | None
    new: str | None
    spec: str | None


@dataclass(frozen=True, slots=True)
class ApiAnswer:
    """What the indexed releases of `package` say about the name an interpreter's message asks for."""

    question: ApiQuestion
    package: str
    subject: str  # what was looked up, dotted: "transformers.TrainingArguments", "numpy.float"
    parameter: str | None  # for argument errors: the parameter looked up in the subject's signature
    states: tuple[ReleaseState, ...]  # every indexed release of the package, oldest first
    change: ApiChange | None
    user_version: str | None  # the release the user runs, when the paste or this environment tells
    relation: Relation  # the user's release against the change
    closest: tuple[str, ...]  # similar names, when no indexed release has the name
    fix: tuple[FixStep, ...]
    elsewhere: tuple[str, ...] = ()  # modules of the newest indexed release that define the name its module lacks

    @property
    def found(self) -> bool:
        return any(s.state in ("present", "deprecated") for s in self.states)

    def to_json(self) -> ApiAnswerJson:
        q = self.question
        return {
            "question": {
                "asked": q.asked,
                "exception": q.exception,
                "name": q.name,
                "owner": q.owner,
                "module": q.module,
            },
            "package": self.package,
            "subject": self.subject,
            "parameter": self.parameter,
            "states": [cast(ReleaseStateJson, asdict(s)) for s in self.states],
            "change": cast(ApiChangeJson, asdict(self.change)) if self.change else None,
            "user_version": self.user_version,
            "relation": self.relation,
            "closest": list(self.closest),
            "fix": [cast(FixStepJson, asdict(f)) for f in self.fix],
            "elsewhere": list(self.elsewhere),
        }


class ApiQuestionJson(TypedDict):
    """What the interpreter's message asks (see `ApiQuestion`)."""

    asked: str
    exception: str
    name: str | None
    owner: str | None
    module: str | None


class ReleaseStateJson(TypedDict):
    """One indexed release's state of the name (see `ReleaseState`)."""

    version: str
    state: str
    file: str | None
    line: int | None
    reason: str | None
    warning: str | None
    replacement: str | None


class ApiChangeJson(TypedDict):
    """Where the indexed releases change (see `ApiChange`)."""

    kind: str
    last_with: str | None
    first_without: str | None
    first_with: str | None
    deprecated_in: str | None
    warned_before: bool
    replacement: str | None
    warning: str | None


class FixStepJson(TypedDict):
    """One way out (see `FixStep`)."""

    kind: str
    old: str | None
    new: str | None
    spec: str | None


class ApiAnswerJson(TypedDict):
    """An interpreter error about an API, answered from the indexed releases (see `ApiAnswer`)."""

    question: ApiQuestionJson
    package: str
    subject: str
    parameter: str | None
    states: list[ReleaseStateJson]
    change: ApiChangeJson | None
    user_version: str | None
    relation: str
    closest: list[str]
    fix: list[FixStepJson]
    elsewhere: list[str]


def api_answer(
    parsed: ParsedError, store: Store, text: str = "", installed: Callable[[str], str | None] | None = None
) -> ApiAnswer | None:
    """The answer to a pasted interpreter error about an indexed package's API, or None when it asks no such thing
    or no indexed package can hold the name. `installed` gives the version of a package the user runs, when the
    environment that ran the code is this one."""
    question = question_of(parsed)
    if question is None or question.asked == "module" and question.module is None:
        return None
    answers = [a for a in _answers(question, parsed, store) if a.states]
    if not answers:
        return None
    best = max(answers, key=lambda a: (a.change is not None, a.found, _frames_in(parsed, a.package)))
    stated = _stated_version(_without_messages(text, parsed), best.package)
    version = stated or (installed(best.package) if installed else None)
    finished = _finish(best, version)
    if question.asked == "module" and best.change is None and best.found:  # each package that provides the module
        others = [a.package for a in answers if a is not best and a.change is None and a.found]
        extra = tuple(FixStep("install", None, None, package) for package in others)
        finished = replace(finished, fix=finished.fix + extra)
    return finished


class _Subject(ABC):
    """What one answer looks names up in, in every indexed release of `package`: `states` of a name (the asked one,
    or the replacement a deprecation names), the names `near` it in one release."""

    def __init__(self, store: Store, package: str, owner: str) -> None:
        self.store = store
        self.package = package
        self.owner = owner  # the module, parent module, class or callable

    @abstractmethod
    def states(self, name: str) -> list[ReleaseState]: ...

    @abstractmethod
    def near(self, version: str) -> list[str]: ...


class _InModule(_Subject):
    """A name in module `owner` (`module 'numpy' has no attribute`, `cannot import name ... from`)."""

    def states(self, name: str) -> list[ReleaseState]:
        return name_states(self.store, self.package, self.owner, name)

    def near(self, version: str) -> list[str]:
        return names_in_module(self.store, self.package, version, self.owner)

    def defined_elsewhere(self, name: str, version: str) -> list[str]:
        """The public modules of a release that define `name` (a class, function or attribute), other than `owner`."""
        found = {
            e.module
            for e in self.store.api_named(self.package, name).get(version, [])
            if e.symbol.qualname == name
            and e.symbol.kind in ("class", "function", "attribute")
            and e.module != self.owner
            and not any(part.startswith("_") for part in e.module.split("."))
        }
        return sorted(found, key=lambda m: (m.count("."), m))[:MAX_ELSEWHERE]


class _Submodule(_Subject):
    """A module of package `owner` ("" for a top-level one): `No module named`."""

    def states(self, name: str) -> list[ReleaseState]:
        return module_states(self.store, self.package, f"{self.owner}.{name}" if self.owner else name)

    def near(self, version: str) -> list[str]:
        return submodules(self.store, self.package, version, self.owner)


class _Member(_Subject):
    """An attribute, method or property of class `owner` (`'DataFrame' object has no attribute`)."""

    def states(self, name: str) -> list[ReleaseState]:
        return member_states(self.store, self.package, self.owner, name)

    def near(self, version: str) -> list[str]:
        return members(self.store, self.package, version, self.owner)


class _Parameter(_Subject):
    """A parameter of callable `owner` (`got an unexpected keyword argument`)."""

    def states(self, name: str) -> list[ReleaseState]:
        return parameter_states(self.store, self.package, self.owner, name)

    def near(self, version: str) -> list[str]:
        return parameters(self.store, self.package, version, self.owner)


class _Required(_Subject):
    """Whether callable `owner` can be called without the parameter (`missing 1 required positional argument`):
    `present` in a release whose signature does not require it."""

    def states(self, name: str) -> list[ReleaseState]:
        def optional(entries: list[ApiEntry]) -> bool:
            return not any(
                p.name == name and p.default is None and p.kind not in _VARIADIC for p in _parameters_of(entries)
            )

        return call_states(self.store, self.package, self.owner, optional)

    def near(self, version: str) -> list[str]:
        return parameters(self.store, self.package, version, self.owner)


class _Positional(_Subject):
    """Whether callable `owner` takes as many positional arguments as were given (`takes 1 positional argument but
    2 were given`): `present` in a release whose signature does (`self` counted, as the interpreter counts it)."""

    def states(self, name: str) -> list[ReleaseState]:
        given = int(name)

        def takes(entries: list[ApiEntry]) -> bool:
            params = _parameters_of(entries)
            positional = [p for p in params if p.kind in ("positional_only", "positional_or_keyword")]
            if any(d.name == POSITIONAL for e in entries for d in e.symbol.deprecations):
                positional += [p for p in params if p.kind == "keyword_only"]  # still taken by position, warned
            return len(positional) >= given or any(p.kind == "var_positional" for p in params)

        return call_states(self.store, self.package, self.owner, takes)

    def near(self, version: str) -> list[str]:
        return []


def _parameters_of(entries: list[ApiEntry]) -> list[ApiParam]:
    return [p for e in entries for p in e.symbol.params or ()]


def _answers(question: ApiQuestion, parsed: ParsedError, store: Store) -> Iterable[ApiAnswer]:
    """One answer per package that can hold the name."""
    name = question.name
    if question.asked in ("module_attribute", "import_name") and question.module and name:
        module = question.module
        for package in store.packages_with_top(module.split(".")[0])[:MAX_PACKAGES]:
            yield _answer(question, f"{module}.{name}", None, name, _InModule(store, package, module))
    elif question.asked == "module" and question.module:
        parent, _, leaf = question.module.rpartition(".")
        for package in store.packages_with_top(question.module.split(".")[0])[:MAX_PACKAGES]:
            yield _answer(question, question.module, None, leaf, _Submodule(store, package, parent))
    elif question.asked == "attribute" and question.owner and name:
        owner = question.owner.rpartition(".")[2]
        for package in _packages_naming(store, owner, parsed):
            yield _answer(question, f"{owner}.{name}", None, name, _Member(store, package, owner))
    elif question.asked == "keyword" and name:
        for package, callable_ in _callables(store, question, parsed):
            yield _answer(question, callable_, name, name, _Parameter(store, package, callable_))
    elif question.asked == "missing" and name:
        for package, callable_ in _callables(store, question, parsed):
            yield _answer(question, callable_, name, name, _Required(store, package, callable_))
    elif question.asked == "positional" and name:
        for package, callable_ in _callables(store, question, parsed):
            yield _answer(question, callable_, None, name, _Positional(store, package, callable_))


def _answer(question: ApiQuestion, subject: str, parameter: str | None, asked: str, where: _Subject) -> ApiAnswer:
    states = tuple(sorted(where.states(asked), key=lambda s: version_key(s.version)))
    change = _change(states, where)
    closest: tuple[str, ...] = ()
    if states and not any(s.state in ("present", "deprecated") for s in states):
        newest = next((s.version for s in reversed(states) if s.state != "unknown"), states[-1].version)
        closest = tuple(close_names(asked, where.near(newest)))
    elsewhere: tuple[str, ...] = ()
    if isinstance(where, _InModule) and states and states[-1].state == "absent":
        elsewhere = tuple(where.defined_elsewhere(asked, states[-1].version))
    answer = ApiAnswer(question, where.package, subject, parameter, states, change, None, "unknown", closest, ())
    return replace(answer, elsewhere=elsewhere)


# -- which package, which callable ------------------------------------------------------------------------


def _packages_naming(store: Store, leaf: str, parsed: ParsedError) -> list[str]:
    """Packages with a symbol of that name, those the paste's frames are in first."""
    packages = store.api_packages_naming(leaf)
    return sorted(packages, key=lambda p: -_frames_in(parsed, p))[:MAX_PACKAGES]


def _callables(store: Store, question: ApiQuestion, parsed: ParsedError) -> Iterable[tuple[str, str]]:
    """(package, callable) pairs the message can be about: the callable it names, made whole by the user's call
    (`__init__` is the class the user's line calls), in the packages that define it."""
    owner = question.owner or ""
    parts = owner.split(".")
    if parts[-1] == "__init__" and len(parts) >= 2:
        names = [parts[-2]]
    elif parts[-1] == "__init__":
        names = [c.rpartition(".")[2] for c in reversed(question.called) if c.rpartition(".")[2][:1].isupper()]
    else:
        names = [".".join(parts[-2:])] if len(parts) >= 2 else [parts[-1]]
    seen: set[tuple[str, str]] = set()
    for name in names[:3]:
        leaf = name.rpartition(".")[2]
        for package in _packages_naming(store, leaf if not leaf[:1].isupper() else leaf, parsed):
            if (package, name) not in seen:
                seen.add((package, name))
                yield package, name


def _frames_in(parsed: ParsedError, package: str) -> int:
    """How many of the paste's frames lie in a top-level folder named like the package."""
    tops = {normalize_name(p).replace("-", "_") for p in (package,)}
    count = 0
    for frame in parsed.frames:
        path = release_path(frame.file)
        if path and normalize_name(path.split("/", 1)[0]).replace("-", "_") in tops:
            count += 1
    return count


# -- the change and the fix --------------------------------------------------------------------------------


def _change(states: Sequence[ReleaseState], where: _Subject) -> ApiChange | None:
    """The latest place where the known states go from having the name to lacking it (or the reverse)."""
    known = [s for s in states if s.state != "unknown"]
    has = [s.state in ("present", "deprecated") for s in known]
    deprecated = next((s for s in known if s.state == "deprecated"), None)
    warned_before = deprecated is not None and any(s.state == "present" for s in known[: known.index(deprecated)])
    deprecated_in = deprecated.version if deprecated else None
    latest = next((s for s in reversed(known) if s.state == "deprecated"), None)
    warning = latest.warning if latest else None  # the words of the latest release that warned
    for i in range(len(known) - 1, 0, -1):
        if has[i - 1] and not has[i]:
            last, first = known[i - 1], known[i]
            replacement = next((s.replacement for s in reversed(known[:i]) if s.replacement), None)
            kind: ChangeKind = (
                "renamed" if replacement and _takes_over(where, replacement, first.version) else "removed"
            )
            if isinstance(where, (_Required, _Positional)):
                kind = "signature"  # the callable is there on both sides: the call it accepts changed
            return ApiChange(
                kind, last.version, first.version, None, deprecated_in, warned_before, replacement, warning
            )
    for i in range(1, len(known)):
        if not has[i - 1] and has[i]:
            return ApiChange("added", None, None, known[i].version, None, False, None, None)
    if deprecated is not None:
        return ApiChange("deprecated", None, None, None, deprecated_in, warned_before, deprecated.replacement, warning)
    return None


def _takes_over(where: _Subject, replacement: str, version: str) -> bool:
    """Whether the replacement a warning names is there, in the same place, in the release that lacks the old name."""
    if not replacement.isidentifier():
        return False
    return any(s.version == version and s.state in ("present", "deprecated") for s in where.states(replacement))


def _finish(answer: ApiAnswer, user_version: str | None) -> ApiAnswer:
    change = answer.change
    relation = _relation(change, user_version)
    fix: list[FixStep] = []
    old = answer.parameter or answer.subject.rpartition(".")[2]
    if change is not None and change.kind in ("removed", "renamed", "signature"):
        if change.replacement:
            fix.append(FixStep("rename" if change.kind == "renamed" else "replace", old, change.replacement, None))
        fix.append(FixStep("pin", None, None, f"{answer.package}<{change.first_without}"))
    elif change is not None and change.kind == "added":
        fix.append(FixStep("upgrade", None, None, f"{answer.package}>={change.first_with}"))
    elif change is not None and change.kind == "deprecated" and change.replacement:
        fix.append(FixStep("replace", old, change.replacement, None))
    elif change is None and answer.question.asked == "module" and answer.found:
        fix.append(FixStep("install", None, None, answer.package))  # every release has it: the environment lacks it
    if answer.elsewhere:  # the newest release defines it in another module: import it from there
        name = answer.subject.rpartition(".")[2]
        fix.insert(0, FixStep("import", answer.question.module, f"{answer.elsewhere[0]}.{name}", None))
    return replace(answer, user_version=user_version, relation=relation, fix=tuple(fix))


def _relation(change: ApiChange | None, version: str | None) -> Relation:
    if change is None or version is None:
        return "unknown"
    boundary = change.first_without or change.first_with
    if boundary is None:
        return "unknown"
    at_or_after = version_key(version) >= version_key(boundary)
    if change.kind == "added":
        return "before" if not at_or_after else "unaffected"
    return "after" if at_or_after else "unaffected"


def _without_messages(text: str, parsed: ParsedError) -> str:
    """The paste less its errors' own messages: a version a message names ("deprecated in NumPy 1.20") is the
    library's history, not the release the user runs."""
    for error in (parsed, *parsed.chained, *parsed.others):
        for line in error.message.splitlines():
            if line.strip():
                text = text.replace(line.strip(), " ")
    return text


def _stated_version(text: str, package: str) -> str | None:
    """A version the paste states for the package: `transformers==4.51.0`, `transformers version: 4.51.0`."""
    names = {package, package.replace("-", "_"), package.replace("-", "")}
    for name in names:
        found = re.search(
            rf"(?i)(?<![\w.-]){re.escape(name)}(?:\s*(?:==|version\s*[:=]?|v)\s*|\s+)(\d+(?:\.\d+){{1,3}})\b", text
        )
        if found:
            return found.group(1)
    return None


__all__ = ["ApiAnswer", "ApiChange", "FixStep", "ReleaseState", "api_answer", "question_of"]
