"""The parts of a page that depend on the user's values: triggers, the example fix, what their values do.

They are derived from the page's static facts (condition, resolved values, ways in), so a
cached page is filled with a user's values without reading the release again. A page that speaks
for places whose checks differ (`site_scope.exact` false) holds only their shared clauses: those
can show that a value is accepted everywhere, never that it raises, so it gets no trigger either; nor does
a raise in an `except` block, which needs its `try` body to raise first.
"""

from __future__ import annotations

import ast
import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from errdex.pages.conditions import conjuncts, input_name, parse_condition
from errdex.pages.defaults import literal_value
from errdex.pages.documented import listed_options
from errdex.pages.entries import steps_chain
from errdex.pages.evaluate import verdict
from errdex.pages.model import (
    CallBeforeJson,
    CheckedInput,
    CheckedValue,
    EntryStep,
    ExampleFix,
    ExitJson,
    InputWay,
    JsonValue,
    MembershipList,
    StaticFacts,
    StaticPage,
    Trigger,
    UserInput,
)
from errdex.pages.prior import Earlier, earlier
from errdex.pages.receives import fits, type_tested
from errdex.pages.triggers import (
    MAX_CANDIDATES,
    TriggerValue,
    certainly_false,
    code_value,
    declared,
    find_fix,
    find_passing,
    find_trigger,
    listed_earlier,
    listed_first,
    pools,
    scope,
    switch_only,
    try_calls,
)
from errdex.pages.values import ShownHole, holes, user_values


@dataclass(frozen=True)
class PageFacts:
    """What derivation reads from a page: the condition tree, names' values, inputs and their ways in."""

    node: ast.expr | None
    own: ast.expr | None  # the raise's own test, when it is a part of `node` (a fix makes it false)
    env: dict[str, JsonValue]
    inputs: dict[str, CheckedInput]  # code -> the page's input entry
    earlier: list[Earlier]  # the raising checks before it: a trigger's values must pass those reading them
    wrapped_by: list[str]  # the package's decorators a call goes through first (a trigger is said with them)
    function: str
    calls: list[CallBeforeJson]  # earlier calls passed values the check reads: they may reject them first
    exits: list[ExitJson]  # earlier returns: a trigger is certain only where its values show none is taken
    kind: str  # error | warning | log: what a call that gets to the check does (raises, warns, logs)
    runs_when: str | None  # the function's body runs only when iterated or awaited (`what_it_means.runs_when`)
    documented: dict[str, Options]  # code -> the values a docstring lists for the parameter that sets it

    @classmethod
    def of(cls, page: StaticFacts) -> PageFacts:
        inputs = {item["code"]: item for item in page["when_it_happens"]["inputs"]}
        node, env = parse_condition(page["condition"]), dict(page["resolved"])
        wrapped, meaning = page["when_it_happens"]["wrapped_by"], page["what_it_means"]
        return cls(
            node,
            _own(node, meaning["own_test"]),
            env,
            inputs,
            earlier(page["prior_checks"]),
            wrapped,
            page["function"],
            meaning["calls_before"],
            meaning["exits"],
            page["kind"],
            meaning["runs_when"],
            _options(page, inputs),
        )


@dataclass(frozen=True)
class Options:
    """The values a parameter's docstring lists (`init : {"random", "pca"}`), and whose docstring it is."""

    values: list[JsonValue]
    documented_in: str
    keyword: str
    line: int


def _options(page: StaticFacts, inputs: dict[str, CheckedInput]) -> dict[str, Options]:
    """For each input, the values the first docstring entry of it that lists some gives (see `listed_options`)."""
    out: dict[str, Options] = {}
    for doc in page["documented"]["parameters"]:
        code = next((c for c, item in inputs.items() if item["name"] == doc["name"]), None)
        values = listed_options(doc["text"]) if code is not None and code not in out else []
        if code is not None and values:
            out[code] = Options(values, doc["documented_in"], doc["keyword"], doc["line"])
    return out


def _own(node: ast.expr | None, own_test: str | None) -> ast.expr | None:
    """The own test parsed, when each of its parts is a part of the page's condition (a page's condition may be
    reduced from what the index wrote, or shared by several places)."""
    own = parse_condition(own_test) if own_test and node is not None else None
    if own is None or node is None:
        return None
    parts = {ast.unparse(part) for part in conjuncts(node)}
    return own if all(ast.unparse(part) in parts for part in conjuncts(own)) else None


def user_input(
    page: StaticFacts, values: Sequence[str | None] | None, suggestions: dict[str, list[str]] | None
) -> UserInput | None:
    """The user's values tied to the message's holes, what each says about this release, did-you-means.

    A hole that is an input of the check gets `raises` / `accepted` / `unknown` here; a hole that
    shows a resolved list (`Choose one of: [...]`) is compared with that list in every indexed release.
    """
    if not values and not suggestions:
        return None
    facts = PageFacts.of(page)
    found = holes(page["message_source"], page["template"]) or []
    readings = user_values(found, values)
    checked: list[CheckedValue] = []
    for i, hole in enumerate(found):
        if hole.code not in readings:
            continue
        code, options = hole.code, readings[hole.code]
        value = values[i] if values else None
        if isinstance(page["resolved"].get(code), (list, dict)):
            matches = _releases_listing(page, code, options[-1])
            result = "same as this release" if page["version"] in matches else "differs"
            checked.append({"code": code, "value": value, "matches": matches, "result": result})
        else:
            meaning = page["what_it_means"]
            certain = (
                page["site_scope"]["exact"]
                and meaning["handler"] is None
                and meaning["caught_by"] is None
                and meaning["loop_else"] is None
            )
            checked.append({"code": code, "value": value, "result": _verdict(facts, code, options, certain)})
    raising = {c["code"] for c in checked if c["result"] == "raises"}
    return {
        "values": list(values or []),
        "suggestions": _suggestions(page, readings, raising, suggestions),
        "holes": [h.json() for h in found],
        "checked": checked,
        "your_line": None,  # the page adds it from the paste's frames
    }


def _suggestions(
    page: StaticFacts, readings: dict[str, list[Any]], raising: set[str], given: dict[str, list[str]] | None
) -> dict[str, list[str]]:
    """The matcher's did-you-means, else the closest accepted values to a value that raises here."""
    merged = {name: list(names) for name, names in (given or {}).items()}
    for entry in page["what_it_means"]["lists"]:
        texts = [v for v in readings.get(entry["subject"], []) if isinstance(v, str)]
        if suggested_for(entry, merged):
            merged.setdefault(entry["name"], suggested_for(entry, merged))
        elif entry["role"] == "allowed" and entry["subject"] in raising and texts:
            allowed = [v for v in entry["values"] if isinstance(v, str)]
            merged[entry["name"]] = difflib.get_close_matches(texts[0], allowed, n=3, cutoff=0.6)
    return merged


def suggested_for(entry: MembershipList, suggestions: dict[str, list[str]]) -> list[str]:
    """Did-you-means for a checked list, keyed by the list's name or by the tested name (the matcher's way)."""
    found = suggestions.get(entry["name"]) or suggestions.get(input_name(entry["subject"])) or []
    return [s for s in found if s in entry["values"]]


def _releases_listing(page: StaticFacts, name: str, shown: Any) -> list[str]:
    """The indexed releases whose value of `name` is what the message showed.

    Where the check uses another list in its place, that list's value is compared.
    """
    if not isinstance(shown, list):
        return [page["version"]] if shown == page["resolved"][name] else []
    subject = next((e["subject"] for e in page["what_it_means"]["lists"] if e["name"] == name), None)
    out = []
    for release in page["versions"]["releases"]:
        value = release["resolved"].get(name)
        if value is None:
            value = next((e["values"] for e in release["lists"] if e["subject"] == subject), None)
        if isinstance(value, list) and _same_items(value, shown):
            out.append(release["version"])
    return out


def _same_items(a: list[Any], b: list[Any]) -> bool:
    return sorted(map(repr, a)) == sorted(map(repr, b))


def stated_holes(user: UserInput) -> list[ShownHole]:
    """The holes of a page's `user_input`, back as ShownHole objects."""
    return [ShownHole(**h) for h in user["holes"]]


def _verdict(facts: PageFacts, code: str, options: list[Any], exact: bool) -> str:
    """`raises` if a reading of the value makes the check fire here, `accepted` if none can, else `unknown`.

    Without `exact` (shared clauses only, or a raise in an `except` block whose `try` body must raise first)
    a value that satisfies the check may still not raise.
    """
    if code not in facts.inputs or facts.node is None:
        return "not checked"
    found = verdict(facts.node, facts.env, code, options)
    return "unknown" if found == "raises" and not exact else found


def triggers_and_fix(page: StaticFacts, user: UserInput | None) -> tuple[list[Trigger], ExampleFix | None]:
    """Trigger examples (a call that certainly raises) and the example fix (one that certainly does not)."""
    facts = PageFacts.of(page)
    if facts.node is None or not facts.inputs or not page["site_scope"]["exact"]:
        return [], None
    if page["what_it_means"]["handler"] is not None:
        return [], None  # its `try` body must raise too, and no call is known to make it
    if page["what_it_means"]["loop_else"] is not None:
        return [], None  # its loop must end without `break` too, and no call is known to make it
    if page["what_it_means"]["caught_by"] is not None:
        return [], None  # a `try` of its own function catches it: it reaches the caller only if raised again
    if page["what_it_means"]["changed"]:
        return [], None  # the check reads what is left of an argument the function changed: not as passed
    pool = _pool(facts, page, user)
    trigger = find_trigger(facts.node, pool, facts.env, facts.earlier)
    fixing = _fixing(pool, facts, page)
    if trigger is None:
        return [], _passing_fix(facts, page, fixing)
    entry = _trigger_json(facts, trigger, scope(trigger, facts.function, facts.calls, facts.exits, facts.wrapped_by))
    shown = _shown(page)  # the inputs the message shows first (see `_passing_fix`)
    first_shown = dict(sorted(trigger.items(), key=lambda item: item[0] not in shown))
    fix = find_fix(facts.node, facts.own, first_shown, fixing, facts.env, facts.earlier, facts.exits)
    if entry["code"] is None:  # no call that surely gets to the check: a value that keeps it false, if one sets it
        return [entry], _passing_fix(facts, page, fixing)
    if fix is None:
        return [entry], None
    changed = {**trigger, fix[0]: fix[1]}
    after = _call(facts, changed)
    if not after:
        return [entry], None
    name = facts.inputs[fix[0]]["name"]
    example: ExampleFix = {
        "before": entry["code"],
        "after": after,
        "input": fix[0],
        "value_before": code_value(trigger[fix[0]].value),
        "value_after": code_value(fix[1].value),
        "value_source": fix[1].tag,
        "note": _fix_note(
            page, {c: v.value for c, v in changed.items()}, fix[0], name, _default_of(facts, fix[0], fix[1])
        ),
    }
    return [entry], example


FILLER = "'x'"  # what a call to try passes for a parameter it must pass and the check does not read: a short str


def _pool(
    facts: PageFacts, page: StaticFacts, user: UserInput | None, receivable: bool = True
) -> dict[str, list[TriggerValue]]:
    """The values worth trying for each input, those the code or the user names first; with `receivable`, only
    those its declared types let it be given."""
    assert facts.node is not None
    first = listed_first(facts.calls, list(facts.inputs), _first_candidates(facts, page, user))
    first = listed_earlier(facts.earlier, list(facts.inputs), facts.env, first)
    pool = _with_declared(pools(facts.node, list(facts.inputs), facts.env, first), facts)
    return _receivable(pool, facts) if receivable else pool


def _leaves_to_user(facts: PageFacts, trigger: Trigger) -> bool:
    """Whether a trigger's call leaves a parameter to the user (`...`, or its name for one passed by position)."""
    ways = [_best_way(facts.inputs[code]) for code in trigger["values"] if code in facts.inputs]
    given = {w.keyword for w in ways if w is not None}
    return any(r not in given and r != "/" for w in ways if w is not None for r in w.required)


def _from_sources(facts: PageFacts) -> list[Trigger]:
    """Where no input of the check is set by a public call but a local is computed from one that is
    (`dashes` from `filename`): that call with `FILLER` for the value, the simplest to try."""
    found: list[Trigger] = []
    runner = RUNNERS.get(facts.runs_when or "", str)
    for item in facts.inputs.values():
        for source in item["computed_from"]:
            for way in keyword_ways(source["ways_in"]):
                if way["import_from"] and len(found) < MAX_CANDIDATES and _runs_body(facts, way["via"]):
                    call = runner(_written(_keyword_way(way), {way["keyword"] or "": FILLER}, FILLER))
                    if all(call != t["code"] for t in found):
                        text = f"A call to try, with `{way['keyword']}` set to {FILLER} (`{item['name']}` is computed"
                        text += " from it): reading the code does not decide that it gets to the check and raises."
                        found.append(
                            {"code": call, "values": {source["code"]: FILLER}, "from_user": False, "text": text}
                        )
    return found


def candidate_calls(page: StaticPage, user: UserInput | None) -> list[Trigger]:
    """Calls worth running when the page has no whole call that certainly raises (none, or one that leaves a value to
    the user): one public call sets the inputs it can with values that leave the check not certainly false (see
    `triggers.try_calls`), and `FILLER` for each parameter it must pass besides. Reading the code does not decide
    that they raise; `errdex verify` runs them, and a page shows one only once running it raised the error."""
    facts = PageFacts.of(page)
    first = page["triggers"][0] if page["triggers"] else None
    if first is not None and first["code"] is not None and not _leaves_to_user(facts, first):
        return []  # a whole call that certainly raises: nothing to try
    if facts.node is None or not facts.inputs or not page["site_scope"]["exact"]:
        return []
    pool = _pool(facts, page, user, receivable=False)  # an annotation binds no caller: running decides
    groups: dict[str, list[str]] = {}
    for code in pool:
        way = _best_way(facts.inputs[code], reaching=False)
        if way is not None and way.import_from:
            groups.setdefault(way.via, []).append(code)
    if not groups:
        return _from_sources(facts)
    settable = max(groups.values(), key=len)
    found: list[Trigger] = []
    for assignment in try_calls(facts.node, {c: pool[c] for c in settable}, facts.env, facts.earlier):
        call = _call(facts, assignment, reaching=False, filler=FILLER)
        if call is not None and all(call != t["code"] for t in found):
            values = {code: code_value(c.value) for code, c in assignment.items()}
            said = " and ".join(f"`{facts.inputs[c]['name']}` is {v}" for c, v in values.items())
            text = f"A call to try, with {said}: reading the code does not decide that it gets to the check and raises."
            found.append({"code": call, "values": values, "from_user": False, "text": text})
    return found or _from_sources(facts)


def _passing_fix(facts: PageFacts, page: StaticFacts, pool: dict[str, list[TriggerValue]]) -> ExampleFix | None:
    """The example fix of a page with no certain trigger: the user's call (their value when they gave one, else
    `...`) and the same call with a value that makes the check certainly false, whatever else it reads."""
    assert facts.node is not None
    shown = _shown(page)
    settable = {
        c: v
        for c, v in sorted(pool.items(), key=lambda item: item[0] not in shown)
        if _best_way(facts.inputs[c], reaching=False)
    }
    found = find_passing(facts.node, facts.own, settable, facts.env, facts.earlier, facts.exits)
    if found is None:
        return None
    code, value = found
    readings = [c for c in pool[code] if c.tag == "user"]  # `(3, 4)` shown by `str()` reads as a tuple or a string
    theirs = readings[0] if len(readings) == 1 else TriggerValue(Ellipsis, "user")
    before, after = _call(facts, {code: theirs}, reaching=False), _call(facts, {code: value}, reaching=False)
    way = _best_way(facts.inputs[code], reaching=False)
    if before is None or after is None or way is None:
        return None
    name = facts.inputs[code]["name"]
    note = _fix_note(page, {code: value.value}, code, name, _default_of(facts, code, value), alone=True)
    if way.through:
        chain = steps_chain(way.through, facts.function)
        note += f" `{way.via}` passes it on unchanged to the check's function: {chain}."
    elif not way.reaches:
        note += f" `{way.via}` only sets it: the check runs later, in `{facts.function}`."
    return {
        "before": before,
        "after": after,
        "input": code,
        "value_before": None if theirs.value is Ellipsis else code_value(theirs.value),
        "value_after": code_value(value.value),
        "value_source": value.tag,
        "note": note,
    }


def _fixing(pool: dict[str, list[TriggerValue]], facts: PageFacts, page: StaticFacts) -> dict[str, list[TriggerValue]]:
    """The candidates a fix may take: a switch (an input the check tests only for truth or None) keeps none unless
    the message names it (`Set overwrite=True`): turning it off passes the check by dropping what the user asked for
    (`exploit_incremental_learning=False` for an estimator without `partial_fit`)."""
    assert facts.node is not None
    template = page["template"] or ""
    words = set(re.findall(r"\w+", template)) | _shown(page)

    def named(code: str) -> bool:  # `word_labels` as written, or as words ("provide word labels")
        name = input_name(code)
        return name in words or code in words or name.replace("_", " ").lower() in template.lower()

    return {code: [] if switch_only(facts.node, code) and not named(code) else values for code, values in pool.items()}


def _shown(page: StaticFacts) -> set[str]:
    """The inputs the message shows, whose change a fix tries first: the message names what is wrong, and changing
    another input (turning a feature off) passes the check without fixing that."""
    return {h.code for h in holes(page["message_source"], page["template"]) or []}


def _default_of(facts: PageFacts, code: str, value: TriggerValue) -> str:
    """' (what `GenerationConfig` gives `cache_implementation` when the keyword is left out)' for a default, ' (one of
    the values the docstring of `TSNE` lists for `init`, line 562)' for a documented one."""
    documented = facts.documented.get(code)
    if value.tag == "documented" and documented is not None:
        where = (
            f"the docstring of `{documented.documented_in}` lists for `{documented.keyword}`, line {documented.line}"
        )
        return f" (one of the values {where})"
    way = _best_way(facts.inputs[code], reaching=False)  # the one `_with_declared` took the default from
    if value.tag != "default" or way is None:
        return ""
    return f" (what `{way.via}` gives `{way.keyword}` when the keyword is left out)"


def _fix_note(
    page: StaticFacts, values: dict[str, Any], code: str, name: str, default: str, alone: bool = False
) -> str:
    """'With `sep` = 'text' the check of this page is false. `from_dummies` raises elsewhere in code that tests `sep`
    (line 506, `ValueError`, where `isinstance(sep, str)` holds): the value may fail there.' (`values`: the fixed
    call's; a raise whose test they certainly make false is not said.)"""
    whatever = ", whatever else it reads" if alone else ""  # the value alone makes it false
    said = f"With `{name}` = {code_value(values[code])}{default} the check of this page is false{whatever}."
    others = [
        r
        for r in page["what_it_means"]["other_raises"]
        if code in r["reads"] and not certainly_false(r["test"], values)
    ]
    if not others:
        return said
    listed = "; ".join(
        f"line {r['line']}" + (f", `{r['raised']}`" if r["raised"] else "") + f", where `{r['test']}` holds"
        for r in others
    )
    return f"{said} `{page['function']}` also raises in code that tests `{name}` ({listed}): the value may fail there."


def _with_declared(pool: dict[str, list[TriggerValue]], facts: PageFacts) -> dict[str, list[TriggerValue]]:
    """The pool with, last, what the code declares each input takes (see `declared`) and what the call that sets it
    gives it when the keyword is left out: the fix a user needs no list for (tried after the other values for a
    trigger, before them for a fix)."""
    out = {code: list(values) for code, values in pool.items()}
    for code in out:
        out[code] += declared(facts.inputs[code]["receives"])
        documented = facts.documented.get(code)
        out[code] += [TriggerValue(v, "documented") for v in (documented.values if documented is not None else [])]
        way = _best_way(facts.inputs[code], reaching=False)  # what the attribute holds when the keyword is left out
        if way is not None and way.default is not None:
            out[code].append(TriggerValue(literal_value(way.default), "default"))
    return out


def _receivable(pool: dict[str, list[TriggerValue]], facts: PageFacts) -> dict[str, list[TriggerValue]]:
    """The candidates each input can be given (a value the code never receives is no trigger, nor a fix).

    A check that tests an input's type (`isinstance`) is there for values of other types: any type fits it.
    """
    typed = type_tested(facts.node) if facts.node is not None else set()
    out = {}
    for code, values in pool.items():
        domain = facts.inputs[code]["receives"]
        if code in typed:
            domain = {**domain, "types": None}
        out[code] = [c for c in values if fits(c.value, domain)]
    return out


def _first_candidates(facts: PageFacts, page: StaticFacts, user: UserInput | None) -> dict[str, list[TriggerValue]]:
    first: dict[str, list[TriggerValue]] = {}
    if user:
        for code, options in user_values(stated_holes(user), user["values"]).items():
            if code in facts.inputs:
                first.setdefault(code, []).extend(TriggerValue(v, "user") for v in options)
        for entry in page["what_it_means"]["lists"]:
            if entry["subject"] in facts.inputs and entry["role"] == "allowed":
                first.setdefault(entry["subject"], []).extend(
                    TriggerValue(s, "suggested") for s in suggested_for(entry, user["suggestions"])
                )
    return first


def changes_candidates(page: StaticFacts, user: UserInput) -> bool:
    """Whether the user's values or did-you-means give the trigger search values to try first."""
    return bool(_first_candidates(PageFacts.of(page), page, user))


def _trigger_json(facts: PageFacts, trigger: dict[str, TriggerValue], scoped: str) -> Trigger:
    values = {code: code_value(c.value) for code, c in trigger.items()}
    code = _call(facts, trigger)
    shown = [facts.inputs[c]["name"] for c in values]  # its code where two inputs share a name (see happens.py)
    said = " and ".join(f"`{s}` is {v}" for s, v in zip(shown, values.values(), strict=True))
    return {
        "code": code,
        "values": values,
        "from_user": any(c.tag == "user" for c in trigger.values()),
        # the check's own condition, not the whole path: what runs before it (other functions, the environment's
        # tests) may still raise first, so the words say only what a call that gets there does
        "text": f"The check is true when {said}: a call that gets to it with these values {_does(facts.kind)}{scoped}."
        + _deferred(facts.runs_when),
    }


def _deferred(runs_when: str | None) -> str:
    """What a call of a generator or coroutine must add to run the check (the example writes it)."""
    if runs_when == "iterated":
        return (
            " The function is a generator: a call runs its body, and the check, only when what it returns is iterated."
        )
    if runs_when == "awaited":
        return " The function is a coroutine: its body, and the check, run only when what a call returns is awaited."
    return ""


def _does(kind: str) -> str:
    """What a call that gets to the check does: a warning and a log line do not stop it."""
    return {"warning": "warns (and goes on)", "log": "logs the message (and goes on)"}.get(kind, "raises")


def _call(
    facts: PageFacts, assignment: dict[str, TriggerValue], reaching: bool = True, filler: str | None = None
) -> str | None:
    """One call through a shared way in that sets every assigned input (with its import), or None (see `_best_way`
    for `reaching`). A parameter the call must pass is written `...` (the user's value), or `filler` when given
    (a call to try must run: see `candidate_calls`)."""
    found = [_best_way(facts.inputs[code], reaching) for code in assignment]
    ways = [w for w in found if w is not None]
    if len(ways) < len(found) or len({w.via for w in ways}) != 1:
        return None
    if not _runs_body(facts, ways[0].via):
        return None
    by_keyword: dict[str, set[str]] = {}
    for code, way in zip(assignment, ways, strict=True):
        by_keyword.setdefault(way.keyword, set()).add(code_value(assignment[code].value))
    if any(len(values) > 1 for values in by_keyword.values()):
        return None  # one keyword sets two inputs: they cannot take different values
    call = _written(ways[0], {keyword: values.pop() for keyword, values in by_keyword.items()}, filler)
    return RUNNERS[facts.runs_when](call) if facts.runs_when is not None else call


def _runs_body(facts: PageFacts, via: str) -> bool:
    """Whether a call through `via` runs the check's function's body: always, unless it is a generator or a
    coroutine; then only a call of it itself, which a snippet iterates or awaits (`RUNNERS`), is known to."""
    return facts.runs_when is None or (via == facts.function and facts.runs_when in RUNNERS)


def _iterated(call: str) -> str:
    *imports, last = call.split("\n\n")
    return "\n\n".join([*imports, f"list({last})"])


def _awaited(call: str) -> str:
    *imports, last = call.split("\n\n")
    return "\n\n".join(["\n".join(["import asyncio", *imports]), f"asyncio.run({last})"])


# how a snippet runs the body of a generator or a coroutine it calls
RUNNERS: dict[str, Callable[[str], str]] = {"iterated": _iterated, "awaited": _awaited}


def _written(way: _KeywordWay, given: dict[str, str], filler: str | None) -> str:
    """The call of `way` passing `given` (keyword -> value as code), with its import (see `_call` for `filler`)."""
    head = way.call.split("(", 1)[0]
    required = list(way.required)
    star = next((i for i, r in enumerate(required) if r.startswith("*")), None)
    slash = required.index("/") if "/" in required else None
    args: list[str] = []
    by_position: set[str] = set()
    for i, name in enumerate(required):
        if name == "/":
            continue
        if i == star:  # `*args`: `...` for what the user passes there (a call to try passes nothing)
            args += ["..."] if filler is None else []
            continue
        # before `*args` or `/` a parameter is passed by position: its name stands for the user's value
        positional = (star is not None and i < star) or (slash is not None and i < slash)
        if name in given:
            if positional:
                args.append(given[name])
                by_position.add(name)
            continue
        args.append((filler or name) if positional else f"{name}={filler or '...'}")
    args += [f"{k}={v}" for k, v in given.items() if k not in by_position]
    code = f"{head}({', '.join(args)})"
    return f"from {way.import_from} import {head.split('.', 1)[0]}\n\n{code}" if way.import_from else code


@dataclass(frozen=True)
class _KeywordWay:
    """A way in that a call sets by keyword (and, as a rule, that goes on to run the check)."""

    call: str
    keyword: str
    via: str
    required: tuple[str, ...]
    import_from: str | None
    default: str | None
    reaches: bool  # the call goes on to run the check (else it only sets what the check reads later)
    through: list[EntryStep]  # the calls that pass it down unchanged to the check's function (none: `via` is it)


def _best_way(item: CheckedInput, reaching: bool = True) -> _KeywordWay | None:
    """The first way a call sets the input by keyword that goes on to the check; with `reaching` false, else the
    first that only sets it (`Scaler(quantile_range=...)`, checked later in `fit`)."""
    for way in keyword_ways(item["ways_in"]):
        if way["reaches_check"] or not reaching:
            return _keyword_way(way)
    return None


def _keyword_way(way: InputWay) -> _KeywordWay:
    return _KeywordWay(
        way["call"] or "",
        way["keyword"] or "",
        way["via"],
        tuple(way["required"]),
        way["import_from"],
        way["default"],
        way["reaches_check"],
        way["through"],
    )


def keyword_ways(ways: list[InputWay]) -> list[InputWay]:
    """The ways a call sets an input by keyword, those that go on to the check first."""
    return sorted((w for w in ways if w["call"] and w["keyword"]), key=lambda w: not w["reaches_check"])
