"""An API answer (`match.drift.ApiAnswer`) in words, for every front end: what changed, in which indexed releases,
what the user's release is, and the fix in their code.

Each sentence says what the compared releases' code shows and names those releases: a boundary is between two
indexed releases, never a claim about releases that were not read.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TypedDict, cast

from errdex.match.drift import ApiAnswer, FixStep
from errdex.match.presence import ReleaseState

_STATE_WORDS = {
    "present": "has it",
    "deprecated": "has it, with a deprecation warning",
    "absent": "does not have it",
    "unknown": "cannot tell",
}
_CALL_WORDS = {  # what a state says of a call: its signature requires a parameter, takes so many positional ones
    "missing": {"present": "does not require it", "absent": "requires it"},
    "positional": {"present": "takes that many positional arguments", "absent": "takes fewer positional arguments"},
}


@dataclass(frozen=True, slots=True)
class TimelineRow:
    """One indexed release in words: its version, what it has, where, and why when it cannot tell."""

    version: str
    state: str
    words: str
    place: str | None  # "transformers/training_args.py:1611"


@dataclass(frozen=True, slots=True)
class DriftText:
    """The answer's sentences: a headline, the user's release against the change, the warning, the fixes."""

    title: str  # "What changed in transformers", "Where `cv2` comes from"
    headline: str
    warned: str | None  # since when the indexed releases warn
    yours: str | None
    warning: str | None
    fixes: tuple[str, ...]
    timeline: tuple[TimelineRow, ...]
    compared: str  # which releases were compared

    def to_json(self) -> DriftTextJson:
        return cast(DriftTextJson, asdict(self))


class TimelineRowJson(TypedDict):
    """One indexed release in words (see `TimelineRow`)."""

    version: str
    state: str
    words: str
    place: str | None


class DriftTextJson(TypedDict):
    """An API answer in sentences (see `DriftText`)."""

    title: str
    headline: str
    warned: str | None
    yours: str | None
    warning: str | None
    fixes: list[str]
    timeline: list[TimelineRowJson]
    compared: str


def drift_text(answer: ApiAnswer) -> DriftText:
    """The answer in words."""
    versions = [s.version for s in answer.states]
    compared = f"compared: the indexed releases of {answer.package} ({', '.join(versions)})"
    environment = answer.question.asked == "module" and answer.change is None and answer.found
    title = f"Where `{answer.subject}` comes from" if environment else f"What changed in {answer.package}"
    return DriftText(
        title,
        _headline(answer),
        _warned(answer),
        _yours(answer),
        answer.change.warning.replace("{}", "…") if answer.change and answer.change.warning else None,
        _fixes(answer),
        tuple(_row(s, answer.question.asked) for s in answer.states),
        compared,
    )


def subject_words(answer: ApiAnswer) -> str:
    """What was looked up, as code: "`TrainingArguments(evaluation_strategy=...)`", "`numpy.float`"."""
    if answer.question.asked in ("missing", "positional"):
        return f"`{answer.subject}(...)`"
    if answer.parameter is not None:
        return f"`{answer.subject}(..., {answer.parameter}=...)`"
    if answer.question.asked == "module":
        return f"the module `{answer.subject}`"
    return f"`{answer.subject}`"


def _headline(answer: ApiAnswer) -> str:
    change, package, what = answer.change, answer.package, subject_words(answer)
    if change is None:
        if answer.found and answer.question.asked == "module":
            have = [s.version for s in answer.states if s.state in ("present", "deprecated")]
            providers = [f.spec for f in answer.fix if f.kind == "install" and f.spec and f.spec != package]
            also = f" (so does {', '.join(providers)})" if providers else ""
            return (
                f"{what} is in every indexed release of {package} ({', '.join(have)}){also}: the environment that "
                f"ran the code does not have it installed, has a release older than those compared, or a file or "
                f"folder of the same name shadows it."
            )
        if answer.found:
            have = [s.version for s in answer.states if s.state in ("present", "deprecated")]
            return (
                f"{what} is in every indexed release of {package} that could be read ({', '.join(have)}); no change "
                "between them explains the error — the object may not be what the code expects, or another release "
                "ran."
            )
        near = f" Closest names: {', '.join(f'`{n}`' for n in answer.closest)}." if answer.closest else ""
        return f"{what} is not in any indexed release of {package}.{near}"
    if change.kind == "added":
        return f"{what} is new in {package} {change.first_with}: indexed releases before it do not have it."
    if change.kind == "deprecated":
        return f"{what} still works in every indexed release of {package} that has it, with a deprecation warning."
    if change.kind == "signature" and answer.question.asked == "missing":
        return (
            f"`{answer.subject}` does not require `{answer.parameter}` in {package} {change.last_with} and requires "
            f"it from {change.first_without}: the call leaves it out."
        )
    if change.kind == "signature":
        return (
            f"`{answer.subject}` takes {answer.question.name} positional arguments in {package} {change.last_with} "
            f"and fewer from {change.first_without}: the others must be passed by keyword (or are gone)."
        )
    gone = f"{what} is in {package} {change.last_with} and gone in {change.first_without}"
    if change.kind == "renamed":
        return f"{gone}: renamed to `{change.replacement}`, which {change.first_without} has."
    instead = f"; the deprecation warning names `{change.replacement}` instead" if change.replacement else ""
    return f"{gone}{instead}."


def _warned(answer: ApiAnswer) -> str | None:
    change = answer.change
    if change is None or change.deprecated_in is None:
        return None
    first = f"The first indexed release that warns about it is {change.deprecated_in}"
    if change.warned_before:
        return f"{first}; earlier indexed releases have it without a warning."
    return f"{first} (the oldest indexed release that has it already warns)."


def _yours(answer: ApiAnswer) -> str | None:
    version, change = answer.user_version, answer.change
    if version is None or change is None:
        return None
    if answer.relation == "after":
        return (
            f"You run {answer.package} {version}, at or after {change.first_without}: "
            "the code was written for an older release."
        )
    if answer.relation == "before":
        return f"You run {answer.package} {version}, older than {change.first_with}, where it first appears."
    if answer.relation == "unaffected":
        return (
            f"You run {answer.package} {version}, which the change does not touch: another installed release may "
            f"have run (check `pip show {answer.package}` in the environment that ran the code)."
        )
    return None


def _fixes(answer: ApiAnswer) -> tuple[str, ...]:
    installs = [step.spec for step in answer.fix if step.kind == "install" and step.spec]
    if len(installs) > 1:  # several indexed distributions provide the module: any one of them will do
        named = ", ".join(f"`pip install '{spec}'`" for spec in installs)
        return (f"Install one of the indexed distributions that provide it, where the code runs: {named}.",)
    return tuple(_fix_words(answer, step, first=i == 0) for i, step in enumerate(answer.fix))


def _fix_words(answer: ApiAnswer, step: FixStep, first: bool) -> str:
    if step.kind == "rename" and answer.parameter is not None:
        return f"Pass `{step.new}=` instead of `{step.old}=`."
    if step.kind == "rename":
        return f"Use `{step.new}` instead of `{step.old}`."
    if step.kind == "import" and step.new:
        module, _, name = step.new.rpartition(".")
        newest = answer.states[-1].version
        return f"Import it from `{module}`, where {answer.package} {newest} defines it: `from {module} import {name}`."
    if step.kind == "replace":
        return f"Use `{step.new}` instead of `{step.old}`, as the deprecation warning says."
    if step.kind == "pin":
        keep = "Keep the code" if first else "Or keep the code"
        return f"{keep} and install a release that still has it: `pip install '{step.spec}'`."
    if step.kind == "upgrade":
        return f"Upgrade: `pip install '{step.spec}'`."
    return f"Install it where the code runs: `pip install '{step.spec}'`."


def _row(state: ReleaseState, asked: str) -> TimelineRow:
    words = _CALL_WORDS.get(asked, {}).get(state.state) or _STATE_WORDS[state.state]
    if state.reason:
        words = f"{words} ({state.reason})"
    place = f"{state.file}:{state.line}" if state.file and state.line else state.file
    return TimelineRow(state.version, state.state, words, place)
