"""What a module defines at the top: constants, imports and classes, for resolving names.

Definitions are kept as text and parsed only when a name is looked up, because most constants
of a module are never needed. Names imported from other modules of the same package are
followed through a `Package` callback; without one (while a single file is analysed) such a
lookup raises `NeedsPackage`, and the name is resolved later when the whole release is linked.

A module's names do not change once it is read, so every lookup is remembered (per depth, so
that the depth bound gives the same answer as without the memo): a name used by many sites, or
reached through many others, is evaluated once.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from errdex.extract.bindings import Alternative, TooMany, alternatives
from errdex.extract.budget import Budget, TooMuchWork
from errdex.extract.resolve import Unresolved, evaluate, to_json
from errdex.model import Binding

Package = Callable[[str], "ModuleScope | None"]  # absolute module name -> its scope


class NeedsPackage(Unresolved):
    """The value comes from another module of the package, not known while one file is read."""


@dataclass
class Definition:
    """`name = value` at module or class level: its line and its text, parsed on first use."""

    line: int
    text: str | None = None
    node: ast.expr | None = None

    def value_node(self) -> ast.expr:
        if self.node is None:
            self.node = _assigned_value(self.text or "")
        return self.node


@dataclass
class Block:
    """A module-level statement that may bind names besides plain assignment (`if`, `try`, `X += ...`):
    its line and text, parsed on first use (see `bindings.py`)."""

    line: int
    text: str | None = None
    statement: ast.stmt | None = None

    def parsed(self) -> ast.stmt:
        if self.statement is None:
            text = self.text or ""
            try:
                self.statement = ast.parse("\n" * (self.line - 1) + text).body[0]
            except (SyntaxError, ValueError, RecursionError, MemoryError, IndexError) as exc:
                raise Unresolved("block does not parse") from exc
        return self.statement


def _assigned_value(text: str) -> ast.expr:
    try:
        tree = ast.parse("if 1:\n" + text if text[:1] in " \t" else text)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise Unresolved("definition does not parse") from exc
    stmt = tree.body[0]
    if isinstance(stmt, ast.If):
        stmt = stmt.body[0]
    value = getattr(stmt, "value", None)
    if not isinstance(stmt, (ast.Assign, ast.AnnAssign)) or value is None:
        raise Unresolved("not an assignment")
    return value


@dataclass
class ClassScope:
    """A class of the module: its bases as written and its class-level constants."""

    qualname: str
    line: int
    bases: tuple[str, ...]
    constants: dict[str, Definition] = field(default_factory=dict)
    attributes: tuple[str, ...] = ()
    message_templates: list[str] = field(default_factory=list)
    given_attribute: tuple[str, str] | None = (
        None  # where `__init__` keeps its first argument, and what it strips of it
    )
    read_constants: Callable[[], dict[str, Definition]] | None = None  # fills `constants` on first lookup

    def constant(self, name: str) -> Definition | None:
        """A class-level constant; a body left unread (most are never looked up) is read now."""
        if self.read_constants is not None:
            self.constants, self.read_constants = self.read_constants(), None
        return self.constants.get(name)


class ModuleScope:
    """Top-level names of one module of a release."""

    def __init__(self, path: str, budget: Budget | None = None) -> None:
        self.path = path
        self.module = module_name(path)
        self.constants: dict[str, Definition] = {}
        self.blocks: dict[
            str, list[Block]
        ] = {}  # name -> statements after its last plain assignment that may rebind it
        self._alternatives: dict[str, list[Alternative] | None] = {}
        self.imports: dict[str, tuple[str, str | None]] = {}  # local name -> (module, attribute)
        self.classes: dict[str, ClassScope] = {}
        self.package: Package | None = None
        self.budget = budget if budget is not None else Budget.unlimited()
        self._known: dict[tuple[str, ...], tuple[Any, str] | _Failed] = {}

    # -- building -------------------------------------------------------------------------
    def add_import(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    self.imports[alias.asname] = (alias.name, None)
                else:
                    top = alias.name.split(".", 1)[0]
                    self.imports[top] = (top, None)
            return
        base = self.absolute(node.module, node.level)
        for alias in node.names:
            if alias.name != "*":
                self.imports[alias.asname or alias.name] = (base, alias.name)

    def absolute(self, module: str | None, level: int) -> str:
        """The absolute name of a (possibly relative) imported module."""
        if level == 0:
            return module or ""
        parts = self.module.split(".")
        if not self.path.endswith("__init__.py"):
            parts = parts[:-1]
        parts = parts[: max(len(parts) - (level - 1), 0)]
        if module:
            parts.append(module)
        return ".".join(parts)

    # -- lookup ---------------------------------------------------------------------------
    def lookup(self, name: str, depth: int = 0) -> Any:
        """The value of a module-level name, `Class.ATTR`, or `module.NAME` of an import."""
        value, _origin = self.lookup_with_origin(name, depth)
        return value

    def lookup_with_origin(self, name: str, depth: int = 0) -> tuple[Any, str]:
        return self._remembered(("name", name, str(depth)), lambda: self._find(name, depth))

    def _find(self, name: str, depth: int) -> tuple[Any, str]:
        head, _, rest = name.partition(".")
        if rest and head in self.classes:
            return self.class_constant(head, rest, depth)
        if not rest and head in self.blocks and self.alternatives(head) is not None:
            return self._chosen(head, depth)
        if not rest and head in self.constants:
            definition = self.constants[head]
            return self._value(definition.value_node(), depth), f"{self.path}:{definition.line}"
        if head in self.imports:
            return self._imported(head, rest, depth)
        raise Unresolved(name)

    # -- names bound under conditions (see `bindings.py`) --------------------------------------
    def add_block(self, name: str, block: Block) -> None:
        """A statement after the name's plain assignments that may bind it again."""
        self.blocks.setdefault(name, []).append(block)

    def add_constant(self, name: str, definition: Definition) -> None:
        """A plain assignment: it replaces what the name was bound to before."""
        self.constants[name] = definition
        self.blocks.pop(name, None)

    def alternatives(self, name: str) -> list[Alternative] | None:
        """Each value a name bound under conditions may have, in order, with its conditions; None when the
        statements that looked as if they might rebind it do not (a keyword argument on its own line)."""
        if name in self._alternatives:
            return self._alternatives[name]
        plain = self.constants.get(name)
        if plain is not None:
            state = [Alternative((), plain.line, plain.value_node())]
        else:
            state = [Alternative((), 0, None, imported=True)] if name in self.imports else []
        try:
            found = alternatives([b.parsed() for b in self.blocks[name]], name, state)
        except (TooMany, Unresolved):  # too many to follow, or a block that does not parse: the value is not known
            found = [Alternative((), self.blocks[name][-1].line, None)]
        self._alternatives[name] = None if found is state else found
        return self._alternatives[name]

    def _evaluated(self, name: str, depth: int, keys: bool = False) -> list[tuple[Alternative, Any]]:
        """The alternatives with their values, or only their keys (`_UNKNOWN` where not resolved)."""
        out = []
        for alternative in self.alternatives(name) or ():
            try:
                if alternative.imported:
                    value = self._imported(name, "", depth)[0]
                elif alternative.node is None:
                    raise Unresolved("bound by a statement whose value is not known")
                else:
                    value = self._value(alternative.node, depth, keys)
                if keys:
                    value = _keys(value)
            except (NeedsPackage, TooMuchWork):
                raise
            except (Unresolved, RecursionError):
                value = _UNKNOWN
            out.append((alternative, value))
        return out

    def _chosen(self, name: str, depth: int) -> tuple[Any, str]:
        """The value a name bound under conditions has where the package is used as it normally is (see `choose`)."""
        alternative, value = choose(self._evaluated(name, depth))
        return value, f"{self.path}:{alternative.line}"

    def bindings(self, name: str, depth: int = 0) -> tuple[Binding, ...] | None:
        """A name's alternatives as records, when it is bound under conditions (else None); names imported
        from another module of the package are followed."""
        head, _, rest = name.partition(".")
        if rest or depth > 8:
            return None
        if head in self.blocks and self.alternatives(head) is not None:
            try:
                found = self._evaluated(head, depth)
            except (Unresolved, RecursionError):
                return None
            return tuple(_binding(self.path, a, v) for a, v in found) if found else None
        if head in self.constants or head not in self.imports or self.package is None:
            return None
        module, attr = self.imports[head]
        target = self.package(module)
        return target.bindings(attr, depth + 1) if target is not None and attr else None

    def keys(self, name: str, depth: int) -> Any:
        """The keys of a mapping a name is bound to: those of a dict display need none of its values
        (`{"static": StaticCache, ...}.keys()` is known when the classes are not)."""
        head, _, rest = name.partition(".")
        if not rest and head in self.blocks and self.alternatives(head) is not None:
            return choose(self._evaluated(head, depth, keys=True))[1]
        if not rest and head in self.constants:
            return _keys(self._value(self.constants[head].value_node(), depth, keys=True))
        return _keys(self.lookup(name, depth))

    def _value(self, node: ast.expr, depth: int, keys: bool = False) -> Any:
        """An expression's value; with `keys`, a dict display's keys alone."""
        if keys and isinstance(node, ast.Dict) and all(k is not None for k in node.keys):
            return [evaluate(k, self.lookup, depth + 1, self.budget, self.keys) for k in node.keys if k is not None]
        return evaluate(node, self.lookup, depth + 1, self.budget, self.keys)

    def class_constant(self, qualname: str, attr: str, depth: int = 0) -> tuple[Any, str]:
        """A class attribute, looked up through the bases defined in this module."""
        return self._remembered(
            ("class", qualname, attr, str(depth)), lambda: self._find_in_class(qualname, attr, depth)
        )

    def _remembered(self, key: tuple[str, ...], find: Callable[[], tuple[Any, str]]) -> tuple[Any, str]:
        """A lookup's answer, worked out once; what depends on the moment (package, budget) is not kept."""
        self.budget.spend()
        known = self._known.get(key)
        if known is None:
            try:
                known = find()
            except (NeedsPackage, TooMuchWork):
                raise
            except Unresolved as exc:
                known = _Failed(str(exc))
            self._known[key] = known
        if isinstance(known, _Failed):
            raise Unresolved(known.reason)
        return known

    def _find_in_class(self, qualname: str, attr: str, depth: int) -> tuple[Any, str]:
        seen: set[str] = set()
        cls = self.classes.get(qualname)
        while cls is not None and cls.qualname not in seen and "." not in attr:
            seen.add(cls.qualname)
            definition = cls.constant(attr)
            if definition is not None:
                value = evaluate(definition.value_node(), self.lookup, depth + 1, self.budget)
                return value, f"{self.path}:{definition.line}"
            cls = next((self.classes[b] for b in cls.bases if b in self.classes), None)
        raise Unresolved(f"{qualname}.{attr}")

    def _imported(self, head: str, rest: str, depth: int) -> tuple[Any, str]:
        module, attr = self.imports[head]
        if module.split(".", 1)[0] != self.module.split(".", 1)[0]:
            raise Unresolved(f"{head} comes from another distribution")
        if self.package is None:
            raise NeedsPackage(head)
        if depth > 8:
            raise Unresolved("import cycle")
        if attr is not None and rest:  # `from pkg import submodule`, then `submodule.NAME`
            submodule = self.package(f"{module}.{attr}")
            if submodule is not None:
                return submodule.lookup_with_origin(rest, depth + 1)
        target = self.package(module)
        if target is None:
            raise Unresolved(head)
        wanted = ".".join(p for p in (attr, rest) if p)
        return target.lookup_with_origin(wanted, depth + 1)


_COLLECTIONS = (tuple, list, dict, frozenset)  # "the richest" value: a flag (`LOADED = True`) has none


class _Unknown:
    """The value of an alternative that could not be resolved."""


_UNKNOWN = _Unknown()


def choose(found: list[tuple[Alternative, Any]]) -> tuple[Alternative, Any]:
    """The alternative that holds when the package runs as it normally does, or raise Unresolved.

    Bindings only a type checker sees (`if TYPE_CHECKING:`) never hold at run time. One alternative
    left, or all with the same value: that one. Otherwise the richest of those that hold with the
    optional dependencies installed (`if is_torch_available():`, a `try` body whose `except
    ImportError` did not run), when they are all collections: a flag such as `LOADED = True` says
    whether the dependency is there, and neither value holds for every user. Otherwise unresolved.
    """
    runtime = [(a, v) for a, v in found if not any(c.kind == "type_checking" and c.holds for c in a.conditions)]
    values = [v for _, v in runtime]
    if runtime and (len(runtime) == 1 or all(v is not _UNKNOWN and v == values[0] for v in values)):
        return _known(runtime[-1])
    installed = [(a, v) for a, v in runtime if any(c.installed for c in a.conditions)]
    if installed and all(isinstance(v, _COLLECTIONS) for _, v in installed):
        return max(installed, key=lambda found: len(found[1]))
    raise Unresolved("several values")


def _known(found: tuple[Alternative, Any]) -> tuple[Alternative, Any]:
    if found[1] is _UNKNOWN:
        raise Unresolved("not known")
    return found


def _keys(value: Any) -> list[Any]:
    """A mapping's keys (a dict display's, already evaluated alone, as they are)."""
    if isinstance(value, dict):
        return list(value)
    if isinstance(value, list):
        return value
    raise Unresolved("not a mapping")


def _binding(path: str, alternative: Alternative, value: Any) -> Binding:
    known = value is not _UNKNOWN
    return Binding(alternative.conditions, path, alternative.line, to_json(value) if known else None, known)


@dataclass(frozen=True)
class _Failed:
    """A remembered lookup that has no value."""

    reason: str


def module_name(path: str) -> str:
    """'a/b/c.py' -> 'a.b.c'; 'a/b/__init__.py' -> 'a.b'."""
    stem = path[:-3] if path.endswith(".py") else path
    parts = stem.split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)
