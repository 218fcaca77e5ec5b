"""Read the code of an indexed release again: parse one file, find a function by qualified name.

Explanations need more than the extractor kept (which method stores an argument, who calls
whom); they parse the few files they need with `ast`, bounded in size, and never run them.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from errdex.extract.file import parser_warnings_silenced
from errdex.extract.resolve import dotted_name

MAX_PARSE_BYTES = 4_000_000
FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
TreeOf = Callable[[str], ast.Module | None]  # another file of the release, parsed (None when absent)


@dataclass(frozen=True)
class FoundDefinition:
    """A function (or class body) found by qualified name, with the class that owns it, if any."""

    node: FunctionNode | ast.ClassDef
    owner: ast.ClassDef | None
    qualname: str


def parse(text: str | None) -> ast.Module | None:
    """The module's tree, or None when there is no text, it is too large, or it does not parse.

    The last few trees are kept: the pages of one file's errors are built one after another, and
    each reads the same tree (no reader changes a tree).
    """
    if text is None or len(text) > MAX_PARSE_BYTES:
        return None
    return _parse(text)


@functools.lru_cache(maxsize=2)
def _parse(text: str) -> ast.Module | None:
    try:
        with parser_warnings_silenced():
            return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def module_name(path: str) -> str:
    """`transformers/generation/configuration_utils.py` -> `transformers.generation.configuration_utils`."""
    parts = path[:-3].split("/") if path.endswith(".py") else path.split("/")
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def module_tree(module: str, tree_of: TreeOf) -> tuple[str, ast.Module] | None:
    """The file of a module of the release and its tree: `a/b.py` or `a/b/__init__.py`."""
    base = module.replace(".", "/")
    for path in (f"{base}.py", f"{base}/__init__.py"):
        tree = tree_of(path)
        if tree is not None:
            return path, tree
    return None


def find(tree: ast.Module, qualname: str) -> FoundDefinition | None:
    """The definition named by a qualified name such as `GenerationConfig.validate` or `f.<locals>.g`."""
    parts = [p for p in qualname.split(".") if p != "<locals>"]
    body: list[ast.stmt] = tree.body
    owner: ast.ClassDef | None = None
    node: FunctionNode | ast.ClassDef | None = None
    for i, part in enumerate(parts):
        node = (_module_definitions(tree) if i == 0 else _definitions_in(body)).get(part)
        if node is None:
            return None
        if isinstance(node, ast.ClassDef) and i < len(parts) - 1:
            owner = node
        elif i < len(parts) - 1:
            owner = None
        body = node.body
    return FoundDefinition(node, owner, qualname) if node is not None else None


@functools.lru_cache(maxsize=2)  # one per module tree: each of its errors' pages looks up names in it
def _module_definitions(tree: ast.Module) -> dict[str, FunctionNode | ast.ClassDef]:
    return _definitions_in(tree.body)


def _definitions_in(body: list[ast.stmt]) -> dict[str, FunctionNode | ast.ClassDef]:
    """The definitions a body makes, by name, looking into `if`/`try`/loop/`with` blocks; the last one wins, as at
    run time."""
    out: dict[str, FunctionNode | ast.ClassDef] = {}
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out[stmt.name] = stmt
        elif isinstance(stmt, (ast.If, ast.Try, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith)):
            out.update(_definitions_in([*stmt.body, *getattr(stmt, "orelse", []), *getattr(stmt, "finalbody", [])]))
    return out


def methods(cls: ast.ClassDef) -> dict[str, FunctionNode]:
    """The methods a class body defines, by name."""
    return {s.name: s for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}


def keyword_default(func: FunctionNode, name: str) -> ast.expr | None:
    """What a call that leaves out keyword `name` gives it: the parameter's default, or the default of
    `kwargs.pop("name", default)` / `kwargs.get(...)` in the body; None when neither is written, or the body
    writes two different ones."""
    declared = parameter_defaults(func).get(name)
    if declared is not None:
        return declared
    kwargs = func.args.kwarg.arg if func.args.kwarg else None
    found = [
        node.args[1]
        for node in ast.walk(func)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("pop", "get")
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == kwargs
        and len(node.args) == 2
        and isinstance(node.args[0], ast.Constant)
        and node.args[0].value == name
    ]
    return found[0] if len({ast.dump(d) for d in found}) == 1 else None  # two different defaults: not one


def parameters(func: FunctionNode) -> list[ast.arg]:
    """Every named parameter of a function, `self`/`cls` excluded."""
    a = func.args
    named = [*a.posonlyargs, *a.args, *a.kwonlyargs]
    return [p for p in named if p.arg not in ("self", "cls")]


def parameter_defaults(func: FunctionNode) -> dict[str, ast.expr]:
    """Each parameter that has a default (positional or keyword-only), with its default as written."""
    a = func.args
    positional = [*a.posonlyargs, *a.args]
    out = {p.arg: d for p, d in zip(positional[len(positional) - len(a.defaults) :], a.defaults, strict=True)}
    out.update({p.arg: d for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is not None})
    return out


def signature(func: FunctionNode) -> str | None:
    """`validate(self, strict=False, user_set_attributes=None)` as written (annotations left out)."""
    try:
        return f"{func.name}({ast.unparse(copy_without_annotations(func.args))})"
    except (RecursionError, ValueError):
        return None


def copy_without_annotations(args: ast.arguments) -> ast.arguments:
    strip = lambda items: [ast.arg(arg=a.arg) for a in items]  # noqa: E731
    return ast.arguments(
        posonlyargs=strip(args.posonlyargs),
        args=strip(args.args),
        vararg=ast.arg(arg=args.vararg.arg) if args.vararg else None,
        kwonlyargs=strip(args.kwonlyargs),
        kw_defaults=args.kw_defaults,
        kwarg=ast.arg(arg=args.kwarg.arg) if args.kwarg else None,
        defaults=args.defaults,
    )


def is_static(func: FunctionNode) -> bool:
    """Whether a method is a staticmethod or classmethod (called on the class, not an instance)."""
    return decorated_as(func, "staticmethod", "classmethod")


def decorated_as(func: FunctionNode, *names: str) -> bool:
    """Whether a decorator of `func` is one of these names, as written (`@staticmethod`)."""
    return any(isinstance(d, ast.Name) and d.id in names for d in func.decorator_list)


CONSTRUCTORS = ("__init__", "__new__")  # the methods `Cls(...)` runs: a call of the class


def is_constructor(qualname: str) -> bool:
    """`Cls.__init__` or `Cls.__new__`: users call the class."""
    owner, _, name = qualname.rpartition(".")
    return bool(owner) and name in CONSTRUCTORS


def is_accessor(func: FunctionNode) -> bool:
    """A property's setter or deleter (`@x.setter`): users assign or delete the attribute, they never call it."""
    return any(isinstance(d, ast.Attribute) and d.attr in ("setter", "deleter") for d in func.decorator_list)


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def instance_name(cls: str) -> str:
    """The usual variable name for an instance of a class: `GenerationConfig` -> `generation_config`."""
    return _CAMEL.sub("_", cls).lower()


def call_code(qualname: str, func: FunctionNode | None, keywords: list[str], static: bool = False) -> str | None:
    """How a user calls a function with these keyword arguments, or None for a nested function.

    `Cls.__init__` (or `__new__`) is called as `Cls(name=...)`, `Cls.__call__` as `cls(name=...)`, a method as
    `cls.meth(name=...)`, a static or class method as `Cls.meth(...)`, a module function as `func(...)`; a
    property's setter is assigned, not called (None).
    """
    if "<locals>" in qualname or (func is not None and is_accessor(func)):
        return None
    parts = qualname.split(".")
    args = ", ".join(f"{k}=..." for k in keywords)
    if len(parts) == 1:
        return f"{parts[0]}({args})"
    owner, name = parts[-2], parts[-1]
    if name in CONSTRUCTORS:
        return f"{owner}({args})"
    if name == "__call__":
        return f"{instance_name(owner)}({args})"
    receiver = owner if static or (func is not None and is_static(func)) else instance_name(owner)
    return f"{receiver}.{name}({args})"


def subclasses(tree: ast.Module, cls: ast.ClassDef) -> list[ast.ClassDef]:
    """The classes of the module that derive from `cls`, directly or through others of the module."""
    return [c for c in tree.body if isinstance(c, ast.ClassDef) and cls in class_and_bases(tree, c)[1:]]


def class_and_bases(tree: ast.Module, cls: ast.ClassDef | None) -> list[ast.ClassDef]:
    """The class, then its base classes defined in the same module (nearest first)."""
    if cls is None:
        return []
    out = [cls]
    by_name = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    queue = list(cls.bases)
    while queue and len(out) < 16:
        base = queue.pop(0)
        found = by_name.get(base.id) if isinstance(base, ast.Name) else None
        if found is not None and found not in out:
            out.append(found)
            queue += found.bases
    return out


def abc_declared(cls: ast.ClassDef) -> bool:
    """Whether the class itself declares `ABCMeta` as its metaclass or derives from `ABC` (not its bases)."""
    meta = any(k.arg == "metaclass" and (dotted_name(k.value) or "").endswith("ABCMeta") for k in cls.keywords)
    return meta or any(dotted_name(b) in ("ABC", "abc.ABC") for b in cls.bases)
