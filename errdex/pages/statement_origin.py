"""Where a failing value comes from (bindings, parameter and its callers, `self.attr = ...`): it reads the scope."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from errdex.model import ReleaseRecord
from errdex.pages.callers import CalledFunction, callers
from errdex.pages.model import Caller
from errdex.pages.source import FunctionNode, class_and_bases, is_static
from errdex.pages.statement_model import (
    NOT_PASSED,
    NOT_RESOLVED,
    AttributeAssignment,
    CallerPlace,
    Callers,
    LocalBinding,
    NoneReason,
    Origin,
    Parameter,
)
from errdex.store import Store

MAX_SHOWN = 40  # bindings, assignments or checks kept of one kind
_END = 1 << 30  # a line past any file's end: every module-level binding counts
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_REGEX = ("match", "search", "fullmatch")


def root_of(node: ast.AST, self_name: str | None) -> str | None:
    """The name a value is read from: `x` for `x.a[0].b`, `self.a` for `self.a.b` in a method; None for a call's
    result, a literal or anything else not read from a name."""
    chain: list[str] = []
    while isinstance(node, ast.Attribute | ast.Subscript):
        if isinstance(node, ast.Attribute):
            chain.append(node.attr)
        else:
            chain.clear()  # `self[k].a`: no attribute of self
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    if self_name is not None and node.id == self_name and chain:
        return f"{self_name}.{chain[-1]}"
    return node.id


def may_be_none(value: ast.AST | None, none_parameters: frozenset[str] = frozenset()) -> NoneReason | None:
    """Why a value as written may be None, when its own form says so (or it is a parameter whose default is None,
    one of `none_parameters`)."""
    if isinstance(value, ast.Constant) and value.value is None:
        return "none literal"
    if isinstance(value, ast.Name) and value.id in none_parameters:
        return "parameter default"
    if isinstance(value, ast.IfExp) and (is_none(value.body) or is_none(value.orelse)):
        return "conditional"
    if not isinstance(value, ast.Call):
        return None
    func, args = value.func, value.args
    if isinstance(func, ast.Attribute) and func.attr == "get" and not value.keywords:
        return "get call" if len(args) == 1 or (len(args) == 2 and is_none(args[1])) else None
    if isinstance(func, ast.Attribute) and func.attr == "pop" and len(args) == 2 and is_none(args[1]):
        return "get call"
    if isinstance(func, ast.Name) and func.id == "getattr" and len(args) == 3 and is_none(args[2]):
        return "getattr default"
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "re":
        return "regex match" if func.attr in _REGEX else None
    return None


def is_none(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of a body in source order, nested blocks included, nested functions and classes not."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, SCOPES):
            continue
        for field in ("body", "orelse", "finalbody"):
            yield from _statements(getattr(stmt, field, []))
        for handler in getattr(stmt, "handlers", []):
            yield from _statements(handler.body)
        for case in getattr(stmt, "cases", []):
            yield from _statements(case.body)


def none_parameters(func: FunctionNode | None) -> frozenset[str]:
    """The parameters of a function whose default is `None`."""
    if func is None:
        return frozenset()
    a = func.args
    positional = [*a.posonlyargs, *a.args]
    pairs = [*zip(positional[len(positional) - len(a.defaults) :], a.defaults, strict=True)]
    pairs += [(p, d) for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is not None]
    return frozenset(p.arg for p, d in pairs if is_none(d))


def local_bindings(
    body: list[ast.stmt], root: str, before: int, nones: frozenset[str] = frozenset()
) -> tuple[LocalBinding, ...]:
    """The statements of a scope's body before line `before` that bind `root` (a name, or `self.attr`); `nones`: the
    function's parameters whose default is None."""
    out: list[LocalBinding] = []
    for stmt in _statements(body):
        if stmt.lineno >= before:
            break
        out.extend(_binds(stmt, root, nones))
        for handler in getattr(stmt, "handlers", []):
            if handler.name == root:
                out.append(LocalBinding(handler.lineno, "except", source_text(handler.type) or "an exception", None))
    return tuple(out[:MAX_SHOWN])


def _binds(stmt: ast.stmt, root: str, nones: frozenset[str] = frozenset()) -> Iterator[LocalBinding]:
    if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        for target in targets:
            if _spelled(target) == root:
                yield LocalBinding(stmt.lineno, "assign", source_text(stmt.value), may_be_none(stmt.value, nones))
            elif any(_spelled(t) == root for t in _unpacked_targets(target)):
                yield LocalBinding(stmt.lineno, "unpacked", source_text(stmt.value), None)
    elif isinstance(stmt, ast.AugAssign) and _spelled(stmt.target) == root:
        yield LocalBinding(stmt.lineno, "augmented", source_text(stmt), None)
    elif isinstance(stmt, ast.For | ast.AsyncFor) and any(_spelled(t) == root for t in _unpacked_targets(stmt.target)):
        yield LocalBinding(stmt.lineno, "loop", f"for {source_text(stmt.target)} in {source_text(stmt.iter)}", None)
    elif isinstance(stmt, ast.With | ast.AsyncWith):
        for item in stmt.items:
            if item.optional_vars is not None and any(
                _spelled(t) == root for t in _unpacked_targets(item.optional_vars)
            ):
                yield LocalBinding(stmt.lineno, "with", source_text(item.context_expr), None)
    elif isinstance(stmt, ast.Import | ast.ImportFrom):
        if any((a.asname or a.name.split(".", 1)[0]) == root for a in stmt.names):
            yield LocalBinding(stmt.lineno, "import", source_text(stmt), None)
    elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and stmt.name == root:
        yield LocalBinding(
            stmt.lineno, "definition", f"{'class' if isinstance(stmt, ast.ClassDef) else 'def'} {root}", None
        )
    if not isinstance(stmt, SCOPES):
        for node in own_nodes(stmt):
            if isinstance(node, ast.NamedExpr) and node.target.id == root:
                yield LocalBinding(node.lineno, "walrus", source_text(node.value), may_be_none(node.value, nones))


def own_nodes(stmt: ast.stmt) -> Iterator[ast.AST]:
    """The nodes of a statement's own expressions (a compound statement's header, not its body)."""
    for field, value in ast.iter_fields(stmt):
        if field in ("body", "orelse", "finalbody", "handlers", "cases"):
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, ast.AST):
                yield from ast.walk(item)


def _unpacked_targets(target: ast.AST) -> Iterator[ast.AST]:
    if isinstance(target, ast.Tuple | ast.List):
        for element in target.elts:
            yield from _unpacked_targets(element)
    elif isinstance(target, ast.Starred):
        yield from _unpacked_targets(target.value)
    else:
        yield target


def _spelled(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


def parameter_of(func: FunctionNode, name: str) -> Parameter | None:
    """The parameter of that name, with its default as written."""
    a = func.args
    positional = [*a.posonlyargs, *a.args]
    defaults: dict[str, ast.expr | None] = {p.arg: None for p in [*positional, *a.kwonlyargs]}
    defaults.update(zip((p.arg for p in positional[len(positional) - len(a.defaults) :]), a.defaults, strict=True))
    defaults.update({p.arg: d for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True)})
    for extra in (a.vararg, a.kwarg):
        if extra is not None:
            defaults[extra.arg] = None
    if name not in defaults:
        return None
    default = defaults[name]
    reason: NoneReason | None = "parameter default" if default is not None and is_none(default) else None
    return Parameter(name, source_text(default) if default is not None else None, func.lineno, reason)


def attribute_assignments(
    tree: ast.Module, cls: ast.ClassDef, qualname: str, attribute: str
) -> tuple[AttributeAssignment, ...]:
    """`self.attribute = ...` in the methods of the class and of its base classes defined in the same file, and
    `attribute = ...` in their bodies (a class attribute), in source order of each class."""
    out: list[AttributeAssignment] = []
    prefix = qualname.rsplit(".", 1)[0] if "." in qualname else ""
    for owner in class_and_bases(tree, cls):
        owner_name = f"{prefix}.{owner.name}" if owner is cls and prefix else owner.name
        for stmt in owner.body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                out.extend(_self_assignments(stmt, f"{owner_name}.{stmt.name}", attribute))
            else:
                out.extend(
                    AttributeAssignment(owner_name, b.line, b.source, b.may_be_none)
                    for b in _binds(stmt, attribute)
                    if b.form in ("assign", "unpacked", "augmented")
                )
    return tuple(out[:MAX_SHOWN])


def _self_assignments(method: FunctionNode, owner: str, attribute: str) -> Iterator[AttributeAssignment]:
    a = method.args
    first = [*a.posonlyargs, *a.args][:1]
    if not first or is_static(method):
        return
    root = f"{first[0].arg}.{attribute}"
    nones = none_parameters(method)
    for stmt in _statements(method.body):
        for binding in _binds(stmt, root, nones):
            yield AttributeAssignment(owner, binding.line, binding.source, binding.may_be_none)


def callers_passing(
    store: Store, record: ReleaseRecord, file: str, qualname: str, func: FunctionNode, parameter: str, method: bool
) -> Callers:
    """The callers of the function the release has, each with what it passes for `parameter`."""
    search = callers(store, record, CalledFunction(file, qualname))
    found = tuple(
        CallerPlace(c["function"], c["file"], c["line"], c["call"], _passes(c, func, parameter, method))
        for c in search["callers"]
    )
    return Callers(found, search["unresolved"], search["truncated"], tuple(search["not_followed"]))


def _passes(caller: Caller, func: FunctionNode, parameter: str, method: bool) -> str:
    """What a call passes for the parameter, as written; not passed; or not resolved (a `*`/`**` argument that may
    hold it, a use that is no call, a method called on its class with the instance passed first)."""
    arguments = caller["arguments"]
    if arguments is None:
        return NOT_RESOLVED
    if parameter in arguments["keywords"]:
        return arguments["keywords"][parameter]
    positional = [p.arg for p in [*func.args.posonlyargs, *func.args.args]]
    if method and not is_static(func):
        if caller["match"] == "class":
            return NOT_RESOLVED
        positional = positional[1:]
    if parameter in positional:
        index = positional.index(parameter)
        given = arguments["positional"]
        if any(a.startswith("*") for a in given[: index + 1]):
            return NOT_RESOLVED
        if index < len(given):
            return given[index]
    return NOT_RESOLVED if arguments["unpacked"] else NOT_PASSED


@dataclass(frozen=True, slots=True)
class Where:
    """Where a value is read: the statement's nodes, the body of its scope, the module, the line it starts on."""

    nodes: list[ast.AST]
    body: list[ast.stmt]
    module: ast.Module
    before: int
    func: FunctionNode | None
    owner: ast.ClassDef | None


def origin_of(value: ast.AST, where: Where) -> Origin | None:
    """The root name of the value and its bindings: by a comprehension or lambda of the statement itself around it,
    else in the scope before the line, with the parameter it arrived through; a name neither bound there nor a
    parameter is looked up at module level. (A class's assignments and the callers are added by the caller of this,
    which has the store.)"""
    root = root_of(value, self_name(where.func, where.owner))
    if root is None:
        return None
    inside = _bound_in_statement(where.nodes, value, root)
    if inside is not None:
        return Origin(root, (inside,), None, (), None)
    parameter = parameter_of(where.func, root) if where.func is not None else None
    bindings = local_bindings(where.body, root, where.before, none_parameters(where.func))
    outer = where.body is not where.module.body and not bindings and parameter is None and "." not in root
    module = local_bindings(where.module.body, root, _END) if outer else ()
    return Origin(root, bindings, parameter, (), None, module)


def _bound_in_statement(nodes: list[ast.AST], value: ast.AST, root: str) -> LocalBinding | None:
    """The comprehension (`for x in items`) or lambda of the statement, around the value, that binds its root."""
    parents = {child: parent for node in nodes for parent in ast.walk(node) for child in ast.iter_child_nodes(parent)}
    node: ast.AST | None = parents.get(value)
    while node is not None:
        if isinstance(node, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
            for loop in node.generators:
                if any(_spelled(t) == root for t in _unpacked_targets(loop.target)):
                    text = f"for {source_text(loop.target)} in {source_text(loop.iter)}"
                    return LocalBinding(loop.target.lineno, "comprehension", text, None)
        if isinstance(node, ast.Lambda):
            a = node.args
            if root in [p.arg for p in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg] if p is not None]:
                return LocalBinding(node.lineno, "lambda", f"lambda {source_text(a)}", None)
        node = parents.get(node)
    return None


def self_name(func: FunctionNode | None, owner: ast.ClassDef | None) -> str | None:
    """The name of a method's instance parameter (`self`), None for a function, a static or class method."""
    if func is None or owner is None or is_static(func):
        return None
    first = [*func.args.posonlyargs, *func.args.args][:1]
    return first[0].arg if first else None


def source_text(node: ast.AST | None, limit: int = 300) -> str:
    """A node's source as `ast.unparse` writes it, cut to `limit` characters ("" for no node)."""
    if node is None:
        return ""
    try:
        text = ast.unparse(node)
    except (ValueError, RecursionError):
        return "<expression not shown>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
