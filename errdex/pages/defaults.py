"""Calls that cannot raise an error: the literals they pass and the defaults of what they leave out pass its check.

`Dataset.batch` calls `self.map(...)` without `keep_in_memory`; when the check is
`keep_in_memory and cache_file_name is not None`, that default makes it certainly false, so that
call is no way to this error, whatever else it passes; nor is `_check(obj_type="estimator")` when
the check refuses every other type, nor `mean_tweedie_deviance(..., power=2)` when the check is
`... and 1 <= power < 2 and ...`, nor `for kind in ["a", "b"]: _check(kind)` when each literal
passes, nor `iter_content(CHUNK)` when the module binds `CHUNK = 10 * 1024` once and the check refuses only
non-ints, nor `create_repo(repo_type=t, space_sdk="gradio" if t == "space" else None)` when the check is
`space_sdk is not None and repo_type != "space"` (each branch tried, `t` being "space" where the test holds),
nor `_set((sub,))` when the check refuses only non-tuples (a display is of its type whatever its items), nor
`elif reset: _check(reset=reset)` when the check needs `not reset` (the `if` around the call tested the name).
A call whose values make the function leave before the check (`leaves_first`: an earlier `return` or `raise`
under `if`s they decide, the other branch of an `if` around the check) is no way to it either.
Decided by the evaluator on the call's arguments as written (in full): a call with
`*args`/`**kwargs` decides nothing; only the checked inputs that are the function's parameters get
values, every other input stays unknown to the evaluator. A call that leaves out a parameter the function binds
again before the check (`if s is None: s = default_size(x)`) gives the check no value for it: `recomputed` names
those, so the page says that such a call is not decided rather than that it depends on what it passes.
"""

from __future__ import annotations

import ast
from typing import Any, NamedTuple

from errdex.model import JsonValue
from errdex.pages.evaluate import UNKNOWN, Built, Keyed, Truth, truth
from errdex.pages.hierarchy import dotted
from errdex.pages.inforce import Rebound, block_holds, changed_in_place, span_holds, walk_scope
from errdex.pages.inforce import rebound as rebindings
from errdex.pages.model import CallArguments, Caller, CheckedInput
from errdex.pages.receives import rebound
from errdex.pages.source import FunctionNode, parameter_defaults, parameters


def passes_by_default(
    function: FunctionNode,
    condition: ast.expr,
    inputs: list[CheckedInput],
    resolved: dict[str, JsonValue],
    call: Caller,
    line: int,
) -> bool:
    """Whether what `call` gives the checked parameters — literals as written, defaults for those it leaves out —
    makes the check at `line` certainly false, whatever the other arguments and inputs hold (unknown to the
    evaluator). A parameter the function binds again before the check holds no longer what the call gave."""
    checked = {
        item["code"] for item in inputs if item["kind"] == "parameter" and not rebound(function, item["code"], line)
    }
    arguments = call["arguments"]
    if not checked or arguments is None or arguments["unpacked"]:
        return False
    unbound = call["match"] == "class"
    return all(
        _false_with(function, condition, checked, resolved, branch, unbound, call["truths"])
        for each in _each_turn(arguments, call["loops"])
        for branch in _branches(each)
    )


def recomputed(function: FunctionNode, inputs: list[CheckedInput], call: Caller, line: int) -> list[Rebound]:
    """The checked parameters a call leaves out that the function binds again before the check at `line` (`if s is
    None: s = ...`), first rebinding each: the check sees what the function computes there, which the call's
    arguments do not tell (empty when what the call passes cannot be told, or it passes them all)."""
    arguments = call["arguments"]
    if arguments is None or arguments["unpacked"]:
        return []
    passed = _passed(function, arguments, call["match"] == "class", call["truths"])
    if passed is None:
        return []
    left_out = [item["code"] for item in inputs if item["kind"] == "parameter" and item["code"] not in passed]
    first: dict[str, Rebound] = {}
    for each in sorted(rebindings(function, left_out, line), key=lambda r: r.bound.line):
        first.setdefault(each.name, each)
    return list(first.values())


class Leaves(NamedTuple):
    """Where a call's arguments make the function certainly leave before the check: it `returns` or `raises` (the
    exception as written) at `line`, or `skips` the check, taking the other branch of the `if` at `line`."""

    how: str  # returns | raises | skips
    line: int
    raised: str | None  # the exception a `raise` names, as written


def leaves_first(function: FunctionNode, call: Caller, line: int) -> Leaves | None:
    """Where what `call` passes (see `argument_value`; the defaults of what it leaves out) makes `function` leave
    before the check at `line` in every turn of its loops and branch of its conditional arguments: an earlier
    `return` or `raise` under `if`s its values decide, or the other branch of an `if` around the check. None when
    that is not certain (a test it does not decide, a `return` in a loop or a `try` before the check)."""
    arguments = call["arguments"]
    if arguments is None or arguments["unpacked"] or call["use"] != "call":
        return None
    found = set()
    for each in _each_turn(arguments, call["loops"]):
        for branch in _branches(each):
            passed = _passed(function, branch, call["match"] == "class", call["truths"])
            if passed is None:
                return None
            values = {k: v for k, v in {**_defaults(function), **passed}.items() if v is not NOT_LITERAL}
            found.add(_first(function, function.body, line, values))
    leaves = found.pop() if len(found) == 1 else None
    return leaves if isinstance(leaves, Leaves) else None


_GOES_ON = "goes on"  # a statement its values show ends without leaving the function (or never reaches the check)
_UNSURE = "unsure"  # a statement that may or may not leave the function


def _first(function: FunctionNode, block: list[ast.stmt], line: int, values: dict[str, Any]) -> Leaves | str:
    """How the statements of `block` up to the one holding `line` leave before it, with `values` for parameters."""
    for stmt in block:
        if not span_holds(stmt, line):
            left = _leaving(function, stmt, values)
            if left != _GOES_ON:
                return left
            continue
        if not isinstance(stmt, ast.If):
            return _UNSURE  # a loop, `try` or `with` around the check: not followed
        holds = block_holds(stmt.body, line)
        test = truth(stmt.test, _at(function, values, stmt.lineno))
        if test is UNKNOWN or test == holds:
            return _first(function, stmt.body if holds else stmt.orelse, line, values)
        other = _block(function, stmt.orelse if holds else stmt.body, values)
        return other if isinstance(other, Leaves) else Leaves("skips", stmt.lineno, None)
    return _UNSURE


def _leaving(function: FunctionNode, stmt: ast.stmt, values: dict[str, Any]) -> Leaves | str:
    """Whether a statement before the check certainly leaves the function (where), certainly goes on, or may do
    either."""
    if isinstance(stmt, ast.Return):
        return Leaves("returns", stmt.lineno, None)
    if isinstance(stmt, ast.Raise):
        raised = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
        return Leaves("raises", stmt.lineno, (dotted(raised) or None) if raised is not None else None)
    leaves = any(isinstance(n, (ast.Return, ast.Raise)) for n in walk_scope(stmt))
    if not isinstance(stmt, ast.If):
        return _UNSURE if leaves else _GOES_ON
    test = truth(stmt.test, _at(function, values, stmt.lineno))
    if test is UNKNOWN:
        return _UNSURE if leaves else _GOES_ON
    return _block(function, stmt.body if test else stmt.orelse, values)


def _block(function: FunctionNode, block: list[ast.stmt], values: dict[str, Any]) -> Leaves | str:
    for stmt in block:
        left = _leaving(function, stmt, values)
        if left != _GOES_ON:
            return left
    return _GOES_ON


def _at(function: FunctionNode, values: dict[str, Any], line: int) -> dict[str, Any]:
    """The values still held at `line`: those of parameters the function neither binds again nor changes in place
    before it."""
    changed = {c.name for c in changed_in_place(function, values, line)}
    return {k: v for k, v in values.items() if k not in changed and not rebound(function, k, line)}


def _each_turn(arguments: CallArguments, loops: dict[str, list[str]]) -> list[CallArguments]:
    """The arguments as passed in each turn of the literal loops around the call (`for kind in ["a", "b"]:
    f(kind)` passes "a", then "b"); the arguments as written when no loop variable is passed."""
    names = looped(arguments, loops)
    turns: list[dict[str, str]] = [{}]
    for name in names:
        turns = [{**turn, name: value} for turn in turns for value in loops[name]]
    if len(turns) > MAX_TURNS:
        return [arguments]
    return [
        {
            "positional": [turn.get(a, a) for a in arguments["positional"]],
            "keywords": {k: turn.get(v, v) for k, v in arguments["keywords"].items()},
            "unpacked": arguments["unpacked"],
            "constants": arguments["constants"],
        }
        for turn in turns
    ]


def _branches(arguments: CallArguments) -> list[CallArguments]:
    """The arguments as passed on each branch of their conditional expressions: `a if test else b` passes `a`, or
    `b`. Where the test compares another argument, written the same, with a literal (`space_sdk="gradio" if
    self.repo_type == "space" else None` beside `repo_type=self.repo_type`), that argument is the literal in the
    branch where the comparison holds (`==`, `is`); in the other it stays as written (some other value)."""
    slots: list[int | str] = [*range(len(arguments["positional"])), *arguments["keywords"]]
    turns = [dict(_slots(arguments))]
    for slot in slots:
        expression = _expression(turns[0][slot])
        if not isinstance(expression, ast.IfExp):
            continue
        tied = _tied(expression.test)
        held, other = (
            (expression.body, expression.orelse) if tied is None or tied[2] else (expression.orelse, expression.body)
        )
        branches = []
        for turn in turns:
            ties = {s: tied[1] for s in slots if tied is not None and turn[s] == tied[0] and s != slot}
            branches += [{**turn, **ties, slot: _text(held)}, {**turn, slot: _text(other)}]
        turns = branches
        if len(turns) > MAX_TURNS:
            return [arguments]
    return [
        {
            "positional": [turn[i] for i in range(len(arguments["positional"]))],
            "keywords": {k: turn[k] for k in arguments["keywords"]},
            "unpacked": arguments["unpacked"],
            "constants": arguments["constants"],
        }
        for turn in turns
    ]


def branched(arguments: CallArguments | None) -> bool:
    """Whether a call passes a conditional expression (`a if test else b`), each of whose branches is tried."""
    written = [text for _, text in _slots(arguments)] if arguments is not None else []
    return any(isinstance(_expression(text), ast.IfExp) for text in written)


def displays(arguments: CallArguments | None) -> bool:
    """Whether a call passes a display, an f-string or a comparison: a value of its type (see `argument_value`)."""
    written = [text for _, text in _slots(arguments)] if arguments is not None else []
    return any(isinstance(argument_value(text, {}), Built) for text in written)


def tested(call: Caller) -> bool:
    """Whether a call passes a name an `if` around it tests: a true (or false) value (see `argument_value`)."""
    arguments = call["arguments"]
    return arguments is not None and any(text in call["truths"] for _, text in _slots(arguments))


def _slots(arguments: CallArguments) -> list[tuple[int | str, str]]:
    return [*enumerate(arguments["positional"]), *arguments["keywords"].items()]


def _expression(text: str) -> ast.expr | None:
    try:
        return ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _tied(test: ast.expr) -> tuple[str, str, bool] | None:
    """`x.kind == "space"` (or `is`, `!=`, `is not`) on a name or attribute read: what it compares, as written, the
    literal, and whether the comparison holds when the test does (False for `!=`, `is not`)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.comparators[0], ast.Constant)):
        return None
    if not isinstance(test.left, (ast.Name, ast.Attribute)) or not dotted(test.left):
        return None  # a call, or a subscript: what it gives may differ from the argument's own evaluation
    holds = {ast.Eq: True, ast.Is: True, ast.NotEq: False, ast.IsNot: False}.get(type(test.ops[0]))
    return None if holds is None else (_text(test.left), _text(test.comparators[0]), holds)


def _text(node: ast.expr) -> str:
    return ast.unparse(node)


def looped(arguments: CallArguments | None, loops: dict[str, list[str]]) -> list[str]:
    """The names of literal loops around a call that it passes as an argument."""
    written = [*arguments["positional"], *arguments["keywords"].values()] if arguments is not None else []
    return [name for name in loops if name in written]


def _false_with(
    function: FunctionNode,
    condition: ast.expr,
    checked: set[str],
    resolved: dict[str, JsonValue],
    arguments: CallArguments,
    unbound: bool,
    truths: dict[str, bool],
) -> bool:
    """Whether these arguments (literals as written, defaults for what they leave out) make the check false."""
    passed = _passed(function, arguments, unbound, truths)
    if passed is None:
        return False
    defaults = _defaults(function)
    known = {name: defaults[name] for name in checked - passed.keys() if name in defaults}
    known.update({name: value for name, value in passed.items() if name in checked and value is not NOT_LITERAL})
    return bool(known) and truth(condition, {**resolved, **known}) is False


NOT_LITERAL = object()  # an argument whose value is not written as a literal
MAX_TURNS = 64  # combinations of loop values tried; beyond, the arguments are taken as written


def _passed(
    function: FunctionNode, arguments: CallArguments, unbound: bool, truths: dict[str, bool]
) -> dict[str, Any] | None:
    """The parameters the call passes, each with its value as far as it is known (see `argument_value`; or NOT_LITERAL);
    None when that cannot be told. `Cls.method(obj, ...)` (`unbound`) passes the instance first when the method
    takes `self`."""
    if function.name == "__post_init__":
        return None  # `Cls(...)` passes the fields; only the `InitVar`s reach it, by a position not written here
    named = [p.arg for p in parameters(function)]
    positional = list(arguments["positional"])
    takes_self = bool(function.args.args) and function.args.args[0].arg == "self"
    if unbound and takes_self:
        if not positional:
            return None
        positional = positional[1:]
    if len(positional) > len(named):
        return None
    given = [*zip(named, positional, strict=False), *arguments["keywords"].items()]
    constants = arguments["constants"]  # a module constant passed by name: the value its module binds
    out = {name: argument_value(constants.get(value, value), truths) for name, value in given}
    packed = function.args.kwarg
    if packed is not None:  # `**kwargs` holds the keywords no named parameter takes (the call has no `**`)
        out[packed.arg] = Keyed(frozenset(k for k in arguments["keywords"] if k not in named))
    return out


_DISPLAYS: dict[type, str] = {
    ast.Tuple: "tuple",
    ast.List: "list",
    ast.ListComp: "list",
    ast.Dict: "dict",
    ast.DictComp: "dict",
    ast.Set: "set",
    ast.SetComp: "set",
    ast.JoinedStr: "str",
    ast.Compare: "bool",
}


def argument_value(text: str, truths: dict[str, bool]) -> Any:
    """What an argument written as `text` is known to be: a literal's value; for a name an `if` around the call
    tested, some true (or false) value; for a display, an f-string or a comparison, a value of that exact type
    (`(subcl,)` is a tuple whatever `subcl` is); else NOT_LITERAL."""
    value = literal_value(text)
    if value is not NOT_LITERAL:
        return value
    if text in truths:
        return Truth(truths[text])
    expression = _expression(text)
    if isinstance(expression, ast.UnaryOp) and isinstance(expression.op, ast.Not):
        return Built("bool")
    kind = _DISPLAYS.get(type(expression))
    return NOT_LITERAL if kind is None else Built(kind)


def literal_value(node: ast.expr | str) -> Any:
    """The value of a literal (a node, or an argument's text), or NOT_LITERAL."""
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        return NOT_LITERAL


def _defaults(function: FunctionNode) -> dict[str, Any]:
    """Each parameter's default when it is a literal."""
    found = {name: literal_value(node) for name, node in parameter_defaults(function).items()}
    return {name: value for name, value in found.items() if value is not NOT_LITERAL}
