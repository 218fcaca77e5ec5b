"""The calls a check comes after in its function that are passed a value it reads.

`_api.check_in_list(["dots", "points"], units=units)` before `if units != "dots" and fig is None:`
may reject `units` with its own error before the check is reached. What such a call does is not
followed, so the page names it as what may reject the value first, and a trigger whose value it
is passed is said with that scope. A few builtins that never reject an argument (`isinstance`)
are left out, and so is filling a container the function built (`hist = []`, then `hist.append(resp)`),
and a call whose result is the test of an `if` or `while` (`if not is_list_like(by):`): it is a predicate
that picks a branch, not a step that rejects.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from typing import TypeGuard

from errdex.pages.inforce import in_force, walk_scope
from errdex.pages.model import CallBeforeJson, JsonValue, PriorCheckJson
from errdex.pages.prior import before, in_try_bodies, parts_said, read_names, ruled_out
from errdex.pages.source import FunctionNode, parameters
from errdex.pages.syntax import unparse

NEVER_REJECT = frozenset({"isinstance", "type", "id", "callable", "hasattr", "print"})
MAX_CALLEE = 60  # characters of a callee said; a longer one is cut
MAX_SAID = 3  # calls named in the summary; the rest are counted


def calls_before(
    func: FunctionNode, line: int, condition: ast.expr, checks: Sequence[PriorCheckJson]
) -> list[CallBeforeJson]:
    """The calls in the statements that run before `line` on a path to it (see `prior.before`) that are passed,
    as an argument or a keyword, a value `condition` reads from a parameter (`units`, `self.mode`) or a part of
    one; not those in the tests of the earlier raising `checks` (the page says those already), nor the predicates
    of `if` and `while` tests (see `_predicates`), nor those that cannot run on a path that goes on to the raise
    (see `_off_path`)."""
    own = {p.arg for p in parameters(func)} | {"self", "cls"}
    names = frozenset(n for n in read_names(condition) if n.split(".", 1)[0] in own)
    listed = {c["line"] for c in checks}
    skipped = {
        id(sub) for n in walk_scope(func) if isinstance(n, ast.If) and n.lineno in listed for sub in ast.walk(n.test)
    }
    skipped |= _predicates(func)
    excluded = parts_said(condition)
    found: dict[tuple[int, str], CallBeforeJson] = {}
    for stmt in before(func, line):
        off = skipped | _off_path(func, stmt, line, excluded) | _handled(stmt)
        for call in (n for n in walk_scope(stmt) if isinstance(n, ast.Call) and id(n) not in off):
            arguments = [*call.args, *(k.value for k in call.keywords)]
            passes = sorted({unparse(a) for a in arguments if _reads(a, names)})
            callee = unparse(call.func)
            if not passes or callee in NEVER_REJECT or _fills_a_display(func, call):
                continue
            short = callee if len(callee) <= MAX_CALLEE else callee[: MAX_CALLEE - 3] + "..."
            found[(call.lineno, short)] = {
                "line": call.lineno,
                "call": f"{short}(...)",
                "passes": passes,
                "listed": _members(arguments),
            }
    return [found[key] for key in sorted(found)]


_FILLS = frozenset({"append", "appendleft", "extend", "insert", "add", "setdefault"})
_DISPLAYS = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)


def _fills_a_display(func: FunctionNode, call: ast.Call) -> bool:
    """`hist.append(resp)` where every binding of `hist` in force is a list, dict or set display (`hist = []`):
    a builtin container takes any value, so the call rejects nothing."""
    callee = call.func
    if not (isinstance(callee, ast.Attribute) and callee.attr in _FILLS and isinstance(callee.value, ast.Name)):
        return False
    found = in_force(func, callee.value.id, call.lineno)
    return found is not None and not found.entry and all(isinstance(b.value, _DISPLAYS) for b in found.bindings)


def _predicates(func: FunctionNode) -> set[int]:
    """The ids of the calls whose result is the test of an `if` or `while` of the function, whole or as an operand
    of `not`, `and`, `or` (`if not is_list_like(by):`): a predicate choosing a branch, not a call that rejects."""
    tests = [n.test for n in walk_scope(func) if isinstance(n, (ast.If, ast.While))]
    out: set[int] = set()
    while tests:
        test = tests.pop()
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            tests.append(test.operand)
        elif isinstance(test, ast.BoolOp):
            tests += test.values
        elif isinstance(test, ast.Call):
            out.add(id(test))
    return out


def _handled(stmt: ast.stmt) -> set[int]:
    """The ids of the nodes in the body of a `try` under `stmt` one of whose handlers goes on after catching
    (`except ValueError: warn(...); shading = "auto"`): a call there that rejects a value with that error does not
    stop the function, so it is not said to reject it first."""
    tries = [
        n
        for n in walk_scope(stmt)
        if isinstance(n, (ast.Try, ast.TryStar)) and any(not _ends(h.body, set()) for h in n.handlers)
    ]
    return {id(sub) for t in tries for s in t.body for sub in walk_scope(s)}


def _off_path(func: FunctionNode, stmt: ast.stmt, line: int, excluded: set[str]) -> set[int]:
    """The ids of the nodes of `stmt` (a statement before the raise on `line`) that never run on a path that goes
    on to the raise: a `raise` or `return` statement (its message is built only when that path ends there), a
    block that always ends in one, and a branch of an `if` that the raise's condition (its clauses, `excluded`)
    says was not taken. Inside a `try` body with `except` blocks nothing is left out: what it raises may be
    caught and the path go on."""
    caught = in_try_bodies(stmt)
    out: set[int] = set()
    for node in walk_scope(stmt):
        if isinstance(node, (ast.Raise, ast.Return)) and id(node) not in caught:
            out |= {id(n) for n in walk_scope(node)}
        for block, taken in _branches(func, node, line, excluded):
            if not taken or _ends(block, caught):
                out |= {id(n) for s in block for n in walk_scope(s)}
    return out


def _branches(func: FunctionNode, node: ast.AST, line: int, excluded: set[str]) -> list[tuple[list[ast.stmt], bool]]:
    """The blocks of a compound statement, each with whether a path to the raise may have gone through it (an
    `if` branch the condition rules out has not)."""
    if isinstance(node, ast.If):
        return [
            (node.body, not ruled_out(func, node, False, line, excluded)),
            (node.orelse, not ruled_out(func, node, True, line, excluded)),
        ]
    if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
        return [(node.body, True), (node.orelse, True)]
    if isinstance(node, (ast.Try, ast.TryStar)):
        return [(node.body, True), (node.orelse, True), *((h.body, True) for h in node.handlers)]
    return []


def _ends(block: list[ast.stmt], caught: set[int]) -> bool:
    """Whether a block always ends in a `return` or an uncaught `raise`, or an `if` both of whose branches do."""
    for stmt in block:
        if isinstance(stmt, (ast.Return, ast.Raise)) and id(stmt) not in caught:
            return True
        if isinstance(stmt, ast.If) and stmt.orelse and _ends(stmt.body, caught) and _ends(stmt.orelse, caught):
            return True
    return False


def passed(calls: Iterable[CallBeforeJson], code: str) -> list[CallBeforeJson]:
    """The calls that are passed the input `code` or a part of it (`self` for `self.mode`)."""
    return [c for c in calls if any(overlaps(p, code) for p in c["passes"])]


def overlaps(a: str, b: str) -> bool:
    """Whether two dotted names are the same value or one is a part of the other."""
    return a == b or a.startswith(b + ".") or b.startswith(a + ".")


def summary_words(function: str, calls: Sequence[CallBeforeJson]) -> str:
    """` Before the check, `f` passes `units` to `_api.check_in_list(...)` (line 2983), which may reject it first
    with another error (what it calls is not followed here).`"""
    if not calls:
        return ""
    said = [f"{_names(c['passes'])} to `{c['call']}` (line {c['line']})" for c in calls[:MAX_SAID]]
    more = f", and values it reads to {len(calls) - len(said)} more calls" if len(calls) > len(said) else ""
    one = len(calls) == 1
    value = "it" if one and len(calls[0]["passes"]) == 1 else "them"
    return (
        f" Before the check, `{function}` passes {'; '.join(said)}{more}, {'which' if one else 'each of which'} may"
        f" reject {value} first with another error (what {'it does' if one else 'they do'} is not followed here)."
    )


def _names(codes: list[str]) -> str:
    return " and ".join(f"`{c}`" for c in codes)


def _reads(argument: ast.expr, names: frozenset[str]) -> bool:
    """Whether an argument is a value the check reads or a part of one, as a whole name (`units`, `self`)."""
    if not isinstance(argument, (ast.Name, ast.Attribute)):
        return False
    code = unparse(argument)
    return any(overlaps(code, name) for name in names)


def _members(arguments: list[ast.expr]) -> list[JsonValue]:
    """The plain members of literal lists, tuples and sets among the arguments (values the call knows by name)."""
    out: list[JsonValue] = []
    for argument in arguments:
        if isinstance(argument, (ast.List, ast.Tuple, ast.Set)):
            out += [e.value for e in argument.elts if isinstance(e, ast.Constant) and _plain(e.value)]
    return out


def _plain(value: object) -> TypeGuard[JsonValue]:
    return value is None or isinstance(value, (str, int, float, bool))
