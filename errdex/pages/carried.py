"""A parameter of the raising function that a public entry passes down unchanged: the keyword of the user's call.

`pandas.cut(..., duplicates=...)` calls `_bins_to_cuts(..., duplicates=duplicates)`, whose check reads
`duplicates`: what the user passes to `cut` is what the check sees. Each step of the entry's chain must hand the
callee its own parameter (by keyword, by position, or inside its `**kwargs`) with no binding or in-place change of
it before the call; otherwise what arrives is not what the user passed, and nothing is said. Whether the call gets
to the check is not decided (an earlier return or raise on the way may stop it), so such a way gives no trigger,
only a value that keeps the check false when the check is reached. A method of a private class that a public
class inherits (`_AxesBase.sharex` as `Axes.sharex`) takes its parameters from the user's call on that class.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from errdex.pages.defaults import NOT_LITERAL, literal_value
from errdex.pages.entries import steps_chain
from errdex.pages.inforce import changed_in_place, in_force, mutates, walk_scope
from errdex.pages.inputs import WayIn, literal_default, required_parameters
from errdex.pages.model import EntryStep, PublicEntry
from errdex.pages.source import FunctionNode, TreeOf, call_code, find, is_static, parameters


@dataclass(frozen=True)
class CarriedWay:
    """A way in through a public entry: the entry's keyword reaches the check's parameter along `steps`."""

    way: WayIn
    file: str  # the entry's
    steps: list[EntryStep]


def carried_ways(
    raising: FunctionNode, code: str, line: int, function: str, file: str, entries: list[PublicEntry], tree_of: TreeOf
) -> list[CarriedWay]:
    """For the parameter `code` of the raising function (`function` in `file`, read at the raise on `line`), the
    entries whose chain passes a keyword of theirs down to it unchanged, and the public class that inherits it when
    the function is a private class's method."""
    if code not in {p.arg for p in parameters(raising)} or not _unchanged(raising, code, line):
        return []  # a `*args`/`**kwargs` parameter is no keyword of a call
    out = []
    for entry in entries:
        if entry["kind"] == "setter":
            continue
        if not entry["steps"] and entry["function"] != function:  # the raising method, as a public heir has it
            found: CarriedWay | None = _as_heir(entry, raising, code, function, file)
        else:
            found = _carried(entry, raising, code, tree_of, function) if entry["steps"] else None
        if found is not None:
            out.append(found)
    return out


def _as_heir(entry: PublicEntry, raising: FunctionNode, code: str, function: str, file: str) -> CarriedWay | None:
    """`axes.sharex(other=...)` for `_AxesBase.sharex`: the parameter passed to the method a public class inherits."""
    call = call_code(entry["function"], raising, [code])
    if call is None:
        return None
    heir = entry["function"].rsplit(".", 1)[0]
    how = f"`{code}` is a parameter of `{function}`, which `{heir}` inherits"
    required = required_parameters(raising, code)
    way = WayIn(
        call, entry["function"], how, raising.lineno, True, code, required, default=literal_default(raising, code)
    )
    return CarriedWay(way, file, [])


def _carried(entry: PublicEntry, raising: FunctionNode, code: str, tree_of: TreeOf, function: str) -> CarriedWay | None:
    """Up the chain from the raising function: at each step, the caller's own name for what it hands on, and the
    default a call that leaves it out gets (said by the highest function that names it)."""
    callee, name, default = raising, code, literal_default(raising, code)
    bound = "." in entry["function"]  # a method (`Cls.f`) of the entry's module, or a function of it
    for step in reversed(entry["steps"]):
        tree = tree_of(step["file"])
        located = find(tree, step["function"]) if tree is not None else None
        if located is None or isinstance(located.node, ast.ClassDef):
            return None
        caller = located.node
        handed = _handed(caller, callee, name, step["line"])
        if handed is None:
            return None
        name = handed.keyword
        default = handed.default if handed.decides else default
        callee, bound = caller, located.owner is not None
    call = call_code(entry["function"], callee, [name])
    if call is None:
        return None
    chain = steps_chain(entry["steps"], function)
    how = f"`{code}` is a parameter of `{function}`; `{entry['function']}` passes its `{name}` on unchanged: {chain}"
    required = required_parameters(callee, name, bound)
    return CarriedWay(
        WayIn(call, entry["function"], how, callee.lineno, False, name, required, default=default),
        entry["file"],
        entry["steps"],
    )


@dataclass(frozen=True)
class _Handed:
    """The keyword of the caller's own call that the value comes in by, and whether the caller decides what a call
    leaving it out gets (it names the keyword: a parameter, `kwargs.pop("k", default)`) or hands on `**kwargs`."""

    keyword: str
    decides: bool
    default: str | None  # the literal, when it decides and one is written


def _handed(caller: FunctionNode, callee: FunctionNode, keyword: str, line: int) -> _Handed | None:
    """How the call on `line` passes the callee's `keyword`: a parameter of the caller, a keyword it takes out of its
    `**kwargs` (`use_fast = kwargs.pop("use_fast", None)`), or its `**kwargs` handed on, in each case unchanged
    since the caller was entered; None when it passes anything else or the call is not found."""
    calls = [n for n in ast.walk(caller) if isinstance(n, ast.Call) and _spans(n, line) and _names(n, callee)]
    found = {_argument(call, caller, callee, keyword) for call in calls}
    if len(found) != 1:
        return None
    name = found.pop()
    packed = caller.args.kwarg.arg if caller.args.kwarg is not None else None
    if name is None:
        return None
    if name in {p.arg for p in parameters(caller)}:
        return _Handed(name, True, literal_default(caller, name)) if _unchanged(caller, name, line) else None
    if name == _IN_KWARGS and packed is not None:
        return _Handed(keyword, False, None) if _key_unchanged(caller, packed, keyword, line) else None
    return _popped(caller, name, packed, line)


def _popped(caller: FunctionNode, name: str, packed: str | None, line: int) -> _Handed | None:
    """A local bound once, by `kwargs.pop("k", d)` or `kwargs.get("k", d)` of the caller's `**kwargs` unchanged until
    then, and unchanged since: the user's `k`, or `d` when they leave it out."""
    found = in_force(caller, name, line)
    bound = found.single if found is not None and not found.entry and not found.mutated_at else None
    value = bound.value if bound is not None and bound.kind == "assign" else None
    if bound is None or packed is None or not isinstance(value, ast.Call) or changed_in_place(caller, [name], line):
        return None
    func, args = value.func, value.args
    key = args[0].value if args and isinstance(args[0], ast.Constant) else None
    taken = (
        isinstance(func, ast.Attribute)
        and func.attr in ("pop", "get")
        and isinstance(func.value, ast.Name)
        and func.value.id == packed
        and len(args) <= 2
        and not value.keywords
    )
    if not taken or not isinstance(key, str) or not _unchanged(caller, packed, bound.line):
        return None
    default = args[1] if len(args) == 2 else None
    written = ast.unparse(default) if default is not None and literal_value(default) is not NOT_LITERAL else None
    return _Handed(key, True, written)


def _key_unchanged(caller: FunctionNode, packed: str, keyword: str, line: int) -> bool:
    """The `**kwargs` dict not bound again before `line`, and changed only by taking other keys out of it
    (`kwargs.pop("use_fast", None)` leaves the user's `backend` as it was)."""
    if in_force(caller, packed, line) is not None:
        return False
    for node in walk_scope(caller):
        if not (isinstance(node, (ast.stmt, ast.expr)) and node.lineno < line and mutates(node, packed)):
            continue
        func = node.func if isinstance(node, ast.Call) else None
        key = node.args[0] if isinstance(node, ast.Call) and node.args else None
        other = isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value != keyword
        if not (isinstance(func, ast.Attribute) and func.attr == "pop" and other):
            return False
    return True


def _argument_is_packed(call: ast.Call, packed: str) -> bool:
    return any(kw.arg is None and isinstance(kw.value, ast.Name) and kw.value.id == packed for kw in call.keywords)


def _argument(call: ast.Call, caller: FunctionNode, callee: FunctionNode, keyword: str) -> str | None:
    """What the call passes as `keyword`, when it is a name: by keyword, by position (after the callee's `self`
    unless the call passes it), or `_IN_KWARGS` when it is inside the caller's `**kwargs` handed on."""
    own = {p.arg for p in parameters(caller)}
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value.id if isinstance(kw.value, ast.Name) else None
    positional = [p.arg for p in [*callee.args.posonlyargs, *callee.args.args]]
    if positional and _bound_to_instance(callee) and not _passes_self(call):
        positional = positional[1:]
    if keyword in positional and positional.index(keyword) < len(call.args):
        value = call.args[positional.index(keyword)]
        if any(isinstance(a, ast.Starred) for a in call.args[: positional.index(keyword) + 1]):
            return None
        return value.id if isinstance(value, ast.Name) else None
    packed = caller.args.kwarg
    handed_on = packed is not None and _argument_is_packed(call, packed.arg)
    return _IN_KWARGS if handed_on and keyword not in own else None


_IN_KWARGS = "**"  # what `_argument` returns for the keyword passed inside the caller's `**kwargs` (no name is it)


def _bound_to_instance(func: FunctionNode) -> bool:
    """A method whose first parameter the call does not pass (`self`, `cls`); a staticmethod's is passed."""
    first = [*func.args.posonlyargs, *func.args.args][:1]
    return bool(first) and first[0].arg in ("self", "cls") and not is_static(func)


def _passes_self(call: ast.Call) -> bool:
    """`Base.method(self, ...)`: the instance passed by position."""
    return (
        isinstance(call.func, ast.Attribute)
        and not isinstance(call.func.value, ast.Call)
        and bool(call.args)
        and isinstance(call.args[0], ast.Name)
        and call.args[0].id in ("self", "cls")
    )


def _names(call: ast.Call, callee: FunctionNode) -> bool:
    """Whether the call names the callee: by its own name, or by its class's for a constructor (the step's callee is
    the one the caller search resolved there)."""
    func = call.func
    said = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    return said is not None and (said == callee.name or (callee.name in ("__init__", "__new__") and said[:1].isupper()))


def _spans(node: ast.expr, line: int) -> bool:
    return node.lineno <= line <= (getattr(node, "end_lineno", None) or node.lineno)


def _unchanged(func: FunctionNode, name: str, line: int) -> bool:
    """No binding of the name in the function reaches `line`, and nothing before it changes the value in place."""
    return in_force(func, name, line) is None and not changed_in_place(func, [name], line)
