"""`raise make_error(...)`: the raised "class" is a function of the package, so the exception is what it returns.

The index takes the call for a class and its first argument for the message (`raise _api.kwarg_error("set_params",
kwargs)` reads as class `_api.kwarg_error`, message "set_params"). The page follows the name to the function's
definition in the release (its module, or a module it is imported from) and, when every `return` of it builds
an instance of one class, names that class and the message it builds, with the literal arguments of the raise put
in; an argument it passes on as the message is the message.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from errdex.extract.resolve import dotted_name
from errdex.pages.hierarchy import summarise
from errdex.pages.model import ErrorJson
from errdex.pages.source import FunctionNode, TreeOf, find, module_tree, parameters

MAX_HOPS = 3  # re-exports followed from the raising module to the definition


@dataclass(frozen=True)
class Returned:
    """The function a raise calls for its exception: as written, where defined, and what its returns build."""

    function: str  # as written at the raise: `_api.kwarg_error`
    file: str
    line: int
    exception: str | None  # the class every `return` of it builds, when one
    template: str | None  # the message that class is built with (`{}` for what is not known), when known
    passes_argument: bool  # every return builds it with the raise's first argument as the message

    def where(self, site_file: str) -> str:
        return "in this module" if self.file == site_file else f"defined at {self.file}:{self.line}"


def returned_error(tree: ast.Module | None, file: str, function: str, line: int, tree_of: TreeOf) -> Returned | None:
    """What the `raise f(...)` at `line` of `function` raises when `f` is a function the release defines (in that
    function, its module, or a module it imports `f` from); None for a class, a function not found, anything else."""
    located = find(tree, function) if tree is not None and function != "<module>" else None
    scope: ast.AST | None = located.node if located is not None else tree
    raises = (n.exc for n in ast.walk(scope) if isinstance(n, ast.Raise) and n.lineno == line) if scope else iter(())
    raised = next(raises, None)
    if not isinstance(raised, ast.Call) or tree is None:
        return None
    name = dotted_name(raised.func)
    found = (_nested(tree, file, function, name) or _definition(file, tree, name, tree_of, 0)) if name else None
    if found is None or name is None:
        return None
    path, func = found
    returns = [v for n in _own_nodes(func) if isinstance(n, ast.Return) for v in _branches(n.value)]
    built = [r for r in returns if isinstance(r, ast.Call) and r.args]
    if not returns or len(built) != len(returns):
        return Returned(name, path, func.lineno, None, None, False)
    classes = {dotted_name(r.func) for r in built}
    first = parameters(func)[0].arg if parameters(func) else None
    passes = first is not None and all(isinstance(r.args[0], ast.Name) and r.args[0].id == first for r in built)
    messages = {_message(r.args[0], func, raised) for r in built}
    template = messages.pop() if len(messages) == 1 and not passes else None
    exception = classes.pop() if len(classes) == 1 else None
    return Returned(name, path, func.lineno, exception, template, passes)


def _branches(value: ast.expr | None) -> list[ast.expr | None]:
    """What a `return` may give: each branch of `a if test else b`."""
    if isinstance(value, ast.IfExp):
        return [*_branches(value.body), *_branches(value.orelse)]
    return [value]


def with_returned(base: ErrorJson, returned: Returned) -> ErrorJson:
    """The page's class and message as what the function returns: its class when every return builds one, the message
    it builds (the raise's argument only when the function passes it on as the message), else a reason saying so."""
    template = returned.template if returned.template is not None or not returned.passes_argument else base["template"]
    reason = base["reason"]
    if template is None:
        reason = f"message not resolved: it is what `{returned.function}(...)` builds from its arguments"
    return {**base, "exception": returned.exception or base["exception"], "template": template, "reason": reason}


def _nested(tree: ast.Module, file: str, function: str, name: str) -> tuple[str, FunctionNode] | None:
    """A function `name` defined in the body of the raising function (`def invalid_shape_exception(...)`)."""
    located = find(tree, function) if function != "<module>" else None
    if located is None or isinstance(located.node, ast.ClassDef):
        return None
    nodes = _own_nodes(located.node)
    defined = (n for n in nodes if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name)
    found = next(defined, None)
    return (file, found) if found is not None else None


def _definition(file: str, tree: ast.Module, name: str, tree_of: TreeOf, hops: int) -> tuple[str, FunctionNode] | None:
    """The function `name` stands for in `file`: defined at its top level, or imported from a module of the release."""
    first, _, rest = name.partition(".")
    if not rest:
        for stmt in tree.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == name:
                return file, stmt
    importing: list[ast.stmt] = [s for s in tree.body if isinstance(s, (ast.Import, ast.ImportFrom, ast.If, ast.Try))]
    origin = summarise(file, ast.Module(importing, [])).imports.get(first)  # (its classes are not walked)
    if origin is None or hops >= MAX_HOPS:
        return None
    parts = f"{origin}.{rest}".rstrip(".").split(".")
    for cut in range(len(parts) - 1, 0, -1):
        found = module_tree(".".join(parts[:cut]), tree_of)
        if found is not None:
            return _definition(*found, ".".join(parts[cut:]), tree_of, hops + 1)
    return None


def _own_nodes(func: FunctionNode) -> list[ast.AST]:
    """The nodes of a function's body, not of the functions or classes defined in it."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = list(func.body)
    while stack:
        node = stack.pop()
        out.append(node)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))
    return out


def _message(node: ast.expr, func: FunctionNode, call: ast.Call) -> str | None:
    """The message a return builds, each parameter the raise passes a string literal for (and the function does not
    bind again) put in, `{}` for anything else; None when it is no string literal or f-string."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if not isinstance(node, ast.JoinedStr):
        return None
    given = _literal_arguments(func, call)
    parts = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value))
        elif isinstance(value, ast.FormattedValue) and isinstance(value.value, ast.Name):
            parts.append(given.get(value.value.id, "{}"))
        else:
            parts.append("{}")
    return "".join(parts)


def _literal_arguments(func: FunctionNode, call: ast.Call) -> dict[str, str]:
    """The function's parameters the call passes a string literal for, less those the function binds again."""
    positional = [p.arg for p in [*func.args.posonlyargs, *func.args.args] if p.arg not in ("self", "cls")]
    given = dict(zip(positional, call.args, strict=False)) | {k.arg: k.value for k in call.keywords if k.arg}
    stored = {n.id for n in _own_nodes(func) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return {
        name: value.value
        for name, value in given.items()
        if isinstance(value, ast.Constant) and isinstance(value.value, str) and name not in stored
    }
