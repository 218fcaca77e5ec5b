"""One statement visitor that finds the sites of a module: raises, asserts, warnings, logs.

Like pyflakes' checker: a small handler per statement kind, unknown statements walked quietly.
It tracks what a site needs: the qualified name of the enclosing function, the `if` conditions
that guard the statement, and the local bindings of names (so `msg = ...; raise E(msg)` and
branches that build different messages give their templates). Expressions are not walked: a
site is a statement (or a call statement), which keeps the visit cheap.
"""

from __future__ import annotations

import ast
import builtins
import copy
import functools
from dataclasses import dataclass
from typing import Any

from errdex.extract.resolve import Unresolved, dotted_name, evaluate, to_json
from errdex.extract.scope import ClassScope, ModuleScope, NeedsPackage
from errdex.extract.templates import render, templates

MAX_BINDINGS = 8
MAX_TEMPLATE = 20_000
MAX_NODES = 10_000  # an expression larger than this is generated code: not walked, shown or resolved
_BUILTIN_NAMES = frozenset(dir(builtins)) | {"self", "cls"}
_LOG_METHODS = frozenset(
    {"warning", "warn", "warning_once", "warning_advice", "error", "error_once", "exception", "critical", "fatal"}
)
_MESSAGE_KEYWORDS = ("msg", "message", "detail", "reason", "text")
_EXCEPTION_SUFFIXES = ("Error", "Exception", "Warning", "Exit", "Interrupt", "Failure", "Fault")


@dataclass
class Binding:
    expr: ast.expr
    line: int


Env = dict[str, list[Binding]]


def looks_like_exception(name: str, bases: tuple[str, ...] = ()) -> bool:
    """Whether a class is probably an exception, judged by its own and its bases' names."""
    return any(n.rsplit(".", 1)[-1].endswith(_EXCEPTION_SUFFIXES) for n in (name, *bases))


class SiteVisitor:
    """Collects raw sites (plain dicts, cached as JSON) from the statements it is given."""

    def __init__(self, module: ModuleScope) -> None:
        self.module = module
        self.sites: list[dict[str, Any]] = []
        self.scopes: list[tuple[str, str]] = []  # ("class" | "def", name)
        self.env: Env = {}
        self.conditions: list[ast.expr] = []

    # -- dispatch -------------------------------------------------------------------------
    def visit(self, node: ast.stmt) -> None:
        handler = getattr(self, "visit_" + type(node).__name__, None)
        if handler is not None:
            handler(node)

    def visit_body(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            self.visit(stmt)

    def visit_in_scopes(self, node: ast.stmt, scopes: list[tuple[str, str]]) -> None:
        """Visit a statement cut out of a larger file, as if it stood inside `scopes`."""
        saved, self.scopes = self.scopes, list(scopes)
        self.visit(node)
        self.scopes = saved

    # -- scopes ---------------------------------------------------------------------------
    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        saved = (self.env, self.conditions)
        self.env, self.conditions = {}, []
        self.scopes.append(("def", node.name))
        self.visit_body(node.body)
        self.scopes.pop()
        self.env, self.conditions = saved

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        saved = (self.env, self.conditions)
        self.env, self.conditions = {}, []
        self.scopes.append(("class", node.name))
        self.visit_body(node.body)
        self.scopes.pop()
        self.env, self.conditions = saved

    # -- control flow ---------------------------------------------------------------------
    def _branch(self) -> None:
        """Copying and merging the bindings costs a step per name each (long generated functions)."""
        self.module.budget.charge(3 * len(self.env))
        self.module.budget.check()

    def visit_If(self, node: ast.If) -> None:
        self._branch()
        before = self._copy_env()
        self.conditions.append(node.test)
        self.visit_body(node.body)
        after_body, self.env = self.env, before
        self.conditions[-1] = ast.UnaryOp(op=ast.Not(), operand=node.test)
        self.visit_body(node.orelse)
        self.conditions.pop()
        self.env = _merge(after_body, self.env)

    def visit_For(self, node: ast.For | ast.AsyncFor | ast.While) -> None:
        self._branch()
        before = self._copy_env()
        self.visit_body(node.body)
        self.visit_body(node.orelse)
        self.env = _merge(before, self.env)

    visit_AsyncFor = visit_While = visit_For

    def visit_With(self, node: ast.With | ast.AsyncWith) -> None:
        self.visit_body(node.body)

    visit_AsyncWith = visit_With

    def visit_Try(self, node: ast.Try) -> None:
        self._branch()
        before = self._copy_env()
        self.visit_body(node.body)
        self.visit_body(node.orelse)
        branches = [self.env]
        for handler in node.handlers:
            self.env = self._copy_env(before)
            self.visit_body(handler.body)
            branches.append(self.env)
        self.env = branches[0]
        for branch in branches[1:]:
            self.env = _merge(self.env, branch)
        self.visit_body(node.finalbody)

    visit_TryStar = visit_Try

    def visit_Match(self, node: ast.Match) -> None:
        self._branch()
        before = self._copy_env()
        merged = before
        for case in node.cases:
            self.env = self._copy_env(before)
            self.visit_body(case.body)
            merged = _merge(merged, self.env)
        self.env = merged

    # -- bindings -------------------------------------------------------------------------
    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._bind(target, node.value, node.lineno)
        self._record_call(node.value, node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._bind(node.target, node.value, node.lineno)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if not isinstance(node.target, ast.Name):
            return
        name = node.target.id
        if not isinstance(node.op, ast.Add):
            self.env.pop(name, None)
            return
        # an unknown earlier value is a hole (not the name itself, which would refer to this binding)
        previous = self.env.get(name) or [Binding(ast.Constant(value=None), node.lineno)]
        self.env[name] = [Binding(ast.BinOp(left=b.expr, op=ast.Add(), right=node.value), node.lineno) for b in previous]

    def _bind(self, target: ast.expr, value: ast.expr, line: int) -> None:
        if isinstance(target, ast.Name):
            previous = self.env.get(target.id)
            if previous and _builds_text(value) and _mentions(value, target.id):
                self.env[target.id] = [Binding(_substitute(value, target.id, b.expr), line) for b in previous]
            elif previous and _mentions_shallow(value, target.id):
                del self.env[target.id]  # `x = f(x)`: a value we could not follow anyway
            else:
                self.env[target.id] = [Binding(value, line)]
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                if isinstance(elt, ast.Name):
                    self.env.pop(elt.id, None)

    def _copy_env(self, env: Env | None = None) -> Env:
        return {k: list(v) for k, v in (self.env if env is None else env).items()}

    # -- sites ----------------------------------------------------------------------------
    def visit_Raise(self, node: ast.Raise) -> None:
        if node.exc is None:
            return  # a bare `raise` re-raises; the site is elsewhere
        exc = node.exc
        if isinstance(exc, ast.Call):
            exception = _expr_name(exc.func)
            message = _message_argument(exc)
        else:
            exception = _expr_name(exc)
            message = None
        self._add_site("error", exception, message, node)

    def visit_Assert(self, node: ast.Assert) -> None:
        if node.msg is None:
            return
        self.conditions.append(ast.UnaryOp(op=ast.Not(), operand=node.test))
        self._add_site("error", "AssertionError", node.msg, node)
        self.conditions.pop()

    def visit_Expr(self, node: ast.Expr) -> None:
        self._record_call(node.value, node)

    def visit_Return(self, node: ast.Return) -> None:
        if node.value is not None and self._in_method("__str__"):
            self._class_message(node.value)

    def _record_call(self, value: ast.expr, stmt: ast.stmt) -> None:
        if not isinstance(value, ast.Call):
            return
        func = value.func
        name = dotted_name(func) or ""
        last = name.rsplit(".", 1)[-1]
        if last == "warn" and (name in ("warn", "warnings.warn") or not _is_logger(name)):
            category = _warning_category(value)
            self._add_site("warning", category, value.args[0] if value.args else _keyword(value, "message"), stmt)
        elif last in _LOG_METHODS and _is_logger(name):
            self._add_site("log", None, _log_message(value), stmt, level=last)
        elif isinstance(func, ast.Attribute) and func.attr == "__init__" and self._in_method("__init__"):
            args = value.args if _is_super(func.value) else value.args[1:]
            if args and not isinstance(args[0], ast.Starred):
                self._class_message(args[0])

    def _in_method(self, method: str) -> bool:
        return len(self.scopes) >= 2 and self.scopes[-1] == ("def", method) and self.scopes[-2][0] == "class"

    def _class_message(self, expr: ast.expr) -> None:
        """An exception class that builds its own message: remember the template on the class."""
        cls = self._current_class()
        if cls is None or not looks_like_exception(cls.qualname, cls.bases):
            return
        self.module.budget.start_site()
        scope = _TemplateScope(self)
        for parts in templates(expr, scope, self.module.budget):
            text = render(parts)
            if text is not None and text not in cls.message_templates:
                cls.message_templates.append(text)

    def _current_class(self) -> ClassScope | None:
        names = [name for kind, name in self.scopes[:-1]]
        return self.module.classes.get(".".join(names))

    def _add_site(self, kind: str, exception: str | None, message: ast.expr | None, node: ast.stmt, level: str | None = None) -> None:
        self.module.budget.start_site()
        scope = _TemplateScope(self)
        if message is None:
            rendered: list[str | None] = [None]
            reason = "no message argument" if kind == "error" else "message not given"
        else:
            rendered = [render(parts) for parts in templates(message, scope, self.module.budget)] or [None]
            reason = None if any(t is not None for t in rendered) else "message is built at run time"
            if any(t is not None and len(t) > MAX_TEMPLATE for t in rendered):
                rendered, reason = [None], f"message is longer than {MAX_TEMPLATE:,} characters"
        resolved, origins, pending, checks = self._resolve_names(message)
        site = {
            "kind": kind,
            "exception": exception,
            "templates": _unique_templates(rendered),
            "reason": reason,
            "line": node.lineno,
            "end_line": node.end_lineno or node.lineno,
            "function": self.qualname(),
            "class": self._class_qualname(),
            "condition": self._condition_source(),
            "resolved": resolved,
            "resolved_from": origins,
            "pending": pending,
            "checks": checks,
            "message_source": _unparse(message)[:MAX_TEMPLATE] if message is not None else "",
            "level": level,
        }
        self.sites.append(site)

    def qualname(self) -> str:
        if not self.scopes:
            return "<module>"
        parts: list[str] = []
        for i, (kind, name) in enumerate(self.scopes):
            parts.append(name)
            if kind == "def" and i < len(self.scopes) - 1:
                parts.append("<locals>")
        return ".".join(parts)

    def _class_qualname(self) -> str | None:
        names: list[str] = []
        owner = None
        for kind, name in self.scopes:
            if kind == "def":
                break
            names.append(name)
            owner = ".".join(names)
        return owner

    def _condition_source(self) -> str | None:
        if not self.conditions:
            return None
        return " and ".join(_condition_text(c) for c in self.conditions)

    # -- resolving the names a site uses --------------------------------------------------
    def _resolve_names(self, message: ast.expr | None) -> tuple[dict[str, Any], dict[str, str], list[list[str]], list[str]]:
        names: dict[str, ast.expr] = {}
        checks: dict[str, None] = {}
        for expr in [*self.conditions, *([message] if message is not None else [])]:
            nodes = _nodes(expr)
            self.module.budget.charge(MAX_NODES if nodes is None else len(nodes))
            nodes = nodes or []
            called = {id(n.func) for n in nodes if isinstance(n, ast.Call)}
            for node in nodes:
                name = dotted_name(node) if isinstance(node, (ast.Name, ast.Attribute)) and id(node) not in called else None
                if name is None or _not_a_value(name):
                    continue
                names.setdefault(name, node)
        for expr in self.conditions:
            for node in _nodes(expr) or []:
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                    checks[node.attr] = None
                elif isinstance(node, ast.Name) and node.id not in _BUILTIN_NAMES and node.id not in self.module.constants:
                    checks[node.id] = None
        resolved: dict[str, Any] = {}
        origins: dict[str, str] = {}
        pending: list[list[str]] = []
        for name in names:
            try:
                value, origin = self.resolve(name)
            except NeedsPackage:
                expr = self._inline(name)
                if expr is not None:
                    pending.append([name, expr])
                continue
            except (Unresolved, RecursionError):
                continue
            resolved[name] = to_json(value)
            origins[name] = origin
            checks.pop(name, None)
        tested = [c for c in checks if not {c, f"self.{c}", f"cls.{c}"} & resolved.keys()]
        return resolved, origins, pending, tested

    def resolve(self, name: str, depth: int = 0) -> tuple[Any, str]:
        """Value and origin of a name as seen from the current statement."""
        head, _, rest = name.partition(".")
        if head in self.env and not rest:
            bindings = self.env[head]
            values = [evaluate(b.expr, self.lookup, depth + 1, self.module.budget) for b in bindings]
            if any(v != values[0] for v in values[1:]):
                raise Unresolved("several values")
            return values[0], f"{self.module.path}:{bindings[-1].line}"
        if head in ("self", "cls") and rest:
            owner = self._class_qualname()
            if owner is None:
                raise Unresolved(name)
            return self.module.class_constant(owner, rest, depth)
        return self.module.lookup_with_origin(name, depth)

    def lookup(self, name: str, depth: int) -> Any:
        return self.resolve(name, depth)[0]

    def _inline(self, name: str) -> str | None:
        """The name's defining expression with local bindings substituted, for later linking."""
        head, _, rest = name.partition(".")
        if head not in self.env:
            return name
        bindings = self.env[head]
        if rest or len(bindings) != 1:
            return None
        expr = bindings[0].expr
        for _ in range(4):
            nodes = _nodes(expr)
            if nodes is None:
                return None
            locals_used = [n.id for n in nodes if isinstance(n, ast.Name) and n.id in self.env]
            if not locals_used:
                return _unparse(expr)
            local = locals_used[0]
            if len(self.env[local]) != 1 or local == head:
                return None
            expr = _substitute(expr, local, self.env[local][0].expr)
        return None


class _TemplateScope:
    """The view of names that templates need, from the visitor's current state."""

    def __init__(self, visitor: SiteVisitor) -> None:
        self.visitor = visitor

    def alternatives(self, name: str) -> list[ast.expr] | None:
        bindings = self.visitor.env.get(name)
        return [b.expr for b in bindings] if bindings else None

    def constant(self, name: str) -> Any:
        try:
            return self.visitor.resolve(name)[0]
        except RecursionError as exc:
            raise Unresolved(name) from exc


def _not_a_value(name: str) -> bool:
    """Builtins and class names (`CamelCase`) never resolve to a constant worth showing."""
    head = name.split(".", 1)[0]
    if head in _BUILTIN_NAMES and head not in ("self", "cls"):
        return True
    return head[:1].isupper() and not head.isupper()


def _merge(a: Env, b: Env) -> Env:
    out = {k: list(v) for k, v in a.items()}
    for name, bindings in b.items():
        merged = out.setdefault(name, [])
        for binding in bindings:
            if all(binding.expr is not other.expr for other in merged):
                merged.append(binding)
        del merged[MAX_BINDINGS:]
    return out


def _builds_text(expr: ast.expr) -> bool:
    """Whether an expression is the kind that builds a message: `+`, `%`, f-string, `.format`."""
    if isinstance(expr, (ast.BinOp, ast.JoinedStr, ast.IfExp)):
        return True
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr in ("format", "strip", "rstrip", "lstrip")


def _mentions_shallow(expr: ast.expr, name: str) -> bool:
    """Whether a name appears among an expression's direct arguments (cheap, for common `x = f(x)`)."""
    if isinstance(expr, ast.Call):
        return any(isinstance(a, ast.Name) and a.id == name for a in expr.args) or _mentions_shallow(expr.func, name)
    if isinstance(expr, ast.Attribute):
        return isinstance(expr.value, ast.Name) and expr.value.id == name
    return isinstance(expr, ast.Name) and expr.id == name


def _mentions(expr: ast.expr, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(expr))


class _Substitute(ast.NodeTransformer):
    """Replace a name by an expression, visiting each node once.

    The copy shares the nodes its original shared (a binding used twice); visiting such a node
    again would rewrite the replacement put there the first time, which is the binding itself,
    and make it contain itself.
    """

    def __init__(self, name: str, replacement: ast.expr) -> None:
        self.name = name
        self.replacement = replacement
        self.seen: set[int] = set()

    def visit(self, node: ast.AST) -> ast.AST:
        if id(node) in self.seen:
            return node
        self.seen.add(id(node))
        return super().visit(node)

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return self.replacement if node.id == self.name else node


def _substitute(expr: ast.expr, name: str, replacement: ast.expr) -> ast.expr:
    return _Substitute(name, replacement).visit(copy.deepcopy(expr))


def _expr_name(node: ast.expr) -> str:
    name = dotted_name(node)
    return name if name is not None else _unparse(node)


def _is_super(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def _message_argument(call: ast.Call) -> ast.expr | None:
    if call.args:
        first = call.args[0]
        return None if isinstance(first, ast.Starred) else first
    for keyword in _MESSAGE_KEYWORDS:
        value = _keyword(call, keyword)
        if value is not None:
            return value
    return None


def _log_message(call: ast.Call) -> ast.expr | None:
    """A logging call's message; with arguments it is %-formatted lazily, as logging does."""
    message = call.args[0] if call.args else _keyword(call, "msg")
    if message is None or len(call.args) < 2:
        return message
    return ast.BinOp(left=message, op=ast.Mod(), right=ast.Tuple(elts=call.args[1:], ctx=ast.Load()))


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _warning_category(call: ast.Call) -> str:
    node = call.args[1] if len(call.args) > 1 else _keyword(call, "category")
    return _expr_name(node) if node is not None else "UserWarning"


def _is_logger(name: str) -> bool:
    receiver = name.rsplit(".", 1)[0].lower() if "." in name else ""
    return "log" in receiver


def _condition_text(node: ast.expr) -> str:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) and not isinstance(node.operand, ast.Name):
        return f"not ({_unparse(node.operand)})"
    return _unparse(node)


@functools.lru_cache(maxsize=1024)  # every site walks the conditions around it again
def _nodes(expr: ast.AST) -> list[ast.AST] | None:
    """The nodes of an expression, or None if it has more than MAX_NODES (counting shared ones each time)."""
    nodes = [expr]
    for node in nodes:
        for child in ast.iter_child_nodes(node):
            nodes.append(child)
            if len(nodes) > MAX_NODES:
                return None
    return nodes


def _small(node: ast.AST) -> bool:
    """Whether an expression has at most MAX_NODES nodes; a short one-line expression is, without walking it."""
    if getattr(node, "lineno", -1) == getattr(node, "end_lineno", None):
        if node.end_col_offset - node.col_offset <= MAX_NODES // 4:  # type: ignore[attr-defined,operator]
            return True
    return _nodes(node) is not None


def _unparse(node: ast.AST) -> str:
    if not _small(node):
        return "<expression too large>"
    try:
        return ast.unparse(node)
    except (RecursionError, ValueError):
        return "<expression too deep>"


def _unique_templates(items: list[str | None]) -> list[str | None]:
    out = list(dict.fromkeys(t for t in items if t is not None))
    return out or [None]
