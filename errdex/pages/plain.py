"""What an error means in short, in the user's terms: the public call they set the checked value through (or that
leads to the check), what the check lets pass, and how their own value fares.

It is built only from facts the page already holds (the ways in, the public entries, the check's clauses, the
user's checked values), so it claims nothing they do not; the full reading stays in the page's `summary`.
"""

from __future__ import annotations

from errdex.pages.conditions import either
from errdex.pages.entries import entry_call
from errdex.pages.model import CheckedValue, InputWay, StaticFacts, UserInput

MAX_WAYS = 2  # calls named for one input; the rest are under "When it happens"


def plain(page: StaticFacts) -> str:
    """'`self.x` is set from the `x` you pass to `pkg.C(...)`. The check (`C.validate`, line 9) passes only when
    `self.x` is None.': the check's passing condition when the page has one condition read from the code, else the
    summary's first sentence without the raises before it (`what_it_means.plain` as `meaning` leaves it)."""
    meaning = page["what_it_means"]
    said = meaning["plain"]
    if meaning["clauses"] and page["site_scope"]["exact"]:
        passes = either([c["negated"] for c in meaning["clauses"]])
        others = page["site_scope"]["count"] - 1 if not page["site_scope"]["site"] else 0
        where = f" and {others} other place{'s' if others > 1 else ''}" if others > 0 else ""
        said = f"The check (`{page['function']}`, line {page['line']}{where}) passes only when {passes}."
    return f"{_ways(page)}{said}"


def _ways(page: StaticFacts) -> str:
    """How the user sets what the check reads: the inputs set from a public call's keyword, then the locals
    computed from such inputs; else the first public call that leads to the function; else nothing."""
    rebound = {r["name"] for r in page["what_it_means"]["rebound"]}
    inputs = [item for item in page["when_it_happens"]["inputs"] if item["name"] not in rebound]
    direct = [(item["code"], ways) for item in inputs if (ways := _keyword_ways(item["ways_in"]))]
    said = [_passed(codes, ways) for codes, ways in _grouped(direct)]
    named = {code for code, _ in direct}
    computed: dict[str, list[str]] = {}  # what a local is computed from: the locals it holds for
    for item in inputs:
        sources = [
            (s["code"], w)
            for s in item["computed_from"]
            if s["code"] not in named and (w := _keyword_ways(s["ways_in"]))
        ]
        if item["code"] not in named and sources:
            line = item["computed_from"][0]["line"]
            computed.setdefault(
                f"(line {line}) from " + " and ".join(_source(c, w) for c, w in _grouped(sources)), []
            ).append(item["code"])
    said += [
        f"{_names(codes)} {'are' if len(codes) > 1 else 'is'} computed {source}" for source, codes in computed.items()
    ]
    if said:
        return f"{'; '.join(said)}. "
    entries = page["when_it_happens"]["entries"]
    if entries:
        others = f" (and {len(entries) - 1} more, under When it happens)" if len(entries) > 1 else ""
        return f"You reach it through a public call such as `{entry_call(entries[0])}`{others}. "
    return ""


def _grouped(found: list[tuple[str, list[InputWay]]]) -> list[tuple[list[str], list[InputWay]]]:
    """Inputs set through the same calls, together (`model` and `model_init` of `Trainer(...)`)."""
    groups: dict[tuple[str, ...], tuple[list[str], list[InputWay]]] = {}
    for code, ways in found:
        key = tuple(w["via"] for w in ways[:MAX_WAYS])
        groups.setdefault(key, ([], []))[0].append(code)
        groups[key][1].extend(ways)
    return list(groups.values())


def _passed(codes: list[str], ways: list[InputWay]) -> str:
    """'You pass `url` to ...', '`self.x` and `self.y` are set from the `x` and `y` you pass to ...'."""
    keywords = list(dict.fromkeys(w["keyword"] or "" for w in ways))
    if codes == keywords:
        return f"You pass {_names(codes)} to {_calls(ways)}"
    verb = "are" if len(codes) > 1 else "is"
    return f"{_names(codes)} {verb} set from the {_names(keywords)} you pass to {_calls(ways)}"


def _source(codes: list[str], ways: list[InputWay]) -> str:
    """'the `items` and `like` you pass to ...' for parameters, '`self.q`, set from the `q` you pass to ...'."""
    keywords = list(dict.fromkeys(w["keyword"] or "" for w in ways))
    if codes == keywords:
        return f"the {_names(keywords)} you pass to {_calls(ways)}"
    return f"{_names(codes)}, set from the {_names(keywords)} you pass to {_calls(ways)}"


def _names(names: list[str]) -> str:
    quoted = [f"`{n}`" for n in names]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"


def _keyword_ways(ways: list[InputWay]) -> list[InputWay]:
    """A user's calls that pass the input by keyword, those that go on to the check first."""
    kept = [w for w in ways if w["call"] and w["keyword"]]
    return sorted(kept, key=lambda w: not w["reaches_check"])


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
