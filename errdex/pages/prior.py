"""The raising checks a site comes after in its function: what the page says of them, and whether a
trigger's values certainly pass those that read its inputs (an earlier raise would fire first otherwise)."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from errdex.model import PriorCheck
from errdex.pages.conditions import describe, parse_condition
from errdex.pages.evaluate import truth
from errdex.pages.model import JsonValue, PriorCheckJson

MAX_IN_WORDS = 4  # earlier checks said in words (those of the check's own values first); the rest are counted


class Earlier(NamedTuple):
    """An earlier raising check, parsed, with the dotted names it reads."""

    test: ast.expr | None  # None when its source does not parse (it may read anything)
    names: frozenset[str]
    line: int


def prior_json(checks: Iterable[PriorCheck]) -> list[PriorCheckJson]:
    """The earlier checks as the page keeps them (one entry per line and test)."""
    found = {(c.line, c.test): None for c in checks}
    return [{"line": line, "test": test} for line, test in found]


def earlier(checks: Sequence[PriorCheckJson]) -> list[Earlier]:
    out = []
    for check in checks:
        node = parse_condition(check["test"])
        out.append(Earlier(node, read_names(node) if node is not None else frozenset(), check["line"]))
    return out


def read_names(node: ast.expr) -> frozenset[str]:
    """The dotted names an expression reads as values, whole (`self.mode`, not `self`; not the functions it calls)."""
    nodes = list(ast.walk(node))
    skipped = {id(n.func) for n in nodes if isinstance(n, ast.Call)}
    skipped |= {id(n.value) for n in nodes if isinstance(n, ast.Attribute)}
    out = set()
    for sub in nodes:
        if isinstance(sub, (ast.Name, ast.Attribute)) and id(sub) not in skipped:
            try:
                out.add(ast.unparse(sub))
            except (RecursionError, ValueError):
                continue
    return frozenset(out)


def reads_any(check: Earlier, names: Iterable[str]) -> bool:
    """Whether the check reads one of `names` or a part of one (`self.dtype` and `self.dtype.kind`)."""
    if check.test is None:
        return True
    return any(_overlap(a, b) for a in check.names for b in names)


def _overlap(a: str, b: str) -> bool:
    return a == b or a.startswith(b + ".") or b.startswith(a + ".")


def passes(checks: Sequence[Earlier], values: Mapping[str, Any], inputs: Iterable[str]) -> bool:
    """Whether every earlier check that reads one of `inputs` is certainly false under `values`."""
    chosen = list(inputs)
    return all(
        check.test is not None and truth(check.test, values) is False for check in checks if reads_any(check, chosen)
    )


def sentence(
    checks: Sequence[PriorCheckJson], node: ast.expr | None, resolved: dict[str, JsonValue], names: frozenset[str]
) -> str:
    """`, once the raising checks before it in this function pass (lines ...): ...`, those reading the check's
    own values first, in words (only `if ...: raise` of the same function: what it calls or a decorator is not
    followed, so the sentence names its scope). `node` is the check, None for a raise no `if` guards."""
    if not checks:
        return ""
    parsed = earlier(checks)
    mine = read_names(node) if node is not None else frozenset()
    nearest = parsed[::-1]
    ordered = [c for c in nearest if reads_any(c, mine)] + [c for c in nearest if not reads_any(c, mine)]
    lines = ", ".join(str(c.line) for c in ordered)
    out = f", once the raising checks before it in this function pass (line{'s' if len(ordered) > 1 else ''} {lines})"
    said = [
        f"{describe(c.test, resolved, False, names)} (line {c.line})"
        for c in ordered[:MAX_IN_WORDS]
        if c.test is not None
    ]
    if said:
        out += ": an earlier raise fires first when " + "; or when ".join(said)
    if len(ordered) > len(said):
        out += f"; or under {len(ordered) - len(said)} more"
    return out
