"""What a piece of syntax says, read without evaluating it: a call's arguments and message, an
expression's names, nodes and source text (bounded: generated code can be huge)."""

from __future__ import annotations

import ast
import copy
import functools
import re
import string
from collections.abc import Container
from typing import Any

from errdex.extract.quick_unparse import quick_unparse
from errdex.extract.resolve import dotted_name
from errdex.extract.templates import TRANSLATIONS

MAX_NODES = 10_000  # an expression larger than this is generated code: not walked, shown or resolved
MESSAGE_KEYWORDS = ("msg", "message", "detail", "reason", "text")
_CODE = re.compile(r"[A-Za-z_][\w.-]{0,79}")  # `'parent_does_not_exist'`, `'utf-8'`: one token, no words


def call_arguments(call: ast.Call) -> list[tuple[int | str, ast.expr]]:
    """(position or keyword, value) of a call's arguments; none after a `*args`, whose positions are unknown."""
    out: list[tuple[int | str, ast.expr]] = []
    for i, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            break
        out.append((i, arg))
    out.extend((k.arg, k.value) for k in call.keywords if k.arg)
    return out


def is_super(node: ast.expr) -> bool:
    """Whether an expression is `super()`."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def message_argument(call: ast.Call, bound: Container[str] = ()) -> ast.expr | None:
    """The argument that carries an exception's message: the first, else a `msg=`/`message=`-like keyword.

    A first argument that only names something (not a name `bound` here to a message), is None, or is
    the code a class is given before its message, followed by one that writes words, is what the
    message is about: the words are the message (`BadOptionUsage(option, _("Option {name!r} ...").format(...))`,
    `PydanticCustomError('path_not_file', 'Path does not point to a file')`).
    """
    if call.args:
        first = call.args[0]
        if isinstance(first, ast.Starred):
            return None
        if (
            isinstance(first, ast.Attribute)
            or (isinstance(first, ast.Name) and first.id not in bound)
            or (
                isinstance(first, ast.Constant) and first.value is None
            )  # PyYAML: `ConstructorError(None, None, "problem", mark)`
            or (is_code(first) and last_name(call.func)[:1].isupper())  # a class's code, not a function's argument
        ):
            return next((arg for arg in call.args[1:] if writes_words(arg)), first)
        return first
    for name in MESSAGE_KEYWORDS:
        value = keyword_value(call, name)
        if value is not None:
            return value
    return None


def is_code(expr: ast.expr) -> bool:
    """Whether an expression is a string literal that reads as a code (one token such as `'path_not_file'`)."""
    return isinstance(expr, ast.Constant) and isinstance(expr.value, str) and _CODE.fullmatch(expr.value) is not None


def filled(call: ast.Call, message: ast.expr) -> ast.expr:
    """The message a call's class prints: a template written after a code, with `{name}` fields, given a
    dict literal of them next (`PydanticCustomError('byte_size_unit', 'could not interpret byte unit: {unit}',
    {'unit': unit})`), is the template formatted with them; any other message is itself."""
    position = next((i for i, arg in enumerate(call.args) if arg is message), None)
    if not (position == 1 and is_code(call.args[0]) and isinstance(message, ast.Constant) and len(call.args) > 2):
        return message
    context = call.args[2]
    if not isinstance(context, ast.Dict) or not isinstance(message.value, str):
        return message
    given = {k.value: v for k, v in zip(context.keys, context.values, strict=True) if isinstance(k, ast.Constant)}
    try:
        fields = {field for _, field, _, _ in string.Formatter().parse(message.value) if field is not None}
    except ValueError:  # not a template
        return message
    if not fields or not fields <= given.keys():
        return message
    keywords = [ast.keyword(arg=name, value=given[name]) for name in sorted(fields)]
    return ast.Call(func=ast.Attribute(value=message, attr="format", ctx=ast.Load()), args=[], keywords=keywords)


def log_message(call: ast.Call) -> ast.expr | None:
    """A logging call's message; with arguments it is %-formatted lazily, as logging does."""
    message = call.args[0] if call.args else keyword_value(call, "msg")
    if message is None or len(call.args) < 2:
        return message
    return ast.BinOp(left=message, op=ast.Mod(), right=ast.Tuple(elts=call.args[1:], ctx=ast.Load()))


def keyword_value(call: ast.Call, name: str) -> ast.expr | None:
    """The value a call passes as keyword `name`, if any."""
    return next((k.value for k in call.keywords if k.arg == name), None)


def warning_category(call: ast.Call) -> ast.expr:
    """The category a `warn(...)` call gives, `UserWarning` when it gives none (as Python does)."""
    node = call.args[1] if len(call.args) > 1 else keyword_value(call, "category")
    return node if node is not None else ast.Name(id="UserWarning", ctx=ast.Load())


def is_logger(name: str) -> bool:
    """Whether a dotted callee looks like a logger's method (`logger.error`, `self.log.warning`)."""
    receiver = name.rsplit(".", 1)[0].lower() if "." in name else ""
    return "log" in receiver


def writes_words(expr: ast.expr) -> bool:
    """Whether an expression holds literal words (a string with a blank in it), as written, formatted or
    translated: what a message looks like, unlike a name or a value passed along."""
    if isinstance(expr, ast.Constant):
        return isinstance(expr.value, str) and " " in expr.value.strip()
    if isinstance(expr, ast.JoinedStr):
        return any(writes_words(part) for part in expr.values)
    if isinstance(expr, ast.BinOp):
        return writes_words(expr.left)
    if isinstance(expr, ast.Call):
        if isinstance(expr.func, ast.Attribute) and expr.func.attr == "format":
            return writes_words(expr.func.value)
        return last_name(expr.func) in TRANSLATIONS and any(map(writes_words, expr.args))
    return False


def builds_text(expr: ast.expr) -> bool:
    """Whether an expression is the kind that builds a message: `+`, `%`, f-string, `.format`."""
    if isinstance(expr, (ast.BinOp, ast.JoinedStr, ast.IfExp)):
        return True
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr in ("format", "strip", "rstrip", "lstrip")
    )


def mentions_shallow(expr: ast.expr, name: str) -> bool:
    """Whether a name appears among an expression's direct arguments (cheap, for common `x = f(x)`)."""
    if isinstance(expr, ast.Call):
        return any(isinstance(a, ast.Name) and a.id == name for a in expr.args) or mentions_shallow(expr.func, name)
    if isinstance(expr, ast.Attribute):
        return isinstance(expr.value, ast.Name) and expr.value.id == name
    return isinstance(expr, ast.Name) and expr.id == name


def mentions(expr: ast.expr, name: str) -> bool:
    """Whether a name appears anywhere in an expression."""
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(expr))


def substitute(expr: ast.expr, name: str, replacement: ast.expr) -> ast.expr:
    """`expr` with `name` (a name, or a dotted one such as `self.message`) replaced by `replacement`: the
    nodes on the way to each such name are copied, the rest is shared (trees are never changed in place,
    and a deep copy cost more than the rest of binding a message). A node the expression holds twice is
    rewritten once, and its copy held twice."""
    done: dict[int, ast.AST] = {}
    dotted = "." in name

    def rewritten(node: ast.AST) -> ast.AST:
        found = done.get(id(node))
        if found is not None:
            return found
        if (type(node) is ast.Name and node.id == name) or (
            dotted and type(node) is ast.Attribute and dotted_name(node) == name
        ):
            out: ast.AST = replacement
        else:
            changed: dict[str, Any] = {}
            for field in node._fields:
                value = getattr(node, field, None)
                if isinstance(value, ast.AST):
                    new = rewritten(value)
                    if new is not value:
                        changed[field] = new
                elif isinstance(value, list):
                    items = [rewritten(item) if isinstance(item, ast.AST) else item for item in value]
                    if any(new is not old for new, old in zip(items, value, strict=True)):
                        changed[field] = items
            out = copy.copy(node) if changed else node
            for field, value in changed.items():
                setattr(out, field, value)
        done[id(node)] = out
        return out

    return rewritten(expr)  # type: ignore[return-value]  # an expression with a name replaced is one


def expr_name(node: ast.expr) -> str:
    """A dotted name as written, else the expression's source."""
    name = dotted_name(node)
    return name if name is not None else unparse(node)


def annotated_class(node: ast.expr | None) -> str | None:
    """The class a parameter is annotated with (`Parser`, `"Parser"`, `nodes.Parser`), when it is a plain one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.replace(".", "").isidentifier():
        return node.value
    name = dotted_name(node) if node is not None else None
    return name if name is not None and name.rsplit(".", 1)[-1][:1].isupper() else None


def is_hole(node: ast.expr) -> bool:
    """Whether a node stands for a part of a message that is not known statically."""
    return isinstance(node, ast.Constant) and node.value is None


def is_self(node: ast.expr) -> bool:
    """Whether a node is `self` or `cls`."""
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def last_name(node: ast.expr) -> str:
    """The last part of a dotted name (`fail` for `self.parser.fail`), empty for anything else."""
    return (dotted_name(node) or "").rsplit(".", 1)[-1]


def is_static(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a function is decorated `@staticmethod`."""
    return any(dotted_name(d) == "staticmethod" for d in node.decorator_list)


def condition_text(node: ast.expr) -> str:
    """A guarding condition as source, a negated compound one in brackets."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) and not isinstance(node.operand, ast.Name):
        return f"not ({unparse(node.operand)})"
    return unparse(node)


@functools.lru_cache(maxsize=1024)  # every site walks the conditions around it again
def expression_nodes(expr: ast.AST) -> list[ast.AST] | None:
    """The nodes of an expression, or None if it has more than MAX_NODES (counting shared ones each time)."""
    nodes = [expr]
    for node in nodes:  # what `ast.iter_child_nodes` gives, in its order, without its generators
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, ast.AST):
                nodes.append(value)
            elif isinstance(value, list):
                nodes.extend(item for item in value if isinstance(item, ast.AST))
        if len(nodes) > MAX_NODES:
            return None
    return nodes


def small(node: ast.AST) -> bool:
    """Whether an expression has at most MAX_NODES nodes; a short one-line expression is, without walking it."""
    if getattr(node, "lineno", -1) == getattr(node, "end_lineno", None):
        if getattr(node, "end_col_offset", 0) - getattr(node, "col_offset", 0) <= MAX_NODES // 4:
            return True
    return expression_nodes(node) is not None


def unparse(node: ast.AST) -> str:
    """An expression's source, or a short placeholder for one too large or too deep to print."""
    if not small(node):
        return "<expression too large>"
    try:
        quick = quick_unparse(node)
        return quick if quick is not None else ast.unparse(node)
    except (RecursionError, ValueError):
        return "<expression too deep>"
