"""Calls that cannot raise an error: the literals they pass and the defaults of what they leave out pass its check.

`Dataset.batch` calls `self.map(...)` without `keep_in_memory`; when the check is
`keep_in_memory and cache_file_name is not None`, that default makes it certainly false, so that
call is no way to this error, whatever else it passes; nor is `_check(obj_type="estimator")` when
the check refuses every other type, nor `mean_tweedie_deviance(..., power=2)` when the check is
`... and 1 <= power < 2 and ...`, nor `for kind in ["a", "b"]: _check(kind)` when each literal
passes, nor `iter_content(CHUNK)` when the module binds `CHUNK = 10 * 1024` once and the check refuses only
non-ints, nor `create_repo(repo_type=t, space_sdk="gradio" if t == "space" else None)` when the check is
`space_sdk is not None and repo_type != "space"` (each branch tried, `t` being "space" where the test holds).
Decided by the evaluator on the call's arguments as written (in full): a call with
`*args`/`**kwargs` decides nothing; only the checked inputs that are the function's parameters get
values, every other input stays unknown to the evaluator. A call that leaves out a parameter the function binds
again before the check (`if s is None: s = default_size(x)`) gives the check no value for it: `recomputed` names
those, so the page says that such a call is not decided rather than that it depends on what it passes.
"""

from __future__ import annotations

import ast
from typing import Any

from errdex.model import JsonValue
from errdex.pages.evaluate import truth
from errdex.pages.hierarchy import dotted
from errdex.pages.inforce import Rebound
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
        _false_with(function, condition, checked, resolved, branch, unbound)
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
    passed = _passed(function, arguments, unbound=call["match"] == "class")
    if passed is None:
        return []
    left_out = [item["code"] for item in inputs if item["kind"] == "parameter" and item["code"] not in passed]
    first: dict[str, Rebound] = {}
    for each in sorted(rebindings(function, left_out, line), key=lambda r: r.bound.line):
        first.setdefault(each.name, each)
    return list(first.values())


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
) -> bool:
    """Whether these arguments (literals as written, defaults for what they leave out) make the check false."""
    passed = _passed(function, arguments, unbound=unbound)
    if passed is None:
        return False
    defaults = _defaults(function)
    known = {name: defaults[name] for name in checked - passed.keys() if name in defaults}
    known.update({name: value for name, value in passed.items() if name in checked and value is not _NOT_LITERAL})
    return bool(known) and truth(condition, {**resolved, **known}) is False


_NOT_LITERAL = object()  # an argument whose value is not written as a literal
MAX_TURNS = 64  # combinations of loop values tried; beyond, the arguments are taken as written


def _passed(function: FunctionNode, arguments: CallArguments, unbound: bool) -> dict[str, Any] | None:
    """The parameters the call passes, each with its literal value (or _NOT_LITERAL); None when that cannot be
    told. `Cls.method(obj, ...)` (`unbound`) passes the instance first when the method takes `self`."""
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
    return {name: _literal(constants.get(value, value)) for name, value in given}


def _literal(node: ast.expr | str) -> Any:
    """The value of a literal (a node, or an argument's text), or _NOT_LITERAL."""
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        return _NOT_LITERAL


def _defaults(function: FunctionNode) -> dict[str, Any]:
    """Each parameter's default when it is a literal."""
    found = {name: _literal(node) for name, node in parameter_defaults(function).items()}
    return {name: value for name, value in found.items() if value is not _NOT_LITERAL}
