"""The classes and names of a release as the call graph resolves them: imports, bases, MROs, members.

A caller is claimed only when a name resolves to the called definition: `Base` in `class C(Base)` is
followed through the file's imports (and re-exports) to the class it names, so that two classes
called `Command` in two files stay two classes. Each file is summarised once (its imports, its
classes' bases and members, its top-level functions); the tree itself is not kept.
"""

from __future__ import annotations

import ast
import builtins
import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import NamedTuple, cast

from errdex.extract.resolve import dotted_name
from errdex.pages.source import module_name, parse

MAX_DEPTH = 8  # re-exports followed before a name is left unresolved
MAX_SUBCLASS_FILES = 12  # files of a class's subclasses read for what they bind to `self.x`
_CLASS_LINE = re.compile(r"class[ \t]+(\w+)[ \t]*\(([^)]*)\)")  # no anchor: a literal prefix is 5x faster
_RTYPE = re.compile(r"^[ \t]*:rtype:[ \t]*(?::class:)?`?~?([\w.]+)`?[ \t]*$", re.M)
_ALIAS_LINE = re.compile(r"^[ \t]*(\w+)[ \t]*=[ \t]*([A-Za-z_]\w*)[ \t]*(?:#.*)?$", re.M)
_PROPERTIES = frozenset({"property", "cached_property"})
_DATACLASSES = frozenset({"dataclass", "dataclasses.dataclass", "attr.s", "attrs.define", "attr.define"})


class Symbol(NamedTuple):
    """A definition of the release: its file and qualified name (`Command.handle`, `URLResolver`)."""

    file: str
    qualname: str


class Bound(NamedTuple):
    """What an attribute is bound to, as written: the callee of `self.x = f(...)`, or the class of `x: Cls`."""

    written: str  # '' for a value that is neither (`self.x = other.x`): not known
    annotated: bool  # an annotation (an instance of the class or a subclass), not a callee


@dataclass(frozen=True, slots=True)
class ClassInfo:
    """One class: the bases as written, what its body defines, and how its methods are decorated.

    `returns` holds the classes each method's return annotation names, `attributes` what its methods
    bind to `self.x`, `aliases` the class-body names bound to another member (`update = set_value`),
    `extends` the methods that call the method they override (`super().name(...)`, `Base.name(self, ...)`), so that it
    still runs.
    """

    symbol: Symbol
    bases: tuple[str, ...]
    members: frozenset[str]
    properties: frozenset[str]
    dataclass: bool
    returns: dict[str, tuple[str, ...]]
    attributes: dict[str, tuple[Bound, ...]]
    aliases: dict[str, str]
    extends: frozenset[str]


@dataclass(frozen=True, slots=True)
class ModuleInfo:
    """What a file binds at its top level: imported names (to their dotted origin), classes, functions (with
    the classes their return annotations name), names bound to another name (`f2 = f`), and names bound once to
    what a call returns (`api = HfApi()`: the callee as written), which every function of the module reads."""

    imports: dict[str, str]
    classes: dict[str, ClassInfo]
    functions: frozenset[str]
    returns: dict[str, tuple[str, ...]]
    aliases: dict[str, str]
    instances: dict[str, str]


def summarise(path: str, tree: ast.Module | None, text: str | None = None) -> ModuleInfo:
    """The module's imports, classes (nested ones by qualified name) and top-level functions.

    `text`, the file's source when known, lets a method be skipped without walking it when its lines do not
    name `super` (most methods), which the page's call graph does for every class it summarises."""
    if tree is None:
        return ModuleInfo({}, {}, frozenset(), {}, {}, {})
    imports: dict[str, str] = {}
    classes: dict[str, ClassInfo] = {}
    functions: set[str] = set()
    returns: dict[str, tuple[str, ...]] = {}
    aliases: dict[str, str] = {}
    called: list[ast.Assign] = []
    for stmt in _top_level(tree.body):
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                imports[alias.asname or alias.name.split(".")[0]] = (
                    alias.name if alias.asname else alias.name.split(".")[0]
                )
        elif isinstance(stmt, ast.ImportFrom):
            origin = absolute_module(path, stmt.module or "", stmt.level)
            for alias in stmt.names:
                imports[alias.asname or alias.name] = f"{origin}.{alias.name}" if origin else alias.name
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions.add(stmt.name)
            returns[stmt.name] = _returns(stmt)
        elif isinstance(stmt, ast.ClassDef):
            _add_class(path, stmt, "", classes, text.splitlines() if text is not None else None)
        elif isinstance(stmt, ast.Assign):
            aliases.update(_alias(stmt))
            called.append(stmt)
    return ModuleInfo(imports, classes, frozenset(functions), returns, aliases, _instances(tree, called, text))


def _instances(tree: ast.Module, assigns: list[ast.Assign], text: str | None) -> dict[str, str]:
    """`api = HfApi()` at the top level: each name bound so, with its callee as written; a name the module binds
    anywhere else at its top level, or that a function declares `global`, may hold something else."""
    found = {
        stmt.targets[0].id: dotted(stmt.value.func)
        for stmt in assigns
        if len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Call)
    }
    found = {name: callee for name, callee in found.items() if callee}
    if not found:
        return {}
    stores: dict[str, int] = {}
    for node in run_by(tree.body):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stores[node.name] = stores.get(node.name, 0) + 1
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                stores[bound] = stores.get(bound, 0) + 1
    if text is None or re.search(r"\bglobal\b", text):
        stores.update({n: 2 for node in ast.walk(tree) if isinstance(node, ast.Global) for n in node.names})
    return {name: callee for name, callee in found.items() if stores.get(name) == 1}


def run_by(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every node a body runs in its own scope: not entering the functions and classes it defines (only their names
    and definitions), whose names are their own."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack += ast.iter_child_nodes(node)


def absolute_module(path: str, module: str, level: int) -> str:
    """The module a (relative) import in the file names: `from .main import x` in `pydantic/__init__.py` ->
    `pydantic.main`; an absolute import's module as written."""
    package = module_name(path).split(".")
    if not path.endswith("__init__.py"):
        package = package[:-1]
    base = package[: len(package) - level + 1] if level else []
    return ".".join([*base, *(module.split(".") if module else [])])


def _alias(stmt: ast.Assign) -> dict[str, str]:
    """`new = old` (a plain name bound to another): {'new': 'old'}."""
    if isinstance(stmt.value, ast.Name):
        return {t.id: stmt.value.id for t in stmt.targets if isinstance(t, ast.Name)}
    return {}


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements a module runs at import, looking into `if`/`try` blocks (both branches bind)."""
    for stmt in body:
        if isinstance(stmt, ast.If):
            yield from _top_level([*stmt.body, *stmt.orelse])
        elif isinstance(stmt, ast.Try):
            yield from _top_level([*stmt.body, *(s for h in stmt.handlers for s in h.body), *stmt.orelse])
        else:
            yield stmt


def _add_class(
    path: str, node: ast.ClassDef, prefix: str, classes: dict[str, ClassInfo], lines: list[str] | None
) -> None:
    qualname = f"{prefix}{node.name}"
    members: set[str] = set()
    properties: set[str] = set()
    returns: dict[str, tuple[str, ...]] = {}
    attributes: dict[str, list[Bound]] = {}
    aliases: dict[str, str] = {}
    extends: set[str] = set()
    bases = [dotted(b) for b in node.bases]
    for stmt in node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            members.add(stmt.name)
            if _names_super(stmt, lines) and _calls_super(stmt, bases):
                extends.add(stmt.name)
            returns[stmt.name] = _returns(stmt)
            for name, bound in _self_bindings(stmt):
                attributes.setdefault(name, []).append(bound)
            if any(decorator_name(d).rsplit(".", 1)[-1] in _PROPERTIES for d in stmt.decorator_list):
                properties.add(stmt.name)
        elif isinstance(stmt, ast.ClassDef):
            members.add(stmt.name)
            _add_class(path, stmt, f"{qualname}.", classes, lines)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            members.update(t.id for t in targets if isinstance(t, ast.Name))
            if isinstance(stmt, ast.Assign):
                aliases.update(_alias(stmt))
            elif isinstance(stmt.target, ast.Name):
                attributes.setdefault(stmt.target.id, []).extend(Bound(n, True) for n in annotated(stmt.annotation))
    classes[qualname] = ClassInfo(
        Symbol(path, qualname),
        tuple(dotted(b.value if isinstance(b, ast.Subscript) else b) for b in node.bases),
        frozenset(members),
        frozenset(properties),
        any(decorator_name(d) in _DATACLASSES for d in node.decorator_list),
        returns,
        {name: tuple(bound) for name, bound in attributes.items()},
        {new: old for new, old in aliases.items() if old in members},
        frozenset(extends),
    )


def _names_super(method: ast.FunctionDef | ast.AsyncFunctionDef, lines: list[str] | None) -> bool:
    """Whether the method's lines can call the method it overrides at all: they hold `super` or `.<its name>(`
    (True when they are not known)."""
    if lines is None:
        return True
    start = min([method.lineno, *(d.lineno for d in method.decorator_list)])  # the walk below sees decorators
    spelled = f".{method.name}("
    return any("super" in line or spelled in line for line in lines[start - 1 : method.end_lineno or method.lineno])


def _calls_super(method: ast.FunctionDef | ast.AsyncFunctionDef, bases: list[str]) -> bool:
    """Whether the method calls the one it overrides: `super().<its own name>(...)`, or `Base.<its own name>(self,
    ...)` on a base the class names (then the method it overrides runs too, on the same instance)."""
    this = method.args.args[0].arg if method.args.args else None
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == method.name
        and (
            (isinstance(node.func.value, ast.Call) and dotted(node.func.value.func) == "super")
            or (
                dotted(node.func.value) in bases
                and bool(node.args)
                and isinstance(node.args[0], ast.Name)
                and node.args[0].id == this
            )
        )
        for node in ast.walk(method)
    )


def _returns(function: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """The classes a function's return annotation names, or else its docstring's `:rtype:` (one dotted name)."""
    if function.returns is not None:
        return tuple(annotated(function.returns))
    docstring = ast.get_docstring(function, clean=False) or ""
    stated = _RTYPE.search(docstring) if ":rtype:" in docstring else None
    return (stated.group(1),) if stated is not None else ()


def _self_bindings(method: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[tuple[str, Bound]]:
    """`self.x = f(...)` (the callee as written) and `self.x: Cls = ...` (the class) in a method's body; any other
    value but `None` (`self.x = other.x`) is bound as '' (not known)."""
    if not method.args.args:
        return
    this = method.args.args[0].arg
    for node in statements(method.body):
        if isinstance(node, ast.Assign):
            if isinstance(node.value, ast.Constant) and node.value.value is None:
                continue
            written = dotted(node.value.func) if isinstance(node.value, ast.Call) else ""
            for target in node.targets:
                if _on(target, this):
                    yield cast(ast.Attribute, target).attr, Bound(written, False)
        elif isinstance(node, ast.AnnAssign) and _on(node.target, this):
            for name in annotated(node.annotation):
                yield cast(ast.Attribute, node.target).attr, Bound(name, True)


def statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of a body and of the blocks within it (nested functions' too), no expression walked."""
    for stmt in body:
        yield stmt
        for name in ("body", "orelse", "finalbody"):
            yield from statements(getattr(stmt, name, []))
        for handler in getattr(stmt, "handlers", []):
            yield from statements(handler.body)
        for case in getattr(stmt, "cases", []):
            yield from statements(case.body)


def _on(target: ast.expr, this: str) -> bool:
    """Whether an assignment's target is an attribute of the method's instance (`self.x`)."""
    return isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == this


def annotated(annotation: ast.expr | None) -> list[str]:
    """The class names an annotation allows, `None` left out: `Cls`, `"Cls"`, `Optional[Cls]`, `Cls | None`;
    '' for a part that names no class (a subscript such as `list[Cls]`, a literal)."""
    if annotation is None:
        return []
    if isinstance(annotation, ast.Constant):
        if not isinstance(annotation.value, str):
            return []
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return []
        return annotated(annotation)
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        return [*annotated(annotation.left), *annotated(annotation.right)]
    if isinstance(annotation, ast.Subscript) and dotted(annotation.value).rsplit(".", 1)[-1] in ("Optional", "Union"):
        inner = annotation.slice
        return [n for e in (inner.elts if isinstance(inner, ast.Tuple) else [inner]) for n in annotated(e)]
    name = dotted(annotation)
    return [name] if name else [""]


def is_builtin(name: str) -> bool:
    """Whether a dotted name is a builtin (`staticmethod`, `property`, `object`)."""
    return "." not in name and hasattr(builtins, name)


def decorator_name(node: ast.expr) -> str:
    """`functools.cached_property` for `@functools.cached_property` and for `@functools.cached_property(...)`."""
    return dotted(node.func if isinstance(node, ast.Call) else node)


def dotted(node: ast.expr) -> str:
    """`a.b.c` for a chain of names and attributes; '' for anything else (the call graph compares strings)."""
    return dotted_name(node) or ""


class _ClassLines(NamedTuple):
    """The release's class lines by name: where each is defined, its bases, and the classes naming it as a base."""

    defined_in: dict[str, set[str]]
    bases: dict[str, set[str]]
    children: dict[str, list[str]]


class Classes:
    """Name resolution and method lookup over the files of one release, summarised on demand."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        self.texts = texts
        self.paths = {module_name(p): p for p in texts if p.endswith(".py")}
        self._infos: dict[str, ModuleInfo] = {}
        self._mros: dict[Symbol, tuple[tuple[Symbol, ...], bool]] = {}
        self._subclasses: dict[str, frozenset[str]] = {}
        self._derived: dict[Symbol, tuple[Symbol, ...] | None] = {}
        self._written_aliases: dict[str, dict[str, list[str]]] = {}
        self._packages = frozenset(m.split(".")[0] for m in self.paths)

    def info(self, path: str, tree: ast.Module | None = None) -> ModuleInfo:
        if path not in self._infos:
            text = self.texts.get(path)
            self._infos[path] = summarise(path, tree if tree is not None else parse(text), text)
        return self._infos[path]

    def resolve(self, path: str, name: str, depth: int = 0) -> Symbol | None:
        """The class or function a dotted name used in a file stands for, when the release defines it."""
        if not name or depth > MAX_DEPTH:
            return None
        info = self.info(path)
        first, _, rest = name.partition(".")
        if name in info.classes:
            return info.classes[name].symbol
        if not rest and first in info.functions:
            return Symbol(path, first)
        if not rest and first in info.aliases:  # `f2 = f`: the definition `f` names
            return self.resolve(path, info.aliases[first], depth + 1)
        if first in info.imports:
            return self._resolve_global(info.imports[first] + (f".{rest}" if rest else ""), depth + 1)
        return None

    def resolve_qualified(self, name: str) -> Symbol | None:
        """The class or function a fully qualified name (`requests.adapters.BaseAdapter`) stands for."""
        return self._resolve_global(name, 1)

    def _resolve_global(self, name: str, depth: int) -> Symbol | None:
        parts = name.split(".")
        for i in range(len(parts) - 1, 0, -1):
            path = self.paths.get(".".join(parts[:i]))
            if path is not None:
                return self.resolve(path, ".".join(parts[i:]), depth)
        return None

    def external(self, path: str, name: str) -> bool:
        """Whether a name used in a file is a builtin or comes from outside the release (which defines none of it)."""
        first = name.partition(".")[0]
        imported = self.info(path).imports.get(first)
        if imported is not None:
            return imported.split(".")[0] not in self._packages
        return is_builtin(first)

    def outside_bases(self, symbol: Symbol) -> list[str]:
        """The bases (of the class or of its bases in the release) that come from outside it, builtins left out."""
        out: list[str] = []
        for cls in self.mro(symbol)[0]:
            info = self.class_info(cls)
            for base in info.bases if info is not None else ():
                resolved = self.resolve(cls.file, base)
                if resolved is None and not is_builtin(base) and self.external(cls.file, base):
                    out.append(base)
        return list(dict.fromkeys(out))

    def class_info(self, symbol: Symbol) -> ClassInfo | None:
        return self.info(symbol.file).classes.get(symbol.qualname)

    def mro(self, symbol: Symbol) -> tuple[tuple[Symbol, ...], bool]:
        """The class's linearisation over the release's classes, and whether every base was resolved."""
        if symbol not in self._mros:
            self._mros[symbol] = self._mro(symbol, ())
        return self._mros[symbol]

    def _mro(self, symbol: Symbol, seen: tuple[Symbol, ...]) -> tuple[tuple[Symbol, ...], bool]:
        info = self.class_info(symbol)
        if info is None or symbol in seen or len(seen) > MAX_DEPTH * 4:
            return (symbol,), info is not None
        complete = True
        lines: list[list[Symbol]] = []
        for base in info.bases:
            resolved = self.resolve(symbol.file, base)
            if resolved is None or self.class_info(resolved) is None:
                complete = complete and self.external(symbol.file, base)
                continue
            order, whole = self._mro(resolved, (*seen, symbol))
            complete = complete and whole
            lines.append(list(order))
        return (symbol, *_merge([*lines, [line[0] for line in lines]])), complete

    def lookup(self, symbol: Symbol, name: str, after: Symbol | None = None) -> Symbol | None:
        """The class whose `name` an instance of `symbol` finds (after `after` in the MRO, for `super()`)."""
        order, _ = self.mro(symbol)
        if after is not None:
            order = order[order.index(after) + 1 :] if after in order else ()
        for cls in order:
            info = self.class_info(cls)
            if info is not None and name in info.members:
                return cls
        return None

    def runs(self, symbol: Symbol, name: str, defined_in: Symbol) -> bool:
        """Whether `name` on an instance of `symbol` runs the one `defined_in` defines: the MRO finds it, or each
        override found before it calls `super().name(...)`."""
        for cls in self.mro(symbol)[0]:
            info = self.class_info(cls)
            if info is None or name not in info.members:
                continue
            if cls == defined_in:
                return True
            if name not in info.extends:
                return False
        return False

    @functools.cached_property
    def _class_lines(self) -> _ClassLines:
        """Every `class X(Base, ...)` line of the release, read from the text (a filter, not a resolution)."""
        lines = _ClassLines({}, {}, {})
        for path, text in self.texts.items():
            for match in _CLASS_LINE.finditer(text):
                name = match.group(1)
                bases = [b.strip().rsplit(".", 1)[-1] for b in match.group(2).split(",")]
                lines.defined_in.setdefault(name, set()).add(path)
                lines.bases.setdefault(name, set()).update(bases)
                for base in bases:
                    lines.children.setdefault(base, []).append(name)
        return lines

    def written_aliases(self, path: str, name: str) -> list[str]:
        """The names a file binds to `name` by a plain assignment (`update = set_value`), read from its text."""
        if path not in self._written_aliases:
            found: dict[str, list[str]] = {}
            for new, old in _ALIAS_LINE.findall(self.texts.get(path, "")):
                found.setdefault(old, []).append(new)
            self._written_aliases[path] = found
        return self._written_aliases[path].get(name, [])

    def ancestor_files(self, name: str) -> frozenset[str]:
        """The files defining a class named as a base of a class so named, or as a base of those, by name."""
        seen: set[str] = set()
        queue = [name]
        while queue and len(seen) < 500:
            for base in self._class_lines.bases.get(queue.pop(), ()):
                if base not in seen and base != name:
                    seen.add(base)
                    queue.append(base)
        return frozenset(p for base in seen for p in self._class_lines.defined_in.get(base, ()))

    def subclass_names(self, name: str) -> frozenset[str]:
        """The names of the classes that derive from a class so named, by name (a filter, not a resolution)."""
        if name not in self._subclasses:
            self._subclasses[name] = self._subclass_names(name)
        return self._subclasses[name]

    def subclasses(self, symbol: Symbol) -> tuple[Symbol, ...] | None:
        """The release's classes that derive from the class (resolved); None when too many files name them."""
        if symbol not in self._derived:
            names = self.subclass_names(symbol.qualname.rsplit(".", 1)[-1])
            files = {p for n in names for p in self._class_lines.defined_in.get(n, ())}
            found = None if len(files) > MAX_SUBCLASS_FILES else self._derived_in(symbol, names, files)
            self._derived[symbol] = found
        return self._derived[symbol]

    def _derived_in(self, symbol: Symbol, names: frozenset[str], files: set[str]) -> tuple[Symbol, ...]:
        candidates = (info.symbol for path in sorted(files) for info in self.info(path).classes.values())
        return tuple(c for c in candidates if c.qualname.rsplit(".", 1)[-1] in names and symbol in self.mro(c)[0][1:])

    def _subclass_names(self, name: str) -> frozenset[str]:
        found: set[str] = set()
        queue = [name]
        while queue and len(found) < 500:
            for child in self._class_lines.children.get(queue.pop(), []):
                if child not in found and child != name:
                    found.add(child)
                    queue.append(child)
        return frozenset(found)


def _merge(sequences: list[list[Symbol]]) -> list[Symbol]:
    """C3 merge; when the bases admit no consistent order, their classes left to right, each once."""
    pending = [list(s) for s in sequences if s]
    out: list[Symbol] = []
    while pending:
        head = next((s[0] for s in pending if not any(s[0] in other[1:] for other in pending)), None)
        if head is None:
            rest = [cls for s in pending for cls in s]
            return out + [c for c in dict.fromkeys(rest) if c not in out]
        out.append(head)
        pending = [[c for c in s if c != head] for s in pending]
        pending = [s for s in pending if s]
    return out
