"""When an error happens: the inputs its check tests, the ways a user sets them, and who calls the function."""

from __future__ import annotations

import ast

from errdex.pages.conditions import input_name, parse_condition, subjects
from errdex.pages.inputs import trace
from errdex.pages.model import Caller, CheckedInput, SiteJson, WhenItHappens
from errdex.pages.receives import NOT_SET, receives
from errdex.pages.source import find, signature

MAX_NAMED_CALLERS = 6


def when_it_happens(
    site: SiteJson,
    tree: ast.Module | None,
    callers: list[Caller],
    names: frozenset[str],
    traced_at: str | None = None,
) -> WhenItHappens:
    """The `when_it_happens` section: inputs with their ways in (tests of the environment are no inputs), and a summary.

    `traced_at` says which place the inputs and callers were traced at, when the page speaks for
    places in several functions.
    """
    node = parse_condition(site["condition"])
    codes = subjects(node, site["checks"], site["resolved"], names) if node is not None else []
    inputs: list[CheckedInput] = []
    for code in codes:
        kind, ways = trace(tree, site["function"], code, site["line"]) if tree is not None else ("other", [])
        item: CheckedInput = {
            "code": code,
            "name": input_name(code),
            "kind": kind,
            "ways_in": [w.json(site["file"]) for w in ways],
            "receives": NOT_SET,
        }
        inputs.append({**item, "receives": receives(tree, item, site["line"])})
    located = find(tree, site["function"]) if tree is not None else None
    function = located.node if located is not None else None
    return {
        "summary": " ".join(filter(None, (traced_at, _summary(site, inputs, callers)))),
        "inputs": inputs,
        "signature": signature(function) if function is not None and not isinstance(function, ast.ClassDef) else None,
    }


def _summary(site: SiteJson, inputs: list[CheckedInput], callers: list[Caller]) -> str:
    sentences = []
    for item in inputs:
        ways = [w for w in item["ways_in"] if w["call"] and w["reaches_check"]]
        if ways:
            calls = ", ".join(f"`{w['call']}`" for w in ways)
            sentences.append(f"`{item['name']}` comes from {calls}: {ways[0]['how']}.")
        elif item["ways_in"]:
            sentences.append(f"{item['ways_in'][0]['how']}.")
        else:
            sentences.append(f"Where `{item['code']}` is set could not be traced in `{site['file']}`.")
    if site["function"] == "<module>":
        sentences.append("It happens when the module is imported.")
    elif callers:
        sentences.append(f"`{site['function']}` is {reached_from(callers)}.")
    else:
        sentences.append(
            f"No caller of `{site['function']}` was found inside the package: it is called from outside,"
            " or by a name the search cannot see."
        )
    return " ".join(sentences)


def reached_from(callers: list[Caller]) -> str:
    """'reached from `A`, `B` and 3 more' for the distinct calling functions, surest first."""
    names = list(dict.fromkeys(c["function"] for c in callers))
    shown = ", ".join(f"`{n}`" for n in names[:MAX_NAMED_CALLERS])
    rest = len(names) - MAX_NAMED_CALLERS
    return f"reached from {shown}" + (f" and {rest} more" if rest > 0 else "")
