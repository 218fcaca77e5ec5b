"""A parameter of the raising function that a public entry passes down unchanged: the keyword of the user's call.

`pandas.cut(..., duplicates=...)` calls `_bins_to_cuts(..., duplicates=duplicates)`, whose check reads
`duplicates`: what the user passes to `cut` is what the check sees. Each step of the entry's chain must hand the
callee its own parameter (by keyword, by position, or inside its `**kwargs`) with no binding or in-place change of
it before the call; otherwise what arrives is not what the user passed, and nothing is said. Whether the call gets
to the check is not decided (an earlier return or raise on the way may stop it), so such a way gives no trigger,
only a value that keeps the check false when the check is reached.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from errdex.pages.entries import steps_chain
from errdex.pages.inforce import changed_in_place, in_force
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
    code: str, line: int, function: str, file: str, entries: list[PublicEntry], tree_of: TreeOf
) -> list[CarriedWay]:
    """For the raising function's parameter `code` (read at the raise on `line`), the entries whose chain passes a
    keyword of theirs down to it unchanged."""
    tree = tree_of(file)
    located = find(tree, function) if tree is not None else None
    if located is None or isinstance(located.node, ast.ClassDef) or not _unchanged(located.node, code, line):
        return []
    out = []
    for entry in entries:
        if entry["steps"] and entry["kind"] != "setter":
            found = _carried(entry, located.node, code, tree_of, function)
            if found is not None:
                out.append(found)
    return out


def _carried(entry: PublicEntry, raising: FunctionNode, code: str, tree_of: TreeOf, function: str) -> CarriedWay | None:
    """Up the chain from the raising function: at each step, the caller's own name for what it hands on."""
    callee, name = raising, code
    explicit, explicit_name = (
        raising,
        code,
    )  # the highest function that names it: a call leaving it out gets its default
    for step in reversed(entry["steps"]):
        tree = tree_of(step["file"])
        located = find(tree, step["function"]) if tree is not None else None
        if located is None or isinstance(located.node, ast.ClassDef):
            return None
        caller = located.node
        handed = _handed(caller, callee, name, step["line"])
        if handed is None:
            return None
        name = handed
        if name in {p.arg for p in parameters(caller)}:
            explicit, explicit_name = caller, name
        callee = caller
    call = call_code(entry["function"], callee, [name])
    if call is None:
        return None
    chain = steps_chain(entry["steps"], function)
    how = f"`{code}` is a parameter of `{function}`; `{entry['function']}` passes its `{name}` on unchanged: {chain}"
    way = WayIn(
        call,
        entry["function"],
        how,
        callee.lineno,
        False,
        name,
        required_parameters(callee, name),
        default=literal_default(explicit, explicit_name),
    )
    return CarriedWay(way, entry["file"], entry["steps"])


def _handed(caller: FunctionNode, callee: FunctionNode, keyword: str, line: int) -> str | None:
    """The caller's own parameter (or a keyword of its `**kwargs`) that the call on `line` passes as the callee's
    `keyword`, unchanged since the caller was entered; None when it passes anything else or the call is not found."""
    calls = [n for n in ast.walk(caller) if isinstance(n, ast.Call) and _spans(n, line) and _names(n, callee)]
    found = {_argument(call, caller, callee, keyword) for call in calls}
    if len(found) != 1:
        return None
    name = found.pop()
    if name is None:
        return None
    packed = caller.args.kwarg.arg if caller.args.kwarg is not None else None
    held = packed if name not in {p.arg for p in parameters(caller)} else name
    return name if held is not None and _unchanged(caller, held, line) else None


def _argument(call: ast.Call, caller: FunctionNode, callee: FunctionNode, keyword: str) -> str | None:
    """What the call passes as `keyword`, when it is a parameter of the caller passed as it is: by keyword, by
    position (after the callee's `self` unless the call passes it), or inside the caller's `**kwargs` handed on."""
    own = {p.arg for p in parameters(caller)}
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value.id if isinstance(kw.value, ast.Name) and kw.value.id in own else None
    positional = [p.arg for p in [*callee.args.posonlyargs, *callee.args.args]]
    if positional and _bound_to_instance(callee) and not _passes_self(call):
        positional = positional[1:]
    if keyword in positional and positional.index(keyword) < len(call.args):
        value = call.args[positional.index(keyword)]
        if any(isinstance(a, ast.Starred) for a in call.args[: positional.index(keyword) + 1]):
            return None
        return value.id if isinstance(value, ast.Name) and value.id in own else None
    packed = caller.args.kwarg
    handed_on = any(
        kw.arg is None and isinstance(kw.value, ast.Name) and packed is not None and kw.value.id == packed.arg
        for kw in call.keywords
    )
    return keyword if handed_on and keyword not in own else None


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
