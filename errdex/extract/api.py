"""The public surface of one module, read statically: what a user's code can name, call and pass.

Interpreter errors about a library (`unexpected keyword argument`, `has no attribute`, `cannot import name`)
are answered by comparing this surface across releases, so it records every class (bases; the fields a
dataclass-like class takes in its `__init__`), function and method (signature), property, module and class
attribute, the names a module imports (re-exports) or lists for lazy loading, and deprecation shims: a
parameter that warns when given, a name a module's `__getattr__` still answers with a warning or refuses.
"""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Iterator
from dataclasses import replace

from errdex.extract.file import parser_warnings_silenced
from errdex.extract.resolve import dotted_name
from errdex.extract.scope import module_name
from errdex.model import ApiDeprecation, ApiKind, ApiParam, ApiSymbol

MAX_API_BYTES = 4_000_000  # a larger file is no hand-written API
POSITIONAL = "*"  # the deprecation of passing keyword-only parameters by position
_DATACLASS = {"dataclass", "define", "frozen", "mutable", "attrs", "s", "dataclasses.dataclass"}
_PROPERTY = {"property", "cached_property", "functools.cached_property", "abc.abstractproperty"}
_WARNINGS = {"DeprecationWarning", "FutureWarning", "PendingDeprecationWarning"}
_OF_PARAMETERS = ("arg", "param", "positional")  # a deprecating decorator named with these deprecates parameters
_NAMED = re.compile(r"[`'\"]([A-Za-z_][A-Za-z0-9_.]*)(?:\(\))?[`'\"]")  # a name quoted in a message
_WARNING_WORDS = re.compile(rb"(?i)warn|deprecat")
_NEWLINE = re.compile(rb"\n")
_USE_INSTEAD = re.compile(r"\b[Uu]se ([A-Za-z_][\w.]*[A-Za-z0-9_])(?:\(\))? instead\b")
_FORMAT_FIELD = re.compile(r"\{[^{}]*\}")


def api_of(path: str, data: bytes) -> tuple[ApiSymbol, ...]:
    """The symbols one file defines and exports; none when it is not Python that parses."""
    if len(data) > MAX_API_BYTES:
        return ()
    try:
        with parser_warnings_silenced():
            tree = ast.parse(data, filename=path)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return ()
    return tuple(_Module(module_name(path), path.endswith("__init__.py"), _warning_lines(data)).read(tree))


def _warning_lines(data: bytes) -> list[int]:
    """The lines whose text names a warning or a deprecation (`warn`, `deprecat`), in order: a function none of whose
    lines does cannot warn about itself or its parameters, and is not searched for it (most functions)."""
    starts = [m.start() for m in _WARNING_WORDS.finditer(data)]
    if not starts:
        return []
    newlines = [m.start() for m in _NEWLINE.finditer(data)]
    return sorted({bisect.bisect_left(newlines, start) + 1 for start in starts})


class _Module:
    """One pass over a module's top level, its classes and their methods."""

    def __init__(self, module: str, package: bool, warning_lines: list[int]) -> None:
        self.module = module
        self.package = package
        self.warning_lines = warning_lines
        self.top = module.split(".")[0]  # the package's top-level module: a deprecation naming it names itself

    def read(self, tree: ast.Module) -> Iterator[ApiSymbol]:
        statements = list(_top_level(tree.body))
        for stmt in statements:
            yield from self._statement(stmt, "")
        yield from _lazy_exports(statements, self.module if self.package else self.module.rpartition(".")[0])
        yield from _getattr_shims(statements)
        yield from self._exports(statements)
        yield from _module_deprecation(statements, self.top)

    def _exports(self, statements: list[ast.stmt]) -> Iterator[ApiSymbol]:
        """`__all__`: an `exported` row per name it lists, and a `*` row per module whose `__all__` it takes in
        (`__all__ += core.__all__`; target None when what it adds is not read statically)."""
        modules = self._imported_modules(statements)
        for stmt in statements:
            added: list[ast.expr] = []
            if isinstance(stmt, (ast.Assign, ast.AugAssign)) and stmt.value is not None:
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                    added = _summands(stmt.value)
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                func = stmt.value.func
                if (
                    isinstance(func, ast.Attribute)
                    and func.attr in ("extend", "append")
                    and isinstance(func.value, ast.Name)
                    and func.value.id == "__all__"
                ):
                    added = list(stmt.value.args[:1])
            for part in added:
                names = [part.value] if isinstance(part, ast.Constant) and isinstance(part.value, str) else None
                names = (
                    names if names is not None else _strings(part) if isinstance(part, (ast.List, ast.Tuple)) else None
                )
                if names is not None:
                    yield from (ApiSymbol(name, "exported", stmt.lineno) for name in names)
                elif isinstance(part, ast.Attribute) and part.attr == "__all__":
                    owner = dotted_name(part.value)
                    yield ApiSymbol("*", "exported", stmt.lineno, target=modules.get(owner or ""))
                else:
                    yield ApiSymbol("*", "exported", stmt.lineno)

    def _imported_modules(self, statements: list[ast.stmt]) -> dict[str, str]:
        """Module-level names bound to modules of imports: `from . import numeric`, `import a.b as c`."""
        out: dict[str, str] = {}
        for stmt in statements:
            if isinstance(stmt, ast.ImportFrom):
                base = self._absolute(stmt.module, stmt.level)
                for alias in stmt.names:
                    out[alias.asname or alias.name] = f"{base}.{alias.name}"
            elif isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    out[alias.asname or alias.name] = alias.name
        return out

    def _statement(self, stmt: ast.stmt, owner: str) -> Iterator[ApiSymbol]:
        prefix = f"{owner}." if owner else ""
        if isinstance(stmt, ast.ClassDef):
            yield from self._class(stmt, prefix + stmt.name)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield _function(stmt, prefix + stmt.name, self.top, self._may_warn(stmt), method=bool(owner), fields=())
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                for name in _assigned_names(target):
                    yield ApiSymbol(prefix + name, "attribute", stmt.lineno)
        elif isinstance(stmt, ast.ImportFrom) and not owner:
            base = self._absolute(stmt.module, stmt.level)
            for alias in stmt.names:
                if alias.name == "*":
                    yield ApiSymbol("*", "star", stmt.lineno, target=base)
                else:
                    yield ApiSymbol(alias.asname or alias.name, "import", stmt.lineno, target=f"{base}.{alias.name}")
        elif isinstance(stmt, ast.Import) and not owner:
            for alias in stmt.names:
                if alias.asname:
                    yield ApiSymbol(alias.asname, "import", stmt.lineno, target=alias.name)

    def _may_warn(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """Whether a line of the function (its decorators included) names a warning or a deprecation."""
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        k = bisect.bisect_left(self.warning_lines, first)
        return k < len(self.warning_lines) and self.warning_lines[k] <= (node.end_lineno or node.lineno)

    def _class(self, node: ast.ClassDef, qualname: str) -> Iterator[ApiSymbol]:
        bases = tuple(name for name in map(dotted_name, node.bases) if name)
        fields = _fields(node) if _is_dataclass(node, bases) else None
        yield ApiSymbol(
            qualname, "class", node.lineno, params=fields, bases=bases, deprecations=_class_warns(node, self.top)
        )
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                kind = "property" if _decorated(stmt, _PROPERTY) or _is_setter(stmt) else "method"
                if kind == "property":
                    yield ApiSymbol(f"{qualname}.{stmt.name}", "property", stmt.lineno)
                else:
                    may_warn = self._may_warn(stmt)
                    yield _function(
                        stmt, f"{qualname}.{stmt.name}", self.top, may_warn, method=True, fields=fields or ()
                    )
            elif not isinstance(stmt, (ast.Import, ast.ImportFrom)):
                yield from self._statement(stmt, qualname)

    def _absolute(self, module: str | None, level: int) -> str:
        if level == 0:
            return module or ""
        parts = self.module.split(".") if self.package else self.module.split(".")[:-1]
        parts = parts[: max(len(parts) - (level - 1), 0)]
        return ".".join([*parts, module] if module else parts)


def _summands(node: ast.expr) -> list[ast.expr]:
    """`a + b + c` → [a, b, c]."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return [*_summands(node.left), *_summands(node.right)]
    return [node]


def _module_deprecation(statements: list[ast.stmt], top: str) -> Iterator[ApiSymbol]:
    """A module that warns at its top level (under no condition, or a top-level `if`) that it is deprecated:
    `<module>`, with the warning (its message may be a module-level string constant)."""
    constants = _constants(statements)
    for stmt in statements:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and _is_warning(stmt.value):
            node = _message_node(stmt.value)
            message = constants.get(node.id) if isinstance(node, ast.Name) else _template(node)
            category = _category(stmt.value)
            if category in _WARNINGS or (message and "deprecat" in message.lower()):
                deprecation = ApiDeprecation("<module>", category, message, stmt.lineno, _replacement(message, "", top))
                yield ApiSymbol("<module>", "deprecated", stmt.lineno, message=message, deprecations=(deprecation,))
                return


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """A module's statements, with those under top-level `if`/`try` (optional imports, version branches), except
    what only type checkers read (`if TYPE_CHECKING:`)."""
    for stmt in body:
        if isinstance(stmt, ast.If):
            if (dotted_name(stmt.test) or "").rpartition(".")[2] != "TYPE_CHECKING":
                yield from _top_level(stmt.body)
            yield from _top_level(stmt.orelse)
        elif isinstance(stmt, ast.Try):
            for part in (stmt.body, *(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody):
                yield from _top_level(part)
        else:
            yield stmt


def _assigned_names(target: ast.expr) -> Iterator[str]:
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from _assigned_names(element)


def _decorated(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, names: set[str]) -> bool:
    return any(dotted_name(d.func if isinstance(d, ast.Call) else d) in names for d in node.decorator_list)


def _is_setter(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(isinstance(d, ast.Attribute) and d.attr in ("setter", "deleter") for d in node.decorator_list)


def _is_dataclass(node: ast.ClassDef, bases: tuple[str, ...]) -> bool:
    """Whether the class's fields make its `__init__`: a dataclass or attrs class, a NamedTuple, a pydantic model."""
    for decorator in node.decorator_list:
        name = dotted_name(decorator.func if isinstance(decorator, ast.Call) else decorator) or ""
        if name in _DATACLASS or name.rpartition(".")[2] in ("dataclass", "define", "frozen", "s"):
            return True
    return any(b.rpartition(".")[2] in ("NamedTuple", "BaseModel", "BaseSettings") for b in bases)


def _fields(node: ast.ClassDef) -> tuple[ApiParam, ...]:
    """The `__init__` parameters a dataclass-like class's annotated class attributes make (ClassVar excluded)."""
    out = []
    for stmt in node.body:
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
            continue
        if "ClassVar" in (ast.unparse(stmt.annotation) if _small(stmt.annotation) else ""):
            continue
        if isinstance(stmt.value, ast.Call) and any(
            k.arg == "init" and isinstance(k.value, ast.Constant) and k.value.value is False
            for k in stmt.value.keywords
        ):
            continue  # `field(init=False)`: not a parameter
        default = _default(stmt.value) if stmt.value is not None else None
        out.append(ApiParam(stmt.target.id, "positional_or_keyword", default))
    return tuple(out)


def _default(node: ast.expr) -> str:
    """A default's source, or what a dataclass `field(default=...)` gives; `...` for one too long to show."""
    if isinstance(node, ast.Call) and (dotted_name(node.func) or "").rpartition(".")[2] in ("field", "Field", "ib"):
        for keyword in node.keywords:
            if keyword.arg in ("default", "default_factory", "factory"):
                return _default(keyword.value) if keyword.arg == "default" else f"{_source(keyword.value)}()"
        if node.args:
            return _default(node.args[0])
    return _source(node)


def _source(node: ast.expr) -> str:
    return ast.unparse(node) if _small(node) else "..."


def _small(node: ast.AST) -> bool:
    end = getattr(node, "end_col_offset", None)
    start = getattr(node, "col_offset", None)
    same_line = getattr(node, "end_lineno", None) == getattr(node, "lineno", None)
    return same_line and end is not None and start is not None and end - start <= 200


def _function(
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    qualname: str,
    top: str,
    may_warn: bool,
    *,
    method: bool,
    fields: tuple[ApiParam, ...],
) -> ApiSymbol:
    params = _signature(node.args)
    own = tuple(p.name for p in params)
    known = set(own) | {f.name for f in fields}
    deprecations = (
        tuple(_self_deprecations(node, top))
        + tuple(_decorator_deprecations(node))
        + tuple(_warned_parameters(node, known))
        if may_warn
        else ()
    )
    return ApiSymbol(
        qualname, "method" if method else "function", node.lineno, params=params, deprecations=deprecations
    )


def _signature(args: ast.arguments) -> tuple[ApiParam, ...]:
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    out = [
        ApiParam(a.arg, "positional_only" if i < len(args.posonlyargs) else "positional_or_keyword", _opt(d))
        for i, (a, d) in enumerate(zip(positional, defaults, strict=True))
    ]
    if args.vararg:
        out.append(ApiParam(args.vararg.arg, "var_positional", None))
    out += [ApiParam(a.arg, "keyword_only", _opt(d)) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)]
    if args.kwarg:
        out.append(ApiParam(args.kwarg.arg, "var_keyword", None))
    return tuple(out)


def _opt(node: ast.expr | None) -> str | None:
    return None if node is None else _source(node)


def _class_warns(node: ast.ClassDef, top: str) -> tuple[ApiDeprecation, ...]:
    """A class is deprecated itself when a decorator says so or its `__init__` warns whenever it runs."""
    init = [s for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__init__"]
    found = [*_decorated_deprecated(node.decorator_list, node.name, top)]
    found += [d for f in init for d in _self_deprecations(f, top)]
    return tuple(replace(d, name=node.name, replacement=_replacement(d.message, node.name, top)) for d in found)


def _self_deprecations(node: ast.FunctionDef | ast.AsyncFunctionDef, top: str) -> Iterator[ApiDeprecation]:
    """The function itself is deprecated: it warns whenever it runs (a warning among its first statements, under no
    condition), or a decorator says so (`@deprecated("use x")`). Its `name` is the function's own."""
    yield from _decorated_deprecated(node.decorator_list, node.name, top)
    local: dict[str, str] = {}  # `msg = "..."` before the warning: its message
    for stmt in node.body[:6]:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            text = _template(stmt.value)
            if text is not None:
                local[stmt.targets[0].id] = text
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and _is_warning(stmt.value):
            written = _message_node(stmt.value)
            message = local.get(written.id) if isinstance(written, ast.Name) else _template(written)
            category = _category(stmt.value)
            if category in _WARNINGS or (message and "deprecat" in message.lower()):
                yield ApiDeprecation(node.name, category, message, stmt.lineno, _replacement(message, node.name, top))
                return


def _decorated_deprecated(decorators: list[ast.expr], name: str, top: str) -> Iterator[ApiDeprecation]:
    """`@deprecated("use x")` (typing_extensions, warnings, the `deprecated` package) or a package's own decorator
    named so (`@_deprecate_method(version=..., message="Use x instead.")`) on a def; not one that deprecates its
    parameters (`deprecate_kwarg`, `_deprecate_positional_args`)."""
    for decorator in decorators:
        call = decorator if isinstance(decorator, ast.Call) else None
        called = (dotted_name(call.func if call else decorator) or "").rpartition(".")[2].lower()
        if "deprecat" in called and not any(word in called for word in _OF_PARAMETERS):
            message = _template(_message_node(call)) if call else None
            yield ApiDeprecation(name, None, message, decorator.lineno, _replacement(message, name, top))


def _replacement(message: str | None, name: str, top: str) -> str | None:
    """The name a deprecation message gives instead: the first it quotes that is not the deprecated one itself (bare,
    or under its own package, `'soft_unicode'`, `'flask.Markup'`: another package's `torch.optim.AdamW` is a
    replacement), else the one it says to use ("Use pandas.concat instead")."""
    for quoted in _NAMED.findall(message or ""):
        head, _, leaf = quoted.rpartition(".")
        if quoted != name and not (leaf == name and head.split(".")[0] in (top, "")):
            return quoted
    used = _USE_INSTEAD.search(message or "")
    return used.group(1) if used and used.group(1).rpartition(".")[2] != name else None


def _decorator_deprecations(node: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ApiDeprecation]:
    """`@deprecate_kwarg("old", new_name="new", version=...)` and its kin: a decorator whose name says it deprecates,
    given the old parameter's name as a string; and `@_deprecate_positional_args` (with or without arguments), which
    still takes by position what the signature makes keyword-only, with a warning: its `name` is `*`."""
    for decorator in node.decorator_list:
        name = (dotted_name(decorator.func if isinstance(decorator, ast.Call) else decorator) or "").rpartition(".")[2]
        name = name.lower()
        if "deprecat" in name and "positional" in name:
            yield ApiDeprecation(POSITIONAL, None, None, decorator.lineno, None)
            continue
        if not isinstance(decorator, ast.Call):
            continue
        if "deprecat" not in name or "arg" not in name and "param" not in name:
            continue
        strings = [a.value for a in decorator.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        keywords = {k.arg: k.value for k in decorator.keywords if k.arg}
        old = strings[0] if strings else _string(keywords.get("old_name") or keywords.get("old"))
        new = _string(keywords.get("new_name") or keywords.get("new_arg") or keywords.get("new"))
        if new is None and len(strings) > 1 and strings[1].isidentifier():
            new = strings[1]
        if old:
            yield ApiDeprecation(old, None, None, decorator.lineno, new)


def _string(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _warned_parameters(node: ast.FunctionDef | ast.AsyncFunctionDef, known: set[str]) -> Iterator[ApiDeprecation]:
    """Parameters (or fields, in `__post_init__`) the function warns about when they are given: an `if` whose
    test reads the name, and whose body warns with a deprecation category or message naming it."""
    seen: set[str] = set()
    for branch in ast.walk(node):
        if not isinstance(branch, ast.If):
            continue
        keys = {n.value for n in ast.walk(branch.test) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        tested = {name for name in _tested_names(branch.test) if name in known or name in keys}
        if not tested:
            continue
        for call in _warning_calls(branch.body):
            message = _template(_message_node(call))
            category = _category(call)
            if category not in _WARNINGS and not (message and "deprecat" in message.lower()):
                continue
            named = set(_NAMED.findall(message or ""))
            for name in sorted(tested):
                if name in seen or (message is not None and named and name not in named and name not in message):
                    continue
                seen.add(name)
                replacement = next((n for n in _NAMED.findall(message or "") if n != name and n in known), None)
                yield ApiDeprecation(
                    name, category, message, call.lineno, replacement or _moved_to(branch.body, name, known)
                )


def _tested_names(test: ast.expr) -> set[str]:
    """Names a test asks whether they were given: `x`, `self.x`, `x is not None`, `"x" in kwargs`, `kwargs.get("x")`
    — not a test of the value (`isinstance(x, T)`, `x == "epoch"`), which deprecates a value, nor `not x`, which
    warns when it was not given (`if not no_deprecation_warning:` deprecates the function, not the flag)."""
    if isinstance(test, ast.BoolOp):
        return set().union(*(_tested_names(v) for v in test.values))
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        right = test.comparators[0]
        if isinstance(test.ops[0], (ast.In, ast.NotIn)) and isinstance(test.left, ast.Constant):
            return _string_keys(test.left)
        if isinstance(right, ast.Constant) and right.value is None:
            return _tested_names(test.left)
        return set()
    if isinstance(test, ast.Name):
        return {test.id}
    if isinstance(test, ast.Attribute) and isinstance(test.value, ast.Name) and test.value.id in ("self", "cls"):
        return {test.attr}
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr in ("get", "pop"):
        return _string_keys(test.args[0]) if test.args else set()
    if isinstance(test, ast.Subscript):
        return _string_keys(test.slice)
    return set()


def _string_keys(node: ast.expr) -> set[str]:
    """A string constant that is a name: the key of `"x" in kwargs`."""
    return (
        {node.value}
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier()
        else set()
    )


def _warning_calls(body: list[ast.stmt]) -> Iterator[ast.Call]:
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call) and _is_warning(node):
                yield node


def _is_warning(call: ast.Call) -> bool:
    name = dotted_name(call.func) or ""
    return name in ("warnings.warn", "warn", "_warnings.warn") or name.rpartition(".")[2] in ("deprecate", "deprecated")


def _message_node(call: ast.Call) -> ast.expr | None:
    if call.args:
        return call.args[0]
    return next((k.value for k in call.keywords if k.arg in ("message", "msg")), None)


def _category(call: ast.Call) -> str | None:
    node = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "category"), None)
    name = dotted_name(node) if node is not None else None
    return name.rpartition(".")[2] if name else None


def _template(node: ast.expr | None) -> str | None:
    """A message's text with `{}` where a value goes; None when it is not written in place."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)  # type: ignore[misc]
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        left = _template(node.left)
        if isinstance(node.op, ast.Mod):
            return re.sub(r"%[-#0 +]*\d*(?:\.\d+)?[sdrifx]", "{}", left) if left else None
        right = _template(node.right)
        return None if left is None and right is None else f"{left or '{}'}{right or '{}'}"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        base = _template(node.func.value)
        return _FORMAT_FIELD.sub("{}", base) if base else None
    return None


def _moved_to(body: list[ast.stmt], name: str, known: set[str]) -> str | None:
    """`self.new = self.old` / `new = old` in the warning's branch: the old value is passed on to `new`."""
    for stmt in body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
            continue
        target, value = stmt.targets[0], stmt.value
        read = value.attr if isinstance(value, ast.Attribute) else value.id if isinstance(value, ast.Name) else None
        if read != name:
            continue
        wrote = (
            target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else None
        )
        if wrote and wrote != name and wrote in known:
            return wrote
    return None


def _lazy_exports(statements: list[ast.stmt], package: str) -> Iterator[ApiSymbol]:
    """Names a package exports lazily: a module-level dict of submodule → [names] handed to a lazy loader — a call
    named so (`_LazyModule(__name__, ..., _import_structure)`, `lazy.attach(__name__, submod_attrs=...)`) or one
    that makes the module's `__getattr__` or replaces the module (`__getattr__, __dir__, __all__ = _attach(...)`,
    `sys.modules[__name__] = ...`)."""
    calls = list(_loader_calls(statements))
    handed = {arg.id for call in calls for arg in _call_arguments(call) if isinstance(arg, ast.Name)}
    entries = [entry for stmt in statements for entry in _structure_entries(stmt, handed)]
    for call in calls:  # a dict written in the call itself: `_attach(__name__, submod_attrs={"m": ["X"]})`
        for arg in _call_arguments(call):
            if isinstance(arg, ast.Dict):
                entries += _dict_entries(arg, call.lineno)
    for submodule, names, line in entries:
        for name in names:
            target = ".".join(p for p in (package, submodule, name) if p)
            yield ApiSymbol(name, "lazy", line, target=target)
    assigned = next((s for s in statements if isinstance(s, ast.Assign) and any(map(_binds_getattr, s.targets))), None)
    if assigned is not None:  # `__getattr__ = ...` made by a call: it may serve any name
        yield ApiSymbol("*", "lazy", assigned.lineno)


def _call_arguments(call: ast.Call) -> list[ast.expr]:
    return [*call.args, *(k.value for k in call.keywords)]


def _dict_entries(node: ast.Dict, line: int) -> list[tuple[str, list[str], int]]:
    """(submodule, names, line) of a dict literal of submodule → [names]."""
    return [
        (key.value, _strings(names), line)
        for key, names in zip(node.keys, node.values, strict=True)
        if isinstance(key, ast.Constant) and isinstance(key.value, str)
    ]


def _binds_getattr(target: ast.expr) -> bool:
    if isinstance(target, ast.Tuple):
        return any(map(_binds_getattr, target.elts))
    return isinstance(target, ast.Name) and target.id == "__getattr__"


def _loader_calls(statements: list[ast.stmt]) -> Iterator[ast.Call]:
    for stmt in statements:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and any(map(_makes_module, stmt.targets)):
            yield stmt.value
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue  # a loader is called at the module's top level
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call) and "lazy" in (dotted_name(node.func) or "").lower():
                yield node


def _makes_module(target: ast.expr) -> bool:
    """`__getattr__` (alone or in a tuple) or `sys.modules[...]`: what a lazy loader's result is bound to."""
    return _binds_getattr(target) or isinstance(target, ast.Subscript) and dotted_name(target.value) == "sys.modules"


def _structure_entries(stmt: ast.stmt, handed: set[str]) -> Iterator[tuple[str, list[str], int]]:
    """(submodule, names, line) of one statement filling a lazy structure: `S = {...}`, `S["m"] = [...]`,
    `S["m"].extend([...])` / `.append("X")`."""
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        value = stmt.value
        for target in targets:
            if isinstance(target, ast.Name) and target.id in handed and isinstance(value, ast.Dict):
                yield from _dict_entries(value, stmt.lineno)
            elif _structure_key(target, handed) is not None and value is not None:
                yield _structure_key(target, handed) or "", _strings(value), stmt.lineno
    elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Attribute):
        call = stmt.value
        func = stmt.value.func
        submodule = _structure_key(func.value, handed)
        if submodule is not None and call.args and func.attr in ("extend", "append"):
            arg = call.args[0]
            yield (
                submodule,
                ([arg.value] if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else _strings(arg)),
                stmt.lineno,
            )


def _structure_key(node: ast.expr, handed: set[str]) -> str | None:
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and node.value.id in handed
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
    ):
        return node.slice.value
    return None


def _strings(node: ast.expr) -> list[str]:
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def _getattr_shims(statements: list[ast.stmt]) -> Iterator[ApiSymbol]:
    """Names a module-level `__getattr__(name)` answers from a module-level table or by comparing: those it warns
    about still work (`deprecated`), those it raises for are gone (`removed`), the others it serves (`lazy`, no
    target); a `*` `lazy` row when it does not end by raising (it may serve any name). A table is a dict or set
    literal, grown with `.update(...)` or built by a comprehension over a literal list of names or (name, ...)
    tuples."""
    function = next(
        (s for s in statements if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__getattr__"),
        None,
    )
    if function is None or not function.args.args:
        return
    param = function.args.args[0].arg
    tables = _tables(statements)
    for stmt in function.body:
        looked = {t for t in _tables_read(stmt, param) if t in tables} | _compared(stmt, param)
        if not looked:
            continue
        warns = any(True for _ in _warning_calls([stmt]))
        raises = any(isinstance(n, ast.Raise) for n in ast.walk(stmt))
        kind: ApiKind = "deprecated" if warns else "removed" if raises else "lazy"
        message = next((_template(_message_node(c)) for c in _warning_calls([stmt])), None)
        for table in sorted(looked):
            held = tables.get(table, {table: None} if table.isidentifier() and table not in tables else {})
            for name, kept in held.items():
                yield ApiSymbol(name, kind, stmt.lineno, message=kept or message)
    if not (function.body and isinstance(function.body[-1], ast.Raise)):
        yield ApiSymbol("*", "lazy", function.lineno)  # it may answer other names too: which, is not read statically


Table = dict[str, str | None]  # a name a table holds → the message it keeps for it (a template), if any


def _tables(statements: list[ast.stmt]) -> dict[str, Table]:
    """Module-level dicts and sets whose keys are names, with those keys and the message each keeps (a message
    built from a module-level string takes that string as bound where the table is filled)."""
    constants: dict[str, str] = {}
    lists: dict[str, list[str]] = {}
    tables: dict[str, Table] = {}
    for stmt in statements:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name, value = stmt.targets[0].id, stmt.value
            firsts = _first_strings(value)
            if firsts is not None:
                lists[name] = firsts
            keys = _keys(value, lists, constants)
            if keys is not None:
                tables[name] = keys
            text = _template(value)
            if text is not None:
                constants[name] = text
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]  # `TABLE["name"] = ...`
            if (
                isinstance(target, ast.Subscript)
                and isinstance(target.value, ast.Name)
                and target.value.id in tables
                and isinstance(target.slice, ast.Constant)
                and isinstance(target.slice.value, str)
            ):
                tables[target.value.id][target.slice.value] = _kept_message(stmt.value, constants, None)
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            if isinstance(call.func, ast.Attribute) and call.func.attr == "update" and call.args:
                owner = call.func.value
                keys = _keys(call.args[0], lists, constants)
                if isinstance(owner, ast.Name) and keys is not None:
                    tables.setdefault(owner.id, {}).update(keys)
    return tables


def _constants(statements: list[ast.stmt]) -> dict[str, str]:
    """Module-level names bound to a string written in place (a message kept for later)."""
    return {
        stmt.targets[0].id: text
        for stmt in statements
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
        for text in [_template(stmt.value)]
        if text is not None
    }


def _first_strings(node: ast.expr) -> list[str] | None:
    """A literal list of names, or of tuples that start with a name."""
    if not isinstance(node, (ast.List, ast.Tuple)):
        return None
    out = []
    for element in node.elts:
        head = element.elts[0] if isinstance(element, ast.Tuple) and element.elts else element
        if isinstance(head, ast.Constant) and isinstance(head.value, str):
            out.append(head.value)
    return out or None


def _keys(node: ast.expr, lists: dict[str, list[str]], constants: dict[str, str]) -> Table | None:
    if isinstance(node, ast.Dict):
        return {
            k.value: _kept_message(v, constants, None)
            for k, v in zip(node.keys, node.values, strict=True)
            if isinstance(k, ast.Constant) and isinstance(k.value, str)
        }
    if isinstance(node, ast.Set):
        return {e.value: None for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    if isinstance(node, (ast.DictComp, ast.SetComp)) and len(node.generators) == 1:
        loop = node.generators[0]
        source = lists.get(loop.iter.id) if isinstance(loop.iter, ast.Name) else _first_strings(loop.iter)
        target = loop.target.elts[0] if isinstance(loop.target, ast.Tuple) and loop.target.elts else loop.target
        var = target.id if isinstance(target, ast.Name) else None
        value = node.value if isinstance(node, ast.DictComp) else None
        if source is None:
            return None
        return {n: _kept_message(value, constants, (var, n)) if value is not None and var else None for n in source}
    return None


def _kept_message(node: ast.expr, constants: dict[str, str], bound: tuple[str, str] | None) -> str | None:
    """The message a table keeps for a name: a string, `const.format(n=n, ...)`, the last such in a tuple; the
    comprehension's variable (`bound`: its name and this entry's value) written in, anything else left as `{}`."""
    if isinstance(node, ast.Tuple):
        return next((m for m in (_kept_message(e, constants, bound) for e in reversed(node.elts)) if m), None)
    if isinstance(node, ast.JoinedStr) and bound is not None:
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
            else:
                inner = v.value if isinstance(v, ast.FormattedValue) else None
                parts.append(bound[1] if isinstance(inner, ast.Name) and inner.id == bound[0] else "{}")
        return "".join(parts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        base = node.func.value
        text = constants.get(base.id) if isinstance(base, ast.Name) else _template(base)
        if text is None:
            return None
        given = {k.arg: k.value.value for k in node.keywords if k.arg and isinstance(k.value, ast.Constant)}
        given |= {
            k.arg: bound[1]
            for k in node.keywords
            if k.arg and bound is not None and isinstance(k.value, ast.Name) and k.value.id == bound[0]
        }
        return _FORMAT_FIELD.sub(lambda m: str(given.get(m.group(0)[1:-1].split("!")[0].split(":")[0], "{}")), text)
    return _template(node)


def _tables_read(stmt: ast.stmt, param: str) -> set[str]:
    """Tables a statement looks the name up in: `name in T`, `T[name]`, `T.get(name)`."""
    out = set()
    for node in ast.walk(stmt):
        if isinstance(node, ast.Compare) and _is_name(node.left, param):
            for op, right in zip(node.ops, node.comparators, strict=True):
                if isinstance(op, ast.In) and isinstance(right, ast.Name):
                    out.add(right.id)
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and _is_name(node.slice, param):
            out.add(node.value.id)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and isinstance(node.func.value, ast.Name)
            and node.args
            and _is_name(node.args[0], param)
        ):
            out.add(node.func.value.id)
    return out


def _compared(stmt: ast.stmt, param: str) -> set[str]:
    """Names a statement compares the parameter with: `if name == "x":` (as their own table)."""
    out = set()
    for node in ast.walk(stmt):
        if isinstance(node, ast.Compare) and _is_name(node.left, param):
            for op, right in zip(node.ops, node.comparators, strict=True):
                if isinstance(op, ast.Eq) and isinstance(right, ast.Constant) and isinstance(right.value, str):
                    out.add(right.value)
    return out


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name
