"""The raising checks a site comes after in its function: what the page says of them, and whether a
trigger's values certainly pass those that read its inputs (an earlier raise would fire first otherwise)."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from errdex.model import PriorCheck
from errdex.pages.conditions import conjuncts, describe, parse_condition
from errdex.pages.evaluate import truth
from errdex.pages.inforce import block_holds, in_force, negation, span_holds, walk_scope
from errdex.pages.model import ExitJson, JsonValue, PriorCheckJson
from errdex.pages.source import FunctionNode
from errdex.pages.syntax import unparse

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
    checks: Sequence[PriorCheckJson],
    node: ast.expr | None,
    resolved: dict[str, JsonValue],
    names: frozenset[str],
    nested: Sequence[NestedRaise] = (),
) -> str:
    """`, once the `raise` statements before it in this function do not fire (lines ...): ...`, the checks reading
    the check's own values first, in words, then the raises inside earlier loops, branches or blocks (`nested`,
    see `raises_before`), which may fire first. Only `raise` statements of the same function: what it calls
    or a decorator is not followed, so the sentence names its scope. `node` is the check, None for a raise no
    `if` guards."""
    if not checks and not nested:
        return ""
    parsed = earlier(checks)
    mine = read_names(node) if node is not None else frozenset()
    nearest = parsed[::-1]
    ordered = [c for c in nearest if reads_any(c, mine)] + [c for c in nearest if not reads_any(c, mine)]
    lines = ", ".join(str(c.line) for c in ordered)
    out = ", once the `raise` statements before it in this function do not fire"
    if ordered:
        out += f" (line{'s' if len(ordered) > 1 else ''} {lines})"
    said = [
        f"{describe(c.test, resolved, False, names)} (line {c.line})"
        for c in ordered[:MAX_IN_WORDS]
        if c.test is not None
    ]
    if said:
        out += ": an earlier raise fires first when " + "; or when ".join(said)
    if len(ordered) > len(said):
        out += f"; or under {len(ordered) - len(said)} more"
    return out + _nested_words(nested, bool(ordered))


class NestedRaise(NamedTuple):
    """A `raise` before the site inside an earlier compound statement of its function (a loop, a branch, a
    `with` or `try` block) that no earlier raising check the page lists holds: it may fire first."""

    line: int
    keyword: str  # the compound statement's keyword: `for`, `while`, `if`, `with`, `try`, `match`
    at: int  # the compound statement's line


MAX_NESTED = 8  # nested earlier raises said by line; the rest are counted
_KEYWORDS: tuple[tuple[type[ast.stmt], str], ...] = (
    (ast.For, "for"),
    (ast.AsyncFor, "async for"),
    (ast.While, "while"),
    (ast.If, "if"),
    (ast.With, "with"),
    (ast.AsyncWith, "async with"),
    (ast.Try, "try"),
    (ast.TryStar, "try"),
    (ast.Match, "match"),
)


def raises_before(
    func: FunctionNode, line: int, checks: Sequence[PriorCheckJson], condition: ast.expr | None
) -> list[NestedRaise]:
    """The `raise` statements inside compound statements before `line` on its path (nested definitions aside)
    that are not under one of the listed `checks` (their `if` line), nor in a `try` body that may catch them,
    nor under an `if t:` whose `not t` the site's `condition` holds (see `exits`)."""
    listed = {c["line"] for c in checks}
    excluded = parts_said(condition)
    ifs = [n for n in walk_scope(func) if isinstance(n, ast.If)]
    found: list[NestedRaise] = []
    for stmt in before(func, line):
        keyword = next((word for kind, word in _KEYWORDS if isinstance(stmt, kind)), None)
        if keyword is None:
            continue
        caught = in_try_bodies(stmt)
        found += [
            NestedRaise(n.lineno, keyword, stmt.lineno)
            for n in walk_scope(stmt)
            if isinstance(n, ast.Raise)
            and id(n) not in caught
            and not any(i.lineno in listed and _under(i, n.lineno) for i in ifs)
            and not _excluded(func, n.lineno, line, excluded)
        ]
    return sorted(set(found))


def _under(branch: ast.If, line: int) -> bool:
    return block_holds(branch.body, line) or block_holds(branch.orelse, line)


def in_try_bodies(stmt: ast.stmt) -> set[int]:
    """The ids of the nodes in the body of a `try` with handlers under `stmt`: a raise there may be caught."""
    tries = [n for n in walk_scope(stmt) if isinstance(n, (ast.Try, ast.TryStar)) and n.handlers]
    return {id(sub) for t in tries for s in t.body for sub in walk_scope(s)}


def _nested_words(nested: Sequence[NestedRaise], after_checks: bool) -> str:
    """`; the `raise` statements at lines 223 and 230 (in the `for` loop at line 221) may also fire first`."""
    if not nested:
        return ""
    shown = list(nested[:MAX_NESTED])
    places = dict.fromkeys((n.keyword, n.at) for n in shown)
    groups = [
        f"{_lines([n.line for n in shown if (n.keyword, n.at) == place])} in the `{place[0]}` statement at line"
        f" {place[1]}"
        for place in places
    ]
    more = f", and {len(nested) - len(shown)} more" if len(nested) > len(shown) else ""
    lead = "; the `raise` statement" if after_checks else ": the `raise` statement"
    plural = "s" if len(nested) > 1 else ""
    also = " also" if after_checks else ""
    return f"{lead}{plural} at {'; '.join(groups)}{more} may{also} fire first"


def _lines(lines: list[int]) -> str:
    said = [str(n) for n in lines]
    if len(said) == 1:
        return f"line {said[0]}"
    return f"lines {', '.join(said[:-1])} and {said[-1]}"


MAX_EXITS = 8  # earlier `return` lines said; the rest are counted
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)  # their returns are not the function's


def exits(func: FunctionNode, line: int, condition: ast.expr | None) -> list[ExitJson]:
    """The returns before `line` (see `_returns`), each with the tests of the `if`s around it that hold when it
    runs (a test of the `else` branch it is in, negated): a trigger whose values make one of them false has
    shown that that return is not taken."""
    ifs = [n for n in walk_scope(func) if isinstance(n, ast.If)]
    found = {n.lineno: n for n in _returns(func, line, condition)}
    return [
        {
            "line": at,
            "when": [unparse(i.test) for i in ifs if block_holds(i.body, at)]
            + [unparse(negation(i.test)) for i in ifs if block_holds(i.orelse, at)],
        }
        for at in sorted(found)
    ]


def _returns(func: FunctionNode, line: int, condition: ast.expr | None) -> list[ast.Return]:
    """The `return` statements of the function that run before `line` on some path to it (in a statement before
    it in a block that holds it; nested definitions aside), but those `condition` already excludes: a return
    under `if t:` when `not t` is one of its clauses and nothing read by `t` is bound again before the raise."""
    excluded = parts_said(condition)
    return [
        n
        for stmt in before(func, line)
        for n in walk_scope(stmt)
        if isinstance(n, ast.Return) and not _excluded(func, n.lineno, line, excluded)
    ]


def before(func: FunctionNode, line: int) -> list[ast.stmt]:
    """The statements that end before `line` in the blocks that hold it, outermost first, definitions aside:
    those that run before it on some path to it."""
    return [
        stmt
        for block in _blocks_to(func, line)
        for stmt in block
        if (stmt.end_lineno or stmt.lineno) < line and not isinstance(stmt, _DEFINITIONS)
    ]


def parts_said(condition: ast.expr | None) -> set[str]:
    """The `and` clauses of the site's condition as written: what holds whenever the raise runs."""
    return {unparse(part) for part in conjuncts(condition)} if condition is not None else set()


def _excluded(func: FunctionNode, at: int, line: int, excluded: set[str]) -> bool:
    """Whether the statement at `at` is under an `if t:` whose `not t` the condition already holds, still about
    the same values at the raise on `line`."""
    guards = [n for n in walk_scope(func) if isinstance(n, ast.If) and block_holds(n.body, at)]
    return any(ruled_out(func, guard, False, line, excluded) for guard in guards)


def ruled_out(func: FunctionNode, guard: ast.If, orelse: bool, line: int, excluded: set[str]) -> bool:
    """Whether the condition's clauses (`excluded`) say that a branch of `guard` was not taken on the way to the
    raise on `line`: its body when they hold `not t`, its `else` when they hold `t`, still about the same values
    (nothing the test reads is bound again after it)."""
    form = guard.test if orelse else negation(guard.test)
    if unparse(form) not in excluded:
        return False
    for name in read_names(guard.test):
        bound = in_force(func, name, line)
        if bound is not None and any(b.line > guard.lineno for b in bound.bindings):
            return False
    return True


def _blocks_to(node: FunctionNode, line: int) -> list[list[ast.stmt]]:
    """The blocks on the way from `node` down to the statement at `line`, outermost first."""
    out: list[list[ast.stmt]] = []
    blocks = _child_blocks(node)
    while True:
        holding = next((b for b in blocks if block_holds(b, line)), None)
        if holding is None:
            return out
        out.append(holding)
        stmt = next(s for s in holding if s.lineno <= line <= (s.end_lineno or s.lineno))
        if isinstance(stmt, _DEFINITIONS):
            return out
        blocks = _child_blocks(stmt)  # a `try` body's returns before its `except` block: the handler says it raised


def _child_blocks(node: ast.AST) -> list[list[ast.stmt]]:
    blocks = [getattr(node, name, None) for name in ("body", "orelse", "finalbody")]
    handlers: list[ast.ExceptHandler] = getattr(node, "handlers", [])
    cases: list[ast.match_case] = getattr(node, "cases", [])
    out = [b for b in blocks if isinstance(b, list) and b and isinstance(b[0], ast.stmt)]
    return out + [h.body for h in handlers] + [c.body for c in cases]


@dataclass(frozen=True)
class Retested:
    """A local a condition reads as an earlier `if` tested it (`if cache_name: return`), which the function binds
    again before the raise: the condition speaks of its value at that test, not of the one in force at the raise."""

    name: str
    part: str  # the condition's part as written (`not cache_name`)
    tested_at: int
    bound_again: tuple[int, ...]


def retested(func: FunctionNode, parts: Iterable[ast.expr], line: int) -> list[Retested]:
    """The locals of the condition's parts (its `and` clauses) that come from an `if` the raise comes after (a
    statement before it in a block that holds it, with a branch that leaves: the part is its test or the test
    negated) and are bound again after that test on a path to the raise on `line`. A part an `if` around the
    raise tests too (`if m:` twice, the raise's own test) is about the value in force."""
    blocks = _blocks_to(func, line)
    holding = [s for b in blocks for s in b if isinstance(s, ast.If) and s.lineno <= line <= (s.end_lineno or 0)]
    own = {unparse(p) for s in holding for test in (s.test, negation(s.test)) for p in [test, *conjuncts(test)]}
    said = {unparse(part) for part in parts} - own
    tests: dict[str, ast.If] = {}
    for stmt in (s for b in blocks for s in b if isinstance(s, ast.If) and (s.end_lineno or s.lineno) < line):
        leaves = any(isinstance(n, (ast.Return, ast.Raise, ast.Continue, ast.Break)) for n in walk_scope(stmt))
        for form in said & {unparse(stmt.test), unparse(negation(stmt.test))} if leaves else ():
            tests[form] = stmt  # the last one before the raise
    out: list[Retested] = []
    for part, test in tests.items():
        for name in sorted({n.id for n in ast.walk(test.test) if isinstance(n, ast.Name)}):
            bound = in_force(func, name, line)
            later = tuple(b.line for b in bound.bindings if b.line > test.lineno) if bound is not None else ()
            if later:
                out.append(Retested(name, part, test.lineno, later))
    return out


def exits_sentence(function: str, func: FunctionNode, line: int, condition: ast.expr | None) -> str:
    """` `f` can also return before line N, at line 4336 (in the `for` loop at line 4319, when `column == a.name`):
    line N runs only when none of them did.` Each return with the loop it is in and the tests that hold when it
    runs, so that the user sees what a run reaching the raise did not meet (no matching item, say)."""
    found = exits(func, line, condition)
    if not found:
        return ""
    loops = [n for n in walk_scope(func) if isinstance(n, (ast.For, ast.AsyncFor, ast.While))]
    said = []
    for each in found[:MAX_EXITS]:
        around = [n for n in loops if span_holds(n, each["line"]) and not span_holds(n, line)]
        parts = []
        if around:
            innermost = max(around, key=lambda n: n.lineno)
            parts.append(
                f"in the `{'while' if isinstance(innermost, ast.While) else 'for'}` loop at line {innermost.lineno}"
            )
        if each["when"]:
            parts.append("when " + " and ".join(f"`{t}`" for t in each["when"]) + " holds")
        said.append(f"line {each['line']}" + (f" ({', '.join(parts)})" if parts else ""))
    more = f" and {len(found) - len(said)} more" if len(found) > len(said) else ""
    where = "; ".join(said) + more
    return f" `{function}` can also return before line {line}, at {where}: line {line} runs only when none of them did."
