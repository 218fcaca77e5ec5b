"""What an input of a check can receive, read from the code: who sets it, its annotation, its default.

A trigger claims that a value fires the check; the value must also be one the code can be given.
A private attribute (`self._consumed`) and a private function's parameters are set by the package
itself, a local or a value read from elsewhere is not given by a user at all: none is an input a
user sets. For one that is, the
parameter that sets it says what it takes: its annotation (`int`, `str | None`, `Literal["a", "b"]`)
or, without one, its default's type (`1024` takes an int). An annotation naming a class or an alias
(`Axis`) lets through only instances of that name: a plain value is not shown to fit it.
"""

from __future__ import annotations

import ast

from errdex.pages.conditions import input_name
from errdex.pages.evaluate import Instance
from errdex.pages.inforce import in_force
from errdex.pages.model import CheckedInput, InputWay, JsonValue, Receives
from errdex.pages.source import FoundDefinition, FunctionNode, TreeOf, find, keyword_default, parameters

_GENERIC = {"List": "list", "Dict": "dict", "Tuple": "tuple", "Set": "set", "FrozenSet": "frozenset"}
_ANY = frozenset({"Any", "object"})
_PLAIN = (str, int, float, bool)  # a Literal's values that are JSON data
NOT_KNOWN: Receives = {"user_set": True, "types": None, "values": []}
NOT_SET: Receives = {"user_set": False, "types": None, "values": []}


def receives(tree: ast.Module | None, item: CheckedInput, line: int, function: str, tree_of: TreeOf) -> Receives:
    """What the input can be given: whether a user sets it, and the types or values it takes when the code says.

    `line` is the raise's and `function` the one it is in: a parameter bound again before it, or an attribute
    that function stores something else in before it, is no longer what the caller passed. A parameter that a public
    entry passes down unchanged (`way.through`, which says none of the calls on the way changes it) takes what the
    entry's parameter takes.
    """
    way = passed_by_user(item)
    if way is None:
        return NOT_SET
    if way["through"]:
        entry_tree = tree_of(way["file"])
        entry = find(entry_tree, way["via"]) if entry_tree is not None else None
        if entry is None or isinstance(entry.node, ast.ClassDef):
            return NOT_KNOWN
        return _of_parameter(entry.node, way["keyword"] or "")
    if tree is None:
        return NOT_KNOWN
    located = find(tree, way["via"])
    if located is None or isinstance(located.node, ast.ClassDef):
        return NOT_KNOWN
    if item["kind"] == "parameter" and _rebound_at_raise(located.node, item["code"], line):
        return NOT_SET
    if item["kind"] == "attribute" and _stored_again(find(tree, function), item["code"], way["keyword"], line):
        return NOT_SET
    return _of_parameter(located.node, way["keyword"] or "")


def passed_by_user(item: CheckedInput) -> InputWay | None:
    """The public call that passes the input (a parameter or public attribute), if a user makes one.

    None for a local, a private attribute, an input no call sets, or a private function's (class's)
    argument, which comes from the package's own calls.
    """
    if item["kind"] not in ("parameter", "attribute") or input_name(item["code"]).startswith("_"):
        return None
    way = next((w for w in item["ways_in"] if w["keyword"]), None)  # (the best: the trigger's way when it has one)
    return None if way is None or private_name(way["via"]) else way


def rebound(func: FunctionNode, name: str, line: int) -> bool:
    """Whether the function binds `name` again before `line` (`if freq is None: freq = ...`)."""
    for node in ast.walk(func):
        target = node.target if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.NamedExpr, ast.For)) else None
        targets = node.targets if isinstance(node, ast.Assign) else [target] if target is not None else []
        if getattr(node, "lineno", line) < line and any(
            isinstance(n, ast.Name) and n.id == name for t in targets for n in ast.walk(t)
        ):
            return True
    return False


def _rebound_at_raise(func: FunctionNode, name: str, line: int) -> bool:
    """`rebound`, less the bindings that cannot be in force at the raise on `line` (one in the `if` branch of an
    `if ... elif` whose `elif` holds the raise)."""
    return rebound(func, name, line) and (
        in_force(func, name, line) is not None
        or any(isinstance(n, ast.NamedExpr) and n.target.id == name and n.lineno < line for n in ast.walk(func))
    )


def _stored_again(located: FoundDefinition | None, code: str, keyword: str | None, line: int) -> bool:
    """Whether the raising function stores in `self.X`, before the raise, a value other than the argument that
    sets it (`self.mode = self.mode.lower()`, not `self.mode = mode`)."""
    if located is None or isinstance(located.node, ast.ClassDef):
        return False
    found = in_force(located.node, code, line)
    return found is not None and any(
        b.line < line and not (isinstance(b.value, ast.Name) and b.value.id == keyword) for b in found.bindings
    )


def private_name(qualname: str) -> bool:
    """`_encode_files`, `_Parser.feed`: a name the package keeps to itself (`__init__` is no such name)."""
    return any(part.startswith("_") and not part.endswith("__") for part in qualname.split("."))


def _of_parameter(func: FunctionNode, keyword: str) -> Receives:
    """The parameter named `keyword` (or the `**kwargs` entry a method pops for it)."""
    param = next((p for p in parameters(func) if p.arg == keyword), None)
    default = keyword_default(func, keyword)
    if param is not None and param.annotation is not None:
        types, values = annotation_types(param.annotation)
        if types is not None and isinstance(default, ast.Constant) and default.value is None:
            types = sorted({*types, "None"})
        return {"user_set": True, "types": types, "values": values}
    if isinstance(default, ast.Constant) and default.value is not None:
        return {"user_set": True, "types": [type_name(default.value)], "values": []}
    return NOT_KNOWN


def annotation_types(node: ast.expr) -> tuple[list[str] | None, list[JsonValue]]:
    """The type (or class) names an annotation allows, and a `Literal`'s values; None for the names when it allows
    anything (`Any`, `object`)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return [], []
    names: set[str] = set()
    values: list[JsonValue] = []
    for part in _union_parts(node):
        found = _part_types(part, values)
        if found is None:
            return None, []
        names |= found
    return sorted(names), values


def _union_parts(node: ast.expr) -> list[ast.expr]:
    """`A | B`, `Union[A, B]`, `Optional[A]`: the parts."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _union_parts(node.left) + _union_parts(node.right)
    if isinstance(node, ast.Subscript) and _last(node.value) in ("Union", "Optional"):
        inner = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        parts = [p for element in inner for p in _union_parts(element)]
        return parts + ([ast.Constant(value=None)] if _last(node.value) == "Optional" else [])
    return [node]


def _part_types(node: ast.expr, values: list[JsonValue]) -> set[str] | None:
    """The names one part of a union allows (a `Literal`'s plain values are added to `values`); None: anything."""
    if isinstance(node, ast.Constant) and node.value is None:
        return {"None"}
    name = _last(node.value) if isinstance(node, ast.Subscript) else _last(node)
    if name in _ANY:
        return None
    if isinstance(node, ast.Subscript) and name == "Literal":
        inner = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        values.extend(e.value for e in inner if isinstance(e, ast.Constant) and isinstance(e.value, _PLAIN))
        return set()
    if name in _GENERIC:
        return {_GENERIC[name]}
    return {name} if name else set()


def _last(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def type_name(value: object) -> str:
    """The name `annotation_types` gives the type of a plain value."""
    return "None" if value is None else type(value).__name__


def fits(value: object, domain: Receives) -> bool:
    """Whether a candidate value (JSON data or an `Instance`) is one the input can be given."""
    if not domain["user_set"]:
        return False
    types = domain["types"]
    if types is None or any(value == v and type(value) is type(v) for v in domain["values"]):
        return True
    name = value.cls if isinstance(value, Instance) else type_name(value)
    return name in types or (name == "int" and "float" in types)


def type_tested(node: ast.expr) -> set[str]:
    """The inputs (as code) whose type a condition tests with `isinstance`."""
    return {
        ast.unparse(sub.args[0])
        for sub in ast.walk(node)
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == "isinstance" and sub.args
    }
