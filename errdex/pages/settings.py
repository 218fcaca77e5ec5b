"""Which attributes of a class are settings a user sets: related errors "of the same setting" are kept only
for those. A setting is an attribute the class (or a class of its hierarchy in the module) stores from a
constructor parameter or keyword of the same name (`self.weights = weights`, `self.mode =
kwargs.pop("mode", None)`), or a dataclass field; a property or an attribute the package computes
(`self.dtype` read from `self.values`) is not one, and two checks reading it are not related by it."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable

from errdex.extract.resolve import dotted_name
from errdex.model import Related
from errdex.pages.inforce import walk_scope
from errdex.pages.source import FunctionNode, class_and_bases, find, methods, parameters, subclasses

_CONSTRUCTORS = ("__init__", "__new__")
_KEYWORD_READS = ("pop", "get")  # `kwargs.pop("name", default)`, `kwargs.get("name")`


def kept_related(
    related: Iterable[Related], tree: ast.Module | None, function: str, tree_of: Callable[[str], ast.Module | None]
) -> tuple[Related, ...]:
    """The related errors, those of a "setting" only when it is one a user sets: on the site's class (its file is
    `tree`), or on the related error's class, read from its own file (`tree_of` a path); the store related both
    through one class hierarchy."""
    found = list(related)
    if all(r.relation != "setting" for r in found):
        return tuple(found)
    owner = function.rpartition(".")[0]
    settings = user_settings(tree, owner) if tree is not None and owner else frozenset()
    return tuple(r for r in found if r.relation != "setting" or r.setting in settings or _theirs(r, tree_of))


def _theirs(related: Related, tree_of: Callable[[str], ast.Module | None]) -> bool:
    """Whether the related error's own class stores its setting from a constructor argument of its name."""
    owner = related.function.rpartition(".")[0]
    tree = tree_of(related.file) if owner else None
    return tree is not None and related.setting in user_settings(tree, owner)


def user_settings(tree: ast.Module, owner: str) -> frozenset[str]:
    """The attributes the class `owner` of the module, its bases or subclasses there store from a constructor
    argument of the same name, and its dataclass fields (empty when the class is not found)."""
    located = find(tree, owner)
    if located is None or not isinstance(located.node, ast.ClassDef):
        return frozenset()
    family = dict.fromkeys(class_and_bases(tree, located.node) + subclasses(tree, located.node))
    out: set[str] = set()
    for cls in family:
        out |= _fields(cls)
        for name, method in methods(cls).items():
            if name in _CONSTRUCTORS:
                out |= _stored_arguments(method)
    return frozenset(out)


def _fields(cls: ast.ClassDef) -> set[str]:
    """A dataclass's fields: its constructor takes each by name."""
    if not any((dotted_name(_decorator(d)) or "").endswith("dataclass") for d in cls.decorator_list):
        return set()
    return {
        stmt.target.id
        for stmt in cls.body
        if isinstance(stmt, ast.AnnAssign)
        and isinstance(stmt.target, ast.Name)
        and "ClassVar" not in ast.unparse(stmt.annotation)
    }


def _decorator(node: ast.expr) -> ast.expr:
    return node.func if isinstance(node, ast.Call) else node


def _stored_arguments(method: FunctionNode) -> set[str]:
    """`self.NAME = <reads the parameter NAME>` or `self.NAME = kwargs.pop("NAME", ...)` in a constructor."""
    positional = [*method.args.posonlyargs, *method.args.args]
    if not positional:
        return set()
    receiver = positional[0].arg
    own = {p.arg for p in parameters(method)}
    holders = own | ({method.args.kwarg.arg} if method.args.kwarg else set())
    out: set[str] = set()
    for node in walk_scope(method):
        if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == receiver:
                if (target.attr in own and _reads(node.value, target.attr)) or _keyword(
                    node.value, holders, target.attr
                ):
                    out.add(target.attr)
    return out


def _reads(value: ast.expr, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in walk_scope(value))


def _keyword(value: ast.expr, holders: set[str], name: str) -> bool:
    """`kwargs.pop("name", ...)`, `kwargs.get("name")` or `kwargs["name"]` of the constructor's `**kwargs` or of
    a parameter holding the caller's options (`kwds.get("index_col")`)."""
    key: ast.expr | None
    if isinstance(value, ast.Subscript):
        holder, key = value.value, value.slice
    elif isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _KEYWORD_READS:
        holder, key = value.func.value, value.args[0] if value.args else None
    else:
        return False
    named = isinstance(key, ast.Constant) and key.value == name
    return named and isinstance(holder, ast.Name) and holder.id in holders
