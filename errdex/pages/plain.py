"""What an error means in short, in the user's terms: the public call they set the checked value through (or that
leads to the check), what the check lets pass, and how their own value fares.

It is built only from facts the page already holds (the ways in, the public entries, the check's clauses, the
user's checked values), so it claims nothing they do not; the full reading stays in the page's `summary`.
"""

from __future__ import annotations

from errdex.pages.conditions import either
from errdex.pages.derive import keyword_ways
from errdex.pages.entries import entry_call
from errdex.pages.model import CheckedValue, InputWay, StaticFacts, UserInput

MAX_WAYS = 2  # calls named for one input; the rest are under "When it happens"


def plain(page: StaticFacts) -> str:
    """'`self.x` is set from the `x` you pass to `pkg.C(...)`. The check (`C.validate`, line 9) cannot fire when
    `self.x` is None.': what keeps the check from firing when the page has one condition read from the code (enough,
    not needed: an `except` around the raise or an earlier return may keep it quiet too), else the summary's first
    sentence without the raises before it (`what_it_means.plain` as `meaning` leaves it)."""
    meaning = page["what_it_means"]
    said = meaning["plain"]
    if meaning["clauses"] and page["site_scope"]["exact"]:
        passes = either([c["negated"] for c in meaning["clauses"]])
        others = page["site_scope"]["count"] - 1 if not page["site_scope"]["site"] else 0
        where = f" and {others} other place{'s' if others > 1 else ''}" if others > 0 else ""
        said = f"The check (`{page['function']}`, line {page['line']}{where}) cannot fire when {passes}."
    return f"{_ways(page)}{said}"


def _ways(page: StaticFacts) -> str:
    """How the user gets here and sets what the check reads: the public call that leads here when the calls that
    set the inputs are not it (`requests.get`, where `url` is passed on to `prepare_url`; only the calls are found,
    not whether a given call's arguments get past what comes before the check), then the inputs set by a
    call's keyword and the locals computed from such inputs."""
    rebound = {r["name"] for r in page["what_it_means"]["rebound"]}
    inputs = [item for item in page["when_it_happens"]["inputs"] if item["name"] not in rebound]
    direct = [(item["code"], ways) for item in inputs if (ways := keyword_ways(item["ways_in"]))]
    named = {code for code, _ in direct}
    sourced = [
        (item["code"], item["computed_from"][0]["line"], sources)
        for item in inputs
        if item["code"] not in named
        and (sources := [(s["code"], w) for s in item["computed_from"] if (w := keyword_ways(s["ways_in"]))])
    ]
    vias = {w["via"] for _, ways in direct for w in ways} | {w["via"] for *_, ss in sourced for _, ws in ss for w in ws}
    entries = page["when_it_happens"]["entries"]
    entry = entries[0] if entries and entries[0]["function"] not in vias else None

    def verb(ways: list[InputWay]) -> str:
        """'you pass to' for a function users import from the package's top level, or a method on an object of
        theirs when no entry is named first; else 'passed to' (`pandas.io.common.validate_header_arg(...)`)."""
        imported = any(w["import_from"] and "." not in w["import_from"] for w in ways)
        on_object = entry is None and any(w["import_from"] is None for w in ways)
        return "you pass to" if imported or on_object else "passed to"

    said = [_passed(codes, ways, verb(ways)) for codes, ways in _grouped(direct)]
    computed: dict[str, list[str]] = {}  # what a local is computed from: the locals it holds for
    for code, line, sources in sourced:
        source = " and ".join(_source(c, w, verb(w)) for c, w in _grouped(sources))
        computed.setdefault(f"(line {line}) from {source}", []).append(code)
    said += [f"{_names(codes)} {'are' if len(codes) > 1 else 'is'} computed {s}" for s, codes in computed.items()]
    if entry is not None:
        others = f"; {len(entries) - 1} more under When it happens" if len(entries) > 1 else ""
        undecided = "whether a given call gets to the check is not decided"
        said.insert(0, f"`{entry_call(entry)}` leads here (a public way in; {undecided}{others})")
    return f"{'; '.join(said)}. " if said else ""


def _grouped(found: list[tuple[str, list[InputWay]]]) -> list[tuple[list[str], list[InputWay]]]:
    """Inputs set through the same calls, together (`model` and `model_init` of `Trainer(...)`)."""
    groups: dict[tuple[str, ...], tuple[list[str], list[InputWay]]] = {}
    for code, ways in found:
        key = tuple(w["via"] for w in ways[:MAX_WAYS])
        groups.setdefault(key, ([], []))[0].append(code)
        groups[key][1].extend(ways)
    return list(groups.values())


def _passed(codes: list[str], ways: list[InputWay], passed: str) -> str:
    """'You pass `url` to ...', '`self.x` and `self.y` are set from the `x` and `y` you pass to ...' (`passed`: 'you
    pass to', or 'passed to' when the user's call is another)."""
    keywords = list(dict.fromkeys(w["keyword"] or "" for w in ways))
    if codes == keywords and passed == "you pass to":
        return f"You pass {_names(codes)} to {_calls(ways)}"
    verb = "are" if len(codes) > 1 else "is"
    if codes == keywords:
        return f"{_names(codes)} {verb} {passed} {_calls(ways)}"
    return f"{_names(codes)} {verb} set from the {_names(keywords)} {passed} {_calls(ways)}"


def _source(codes: list[str], ways: list[InputWay], passed: str) -> str:
    """'the `items` and `like` you pass to ...' for parameters, '`self.q`, set from the `q` you pass to ...'."""
    keywords = list(dict.fromkeys(w["keyword"] or "" for w in ways))
    if codes == keywords:
        return f"the {_names(keywords)} {passed} {_calls(ways)}"
    return f"{_names(codes)}, set from the {_names(keywords)} {passed} {_calls(ways)}"


def _names(names: list[str]) -> str:
    quoted = [f"`{n}`" for n in names]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"


def _calls(ways: list[InputWay]) -> str:
    """'`pkg.C(...)` or `c.update(...)`': each call, by the function it goes through (the sentence names the
    keywords)."""
    calls = list(dict.fromkeys(_call(w) for w in ways))
    named = " or ".join(f"`{c}`" for c in calls[:MAX_WAYS])
    return named + (f" (and {len(calls) - MAX_WAYS} more ways)" if len(calls) > MAX_WAYS else "")


def _call(way: InputWay) -> str:
    head = (way["call"] or "").split("(", 1)[0]
    return f"{way['import_from']}.{head}(...)" if way["import_from"] else f"{head}(...)"


def with_yours(said: str, user: UserInput) -> str:
    """The short form with 'With yours (`self.x` shown as `a`), the check fails.' when the user's values make it
    true."""
    failing: list[CheckedValue] = [c for c in user["checked"] if c["result"] == "raises"]
    shown = [f"`{c['code']}` shown as `{c['value']}`" for c in failing if c["value"] is not None]
    return f"{said} With yours ({', '.join(shown)}), the check fails." if said and shown else said
