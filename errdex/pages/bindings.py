"""A name bound under conditions, in words: each value it may have and when, and which one the page uses.

`ALL_CACHE_IMPLEMENTATIONS = []` then, under `if is_torch_available():`, the ten real names: the page
says "when `is_torch_available()` returns true: the ten names; otherwise `[]`", and that it uses
the first, the value on the package's normal import path. The extractor chose it (see
`extract/scope.choose`); here it is only found again (by place) and stated, never silently.
"""

from __future__ import annotations

import re

from errdex.model import Binding, Condition
from errdex.pages.conditions import python_repr
from errdex.pages.model import BindingJson, JsonValue

_PROBE = re.compile(r"^(?:is_|has_)?[A-Za-z0-9_]+_(?:available|installed)\(\)$", re.I)
MAX_SHOWN = 6


def condition_words(condition: Condition) -> str:
    """One condition as a reader says it: "when `is_torch_available()` returns true"."""
    test = f"`{condition.test}`"
    if condition.form == "except":
        missing = " (an optional import is missing)" if condition.kind == "available" else ""
        return f"when {test} is raised{missing}" if condition.holds else f"when no {test} is raised"
    if condition.kind == "type_checking":
        return "only for type checkers (`TYPE_CHECKING`)" if condition.holds else "at run time (not `TYPE_CHECKING`)"
    if condition.kind == "available" and _PROBE.match(condition.test):  # it may test a version too: not "installed"
        return f"when {test} returns {'true' if condition.holds else 'false'}"
    return f"when {test}" if condition.holds else f"when not {test}"


def when(binding: Binding) -> str:
    """All of a binding's conditions in words ("always" for none)."""
    return " and ".join(condition_words(c) for c in binding.conditions) or "always"


def chosen_index(bindings: tuple[Binding, ...], defined_at: str | None) -> int | None:
    """Which alternative the resolved value is (found by its place), None when no value was resolved."""
    if defined_at is None:
        return None
    return next((i for i, b in enumerate(bindings) if f"{b.file}:{b.line}" == defined_at), None)


def bindings_json(bindings: tuple[Binding, ...], defined_at: str | None) -> list[BindingJson]:
    """The alternatives of one name as the page keeps them."""
    chosen = chosen_index(bindings, defined_at)
    return [
        {
            "when": when(b),
            "conditions": [c.test for c in b.conditions],
            "value": b.value,
            "known": b.known,
            "defined_at": f"{b.file}:{b.line}" if b.line else None,
            "chosen": i == chosen,
        }
        for i, b in enumerate(bindings)
    ]


def shown(value: JsonValue, known: bool) -> str:
    """A value as a sentence shows it: a long list by its first items and its count."""
    if not known:
        return "not resolved"
    if isinstance(value, list) and len(value) > MAX_SHOWN:
        return ", ".join(python_repr(v, 40) for v in value[:MAX_SHOWN]) + f", ... ({len(value)} values)"
    return f"`{python_repr(value, 200)}`"


def choice(name: str, alternatives: list[BindingJson]) -> str:
    """Each value a name may have and when, and which one the page uses (or that none is one value)."""
    parts = [
        f"{'otherwise' if i == len(alternatives) - 1 and i else a['when']}: {shown(a['value'], a['known'])}"
        for i, a in enumerate(alternatives)
    ]
    said = f"`{name}` depends on how the package is used: " + "; ".join(parts) + "."
    chosen = next((a for a in alternatives if a["chosen"]), None)
    if chosen is None:
        return said + " This page does not take one of them as its value."
    return f"{said} {used(chosen)}"


def used(chosen: BindingJson) -> str:
    """Which alternative the page's value is, said outright."""
    return f"This page uses the value {chosen['when']}, the package's normal import path."


def basis(alternatives: list[BindingJson] | None) -> str | None:
    """Under what a name's value holds ("always" when bound once), None when no alternative was taken:
    values of two releases are compared only on the same basis."""
    if not alternatives:
        return "always"
    chosen = next((a for a in alternatives if a["chosen"]), None)
    return None if chosen is None else chosen["when"]
