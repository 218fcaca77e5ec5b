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

from errdex.extract.budget import Budget, TooMuchWork
from errdex.extract.resolve import Unresolved, evaluate

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
        if not rest and head in self.constants:
            definition = self.constants[head]
            value = evaluate(definition.value_node(), self.lookup, depth + 1, self.budget)
            return value, f"{self.path}:{definition.line}"
        if head in self.imports:
            return self._imported(head, rest, depth)
        raise Unresolved(name)

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
