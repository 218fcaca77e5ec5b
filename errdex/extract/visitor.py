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
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from errdex.extract.helpers import MAX_DEPTH as MAX_HELPER_DEPTH
from errdex.extract.nodes import (
    MAX_NODES,
    annotated_class,
    builds_text,
    call_arguments,
    condition_text,
    expr_name,
    expression_nodes,
    filled,
    is_hole,
    is_logger,
    is_self,
    is_static,
    is_super,
    keyword_value,
    last_name,
    log_message,
    mentions,
    mentions_shallow,
    message_argument,
    substitute,
    unparse,
    warning_category,
)
from errdex.extract.records import CallArg, HelperCall, ParamRef, Pending, RawSite, Template, Values
from errdex.extract.resolve import Unresolved, dotted_name, evaluate, to_json
from errdex.extract.scope import ClassScope, ModuleScope, NeedsPackage
from errdex.extract.templates import (
    Parts,
    class_message,
    given_mark,
    given_message,
    hole_sources,
    render,
    templates,
)
from errdex.model import Binding as ValueBinding
from errdex.model import JsonValue, Kind, PriorCheck

MAX_BINDINGS = 12
MAX_TEMPLATE = 20_000
_BUILTIN_NAMES = frozenset(dir(builtins)) | {"self", "cls"}
_LOG_METHODS = frozenset(
    {"warning", "warn", "warning_once", "warning_advice", "error", "error_once", "exception", "critical", "fatal"}
)
_EXCEPTION_SUFFIXES = ("Error", "Exception", "Warning", "Exit", "Interrupt", "Failure", "Fault")
_SIX_RAISES = ("raise_from", "reraise")
_PROPERTIES = ("property", "cached_property")
_MAX_STORED = 4  # names a caught exception is followed through (`error = e`, `last = error`)
_BROAD_CLASSES = frozenset({"Exception", "BaseException", "Warning"})  # what a caught exception's class may be any of
_MESSAGE_NODES = (ast.Constant, ast.JoinedStr, ast.BinOp, ast.Call, ast.Name, ast.IfExp)
_HANDLERS: dict[type, Any] = {}  # statement type -> SiteVisitor's handler (or None), looked up once
_UNKNOWN = object()


@dataclass
class Binding:
    expr: ast.expr
    line: int


Env = dict[str, list[Binding]]
Caught = dict[str, ast.expr | None]  # name an `except ... as name:` binds -> the class (or tuple) it catches


class Parameter(NamedTuple):
    """A parameter of the function visited (a tuple: one is made for each parameter of every function)."""

    position: int | None  # its position in a call (`self` dropped for a method), None when keyword-only
    default: ast.expr | None
    annotated: str | None  # the class its annotation names, if any


Params = dict[str, Parameter]


class Check(NamedTuple):
    """A test that leaves by raising when true (`if test: raise E`), at the line of its `if`: the code after
    it runs only once the test is false (see `model.PriorCheck`)."""

    guard: Guard
    line: int


class Falls(NamedTuple):
    """What a statement (or block) says of the code after it: whether it is reached, and what then holds.

    A raise is another error's check: the code after `if a: raise E` is not said to need `not a`
    (its sites keep their own checks); a `return`, `continue` or `break` skips the code after it
    quietly, so the code after `if a: return` runs only when `not a`.
    """

    leaves: bool  # no path goes on to the next statement
    quiet: bool  # every path returns, continues or breaks (none goes on, none raises)
    when: tuple[ast.expr, ...] = ()  # each holds whenever it did not leave quietly (empty: nothing known)
    passed: tuple[Check, ...] = ()  # the raising checks every path that went on passed (each test false)


ALWAYS = Falls(False, False)
QUIET = Falls(True, True)
RAISES = Falls(True, False)


class Walked(NamedTuple):
    """What the sites under a condition need of its nodes."""

    steps: int  # the nodes walked (MAX_NODES for a condition too large to walk)
    values: tuple[str, ...]  # the names whose values a site shows (see `value_names`)
    tested: tuple[tuple[str, bool], ...]  # the settings it tests (see `tested_names`)


class Guard:
    """A condition around the statements visited, with what their sites need of it worked out once:
    every site (and recorded call) under it gives its text and names again. Both are worked out on
    first use (most conditions guard no site)."""

    def __init__(self, test: ast.expr) -> None:
        self.test = test
        self._text: str | None = None
        self._walked: Walked | None = None

    def text(self) -> str:
        if self._text is None:
            self._text = condition_text(self.test)
        return self._text

    def walked(self) -> Walked:
        if self._walked is None:
            nodes = expression_nodes(self.test)
            steps = MAX_NODES if nodes is None else len(nodes)
            self._walked = Walked(steps, value_names(nodes or []), tested_names(nodes or []))
        return self._walked


def tested_names(nodes: list[ast.AST]) -> tuple[tuple[str, bool], ...]:
    """The settings a condition tests: an attribute of `self` or `cls`, or a name that is not a builtin
    (with True: it is not one if the module defines it as a constant)."""
    out: dict[tuple[str, bool], None] = {}
    for node in nodes:
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            out[(node.attr, False)] = None
        elif isinstance(node, ast.Name) and node.id not in _BUILTIN_NAMES:
            out[(node.id, True)] = None
    return tuple(out)


def value_names(nodes: list[ast.AST]) -> tuple[str, ...]:
    """The dotted names among an expression's nodes that may have a value worth showing (not what is called)."""
    called = {id(n.func) for n in nodes if isinstance(n, ast.Call)}
    out: dict[str, None] = {}
    for node in nodes:
        if isinstance(node, (ast.Name, ast.Attribute)) and id(node) not in called:
            name = dotted_name(node)
            if name is not None and not _not_a_value(name):
                out[name] = None
    return tuple(out)


def parameters(args: ast.arguments, method: bool) -> Params:
    """A function's parameters: the position each takes in a call (`self` dropped for a method) and its default."""
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    skip = 1 if method and positional else 0
    out: Params = {
        a.arg: Parameter(i - skip if i >= skip else None, d, annotated_class(a.annotation))
        for i, (a, d) in enumerate(zip(positional, defaults, strict=True))
    }
    out.update(
        (a.arg, Parameter(None, d, annotated_class(a.annotation)))
        for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)
    )
    return out


def looks_like_exception(name: str, bases: tuple[str, ...] = ()) -> bool:
    """Whether a class is probably an exception, judged by its own and its bases' names."""
    return name.endswith(_EXCEPTION_SUFFIXES) or any(base.endswith(_EXCEPTION_SUFFIXES) for base in bases)


def _helper_category(call: ast.Call) -> ast.expr | None:
    """The category a package's own `warn` helper (`util.warn(msg)`) is given, when the call names one: a `category=`
    keyword, or a second argument named like a warning class. Otherwise None (unknown): the helper chooses it, and
    it need not be UserWarning (SQLAlchemy's `util.warn` warns with its SAWarning)."""
    given = keyword_value(call, "category")
    if given is None and len(call.args) > 1 and looks_like_exception(dotted_name(call.args[1]) or ""):
        given = call.args[1]
    return given


class SiteVisitor:
    """Collects raw sites (and the calls that may reach a raise helper) from the statements it is given."""

    def __init__(self, module: ModuleScope, functions: frozenset[str] | None = None) -> None:
        """`functions`: the names the functions it will visit may have (see `chunks.defined_names`), None for
        any; only a call of one of them may call a raise helper of this module."""
        self.module = module
        self.functions = functions
        self.sites: list[RawSite] = []
        self.scopes: list[tuple[str, str]] = []  # ("class" | "def", name)
        self.env: Env = {}
        self.caught: Caught = {}  # in the function visited, whatever handler (the name outlives it when stored)
        self.conditions: list[Guard] = []
        self.prior: list[Check] = []  # the raising checks the statement visited comes after, on its path
        self.params: Params = {}  # the enclosing function's parameters
        self.calls: list[HelperCall] = []  # calls passing a message (or a parameter) along
        self.near_site: set[int] = set()  # (indexes of) calls in functions that raise something themselves
        self.raised_again = 0  # raises of a caught exception seen (no site, but the function raises)
        self.argument_parts: dict[int, list[Parts]] = {}  # id of a message argument -> its templates' parts
        self.properties: dict[str, list[str]] = {}  # qualname of a property -> templates it returns
        self.in_property = False
        self.loops: list[int] = []  # first lines of the loops around the statement
        self.attribute_defaults: dict[
            str, str
        ] = {}  # "Class.attr" -> class name an `__init__` parameter's default gives it

    # -- dispatch -------------------------------------------------------------------------
    def visit(self, node: ast.stmt) -> Falls:
        """Visit a statement; what it says of the code after it (its handler's answer, ALWAYS if none)."""
        kind = type(node)
        handler = _HANDLERS.get(kind, _UNKNOWN)
        if handler is _UNKNOWN:
            handler = _HANDLERS[kind] = getattr(SiteVisitor, "visit_" + kind.__name__, None)
        falls = handler(self, node) if handler is not None else None
        return falls if falls is not None else ALWAYS

    def visit_body(self, body: list[ast.stmt]) -> Falls:
        """Visit a block. In a function, the statements after an `if` that returns on one branch are guarded by
        the other branch's condition (`if a: return x` then `raise E`: the raise happens when `not a`)."""
        depth, checked = len(self.conditions), len(self.prior)
        when: list[ast.expr] = []
        passed: list[Check] = []
        guarding = bool(self.scopes) and self.scopes[-1][0] == "def"  # module chunks are visited one by one
        for i, stmt in enumerate(body):
            falls = self.visit(stmt)
            if falls.leaves:
                for unreached in body[i + 1 :]:  # its sites are kept as they are
                    self.visit(unreached)
                del self.conditions[depth:], self.prior[checked:]
                return falls if falls.quiet else Falls(True, False, (*when, *falls.when))
            when += falls.when
            passed += falls.passed
            if guarding:
                self.conditions += [Guard(test) for test in falls.when]
                self.prior += falls.passed
        del self.conditions[depth:], self.prior[checked:]
        return Falls(False, False, tuple(when), tuple(passed))

    def visit_in_scopes(self, node: ast.stmt, scopes: list[tuple[str, str]]) -> None:
        """Visit a statement cut out of a larger file, as if it stood inside `scopes`."""
        saved, self.scopes = self.scopes, list(scopes)
        self.visit(node)
        self.scopes = saved

    # -- scopes ---------------------------------------------------------------------------
    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        saved = (self.env, self.caught, self.conditions, self.prior, self.params, self.in_property)
        method = bool(self.scopes) and self.scopes[-1][0] == "class" and not is_static(node)
        self.env, self.caught, self.conditions, self.prior = {}, {}, [], []
        self.params = parameters(node.args, method)
        self.in_property = method and any(last_name(d) in _PROPERTIES for d in node.decorator_list)
        self.scopes.append(("def", node.name))
        sites, calls = len(self.sites) + self.raised_again, len(self.calls)
        self.visit_body(node.body)
        if len(self.sites) + self.raised_again > sites:
            self.near_site.update(range(calls, len(self.calls)))  # kept for helpers of other files (see `helper_calls`)
        self.scopes.pop()
        self.env, self.caught, self.conditions, self.prior, self.params, self.in_property = saved

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        saved = (self.env, self.conditions, self.prior, self.params)
        self.env, self.conditions, self.prior, self.params = {}, [], [], {}
        self.scopes.append(("class", node.name))
        self.visit_body(node.body)
        self.scopes.pop()
        self.env, self.conditions, self.prior, self.params = saved

    # -- control flow ---------------------------------------------------------------------
    def _branch(self) -> None:
        """Copying and merging the bindings costs a step per name each (long generated functions)."""
        self.module.budget.charge(3 * len(self.env))
        self.module.budget.check()

    def visit_If(self, node: ast.If) -> Falls:
        self._branch()
        before = self._copy_env()
        self.conditions.append(Guard(node.test))
        body = self.visit_body(node.body)
        after_body, self.env = self.env, before
        orelse = ALWAYS
        if node.orelse:  # (most have none: no negated condition to make)
            self.conditions[-1] = Guard(negated(node.test))
            orelse = self.visit_body(node.orelse)
        self.conditions.pop()
        # an `if` that may be skipped keeps the skipping path's bindings first: when alternatives are cut at
        # MAX_BINDINGS, the messages that optional parts were not added to stay
        self.env = _merge(after_body, self.env) if node.orelse else _merge(self.env, after_body)
        return _after_if(node.test, body, orelse)._replace(passed=_passed(node, body, orelse))

    def visit_For(self, node: ast.For | ast.AsyncFor | ast.While) -> None:
        self._branch()
        before = self._copy_env()
        self.loops.append(node.lineno)
        self.visit_body(node.body)
        self.loops.pop()
        self.visit_body(node.orelse)
        self.env = _merge(before, self.env)

    visit_AsyncFor = visit_While = visit_For

    def visit_With(self, node: ast.With | ast.AsyncWith) -> Falls:
        return self.visit_body(node.body)

    visit_AsyncWith = visit_With

    def visit_Try(self, node: ast.Try) -> Falls:
        """The code after a `try` meets the conditions of its body (and `else`) only when every handler leaves: a
        caught exception may come from anywhere in the body."""
        self._branch()
        before = self._copy_env()
        went_on = self.visit_body(node.body + node.orelse)  # (`else` runs after the body went on)
        handlers = []
        branches = [self.env]
        for handler in node.handlers:
            self.env = self._copy_env(before)
            if handler.name:
                self.env.pop(handler.name, None)
                self.caught[handler.name] = handler.type
            handlers.append(self.visit_body(handler.body))
            branches.append(self.env)
        self.env = branches[0]
        for branch in branches[1:]:
            self.env = _merge(self.env, branch)
        final = self.visit_body(node.finalbody)
        if final.leaves:
            return final
        if not all(h.leaves for h in handlers):
            return ALWAYS
        if went_on.quiet:
            return QUIET if all(h.quiet for h in handlers) else RAISES
        return went_on

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
            self._attribute_default(target, node.value)
            self._given_attribute(target, node.value)
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
        self.env[name] = [
            Binding(ast.BinOp(left=b.expr, op=ast.Add(), right=node.value), node.lineno) for b in previous
        ]

    def _bind(self, target: ast.expr, value: ast.expr, line: int) -> None:
        if isinstance(target, ast.Name):
            previous = self.env.get(target.id)
            if previous and builds_text(value) and mentions(value, target.id):
                self.env[target.id] = [Binding(substitute(value, target.id, b.expr), line) for b in previous]
            elif previous and mentions_shallow(value, target.id):
                del self.env[target.id]  # `x = f(x)`: a value we could not follow anyway
            else:
                self.env[target.id] = [Binding(value, line)]
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                if isinstance(elt, ast.Name):
                    self.env.pop(elt.id, None)
                    self.caught.pop(elt.id, None)

    def _copy_env(self, env: Env | None = None) -> Env:
        """A copy to bind names in: binding lists are replaced, never changed, so they are shared."""
        return dict(self.env if env is None else env)

    # -- sites ----------------------------------------------------------------------------
    def visit_Raise(self, node: ast.Raise) -> Falls:
        if node.exc is not None:  # a bare `raise` re-raises; the site is elsewhere
            self._raise(node.exc, node)
        return RAISES

    def _raise(self, exc: ast.expr, node: ast.stmt) -> None:
        """A site raising `exc` (an exception instance or class, as `raise` is given it); none for an exception
        caught here raised again (`except E as err: ... raise err`), whose site is where it was first raised."""
        if self._caught_classes(exc) is not None:
            self.raised_again += 1
            return
        for raised in self._built(exc):
            self._raise_new(raised, node)

    def _raise_new(self, exc: ast.expr, node: ast.stmt) -> None:
        """A site raising an exception made here (or one whose making this function does not show)."""
        given = exc.func if isinstance(exc, ast.Call) else exc
        message = message_argument(exc, self.env) if isinstance(exc, ast.Call) else None
        later = message is not None and isinstance(exc, ast.Call) and bool(exc.args) and message is not exc.args[0]
        self._add_site(
            "error",
            self._raised_class(given),
            filled(exc, message) if isinstance(exc, ast.Call) and message is not None else message,
            node,
            exception_param=self._parameter_name(given),
            message_later=later,  # a piece of what the class may print (see `package._message`)
            written=message,
        )

    def _built(self, exc: ast.expr) -> list[ast.expr]:
        """What a raise raises: a name bound only to instances made here (`err = ValueError(...)`, in each
        branch, or `Error.from_code(...)`) raises those, anything else itself."""
        bindings = self.env.get(exc.id) if isinstance(exc, ast.Name) else None
        made: list[ast.expr] = [
            b.expr for b in bindings or [] if isinstance(b.expr, ast.Call) and _names_a_class(b.expr.func)
        ]
        return made if bindings and len(made) == len(bindings) else [exc]

    def _caught_classes(self, expr: ast.expr, depth: int = 0) -> list[ast.expr | None] | None:
        """The classes `except` clauses of this function catch, when `expr` is always an exception one of
        them caught (`err`, `err.with_traceback(tb)`, a name it was stored in, None on some paths); else None."""
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "with_traceback":
            expr = expr.func.value
        if not isinstance(expr, ast.Name) or depth > _MAX_STORED:
            return None
        bindings = self.env.get(expr.id)
        if bindings is None:
            return [self.caught[expr.id]] if expr.id in self.caught else None
        out: list[ast.expr | None] = []
        for binding in bindings:
            found = [] if is_hole(binding.expr) else self._caught_classes(binding.expr, depth + 1)
            if found is None:
                return None
            out.extend(found)
        return out or None

    def _raised_class(self, given: ast.expr) -> str | None:
        """The class raised, as written; for the class of a caught exception (`err.__class__(...)`,
        `type(err)(...)`), the one its `except` clause names, None when that may be several or any."""
        of = given.value if isinstance(given, ast.Attribute) and given.attr == "__class__" else None
        if isinstance(given, ast.Call) and dotted_name(given.func) == "type" and len(given.args) == 1:
            of = given.args[0]
        classes = self._caught_classes(of) if of is not None else None
        if classes is None:
            return self._argument_default(given)
        names = {dotted_name(c) if c is not None else None for c in classes}
        name = names.pop() if len(names) == 1 else None
        return name if name is not None and name not in _BROAD_CLASSES else None

    def _argument_default(self, node: ast.expr) -> str:
        """A name as written, or the default of the parameter it names (`exc=TemplateSyntaxError`)."""
        if isinstance(node, ast.Name) and node.id not in self.env:
            found = self.params.get(node.id)
            default = found.default if found is not None else None
            if default is not None and dotted_name(default) is not None:
                return expr_name(default)
        return expr_name(node)

    def visit_Assert(self, node: ast.Assert) -> None:
        if node.msg is None:
            return
        self.conditions.append(Guard(ast.UnaryOp(op=ast.Not(), operand=node.test)))
        self._add_site("error", "AssertionError", node.msg, node)
        self.conditions.pop()

    def visit_Expr(self, node: ast.Expr) -> None:
        self._record_call(node.value, node)

    def visit_Return(self, node: ast.Return) -> Falls:
        self._returned(node)
        return QUIET

    def visit_Continue(self, node: ast.Continue | ast.Break) -> Falls:
        """`continue` and `break` leave the rest of the loop's block (a loop says nothing of the code after it)."""
        return QUIET

    visit_Break = visit_Continue

    def _returned(self, node: ast.Return) -> None:
        if node.value is not None and self._in_method("__str__"):
            self._class_message(node.value)
        elif isinstance(node.value, ast.Call):
            self._note_call(node.value, node)
        if node.value is not None and self.in_property:
            found = self.properties.setdefault(self.qualname(), [])
            for parts in templates(node.value, _TemplateScope(self)):
                text = render(parts)
                if text is not None and text not in found and len(found) < MAX_BINDINGS:
                    found.append(text)

    def _attribute_default(self, target: ast.expr, value: ast.expr) -> None:
        """`self.exc = exc` in `__init__(self, exc=UndefinedError)`: the class `raise self.exc(...)` raises
        by default."""
        if not (self._in_method("__init__") and isinstance(target, ast.Attribute) and is_self(target.value)):
            return
        param = self._parameter_name(value)
        default = self.params[param].default if param else None
        if default is not None and dotted_name(default) is not None:
            self.attribute_defaults[f"{self._class_qualname()}.{target.attr}"] = expr_name(default)

    def exception_attributes(self) -> dict[str, str]:
        """The default classes of the attributes sites raise (`raise self._exception(...)`)."""
        wanted = {f"{s.owner}.{s.exception_attribute}" for s in self.sites if s.exception_attribute}
        return {name: found for name, found in self.attribute_defaults.items() if name in wanted}

    def message_properties(self) -> dict[str, tuple[str, ...]]:
        """The templates of the properties that sites give as their message (`raise E(self.message)`)."""
        wanted = {f"{s.owner}.{s.message_attribute}" for s in self.sites if s.message_attribute}
        return {name: tuple(found) for name, found in self.properties.items() if name in wanted and found}

    def needed_elsewhere(self) -> list[str]:
        """Text that marks code a site's message may come from: calls of this module's helpers, the
        properties sites raise with (the fast path must read every chunk holding one)."""
        attributes = {s.message_attribute for s in self.sites if s.message_attribute}
        if any(s.exception_attribute for s in self.sites):
            attributes.add("__init__")
        return [f"{name}(" for name in sorted(self.helper_names())] + [f"def {name}(" for name in sorted(attributes)]

    def _record_call(self, value: ast.expr, stmt: ast.stmt) -> None:
        if not isinstance(value, ast.Call):
            return
        func = value.func
        name = dotted_name(func) or ""
        last = name.rsplit(".", 1)[-1]
        if last in _SIX_RAISES and value.args and self._from_six(name):
            # six.raise_from(exc, cause) / six.reraise(tp, value, tb): a caught `value` is raised again
            again = last == "reraise" and len(value.args) > 1 and self._caught_classes(value.args[1]) is not None
            self._raise(value.args[1] if again else value.args[0], stmt)
        elif last == "warn" and (name in ("warn", "warnings.warn") or not is_logger(name)):
            category = warning_category(value) if self._from_warnings(name) else _helper_category(value)
            message = value.args[0] if value.args else keyword_value(value, "message")
            self._add_site(
                "warning",
                self._argument_default(category) if category is not None else None,
                message,
                stmt,
                exception_param=self._parameter_name(category) if category is not None else None,
            )
        elif last in _LOG_METHODS and is_logger(name):
            self._add_site("log", None, log_message(value), stmt, level=last)
        elif isinstance(func, ast.Attribute) and func.attr == "__init__" and self._in_method("__init__"):
            args = value.args if is_super(func.value) else value.args[1:]
            if args and not isinstance(args[0], ast.Starred):
                self._class_message(args[0])
        elif (
            isinstance(func, ast.Attribute)
            and func.attr == "append"
            and isinstance(func.value, ast.Name)
            and len(value.args) == 1
        ):
            self._append(func.value.id, value.args[0], stmt.lineno)
        else:
            self._note_call(value, stmt)

    def _append(self, name: str, item: ast.expr, line: int) -> None:
        """`words.append(x)` on a name bound to list literals: the lists grow (for `" ".join(words)` messages).

        A list made before a loop that appends to it gets any number of items: one hole.
        """
        bindings = self.env.get(name)
        if not bindings or not all(isinstance(b.expr, ast.List) and len(b.expr.elts) < MAX_BINDINGS for b in bindings):
            return
        grown = []
        for b in bindings:
            elts = b.expr.elts  # type: ignore[attr-defined]  # a list literal, as checked above
            if self.loops and b.line < self.loops[-1]:
                elts = elts if elts and is_hole(elts[-1]) else [*elts, ast.Constant(value=None)]
            else:
                elts = [*elts, item]
            grown.append(Binding(ast.List(elts=elts, ctx=ast.Load()), b.line))
        self.env[name] = grown

    def _from_warnings(self, name: str) -> bool:
        """Whether a called `warn` is the standard library's (`warnings.warn`, `from warnings import warn`, an alias
        of the module): only it warns with UserWarning when given no category."""
        head, _, _ = name.rpartition(".")
        imported = self.module.imports.get(head or name)
        if head:
            return imported == ("warnings", None) or (imported is None and head == "warnings")
        return imported == ("warnings", "warn")

    def _from_six(self, name: str) -> bool:
        """Whether a called name is six's (`six.raise_from`, a vendored `packages.six`, `from six import reraise`)."""
        if "." in name:
            return name.rsplit(".", 2)[-2] == "six"
        imported = self.module.imports.get(name)
        return imported is not None and imported[0].rsplit(".", 1)[-1] == "six"

    def _note_call(self, call: ast.Call, stmt: ast.stmt) -> None:
        """Remember a call that passes a message or one of this function's parameters: it may call a raise helper.

        Only the calls `helper_calls` may keep are read (most are not): those of a function this module may
        define (which may turn out to be a helper), and those writing a message that may reach another module's.
        """
        callee, receiver = self._callee(call.func)
        if callee is None:
            return
        own = self.functions is None or callee.rsplit(".", 1)[-1] in self.functions
        if not own and not self._reachable(callee, receiver):
            return
        args: list[CallArg] = []
        exprs: list[ast.expr] = []
        for key, expr in call_arguments(call):
            param = self._parameter_name(expr)
            found = CallArg(key, param=self._param_ref(param)) if param else self._message_argument(key, expr)
            if found is not None:
                args.append(found)
                exprs.append(expr)
            elif looks_like_exception(dotted_name(expr) or ""):
                args.append(CallArg(key, exception=dotted_name(expr)))  # the class a helper may be told to raise
        if not exprs or not (own or _writes_message(args)):
            return
        self.calls.append(
            HelperCall(
                callee=callee,
                receiver=receiver,
                line=stmt.lineno,
                end_line=stmt.end_lineno or stmt.lineno,
                function=self.qualname(),
                owner=self._class_qualname(),
                clauses=self._clauses(),
                args=tuple(args),
                values=self._resolve_names(ast.Tuple(elts=exprs, ctx=ast.Load())),
            )
        )

    def _callee(self, func: ast.expr) -> tuple[str | None, str | None]:
        """The called name, and the class of its receiver when it is known: an instance made here (`Cls().m`,
        `x = Cls(); x.m`), a parameter annotated with a class (`p: "Parser"`)."""
        callee = dotted_name(func)
        if callee is None:
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call):
                receiver = dotted_name(func.value.func)
                if receiver:
                    return func.attr, receiver
            return None, None
        head, _, rest = callee.partition(".")
        bound = self.env.get(head) if rest and "." not in rest else None
        if bound and len(bound) == 1 and isinstance(bound[0].expr, ast.Call):
            return callee, dotted_name(bound[0].expr.func)
        if rest and "." not in rest and not bound and head in self.params:
            return callee, self.params[head].annotated  # `def parse(self, parser: "Parser"): parser.fail(...)`
        return callee, None

    def _message_argument(self, key: int | str, expr: ast.expr) -> CallArg | None:
        """An argument that reads as a message (literal words), with its templates and source, else None."""
        if not isinstance(expr, _MESSAGE_NODES):
            return None
        found = templates(expr, _TemplateScope(self))
        texts = [t for t in dict.fromkeys(map(render, found)) if t is not None]
        kept = tuple(Template(t) for t in texts if " " in t.strip() and len(t) <= MAX_TEMPLATE)
        if not kept:
            return None
        arg = CallArg(key, templates=kept, source=unparse(expr)[:MAX_TEMPLATE])
        self.argument_parts[id(arg)] = found  # its holes are worked out if the call is kept (most are not)
        return arg

    def _with_holes(self, call: HelperCall) -> HelperCall:
        """A kept call with the expressions each hole of its messages shows."""
        args = []
        for arg in call.args:
            parts = self.argument_parts.get(id(arg))
            if parts is not None:
                full = {t.text: t for t in _unique_templates(parts)}
                arg = replace(arg, templates=tuple(full[t.text] for t in arg.templates))
            args.append(arg)
        return replace(call, args=tuple(args))

    def _param_ref(self, name: str | None) -> ParamRef | None:
        return ParamRef(name, self.params[name].position) if name is not None else None

    def _parameter_name(self, expr: ast.expr) -> str | None:
        """The name of this function's parameter that `expr` is, untouched, or None."""
        if isinstance(expr, ast.Name) and expr.id in self.params and expr.id not in self.env:
            return expr.id
        return None

    def helper_calls(self) -> tuple[HelperCall, ...]:
        """The calls worth keeping: those of this module's own raise helpers (found up to a small depth), and, in
        functions that raise something themselves, those writing a message that may reach a helper of another module.

        (The fast path reads only code that can raise, and code that calls this module's helpers: keeping the
        calls of other modules' helpers from those functions only makes it see what a full parse sees.)
        """
        names = self.helper_names()
        return tuple(
            self._with_holes(c)
            for i, c in enumerate(self.calls)
            if c.called in names
            or (i in self.near_site and self._reachable(c.callee, c.receiver) and _writes_message(c.args))
        )

    def _reachable(self, callee: str, receiver: str | None) -> bool:
        """Whether a call may reach another module's function that linking can find: an imported name, a
        function of an imported module, a method of self or of a class made here."""
        head = callee.rpartition(".")[0]
        first = (head or callee).split(".", 1)[0]
        return bool(receiver) or head in ("self", "cls") or first in self.module.imports

    def helper_names(self) -> set[str]:
        """Names of functions here that raise (or warn) a message given as a parameter, or pass one to such
        a function."""
        names = {s.function.rsplit(".", 1)[-1] for s in self.sites if s.message_param}
        for _ in range(MAX_HELPER_DEPTH):
            more = {
                c.function.rsplit(".", 1)[-1] for c in self.calls if c.called in names and any(a.param for a in c.args)
            } - names
            if not more:
                break
            names |= more
        return names

    def _in_method(self, method: str) -> bool:
        return len(self.scopes) >= 2 and self.scopes[-1] == ("def", method) and self.scopes[-2][0] == "class"

    def _class_message(self, expr: ast.expr) -> None:
        """An exception class that builds its own message: remember the template on the class, with the
        argument it is given marked (so that a site's own words can be put there, see `package._message`)."""
        cls = self._current_class()
        if cls is None or not looks_like_exception(cls.qualname, cls.bases):
            return
        self.module.budget.start_site()
        given = self._given(cls)
        scope = _TemplateScope(self, given)
        for parts in templates(substitute(expr, *given) if given else expr, scope, self.module.budget):
            text = render(parts)
            if (
                text is not None
                and given_message(class_message(text), None) is not None
                and text not in cls.message_templates
            ):
                cls.message_templates.append(text)

    def _given(self, cls: ClassScope) -> tuple[str, ast.expr] | None:
        """Where the class's message holds the first argument it is given, and the mark put there:
        `__init__`'s first parameter (while it is not bound again), or in `__str__` the attribute
        `__init__` keeps it in."""
        if self._in_method("__init__"):
            first = self._first_parameter()
            return (first, ast.Constant(given_mark())) if first is not None else None
        if cls.given_attribute is not None:
            attribute, stripped = cls.given_attribute
            return f"self.{attribute}", ast.Constant(given_mark(stripped))
        return None

    def _given_attribute(self, target: ast.expr, value: ast.expr) -> None:
        """`self.message = message` (or `message.rstrip('.')`) in an exception's `__init__`: where `__str__`
        finds the first argument."""
        first = self._first_parameter() if self._in_method("__init__") else None
        if first is None or not (isinstance(target, ast.Attribute) and is_self(target.value)):
            return
        stripped = ""
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "rstrip":
            chars = value.args[0] if len(value.args) == 1 and not value.keywords else None
            if not (isinstance(chars, ast.Constant) and isinstance(chars.value, str) and 0 < len(chars.value) <= 10):
                return
            value, stripped = value.func.value, chars.value
        cls = self._current_class()
        if isinstance(value, ast.Name) and value.id == first and cls is not None and cls.given_attribute is None:
            cls.given_attribute = (target.attr, stripped)

    def _first_parameter(self) -> str | None:
        """The method's first parameter after `self`, while the body has not bound it again."""
        first = next((name for name, p in self.params.items() if p.position == 0), None)
        return first if first is not None and first not in self.env else None

    def _current_class(self) -> ClassScope | None:
        names = [name for kind, name in self.scopes[:-1]]
        return self.module.classes.get(".".join(names))

    def _add_site(
        self,
        kind: Kind,
        exception: str | None,
        message: ast.expr | None,
        node: ast.stmt,
        level: str | None = None,
        exception_param: str | None = None,
        message_later: bool = False,
        written: ast.expr | None = None,
    ) -> None:
        """`written`: the message as the code writes it, when `message` is what it becomes (see `nodes.filled`)."""
        self.module.budget.start_site()
        scope = _TemplateScope(self)
        found: tuple[Template, ...] = ()
        if message is None:
            reason: str | None = "no message argument" if kind == "error" else "message not given"
        else:
            found = _unique_templates(templates(message, scope, self.module.budget))
            reason = None if found else "message is built at run time"
            if any(len(t.text) > MAX_TEMPLATE for t in found):
                found, reason = (), f"message is longer than {MAX_TEMPLATE:,} characters"
        values = self._resolve_names(message)
        param = self._parameter_name(message) if message is not None else None
        helper = param is not None  # a raise helper: its callers write the message (and may choose the class)
        self_attribute = exception is not None and exception.startswith(("self.", "cls.")) and exception.count(".") == 1
        self.sites.append(
            RawSite(
                kind=kind,
                exception=exception,
                templates=found,
                reason=reason,
                line=node.lineno,
                end_line=node.end_lineno or node.lineno,
                function=self.qualname(),
                owner=self._class_qualname(),
                clauses=self._clauses(),
                prior_checks=self._prior_checks(),
                values=values,
                message_source=unparse(written or message)[:MAX_TEMPLATE] if message is not None else "",
                level=level,
                message_later=message_later,
                # may be a property of the class (see `message_properties`)
                message_attribute=message.attr
                if isinstance(message, ast.Attribute) and is_self(message.value)
                else None,
                # may be set in `__init__` (see `exception_attributes`)
                exception_attribute=exception.split(".", 1)[1] if exception and self_attribute else None,
                message_param=self._param_ref(param),
                exception_param=self._param_ref(exception_param) if helper else None,
            )
        )

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

    def _clauses(self) -> tuple[str, ...]:
        """The source of each guarding condition, outermost first (a clause said twice, once)."""
        return tuple(dict.fromkeys(guard.text() for guard in self.conditions))

    def _prior_checks(self) -> tuple[PriorCheck, ...]:
        """The raising checks the site comes after on its path, first first (a test said twice, once)."""
        self.module.budget.charge(len(self.prior))
        found = {(check.guard.text(), check.line): None for check in self.prior}
        return tuple(PriorCheck(line, text) for text, line in found)

    # -- resolving the names a site uses --------------------------------------------------
    def _resolve_names(self, message: ast.expr | None) -> Values:
        """The values of the names the message and the conditions use, as far as this file tells."""
        names: dict[str, None] = {}
        walks = [guard.walked() for guard in self.conditions]
        for walked in walks:
            self.module.budget.charge(walked.steps)
            names.update(dict.fromkeys(walked.values))
        if message is not None:
            nodes = expression_nodes(message)
            self.module.budget.charge(MAX_NODES if nodes is None else len(nodes))
            names.update(dict.fromkeys(value_names(nodes or [])))
        constants = self.module.constants
        checks = {name: None for walked in walks for name, plain in walked.tested if not plain or name not in constants}
        resolved: dict[str, JsonValue] = {}
        origins: dict[str, str] = {}
        pending: list[Pending] = []
        bindings: dict[str, tuple[ValueBinding, ...]] = {}
        for name in names:
            found = None if name in self.env else self.module.bindings(name)
            if found is not None:
                bindings[name] = found
            try:
                value, origin = self.resolve(name)
            except NeedsPackage:
                expr = self._inline(name)
                if expr is not None:
                    pending.append(Pending(name, expr))
                continue
            except (Unresolved, RecursionError):
                continue
            resolved[name] = to_json(value)
            origins[name] = origin
            checks.pop(name, None)
        tested = tuple(c for c in checks if not {c, f"self.{c}", f"cls.{c}"} & resolved.keys())
        return Values(resolved, origins, tuple(pending), tested, bindings)

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
            nodes = expression_nodes(expr)
            if nodes is None:
                return None
            locals_used = [n.id for n in nodes if isinstance(n, ast.Name) and n.id in self.env]
            if not locals_used:
                return unparse(expr)
            local = locals_used[0]
            if len(self.env[local]) != 1 or local == head:
                return None
            expr = substitute(expr, local, self.env[local][0].expr)
        return None


class _TemplateScope:
    """The view of names that templates need, from the visitor's current state."""

    def __init__(self, visitor: SiteVisitor, given: tuple[str, ast.expr] | None = None) -> None:
        self.visitor = visitor
        self.given = given  # a name replaced in what names are bound to (see `SiteVisitor._given`)

    def alternatives(self, name: str) -> list[ast.expr] | None:
        bindings = self.visitor.env.get(name)
        if not bindings:
            return None
        return [substitute(b.expr, *self.given) for b in bindings] if self.given else [b.expr for b in bindings]

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


def _names_a_class(func: ast.expr) -> bool:
    """Whether a called name is a class's or one of its methods' (`ValueError`, `errors.Bad`, `Bad.of`), by case."""
    return any(part[:1].isupper() for part in (dotted_name(func) or "").split("."))


def negated(test: ast.expr) -> ast.expr:
    """`not test`, without a double negation."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand
    return ast.UnaryOp(op=ast.Not(), operand=test)


def _after_if(test: ast.expr, body: Falls, orelse: Falls) -> Falls:
    """What the code after an `if` meets: the negation of a branch that leaves quietly, else (when a branch
    meets conditions) the one expression `test and <body's> or not test and <else's>`, grouping kept."""
    leaves = body.leaves and orelse.leaves
    if body.quiet or orelse.quiet:
        if body.quiet and orelse.quiet:
            return QUIET
        when = (negated(test), *orelse.when) if body.quiet else (test, *body.when)
        return Falls(leaves, False, when)
    if not body.when and not orelse.when:
        return Falls(leaves, False)
    if not orelse.when:
        sides = [negated(test), _all(body.when)]
    elif not body.when:
        sides = [test, _all(orelse.when)]
    else:
        sides = [_all((test, *body.when)), _all((negated(test), *orelse.when))]
    return Falls(leaves, False, (ast.BoolOp(op=ast.Or(), values=sides),))


def _passed(node: ast.If, body: Falls, orelse: Falls) -> tuple[Check, ...]:
    """The raising checks the code after an `if` comes after: its test (or the negation) where that branch
    leaves by raising, else the checks passed inside a branch that goes on, joined with its test when the
    other branch goes on too (`if a: if b: raise` gives `a and b`)."""
    out: list[Check] = []
    for side, test, other in ((body, node.test, orelse), (orelse, negated(node.test), body)):
        if side.quiet:
            continue  # the code after meets the negation (see `_after_if`)
        if side.leaves:
            out.append(Check(Guard(test), node.lineno))
            continue
        for check in side.passed:
            joined = check if other.leaves else Check(Guard(_all((test, check.guard.test))), check.line)
            out.append(joined)
    return tuple(out)


def _all(tests: tuple[ast.expr, ...]) -> ast.expr:
    return tests[0] if len(tests) == 1 else ast.BoolOp(op=ast.And(), values=list(tests))


def _merge(a: Env, b: Env) -> Env:
    """The bindings of either path: those of `a`, then those of `b` it does not have (at most MAX_BINDINGS)."""
    out = dict(a)
    for name, bindings in b.items():
        mine = out.get(name, [])
        if bindings is mine:  # a name neither path rebound
            continue
        merged = list(mine)
        known = {id(binding.expr) for binding in merged}
        for binding in bindings:
            if id(binding.expr) not in known:
                merged.append(binding)
                known.add(id(binding.expr))
        out[name] = merged[:MAX_BINDINGS]
    return out


def _writes_message(args: Sequence[CallArg]) -> bool:
    """Whether a call passes a message it writes (not only parameters passed along)."""
    return any(arg.templates for arg in args)


def _unique_templates(found: list[Parts]) -> tuple[Template, ...]:
    """The distinct templates of a message's alternatives, with the expressions each `{}` of each shows (as the
    first alternative rendering to it has them)."""
    out: dict[str, Template] = {}
    for parts in found:
        text = render(parts)
        if text is not None and text not in out:
            out[text] = Template(text, hole_sources(parts))
    return tuple(out.values())
