"""The classes an object a method is called on is known to hold, from what the code states about it.

`Cls(...)` builds exactly a `Cls`; a parameter annotated `Cls`, or the value of a function or method
whose return annotation names `Cls`, is a `Cls` or an instance of a subclass (so a call through it
also reaches the subclasses' overrides). `self.x` holds what the methods of the class, of its bases
and of its subclasses bind to `self.x` (`self.x = Cls()`, `self.x: Cls`), or what its property `x`
is annotated to return. A name the module binds once to `Cls(...)` (`api = HfApi()`) holds a `Cls` wherever
no function around the use binds it; `with Cls(...) as name:` binds a `Cls` when `Cls.__enter__` returns `self`.
Nothing is inferred beyond these statements; names resolve through imports.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Sequence
from typing import NamedTuple

from errdex.pages.hierarchy import Bound, Classes, Symbol, annotated, dotted, run_by, statements
from errdex.pages.source import FunctionNode, find, parse


class Known(NamedTuple):
    """A class an object holds: how it is known, and whether it is exactly that class (built by `Cls(...)`)."""

    how: str  # class (`Cls.name`) | typed (built, annotated or returned)
    symbol: Symbol
    exact: bool  # False: an instance of the class or of one of its subclasses


class Held(NamedTuple):
    """The classes an object may hold, and whether every binding of it was understood."""

    known: tuple[Known, ...]
    complete: bool


class Receivers:
    """What the objects used in one file are known to hold."""

    def __init__(self, classes: Classes, path: str) -> None:
        self.classes = classes
        self.path = path
        self._locals: dict[tuple[int, str], tuple[FunctionNode, Known | None]] = {}

    def held(self, receiver: ast.expr, function: FunctionNode | None, cls: Symbol | None) -> Held | None:
        """`Cls.name`, `make(...).name`, a local of the enclosing `function`, or `self.x` in class `cls`."""
        if isinstance(receiver, ast.Call):
            return _one(self.returned(self.path, dotted(receiver.func), cls))
        symbol = self.a_class(self.path, dotted(receiver))
        if symbol is not None:
            return Held((Known("class", symbol, True),), True)
        if isinstance(receiver, ast.Name) and function is not None:
            key = (id(function), receiver.id)
            if key not in self._locals or self._locals[key][0] is not function:
                self._locals[key] = (function, self._local(function, receiver.id, cls))
            return _one(self._locals[key][1])
        if _is_self(receiver) and cls is not None:
            assert isinstance(receiver, ast.Attribute)
            return self._attribute(cls, receiver.attr)
        return None

    def instance(self, name: str, scopes: Sequence[ast.ClassDef | FunctionNode]) -> Held | None:
        """What a name the module binds once to a call holds (`api = HfApi()`, then `api.create_repo`), read in the
        innermost of `scopes` (empty at the top level) where no enclosing function, nor that class's body, binds it."""
        callee = self.classes.info(self.path).instances.get(name)
        if callee is None:
            return None
        functions = [s for s in scopes if not isinstance(s, ast.ClassDef)]
        own = [scopes[-1]] if scopes and isinstance(scopes[-1], ast.ClassDef) else []
        if any(_binds(scope, name) for scope in [*functions, *own]):
            return None
        return _one(self.returned(self.path, callee, None))

    def a_class(self, path: str, name: str) -> Symbol | None:
        """The release's class a dotted name used in a file stands for."""
        symbol = self.classes.resolve(path, name) if name else None
        if symbol is None and "." in name:
            symbol = self.classes.resolve_qualified(name)
        return symbol if symbol is not None and self.classes.class_info(symbol) is not None else None

    def returned(self, path: str, callee: str, cls: Symbol | None) -> Known | None:
        """What a call of `callee` (as written in `path`, in a method of `cls`) returns: the class it
        constructs, or the one class the called function's or method's return annotation names."""
        symbol = self.a_class(path, callee)
        if symbol is not None:
            return Known("typed", symbol, True)
        head, _, method = callee.rpartition(".")
        owner = cls if head in ("self", "cls") else self.a_class(path, head) if head else None
        if owner is not None:
            found = self.classes.lookup(owner, method)
            info = self.classes.class_info(found) if found is not None else None
            return self._annotated(found.file, info.returns.get(method, ())) if found and info else None
        function = self.classes.resolve(path, callee) if callee else None
        if function is None or self.classes.class_info(function) is not None:
            return None
        return self._annotated(function.file, self.classes.info(function.file).returns.get(function.qualname, ()))

    def _annotated(self, path: str, names: tuple[str, ...] | list[str]) -> Known | None:
        """The one class an annotation names (None when it names several, or something else)."""
        found = {self.a_class(path, name) for name in names}
        symbol = found.pop() if len(found) == 1 else None
        return Known("typed", symbol, False) if symbol is not None else None

    def _local(self, function: FunctionNode, name: str, cls: Symbol | None) -> Known | None:
        """The one class a local holds: its annotation as a parameter, or what every `name = f(...)` returns."""
        for arg in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]:
            if arg.arg == name:
                return self._annotated(self.path, annotated(arg.annotation))
        values = _assigned(function).get(name, [])
        bound = [self.returned(self.path, dotted(v.func), cls) if isinstance(v, ast.Call) else None for v in values]
        bound += [self._entered(e, cls) for e in _entered(function).get(name, [])]
        known = [k for k in bound if k is not None]
        symbols = {k.symbol for k in known}
        if len(known) < len(bound) or len(symbols) != 1:
            return None
        return Known("typed", symbols.pop(), all(k.exact for k in known))

    def _entered(self, context: ast.expr, cls: Symbol | None) -> Known | None:
        """What `with Cls(...) as name:` binds: the `Cls` built, when its `__enter__` returns `self` on every path
        (`requests.Session`); otherwise what `__enter__` returns is not read."""
        built = self.returned(self.path, dotted(context.func), cls) if isinstance(context, ast.Call) else None
        if built is None:
            return None
        owner = self.classes.lookup(built.symbol, "__enter__")
        text = self.classes.texts.get(owner.file) if owner is not None else None
        tree = parse(text) if text is not None else None
        found = find(tree, f"{owner.qualname}.__enter__") if tree is not None and owner is not None else None
        if found is None or isinstance(found.node, ast.ClassDef):
            return None
        returns = [n for n in ast.walk(found.node) if isinstance(n, ast.Return)]
        this = found.node.args.args[0].arg if found.node.args.args else None
        enters_self = bool(returns) and all(isinstance(r.value, ast.Name) and r.value.id == this for r in returns)
        return built if enters_self else None

    def _attribute(self, cls: Symbol, name: str) -> Held | None:
        """What `self.name` holds in a method of `cls`: the property's annotation, or what the methods of the
        classes whose instances run that method bind to it (each binding a possible class)."""
        found = self.classes.lookup(cls, name)
        info = self.classes.class_info(found) if found is not None else None
        if found is not None and info is not None and name in info.properties:
            return _one(self._annotated(found.file, info.returns.get(name, ())))
        derived = self.classes.subclasses(cls)
        running = (*self.classes.mro(cls)[0], *(derived or ()))
        known = [self._bound(c, bound) for c in running for bound in self._bindings(c, name)]
        kept = tuple(dict.fromkeys(k for k in known if k is not None))
        return Held(kept, None not in known and derived is not None) if kept else None

    def bound_attribute(self, receiver: ast.expr, cls: Symbol | None) -> bool:
        """Whether `receiver` is a `self.x` that the methods of the classes running `cls`'s methods bind: what it
        holds is then what they bind (a library's object, when `held` knows no class of the release among it)."""
        if not (_is_self(receiver) and cls is not None):
            return False
        assert isinstance(receiver, ast.Attribute)
        running = (*self.classes.mro(cls)[0], *(self.classes.subclasses(cls) or ()))
        return any(self._bindings(c, receiver.attr) for c in running)

    def _bindings(self, cls: Symbol, name: str) -> tuple[Bound, ...]:
        info = self.classes.class_info(cls)
        return info.attributes.get(name, ()) if info is not None else ()

    def _bound(self, cls: Symbol, bound: Bound) -> Known | None:
        if bound.annotated:
            return self._annotated(cls.file, [bound.written])
        return self.returned(cls.file, bound.written, cls)


@functools.lru_cache(maxsize=4)
def receivers_of(classes: Classes, path: str) -> Receivers:
    """One file's receivers, kept while its uses are resolved (a local's class is found once per function)."""
    return Receivers(classes, path)


def _one(known: Known | None) -> Held | None:
    return Held((known,), True) if known is not None else None


def _binds(scope: ast.ClassDef | FunctionNode, name: str) -> bool:
    """Whether a function (its parameters included) or a class body binds the name in its own scope."""
    arguments = [] if isinstance(scope, ast.ClassDef) else ast.walk(scope.args)
    for node in [*arguments, *run_by(scope.body)]:
        if isinstance(node, ast.arg) and node.arg == name:
            return True
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            return True
        if isinstance(node, (ast.Import, ast.ImportFrom)) and any(
            (a.asname or a.name.split(".")[0]) == name for a in node.names
        ):
            return True
    return False


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"


@functools.lru_cache(maxsize=64)
def _entered(function: FunctionNode) -> dict[str, list[ast.expr]]:
    """The context expressions each plain name is bound to by `with ... as name` in a function."""
    out: dict[str, list[ast.expr]] = {}
    for node in statements(function.body):
        if isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if isinstance(item.optional_vars, ast.Name):
                    out.setdefault(item.optional_vars.id, []).append(item.context_expr)
    return out


def _assigned(function: FunctionNode) -> dict[str, list[ast.expr]]:
    """The values each plain name is assigned in a function (read once per function, for all its uses)."""
    out: dict[str, list[ast.expr]] = {}
    for node in statements(function.body):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out.setdefault(target.id, []).append(node.value)
    return out
