"""Turn a message expression into templates: literal text with every run-time part written `{}`.

Handles f-strings (any format spec or conversion is one hole), `%`-formatting (`%s`, `%(name)s`,
`%.2f`, `%%`), `str.format` (positional and named), `+` and implicit concatenation, and names
bound earlier in the function (`msg = ...; msg += ...`, several branches giving several
templates) or to module constants. An expression with no literal text left has no template.
Given a `Budget`, each node costs a step and each part copied by `+` another; a message too
costly to follow ends in a hole, like one too deep.
"""

from __future__ import annotations

import ast
import re
import string
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from errdex.extract.budget import Budget, TooMuchWork
from errdex.extract.records import ClassMessage, HoleSources
from errdex.extract.resolve import Unresolved

TRANSLATIONS = frozenset(
    {"_", "gettext", "gettext_lazy", "ugettext", "ngettext", "ungettext"}
)  # give back the message they are given

MAX_ALTERNATIVES = 12
# Where an exception class puts the first argument it is given, in the message it writes: the mark, the
# characters it strips from the argument's end (`message.rstrip('.')`), the mark's end. The marks live only
# while a class's templates are made; what is kept is a `ClassMessage` (see `class_message`).
GIVEN, GIVEN_END = "\ue000", "\ue001"
_GIVEN_AT = re.compile(GIVEN + "([^" + GIVEN_END + "]{0,10})" + GIVEN_END)
MAX_DEPTH = 8


class Hole:
    """A run-time part of a message: `{}` in its template, with the expression it shows when known."""

    __slots__ = ("node",)

    def __init__(self, node: ast.expr | None = None) -> None:
        self.node = node

    def __repr__(self) -> str:
        return "{}"

    def source(self) -> str | None:
        """The shown expression as source, `str(x)` and `repr(x)` read as `x` (they show the same value)."""
        node = self.node
        while isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _SHOWN_AS:
            if len(node.args) != 1 or node.keywords:
                break
            node = node.args[0]
        if node is None:
            return None
        from errdex.extract.nodes import unparse  # (nodes reads this module's TRANSLATIONS)

        return unparse(node)


HOLE = Hole()  # a hole whose expression is not known
Parts = tuple[Any, ...]  # str or Hole

_PRINTF = re.compile(
    r"%(?:\([^)\n]{0,100}\))?[-+ #0]{0,5}(?:\*|\d{1,5})?(?:\.(?:\*|\d{1,5}))?[hlL]?[diouxXeEfFgGcrsa%]"
)
_STR_METHODS = {"strip", "rstrip", "lstrip"}
_SHOWN_AS = frozenset({"str", "repr"})


class Scope(Protocol):
    """What a template needs to know about names: local bindings and constant values."""

    def alternatives(self, name: str) -> list[ast.expr] | None: ...

    def constant(self, name: str) -> Any: ...


@dataclass(frozen=True)
class _Walk:
    """The scope of names and the budget of one template walk."""

    names: Scope
    budget: Budget | None

    def alternatives(self, name: str) -> list[ast.expr] | None:
        return self.names.alternatives(name)

    def constant(self, name: str) -> Any:
        return self.names.constant(name)


def templates(node: ast.expr, scope: Scope, budget: Budget | None = None) -> list[Parts]:
    """Every template the expression can produce (at most MAX_ALTERNATIVES)."""
    return _templates(node, _Walk(scope, budget), 0)


def render(parts: Parts) -> str | None:
    """The template as text, adjacent holes merged; None when no literal text is left."""
    out: list[str] = []
    for part in parts:
        if isinstance(part, Hole):
            if out and out[-1] == "{}":
                continue
            out.append("{}")
        elif part:
            out.append(part)
    text = "".join(out)
    if not text.replace("{}", "").strip():
        return None
    return text


def hole_sources(parts: Parts) -> HoleSources:
    """The expressions each `{}` of the rendered template shows (several where adjacent holes merged, none
    where unknown); () when the template's text holds a `{}` of its own, which no expression fills."""
    out: list[list[str]] = []
    merged = False
    for part in parts:
        if isinstance(part, Hole):
            if not merged:
                out.append([])
                merged = True
            source = part.source()
            if source is not None and source not in out[-1]:
                out[-1].append(source)
        elif part:
            if "{}" in part:
                return ()
            merged = False
    return tuple(tuple(sources) for sources in out)


def _templates(node: ast.expr, scope: _Walk, depth: int) -> list[Parts]:
    if depth > MAX_DEPTH:
        return [(HOLE,)]
    handler = _HANDLERS.get(type(node))
    if handler is None:
        return [(HOLE,)]
    try:
        _spend(scope, 1)
        return handler(node, scope, depth + 1)[:MAX_ALTERNATIVES]
    except TooMuchWork:
        return [(HOLE,)]


def _spend(scope: _Walk, steps: int) -> None:
    if scope.budget is not None:
        scope.budget.spend(steps)


def _constant(node: ast.Constant, scope: _Walk, depth: int) -> list[Parts]:
    if isinstance(node.value, str):
        return [(node.value,)]
    return [(HOLE,)]


def _joined(node: ast.JoinedStr, scope: _Walk, depth: int) -> list[Parts]:
    parts: list[Any] = []
    for value in node.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            parts.append(value.value)
        elif (given := _given(value)) is not None:
            parts.append(given)
        elif isinstance(value, ast.FormattedValue):
            parts.append(Hole(value.value))
        else:
            parts.append(HOLE)
    return [tuple(parts)]


def _given(value: ast.expr) -> str | None:
    """The mark of the argument a class is given, shown as it is, when that is what an f-string's field is."""
    if not isinstance(value, ast.FormattedValue) or value.conversion != -1 or value.format_spec is not None:
        return None
    inner = value.value
    if isinstance(inner, ast.Constant) and isinstance(inner.value, str) and inner.value.startswith(GIVEN):
        return inner.value
    return None


def _binop(node: ast.BinOp, scope: _Walk, depth: int) -> list[Parts]:
    if isinstance(node.op, ast.Add):
        lefts = _templates(node.left, scope, depth)
        rights = _templates(node.right, scope, depth)
        joined = [left + right for left in lefts for right in rights][:MAX_ALTERNATIVES]
        _spend(scope, sum(len(parts) for parts in joined))  # copies: `m = m + m` doubles them
        return joined
    if isinstance(node.op, ast.Mod):
        return [_apply(parts, _Printf(node.right)) for parts in _templates(node.left, scope, depth)]
    return [(HOLE,)]


def _name(node: ast.Name, scope: _Walk, depth: int) -> list[Parts]:
    bound = scope.alternatives(node.id)
    if bound:
        out: list[Parts] = []
        for expr in bound:
            out.extend(_templates(expr, scope, depth))
        return _unique(out)
    try:
        value = scope.constant(node.id)
    except Unresolved:
        return [(Hole(node),)]
    return [(value,)] if isinstance(value, str) else [(Hole(node),)]


def _attribute(node: ast.Attribute, scope: _Walk, depth: int) -> list[Parts]:
    try:
        value = scope.constant(ast.unparse(node))
    except Unresolved:
        return [(Hole(node),)]
    return [(value,)] if isinstance(value, str) else [(Hole(node),)]


def _ifexp(node: ast.IfExp, scope: _Walk, depth: int) -> list[Parts]:
    return _unique(_templates(node.body, scope, depth) + _templates(node.orelse, scope, depth))


def _call(node: ast.Call, scope: _Walk, depth: int) -> list[Parts]:
    func = node.func
    if isinstance(func, ast.Attribute):
        if func.attr == "format":
            return [_apply(parts, _Format(node)) for parts in _templates(func.value, scope, depth)]
        if func.attr in _STR_METHODS and not node.args:
            return [_strip(parts, func.attr) for parts in _templates(func.value, scope, depth)]
        if (
            func.attr == "join"
            and isinstance(func.value, ast.Constant)
            and isinstance(func.value.value, str)
            and len(node.args) == 1
        ):
            return _join(func.value.value, node.args[0], scope, depth)
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    if name in ("ngettext", "ungettext") and len(node.args) == 3:  # (singular, plural, count): either is printed
        return _unique(_templates(node.args[0], scope, depth) + _templates(node.args[1], scope, depth))
    if (name in ("dedent", "cleandoc", "str") or name in TRANSLATIONS) and len(node.args) == 1:
        inner = _templates(node.args[0], scope, depth)
        if name in ("dedent", "cleandoc"):
            return [_apply(parts, _dedent) for parts in inner]
        return inner
    return [(Hole(node),)]


def _join(separator: str, items: ast.expr, scope: _Walk, depth: int) -> list[Parts]:
    """`" ".join(words)` of a list literal, or of a name bound to list literals (grown by `append`); an
    empty list is left out when others can be joined."""
    bound: list[ast.expr] = [items] if isinstance(items, (ast.List, ast.Tuple)) else []
    if isinstance(items, ast.Name):
        bound = scope.alternatives(items.id) or []
    lists = [each for each in bound if isinstance(each, (ast.List, ast.Tuple))]
    if not lists or len(lists) != len(bound):  # none, or one of them is not a literal
        return [(HOLE,)]
    lists = [each for each in lists if each.elts] or lists  # a message joins something
    out: list[Parts] = []
    for each in lists:
        joined: list[Parts] = [()]
        for i, elt in enumerate(each.elts):
            pieces = _templates(elt, scope, depth)
            joined = [done + ((separator,) if i else ()) + piece for done in joined for piece in pieces][
                :MAX_ALTERNATIVES
            ]
        out.extend(joined)
    return _unique(out)


def _apply(parts: Parts, convert: Callable[[str], list[Any]]) -> Parts:
    """Apply a formatting operator to the literal parts of a template, holes untouched."""
    out: list[Any] = []
    for part in parts:
        out.extend([part] if isinstance(part, Hole) else convert(part))
    return tuple(out)


class _Printf:
    """`pattern % args` applied to a template's literal parts in order: each conversion a hole showing the
    argument it takes (by position in a tuple, by key in a dict literal, or the one argument)."""

    def __init__(self, args: ast.expr | None) -> None:
        self.items = args.elts if isinstance(args, ast.Tuple) else None
        self.keys = _keyed(args.keys, args.values) if isinstance(args, ast.Dict) else {}
        self.single = args if self.items is None and not isinstance(args, ast.Dict) else None
        self.taken = 0

    def __call__(self, text: str) -> list[Any]:
        out: list[Any] = []
        pos = 0
        for m in _PRINTF.finditer(text):
            out.append(text[pos : m.start()])
            out.append("%" if m.group() == "%%" else Hole(self._argument(m.group())))
            pos = m.end()
        out.append(text[pos:])
        return out

    def _argument(self, conversion: str) -> ast.expr | None:
        if conversion.startswith("%("):
            return self.keys.get(conversion[2 : conversion.index(")")])
        position = self.taken + conversion.count("*")  # a `*` width or precision takes an argument first
        self.taken = position + 1
        if self.items is not None:
            return self.items[position] if position < len(self.items) else None
        return self.single if position == 0 else None


class _Format:
    """`str.format(*args, **kwargs)` applied to a template's literal parts: each field a hole showing its argument."""

    def __init__(self, call: ast.Call | None) -> None:
        self.call = call  # None for a pattern kept as text, whose arguments are not seen
        self.keywords = {k.arg: k.value for k in call.keywords if k.arg} if call is not None else {}
        self.auto = 0

    def __call__(self, text: str) -> list[Any]:
        out: list[Any] = []
        try:
            for literal, field, _spec, _conversion in string.Formatter().parse(text):
                out.append(literal)
                if field is not None:
                    out.append(Hole(self._argument(field)))
        except ValueError:  # not a valid format string: the call would fail, keep the text
            return [text]
        return out

    def _argument(self, field: str) -> ast.expr | None:
        """The argument a field shows (the whole call when it is not among those written)."""
        key = field.split(".", 1)[0].split("[", 1)[0]
        if self.call is None:
            return None
        if key == "" or key.isdigit():
            position = self.auto if key == "" else int(key)
            self.auto += key == ""
            args = self.call.args
            return args[position] if position < len(args) else self.call
        return self.keywords.get(key, self.call)


def _keyed(keys: list[ast.expr | None], values: list[ast.expr]) -> dict[str, ast.expr]:
    """The entries of a dict literal whose keys are strings."""
    return {
        k.value: v
        for k, v in zip(keys, values, strict=True)
        if isinstance(k, ast.Constant) and isinstance(k.value, str)
    }


def _dedent(text: str) -> list[Any]:
    return [textwrap.dedent(text)]


def _strip(parts: Parts, method: str) -> Parts:
    items = list(parts)
    if method in ("strip", "lstrip") and items and not isinstance(items[0], Hole):
        items[0] = items[0].lstrip()
    if method in ("strip", "rstrip") and items and not isinstance(items[-1], Hole):
        items[-1] = items[-1].rstrip()
    return tuple(items)


def _unique(items: list[Parts]) -> list[Parts]:
    seen: dict[str, Parts] = {}
    for parts in items:
        seen.setdefault(repr(parts), parts)
    return list(seen.values())[:MAX_ALTERNATIVES]


_HANDLERS: dict[type, Callable[[Any, _Walk, int], list[Parts]]] = {
    ast.Constant: _constant,
    ast.JoinedStr: _joined,
    ast.BinOp: _binop,
    ast.Name: _name,
    ast.Attribute: _attribute,
    ast.IfExp: _ifexp,
    ast.Call: _call,
}


def given_mark(stripped: str = "") -> str:
    """The text that stands for the argument a class is given, in the templates of the message it writes."""
    return f"{GIVEN}{stripped}{GIVEN_END}"


def class_message(text: str) -> ClassMessage:
    """A class's template made with the argument it is given marked, as the parts around the argument."""
    pieces = _GIVEN_AT.split(text)  # part, stripped, part, stripped, ..., part
    return ClassMessage(tuple(pieces[0::2]), pieces[1] if len(pieces) > 1 else "")


def given_message(message: ClassMessage, argument: str | None) -> str | None:
    """A class's template with the argument's template where it goes (a hole when the argument's is not
    known); None when no literal text is left."""
    filler = "{}" if argument is None else argument.rstrip(message.stripped)
    return render((filler.join(message.parts),))


def given_holes(message: ClassMessage, argument: HoleSources) -> HoleSources:
    """The hole sources of `given_message(message, ...)`: the class's own holes unknown, the argument's where it
    goes (they no longer match the template where holes merged; `Site.holes` checks)."""
    out: HoleSources = ()
    for i, part in enumerate(message.parts):
        out += (argument if i else ()) + ((),) * part.count("{}")
    return out


def format_template(text: str) -> str | None:
    """The template of a `str.format` pattern kept as text (`"Invalid {name}"` -> `"Invalid {}"`)."""
    return render(_apply((text,), _Format(None)))
