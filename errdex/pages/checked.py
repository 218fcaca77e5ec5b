"""Resolved values the check does not see: a local rebound or changed before the raise, a class's default.

The extractor resolves `fields = {}` to `{}` and `self.allow_multiple_selected` to its class-level
`False`; at the raise `fields` was filled by `fields.update(...)`, and an instance, a subclass, the
constructor's argument or a method's `self.allow_multiple_selected = ...` may replace the class's default.
Such values are taken out of the page's resolved values (conditions and solutions never use them) and listed
with what binds them instead.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from errdex.extract.resolve import dotted_name
from errdex.pages.inforce import Bound, earlier_pass, global_stores, in_force, mutates, rebound, span_holds, walk_scope
from errdex.pages.inputs import local_how, record_kind
from errdex.pages.model import JsonValue, ResolvedValue
from errdex.pages.source import FunctionNode, class_and_bases, find, methods, parameters, subclasses

MAX_STORES = 3  # the places named that assign a class attribute at run time; the rest are counted


@dataclass(frozen=True)
class HeldBack:
    """A resolved value the page does not take as the checked one, and why."""

    name: str
    defined_at: str | None
    note: str

    def json(self) -> ResolvedValue:
        return {
            "name": self.name,
            "value": None,
            "known": False,
            "defined_at": self.defined_at,
            "count": None,
            "alternatives": [],
            "choice": self.note,
        }


def held_back(
    resolved: dict[str, JsonValue],
    resolved_from: dict[str, str],
    tree: ast.Module | None,
    function: str,
    file: str,
    line: int,
) -> list[HeldBack]:
    """The resolved values of a site that are not the values its check sees."""
    located = find(tree, function) if tree is not None else None
    out = []
    for name in resolved:
        defined_at = resolved_from.get(name)
        at = _line_in(defined_at, file)
        note = None
        if tree is not None and at is not None and name.startswith(("self.", "cls.")):
            # a constructor runs once per object: what it stores after the check no later call of it sees
            once = function.rsplit(".", 1)[-1] in ("__init__", "__post_init__")
            note = _class_default(tree, name.split(".", 1)[1], at, reader=(function, line) if once else None)
        elif tree is not None and at is not None and name.isidentifier() and _module_binding(tree, name, at):
            note = _filled_in_place(tree, name, at)
        elif located is not None and not isinstance(located.node, ast.ClassDef) and name.isidentifier():
            found = in_force(located.node, name, line)
            single = found.single if found is not None else None
            if found is not None and found.entry and name in {p.arg for p in parameters(located.node)}:
                note = _or_argument(located.node, function, name, line)
            elif found is not None and (
                single is None or single.line != at or any(n > single.line for n in found.mutated_at)
            ):
                note = f"{local_how(function, name, found)}: its value at the check is not resolved."
            elif single is not None and tree is not None:
                note = _read_of_default(tree, _self_class(tree, function), single)
        if note is not None:
            out.append(HeldBack(name, defined_at, note))
    return out


def _module_binding(tree: ast.Module, name: str, line: int) -> bool:
    """Whether the module's top level binds `name` on `line` (`_FORMAT_TYPES = {}`)."""
    return any(s.lineno == line and _assigns(s, name) for s in tree.body)


def _filled_in_place(tree: ast.Module, name: str, line: int) -> str | None:
    """A module-level name that the module's functions (or its later top-level code) fill in place
    (`_FORMAT_TYPES[name] = ...`, `.append(...)`) or bind again under `global name`: its first binding
    is not what it holds when the check runs."""
    filled: list[str] = []
    rebound: list[str] = []
    for stmt in tree.body:
        functions = [n for n in ast.walk(stmt) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        for function in functions:
            if _shadows(function, name):
                continue
            lines = [getattr(n, "lineno", 0) for n in walk_scope(function) if n is not function and mutates(n, name)]
            filled += [f"`{function.name}` (line {n})" for n in lines[:1]]
            rebound += [f"`{function.name}` (line {n})" for n in global_stores(function, name)[:1]]
        if stmt.lineno > line and not functions and any(mutates(n, name) for n in walk_scope(stmt)):
            filled.append(f"the module's own code (line {stmt.lineno})")
    changes = [
        f"{how} by {', '.join(dict.fromkeys(places))}"
        for how, places in (("filled in place", filled), ("bound again", rebound))
        if places
    ]
    if not changes:
        return None
    said = " and ".join(changes)
    return f"`{name}` is bound at line {line} and then {said}: what it holds at the check is not resolved."


def _shadows(function: FunctionNode, name: str) -> bool:
    """Whether the function has its own local `name` (a parameter or a store without `global`)."""
    if any(isinstance(n, ast.Global) and name in n.names for n in walk_scope(function)):
        return False
    stored = any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in walk_scope(function)
    )
    return stored or name in {p.arg for p in parameters(function)}


def _read_of_default(tree: ast.Module, owner: ast.ClassDef | None, bound: Bound) -> str | None:
    """`week = self.week` (or `debug = Settings.debug`, `limit = LIMIT`) whose value was resolved through the
    attribute or module name it reads: held back like a direct read of that default, when that can change."""
    value = bound.value
    read = f"`{bound.code}` (line {bound.line}) reads `{ast.unparse(value)}`" if value is not None else ""
    if isinstance(value, ast.Name):
        binding = next((s for s in tree.body if _assigns(s, value.id)), None)
        filled = _filled_in_place(tree, value.id, binding.lineno) if binding is not None else None
        return f"{read}: {filled}" if filled is not None else None
    if not (isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name)):
        return None
    head = value.value.id
    if head in ("self", "cls"):
        classes = class_and_bases(tree, owner)
    else:  # `Settings.debug`: a class of the module, read through its name; its default holds until assigned
        named = [c for c in tree.body if isinstance(c, ast.ClassDef) and c.name == head]
        classes = class_and_bases(tree, named[-1]) if named and _stored_by(tree, named[-1], value.attr) else []
    for cls in classes:
        stmt = next((s for s in cls.body if _assigns(s, value.attr)), None)
        default = _class_default(tree, value.attr, stmt.lineno, head in ("self", "cls")) if stmt is not None else None
        if default is not None:
            return f"{read}: {default}"
    return None


def _assigns(stmt: ast.stmt, name: str) -> bool:
    """A class-body statement giving `name` a value (`name = ...`, `name: T = ...`)."""
    if isinstance(stmt, ast.Assign):
        return any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
    return (
        isinstance(stmt, ast.AnnAssign)
        and stmt.value is not None
        and isinstance(stmt.target, ast.Name)
        and stmt.target.id == name
    )


def _or_argument(func: FunctionNode, function: str, name: str, line: int) -> str:
    """A parameter bound again only on some paths to the raise: each binding with its test, else the argument."""
    each = [
        f"`{r.bound.code}` (line {r.bound.line}{earlier_pass(r.bound.line, line)})"
        + (f" when `{r.when}`" if r.when else "")
        for r in rebound(func, [name], line)
    ]
    return (
        f"`{name}` is bound again by {' or '.join(each)}, and is otherwise the argument passed to `{function}`:"
        " its value at the check is not resolved."
    )


def _line_in(defined_at: str | None, file: str) -> int | None:
    """The line of a definition in the site's own file (None elsewhere)."""
    if not defined_at or ":" not in defined_at:
        return None
    where, _, number = defined_at.rpartition(":")
    return int(number) if where == file and number.isdigit() else None


def _class_default(
    tree: ast.Module, attr: str, line: int, through_objects: bool = True, reader: tuple[str, int] | None = None
) -> str | None:
    """The words for a class-level `attr = ...` on `line`: a default that the check may not see, with the code
    that assigns the attribute at run time (a method's `self.attr = ...`, a function's `Class.attr = ...`).
    `through_objects`: read through `self`/`cls`, where an instance or a subclass can also replace it. `reader`:
    the checking constructor and the check's line, whose own stores after the check come too late for it."""
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        stmt = next((s for s in cls.body if s.lineno == line and isinstance(s, (ast.Assign, ast.AnnAssign))), None)
        if stmt is None:
            continue
        replaced = "an instance or a subclass"
        if isinstance(stmt, ast.AnnAssign) and record_kind(cls) is not None:
            replaced = f"the constructor's argument `{cls.name}({attr}=...)`, an instance or a subclass"
        elif attr in _init_parameters(cls):
            replaced = f"the argument `{attr}` of `{cls.name}.__init__`, an instance or a subclass"
        default = f"`{ast.unparse(stmt)}` (line {line}) is"
        stores = _stored_by(tree, cls, attr, reader) + _made_by_type(tree, cls)
        own = _set_by_subclasses(tree, cls, attr)
        if own:
            listed = ", ".join(f"`{name}` (line {at})" for name, at in own[:MAX_STORES])
            more = f" and {len(own) - MAX_STORES} more" if len(own) > MAX_STORES else ""
            return (
                f"{default} only `{cls.name}`'s class default: {len(own)} subclass{'es' if len(own) > 1 else ''} of"
                f" the module set{'s' if len(own) == 1 else ''} `{attr}` in {'their' if len(own) > 1 else 'its'}"
                f" class body ({listed}{more}), and objects of {'those' if len(own) > 1 else 'that'} see their own:"
                " its value at the check is not resolved."
            )
        if not stores:  # what the check sees, unless code outside the module sets another
            unless = f": the check sees it unless {replaced} sets another" if through_objects else ""
            late = _stored_by(tree, cls, attr) if reader is not None else []
            after = f" before the check; `{reader[0]}` does, after it" if late and reader is not None else ""
            return f"{default} `{cls.name}`'s class default{unless} (no code of the module assigns it{after})."
        said = f"{default} only `{cls.name}`'s class default"
        said += f": {replaced} can replace it" if through_objects else ""
        more = f" and {len(stores) - MAX_STORES} more places" if len(stores) > MAX_STORES else ""
        assigned = " and ".join(stores[:MAX_STORES])
        return f"{said}, and {assigned}{more} at run time: its value at the check is not resolved."
    return None


def _made_by_type(tree: ast.Module, cls: ast.ClassDef) -> list[str]:
    """`type('ConstrainedDecimalValue', (ConstrainedDecimal,), namespace)`: a subclass the module makes at run
    time, whose namespace may set any class attribute (first line of each function that makes one)."""
    out = []
    for scope in _scopes(tree, "", None):
        made = [
            n
            for n in walk_scope(scope.node)
            if isinstance(n, ast.Call)
            and dotted_name(n.func) == "type"
            and len(n.args) == 3
            and isinstance(n.args[1], ast.Tuple)
            and any((dotted_name(b) or "").rsplit(".", 1)[-1] == cls.name for b in n.args[1].elts)
        ]
        if made:
            who = f"`{scope.qualname}`" if scope.qualname else "the module's own code"
            out.append(f"{who} makes a subclass of it with `type(...)` (line {min(n.lineno for n in made)})")
    return out


def _set_by_subclasses(tree: ast.Module, cls: ast.ClassDef, attr: str) -> list[tuple[str, int]]:
    """The classes of the module, nested ones too, derived from `cls` (by the last part of a base's name) that bind
    `attr` in their own body (`arrow = "<-"`), each with that line."""
    derived = {cls.name}
    classes = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    grown = True
    while grown:
        found = {c.name for c in classes if any((dotted_name(b) or "").rsplit(".", 1)[-1] in derived for b in c.bases)}
        grown = not found <= derived
        derived |= found
    out = []
    for c in classes:
        if c is cls or c.name not in derived:
            continue
        stmt = next((s for s in c.body if _assigns(s, attr)), None)
        if stmt is not None:
            out.append((c.name, stmt.lineno))
    return out


def _stored_by(tree: ast.Module, cls: ast.ClassDef, attr: str, reader: tuple[str, int] | None = None) -> list[str]:
    """Where the module assigns the class attribute after the class body: `self.attr = ...` / `cls.attr = ...` in
    a function of the class, a base or a subclass, or `Name.attr = ...` naming one of them (first line of each);
    in the `reader` function, only stores before its check's line (or in a loop that holds the check)."""
    related = class_and_bases(tree, cls) + subclasses(tree, cls)
    names = {c.name for c in related}
    out = []
    for scope in _scopes(tree, "", None):
        receivers = names | ({"self", "cls"} if scope.owner in related else set())
        stores = [
            n
            for n in walk_scope(scope.node)
            if isinstance(n, ast.Attribute)
            and n.attr == attr
            and isinstance(n.ctx, (ast.Store, ast.Del))
            and isinstance(n.value, ast.Name)
            and n.value.id in receivers
        ]
        if reader is not None and scope.qualname == reader[0]:
            stores = [n for n in stores if n.lineno < reader[1] or _loop_holds(scope.node, n.lineno, reader[1])]
        if stores:
            first = min(stores, key=lambda n: n.lineno)
            who = f"`{scope.qualname}`" if scope.qualname else "the module's own code"
            out.append(f"{who} assigns `{ast.unparse(first)}` (line {first.lineno})")
    return out


def _loop_holds(function: ast.AST, first: int, second: int) -> bool:
    """Whether a loop of the function holds both lines (a store after the check reaches it on the next pass)."""
    return any(
        isinstance(n, (ast.For, ast.AsyncFor, ast.While)) and span_holds(n, first) and span_holds(n, second)
        for n in walk_scope(function)
    )


@dataclass(frozen=True)
class _Scope:
    """A function (or the module, or a class body) by qualified name, with the class its `self` is an object of:
    the classes leading the name before its first function, as the extractor reads `self.X`."""

    qualname: str
    node: ast.AST
    owner: ast.ClassDef | None


def _scopes(node: ast.AST, qualname: str, owner: ast.ClassDef | None) -> Iterator[_Scope]:
    yield _Scope(qualname, node, owner)
    in_function = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    for child in walk_scope(node):
        for inner in ast.iter_child_nodes(child):
            if not isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            name = f"{qualname}.<locals>.{inner.name}" if in_function else f"{qualname}.{inner.name}".lstrip(".")
            inner_owner = owner if in_function or not isinstance(inner, ast.ClassDef) else inner
            yield from _scopes(inner, name, inner_owner)


def _self_class(tree: ast.Module, function: str) -> ast.ClassDef | None:
    """The class whose objects `self` names in the function `function` (`A.m.<locals>.g` -> `A`)."""
    return next((s.owner for s in _scopes(tree, "", None) if s.qualname == function), None)


def _init_parameters(cls: ast.ClassDef) -> set[str]:
    init = methods(cls).get("__init__")
    return {p.arg for p in parameters(init)} if init is not None else set()
