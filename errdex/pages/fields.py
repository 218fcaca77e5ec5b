"""What a dataclass's constructor call gives the fields its `__post_init__` checks.

`EvalResult(task_type=..., metric_value=...)` leaves out `source_name`, whose default is None, so a check
`self.source_name is not None and ...` in `EvalResult.__post_init__` is false for that call: it is no way to the
error. A field `__post_init__` binds again before the check (`self.fsdp = [...]`) holds what it computes there,
which the call does not tell. Only calls of the class itself are read (a subclass adds fields, and may override
`__post_init__`), and positions only when every base of the class is in the module (else the order of the
fields is not known).
"""

from __future__ import annotations

import ast
from typing import Any, NamedTuple

from errdex.extract.resolve import dotted_name
from errdex.model import JsonValue
from errdex.pages.defaults import NOT_LITERAL, argument_value, literal_value
from errdex.pages.evaluate import truth
from errdex.pages.inforce import Rebound, in_force, rebound
from errdex.pages.inputs import record_kind
from errdex.pages.model import PageCaller
from errdex.pages.source import FunctionNode, class_and_bases, parameters


class Field(NamedTuple):
    """A field of a dataclass: its name, its default as written (None when it has none), whether the
    constructor takes it (`field(init=False)` does not), and whether it is an `InitVar` (handed to `__post_init__`
    as an argument, in the order of the `InitVar`s, and no attribute)."""

    name: str
    default: ast.expr | None
    init: bool
    initvar: bool = False


class Fields(NamedTuple):
    """The fields of a dataclass, bases' first, and whether that order is complete (every base is in the module)."""

    owner: str
    fields: list[Field]
    ordered: bool


def record_fields(tree: ast.Module, owner: ast.ClassDef | None) -> Fields | None:
    """The fields of `owner` when it is a dataclass; None otherwise."""
    if owner is None or record_kind(owner) != "dataclass":
        return None
    classes = class_and_bases(tree, owner)
    by_name: dict[str, Field] = {}
    for cls in reversed(classes):
        if record_kind(cls) != "dataclass":
            continue
        for stmt in cls.body:
            if not isinstance(stmt, ast.AnnAssign) or not isinstance(stmt.target, ast.Name):
                continue
            annotation = ast.unparse(stmt.annotation)
            if "ClassVar" in annotation:
                continue
            by_name.pop(stmt.target.id, None)
            by_name[stmt.target.id] = _field(stmt.target.id, stmt.value)._replace(initvar="InitVar" in annotation)
    named = {dotted_name(b) or "" for c in classes for b in c.bases}
    ordered = named <= {c.name for c in classes} | {"object"}
    return Fields(owner.name, list(by_name.values()), ordered)


def _field(name: str, written: ast.expr | None) -> Field:
    """`x: int = 3`, `x: list = field(default_factory=list)`, `x: int = field(init=False, default=0)`."""
    if not (isinstance(written, ast.Call) and (dotted_name(written.func) or "").split(".")[-1] == "field"):
        return Field(name, written, True)
    keywords = {k.arg: k.value for k in written.keywords if k.arg is not None}
    init = keywords.get("init")
    takes = not (isinstance(init, ast.Constant) and init.value is False)
    factory = keywords.get("default_factory")
    if isinstance(factory, ast.Name) and factory.id in ("list", "dict"):
        return Field(name, ast.List([], ast.Load()) if factory.id == "list" else ast.Dict([], []), takes)
    return Field(name, keywords.get("default"), takes)


def given(function: FunctionNode, fields: Fields, caller: PageCaller) -> dict[str, Any] | None:
    """Each field as `self.<name>` (an `InitVar` as the parameter of `__post_init__` it is handed to) with what a
    call of the class gives it (see `defaults.argument_value`; or NOT_LITERAL): its argument, else its default.
    None when the call is not of the class itself or what it passes is not all written."""
    arguments = caller["arguments"]
    callee = caller["call"].split("(", 1)[0].rsplit(".", 1)[-1]
    if arguments is None or arguments["unpacked"] or caller["use"] != "call" or callee != fields.owner:
        return None
    taken = [f for f in fields.fields if f.init]
    if arguments["positional"] and (not fields.ordered or len(arguments["positional"]) > len(taken)):
        return None
    texts = {f.name: text for f, text in zip(taken, arguments["positional"], strict=False)}
    texts.update(arguments["keywords"])
    constants = arguments["constants"]
    handed = [p.arg for p in parameters(function)]
    initvars = [f.name for f in fields.fields if f.initvar]
    if initvars and len(handed) != len(initvars):
        return None
    out: dict[str, Any] = {}
    for f in fields.fields:
        key = handed[initvars.index(f.name)] if f.initvar else f"self.{f.name}"
        if f.name in texts and f.init:
            out[key] = argument_value(constants.get(texts[f.name], texts[f.name]), caller["truths"])
        else:
            out[key] = literal_value(f.default) if f.default is not None else NOT_LITERAL
    return out


def false_for(
    function: FunctionNode,
    fields: Fields,
    condition: ast.expr,
    resolved: dict[str, JsonValue],
    caller: PageCaller,
    line: int,
) -> bool:
    """Whether what a call of the class gives the fields the check reads makes it certainly false (fields
    `__post_init__` binds again before the check aside)."""
    values = given(function, fields, caller)
    if values is None:
        return False
    known = {}
    for code in _read(condition):
        held = (
            _copied(function, code, line, values) if rebound(function, [code], line) else values.get(code, NOT_LITERAL)
        )
        if held is not NOT_LITERAL:
            known[code] = held
    return bool(known) and truth(condition, {**resolved, **known}) is False


def _copied(function: FunctionNode, code: str, line: int, values: dict[str, Any]) -> Any:
    """`self.names_file = names_file` before the check, the one binding in force there, of a parameter the
    function does not bind again: the value the call handed that parameter (NOT_LITERAL otherwise)."""
    found = in_force(function, code, line)
    single = found.single if found is not None and not found.entry else None
    value = single.value if single is not None else None
    if isinstance(value, ast.Name) and value.id in values and not rebound(function, [value.id], line):
        return values[value.id]
    return NOT_LITERAL


def left_out(
    function: FunctionNode, fields: Fields, condition: ast.expr, caller: PageCaller, line: int
) -> list[Rebound]:
    """The checked fields a call of the class leaves out that `__post_init__` binds again before the check (first
    rebinding each): what the check sees there, the call does not tell."""
    arguments = caller["arguments"]
    values = given(function, fields, caller)
    if values is None or arguments is None:
        return []
    taken = [f.name for f in fields.fields if f.init]
    passed = set(taken[: len(arguments["positional"])]) | set(arguments["keywords"])
    codes = sorted(_read(condition))
    copied = {code for code in codes if _copied(function, code, line, values) is not NOT_LITERAL}
    missing = [
        code
        for code in codes
        if code.split(".", 1)[1] not in passed and code.split(".", 1)[1] in taken and code not in copied
    ]
    first: dict[str, Rebound] = {}
    for each in sorted(rebound(function, missing, line), key=lambda r: r.bound.line):
        first.setdefault(each.name, Rebound(each.name.split(".", 1)[1], each.bound, each.when))
    return list(first.values())


def _read(condition: ast.expr) -> set[str]:
    """The `self.<name>` the condition reads."""
    return {
        f"self.{n.attr}"
        for n in ast.walk(condition)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"
    }
