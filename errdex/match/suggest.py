"""Did you mean: the allowed values closest to a captured value that failed a membership check.

A site guarded by `x not in valid_values` (or `x not in ("a", "b")`) whose message shows `x` in
one of its holes tells what the user should have written. Which hole shows `x` is what extraction
found of the template (`Site.holes`: the expressions each hole shows).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from errdex.model import JsonValue

MAX_SUGGESTIONS = 3
SCORE_CUTOFF = 60.0
MAX_VALUE = 200  # characters of a captured value compared
_QUOTES = ("'", '"', "`")
Holes = tuple[tuple[str, ...], ...]  # see `Site.holes`


def did_you_mean(
    condition: str, resolved: dict[str, JsonValue], holes: Holes, values: tuple[str | None, ...]
) -> tuple[dict[str, list[str]], dict[str, list[Any]]]:
    """({tested name: closest allowed values}, {tested name: allowed values}) for a site's membership checks;
    `holes` are the expressions each hole of the template shows, `values` what each hole captured."""
    suggestions: dict[str, list[str]] = {}
    allowed: dict[str, list[Any]] = {}
    for tested, options in membership_checks(condition, resolved):
        name = tested.rsplit(".", 1)[-1]
        allowed[name] = options
        value = _tested_value(tested, holes, values, options)
        if value is None:
            continue
        close = closest(value, options)
        if close:
            suggestions[name] = close
    return suggestions, allowed


def load_scorer() -> None:
    """Import the string scorer now: `closest` imports it on first use, which takes longer than a query."""
    import rapidfuzz.process  # noqa: F401


def closest(value: str, options: list[Any]) -> list[str]:
    """The allowed strings nearest to `value`, best first; none when `value` is allowed."""
    texts = [o for o in options if isinstance(o, str)]
    if not texts or value in texts:
        return []
    from rapidfuzz import (  # only loaded when there is something to compare
        fuzz,
        process,
    )

    found = process.extract(
        value[:MAX_VALUE], texts, scorer=fuzz.ratio, limit=MAX_SUGGESTIONS, score_cutoff=SCORE_CUTOFF
    )
    return [text for text, _, _ in found]


def membership_checks(condition: str, resolved: dict[str, JsonValue]) -> Iterator[tuple[str, list[Any]]]:
    """(tested expression, allowed values) for each `x in C` / `x not in C` whose C is known."""
    for tested, collection in _memberships(condition):
        options = collection if isinstance(collection, list) else _resolved(resolved.get(collection))
        if options:
            yield tested, options


def names_collections(condition: str) -> bool:
    """Whether a membership test of the condition names its collection, whose values must be resolved."""
    return any(isinstance(collection, str) for _, collection in _memberships(condition))


@lru_cache(maxsize=1024)
def _memberships(condition: str) -> tuple[tuple[str, list[Any] | str], ...]:
    """(tested expression, literal values or the name of the collection) of each membership test."""
    tree = _parse(condition)
    if tree is None:
        return ()
    out: list[tuple[str, list[Any] | str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        left = node.left
        for op, right in zip(node.ops, node.comparators, strict=True):
            if isinstance(op, (ast.In, ast.NotIn)):
                collection = (
                    _literal(right) if isinstance(right, (ast.List, ast.Tuple, ast.Set)) else ast.unparse(right)
                )
                if collection:
                    out.append((ast.unparse(left), collection))
            left = right
    return tuple(out)


def _literal(node: ast.expr) -> list[Any] | None:
    """The values of a literal collection; a set's sorted as the index stores resolved sets (its own
    order is its hash order, different in every process)."""
    try:
        value = ast.literal_eval(node)
        return sorted(value, key=repr) if isinstance(value, (set, frozenset)) else list(value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _resolved(value: Any) -> list[Any] | None:
    """The values of a statically resolved collection (a dict's keys)."""
    if isinstance(value, dict):
        return list(value)
    return list(value) if isinstance(value, (list, tuple)) else None


def _tested_value(tested: str, holes: Holes, values: tuple[str | None, ...], options: list[Any]) -> str | None:
    """The captured text of the hole that shows the tested expression, unquoted.

    When the template's holes are not known one by one (a message built elsewhere), the one captured
    value that looks like a single wrong option is taken.
    """
    short = tested.rsplit(".", 1)[-1]
    if len(holes) == len(values):
        for sources, value in zip(holes, values, strict=True):
            if value is not None and any(s == tested or s.rsplit(".", 1)[-1] == short for s in sources):
                return _unquote(value)
        return None
    loose = [_unquote(v) for v in values if v is not None and _looks_like_option(v)]
    loose = [v for v in loose if v not in options]
    return loose[0] if len(loose) == 1 else None


def _looks_like_option(value: str) -> bool:
    return 0 < len(value) <= 60 and " " not in value and value[0] not in "([{<"


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in _QUOTES:
        return value[1:-1]
    return value


def _parse(source: str) -> ast.AST | None:
    if not source or len(source) > 20_000:
        return None
    try:
        return ast.parse(source, mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
