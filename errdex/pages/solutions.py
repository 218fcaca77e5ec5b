"""Ranked solutions: from the check itself, from the user's values across indexed releases, then from the statement.

Every solution is built from facts on the page: the lists the check accepts, the condition's
negation in words, the values a user's message showed and how they fare in each indexed
release, what the code says to install, and what the statement that raises supports (see
`advice`). How the error changed across releases is the versions section's, never a solution:
it is not a fix, and a note that an older release lacks the error would read as "downgrade".
"""

from __future__ import annotations

import ast
from typing import Any

from errdex.extract.resolve import dotted_name
from errdex.pages.advice import install_solution, message_advice, statement_advice
from errdex.pages.bindings import used
from errdex.pages.conditions import either, input_name, parse_condition, python_repr
from errdex.pages.derive import stated_holes, suggested_for
from errdex.pages.environment import ACTIONABLE
from errdex.pages.evaluate import truth, verdict
from errdex.pages.model import (
    CheckClause,
    CheckedValue,
    DefinedWhenJson,
    EnvironmentTest,
    MembershipList,
    ReleaseCheck,
    Solution,
    SolutionBody,
    StaticFacts,
    UserInput,
)
from errdex.pages.receives import passed_by_user
from errdex.pages.values import user_values

MAX_LISTED = 40


def solutions(page: StaticFacts, user: UserInput | None) -> list[Solution]:
    """The page's solutions, best first, each with `rank`, `kind`, `text` and optional `code` / `values`."""
    drift = _user_value_drift(page, user) if user else []
    accepted_here = any(c["result"] in ("accepted", "differs") for c in (user["checked"] if user else []))
    found = [*drift, *_from_check(page, user)] if accepted_here else [*_from_check(page, user), *drift]
    for extra in (
        message_advice(page["template"], user["values"] if user else None),
        install_solution(page["template"]),
        statement_advice(page, page["what_it_means"]["statement"]),
    ):
        if extra:
            found.append(extra)
    return [{"rank": i, **s} for i, s in enumerate(found, 1)]


def _from_check(page: StaticFacts, user: UserInput | None) -> list[SolutionBody]:
    """Use an allowed value, or say where the check fires.

    The last is for a test of where the code runs. A raise in an `except` block gets only the last: what
    makes its `try` body raise is not known, and an allowed value for the `if` around it would mislead.

    An empty list is no value to use (nothing passes; more likely its real value was not resolved), and a list
    is a value to use only for an input a user can set (a parameter or a public attribute, not a local or what
    the package sets itself: "set `m` to one of ..." names a value no user sets). The
    negation of the check's clauses is never advised: it is true as logic, not as a fix (it may abandon the
    user's task, lead to another raise, or name values no user sets); `what_it_means` states the condition. For
    the same reason a list of forbidden values is advised only when its test is the whole check.
    """
    meaning = page["what_it_means"]
    release = f"{page['package']} {page['version']}"
    # In an `except` block the raise needs its `try` body to raise first: avoiding the `if` alone misleads.
    caught = meaning["handler"] is not None
    # A parameter bound again before the check (`mode = mode.lower()`) is still the user's: its list says so.
    rebound = {r["name"] for r in meaning["rebound"]}
    changed = {c["name"] for c in meaning["changed"]}  # what is left of the argument, not what was passed
    settable = {
        i["code"]
        for i in page["when_it_happens"]["inputs"]
        if (i["receives"]["user_set"] or (i["code"] in rebound and passed_by_user(i) is not None))
        and i["code"] not in changed
    }
    # A forbidden list beside other clauses (`len(alpha) != n and c.shape[1] in (3, 4)`) is one way of several
    # to make the check false, and seldom the fix: the values it forbids may be the valid ones for what follows.
    alone = len(meaning["clauses"]) <= 1
    out: list[SolutionBody] = [
        {**_list_solution(e, release, page, user), "list": e["name"]}
        for e in meaning["lists"]
        if e["values"] and not caught and _reads_any(e["subject"], settable) and (e["role"] == "allowed" or alone)
    ]
    where = [c for c in meaning["clauses"] if c["kind"] == "environment" and _actionable(c, meaning["environment"])]
    if where:
        fires, avoids = " and ".join(c["text"] for c in where), either([c["negated"] for c in where])
        text = f"This check depends on where the code runs: it fires only when {fires}, and not when {avoids}."
        out.append({"kind": "environment", "text": text})
    defined = meaning["defined_when"]
    if defined is not None and defined["imported"] is not None:
        out.append({"kind": "import_fallback", "text": _fallback_text(defined)})
    return out


def _fallback_text(defined: DefinedWhenJson) -> str:
    """The raise's definition stands in for a name an import binds: it is reached only when that import fails."""
    return (
        f"`{defined['name']}` here is defined only when the import of it from `{defined['imported']}` in the `try`"
        f" at line {defined['at']} fails: where that import works, the name is the imported one and this raise is"
        " not reached. What that import needs is not followed here beyond what the message says."
    )


def _reads_any(code: str, inputs: set[str]) -> bool:
    """Whether an expression reads one of the inputs (`self.mode`, `size`) as a name or attribute chain."""
    node = parse_condition(code)
    return node is not None and any(
        isinstance(n, (ast.Name, ast.Attribute)) and dotted_name(n) in inputs for n in ast.walk(node)
    )


def _actionable(clause: CheckClause, environment: list[EnvironmentTest]) -> bool:
    """Whether every test of the environment in a clause is one a user acts on.

    A user acts on a Python version, a variable, a package.
    """
    inside = [t for t in environment if t["code"] in clause["code"]]
    return bool(inside) and all(t["kind"] in ACTIONABLE for t in inside)


def _list_solution(entry: MembershipList, release: str, page: StaticFacts, user: UserInput | None) -> SolutionBody:
    name, values = entry["name"], entry["values"]
    shown = ", ".join(python_repr(v, 80) for v in values[:MAX_LISTED]) + (", ..." if len(values) > MAX_LISTED else "")
    where = page["resolved_from"].get(name)
    defined = f" (defined at {where})" if where else ""
    subject = input_name(entry["subject"])
    if entry["role"] == "forbidden":
        text = f"Do not set `{subject}` to any of the {len(values)} values of `{name}`{defined}: {shown}."
        return {"kind": "avoid_value", "text": text, "values": values}
    accepts = f"`{name}` accepts" if name in page["resolved"] else "the check lists"  # a name, or written out
    text = f"Set `{subject}` to one of the {len(values)} values {accepts} in {release}{defined}: {shown}."
    closest = suggested_for(entry, user["suggestions"]) if user else []
    if closest:
        text = f"Use {python_repr(closest[0])}, the closest accepted value. " + text
    if _none_passes(page, entry["subject"]):
        text += f" `{subject}` = None also passes this check (what runs before it may still reject None)."
    chosen = next((a for a in page["bindings"].get(name, []) if a["chosen"]), None)
    if chosen is not None:
        text += f" {used(chosen)}"
    text += _rebound_note(page, entry["subject"])
    return {"kind": "use_allowed_value", "text": text, "values": values, "closest": closest}


def _rebound_note(page: StaticFacts, subject: str) -> str:
    """That the list is checked against the parameter as the function rebinds it, not as passed."""
    lines = [str(r["line"]) for r in page["what_it_means"]["rebound"] if r["name"] == subject]
    if not lines:
        return ""
    where = f"line{'s' if len(lines) > 1 else ''} {', '.join(lines)}"
    return (
        f" The check reads `{subject}` as {where} of the function may have bound it again, not as passed:"
        " these are the values it must have after that."
    )


def _none_passes(page: StaticFacts, subject: str) -> bool:
    node = parse_condition(page["condition"])
    return node is not None and truth(node, {**page["resolved"], subject: None}) is False


def _user_value_drift(page: StaticFacts, user: UserInput) -> list[SolutionBody]:
    """How each value the user's message showed fares in every indexed release that has the error."""
    out: list[SolutionBody] = []
    readings = user_values(stated_holes(user), user["values"])
    for checked in user["checked"]:
        code = checked["code"]
        if checked["result"] == "differs":
            out.append(_listing_drift(page, checked))
            continue
        if checked["result"] not in ("raises", "accepted"):
            continue
        options = _consistent(page, code, readings[code]) if checked["result"] == "raises" else readings[code]
        fares = {r["version"]: _fares(r, code, options) for r in page["versions"]["releases"]}
        accepted = [v for v, f in fares.items() if f == "accepted"]
        rejected = [v for v, f in fares.items() if f == "raises"]
        value = python_repr(options[0])
        if checked["result"] == "accepted":
            text = (
                f"{value} is accepted by this check in {page['package']} {page['version']}, so the message you have"
                f" comes from another release or another place"
                + (f"; it is rejected in the indexed {', '.join(rejected)}." if rejected else ".")
                + " Check which release is installed where the error happened (`pip show "
                + page["package"]
                + "`)."
            )
        elif accepted:
            text = (
                f"{value} is accepted in {page['package']} {', '.join(accepted)} but rejected in {page['version']}:"
                " use a value this release accepts."
            )
        else:
            continue
        out.append({"kind": "version_drift", "text": text, "accepted_in": accepted, "rejected_in": rejected})
    return out


def _listing_drift(page: StaticFacts, checked: CheckedValue) -> SolutionBody:
    """The message lists other values than this release's `name`: say which indexed release lists them."""
    release = f"{page['package']} {page['version']}"
    if checked["matches"]:
        text = (
            f"The values your message lists for `{checked['code']}` are those of"
            f" {page['package']} {', '.join(checked['matches'])},"
            f" not of {release}: the error was raised by that release."
            f" Look at its page (`--version {checked['matches'][-1]}`)."
        )
    else:
        text = (
            f"The values your message lists for `{checked['code']}` differ from {release}"
            f" and from every indexed release ({', '.join(page['versions']['indexed'])}):"
            f" index the release you run (`errdex index {page['package']}==VERSION`)."
        )
    return {"kind": "version_drift", "text": text, "accepted_in": checked["matches"], "rejected_in": []}


def _consistent(page: StaticFacts, code: str, options: list[Any]) -> list[Any]:
    """The readings of a captured value that do raise in this release (the value really was one of them)."""
    node = parse_condition(page["condition"])
    return [v for v in options if node is not None and truth(node, {**page["resolved"], code: v}) is True] or options


def _fares(release: ReleaseCheck, code: str, readings: list[Any]) -> str:
    """How a value fares in a release: `raises` only where the check is the whole check of every place spoken for."""
    node = parse_condition(release["condition"])
    found = "unknown" if node is None else verdict(node, release["resolved"], code, readings)
    return "unknown" if found == "raises" and not release["exact"] else found
