"""Which parts of a statement an interpreter's message fits: the one module that reads the messages' forms."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass

from errdex.pages.statement_model import OperationKind

_T = r"'(?P<type>[\w.<> ]+)'"
_FUNC = r"(?P<func>[\w.<>]+)\(\)"


@dataclass(frozen=True, slots=True)
class Wanted:
    """What a message says failed: the operation's kind and its narrower form, what it names, the value's type."""

    kind: OperationKind
    form: str  # the name of the message's form (see `_FORMS`)
    name: str | None = None  # attribute, key (as the message writes it), keyword, operator, function name
    value_type: str | None = None
    other_type: str | None = None  # a binary operator's right-hand type (`value_type` is then the left one)
    function: str | None = None  # the function a call message names (`Foo.__init__`)
    count: int | None = None  # the number of names an unpacking expected


@dataclass(frozen=True, slots=True)
class Found:
    """A sub-expression the message fits: the value operated on and the whole operation."""

    kind: OperationKind
    value: ast.AST  # the value operated on (for a binary operator whose failing side is not known: the operation)
    whole: ast.AST
    name: str | None
    value_type: str | None
    key: ast.AST | None = None  # a subscript's key or index, a `.pop(key)`'s key


@dataclass(frozen=True, slots=True)
class _Form:
    """A form of message: its name, the operation it names, the class it is raised as, its pattern."""

    name: str
    kind: OperationKind
    raised_as: str
    pattern: re.Pattern[str]


def _f(name: str, kind: OperationKind, raised_as: str, pattern: str) -> _Form:
    return _Form(name, kind, raised_as, re.compile(pattern))


_ATTRIBUTE, _TYPE = "AttributeError", "TypeError"
_NOT = r" object (?:does not|doesn't) support item "
_TWO = _T + r" and '(?P<other>[\w.<> ]+)'"
# the first whose class and pattern fit is read
_FORMS = (
    _f("no attribute", "attribute", _ATTRIBUTE, _T + r" object has no attribute '(?P<name>\w+)'"),
    _f("no attribute", "attribute", _ATTRIBUTE, r"(?P<type>type) object '[\w.]+' has no attribute '(?P<name>\w+)'"),
    _f("no attribute", "attribute", _ATTRIBUTE, r"(?P<type>module) '[\w.]+' has no attribute '(?P<name>\w+)'"),
    _f("read-only", "attribute", _ATTRIBUTE, _T + r" object attribute '(?P<name>\w+)' is read-only"),
    _f("no setter", "attribute", _ATTRIBUTE, r"property '(?P<name>\w+)' of " + _T + r" object has no setter"),
    _f("not subscriptable", "subscript", _TYPE, _T + r" object is not subscriptable"),
    _f("item assignment", "subscript", _TYPE, _T + _NOT + "assignment"),
    _f("item deletion", "subscript", _TYPE, _T + _NOT + "deletion"),
    _f("indices", "subscript", _TYPE, r"(?P<type>list|tuple|string|str) indices must be integers"),
    _f("in", "iterate", _TYPE, r"argument of type " + _T + r" is not iterable"),
    _f("not iterable", "iterate", _TYPE, _T + r" object is not iterable"),
    _f("star", "iterate", _TYPE, r"(?:\S+ )?argument after \* must be an iterable, not (?P<type>[\w.]+)"),
    _f("double star", "call", _TYPE, r"(?:\S+ )?argument after \*\* must be a mapping, not (?P<type>[\w.]+)"),
    _f("non-iterable", "unpack", _TYPE, r"cannot unpack non-iterable (?P<type>[\w.]+) object"),
    _f("not callable", "call", _TYPE, _T + r" object is not callable"),
    _f("len", "call", _TYPE, r"object of type " + _T + r" has no len\(\)"),
    _f("operands", "operator", _TYPE, r"unsupported operand type\(s\) for (?P<op>\S+): " + _TWO),
    _f("comparison", "operator", _TYPE, r"'(?P<op>[<>=!]{1,2})' not supported between instances of " + _TWO),
    _f("unary", "operator", _TYPE, r"bad operand type for unary (?P<op>[-+~]): " + _T),
    _f("concatenate", "operator", _TYPE, r'can only concatenate (?P<type>\w+) \(not "(?P<other>\w+)"\) to \w+'),
    _f("keyword", "call", _TYPE, _FUNC + r" got an unexpected keyword argument '(?P<name>\w+)'"),
    _f("arguments", "call", _TYPE, _FUNC + r" got multiple values for (?:keyword )?argument '(?P<name>\w+)'"),
    _f("arguments", "call", _TYPE, _FUNC + r" (?:missing \d+ required|takes |got some positional-only)"),
    _f("index assignment", "subscript", "IndexError", r"(?P<type>list|bytearray) assignment index out of range"),
    _f("index", "subscript", "IndexError", r"(?P<type>list|tuple|string|range object|str|bytes) index out of range"),
    _f("pop", "call", "IndexError", r"pop (?:from (?:an )?empty (?P<type>\w+)|index out of range)"),
    _f(
        "unpack count",
        "unpack",
        "ValueError",
        r"(?:not enough|too many) values to unpack \(expected (?:at least )?(?P<count>\d+)",
    ),
    _f(
        "division",
        "operator",
        "ZeroDivisionError",
        r"(?:integer |float )?(?:division|modulo|divmod)(?: or modulo)? by zero",
    ),
    _f("unbound", "other", "UnboundLocalError", r"(?:cannot access local variable|local variable) '(?P<name>\w+)'"),
    _f("undefined", "other", "NameError", r"(?:free variable |name )'(?P<name>\w+)' is not defined"),
)
_BINARY = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**",
    ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>",
}  # fmt: skip
_COMPARE = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_UNARY = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}
_DIVIDING = ("/", "//", "%")
# builtins that iterate their positional arguments (all of them, or from the index given)
_ITERATING = {"list": 0, "tuple": 0, "set": 0, "frozenset": 0, "dict": 0, "sorted": 0, "enumerate": 0, "zip": 0,
              "sum": 0, "min": 0, "max": 0, "any": 0, "all": 0, "map": 1, "filter": 1, "iter": 0}  # fmt: skip
_ITERATING_METHODS = ("extend", "update", "join")
NONE_TYPE = "NoneType"


def read_message(exception: str | None, message: str) -> Wanted | None:
    """The operation an interpreter's message names, or None when it is none of the forms read here."""
    short = exception.rsplit(".", 1)[-1] if exception else None
    text = message.strip()
    if short == "KeyError":
        return Wanted("subscript", "key", name=text) if text else None
    for form in _FORMS:
        if short is not None and short != form.raised_as:
            continue
        found = form.pattern.match(text)
        if found is not None:
            return _wanted(form.name, form.kind, found.groupdict())
    return None


def _wanted(form: str, kind: OperationKind, groups: dict[str, str | None]) -> Wanted:
    count = groups.get("count")
    name = groups.get("name") or groups.get("op")
    return Wanted(
        kind,
        form,
        name=name,
        value_type=groups.get("type"),
        other_type=groups.get("other"),
        function=groups.get("func"),
        count=int(count) if count else None,
    )


def operations(nodes: list[ast.AST], wanted: Wanted, statement: ast.AST | None = None) -> list[Found]:
    """Every sub-expression of the statement (its nodes: the statement, or a compound statement's header) that the
    message fits, in source order; `statement` is the compound statement a header is of (a `for` iterates)."""
    walked = [n for node in nodes for n in ast.walk(node)]
    if isinstance(statement, ast.For | ast.AsyncFor) and statement not in nodes:
        walked.append(statement)
    found = list(_fitting(walked, wanted))
    if wanted.form in ("keyword", "arguments"):
        found = _narrowed_calls(found, wanted)
    return sorted(found, key=lambda f: (getattr(f.whole, "lineno", 0), getattr(f.whole, "col_offset", 0)))


def _fitting(nodes: list[ast.AST], w: Wanted) -> Iterator[Found]:
    if w.kind == "attribute":
        store = w.form in ("read-only", "no setter")
        for n in nodes:
            if isinstance(n, ast.Attribute) and n.attr == w.name and (not store or not isinstance(n.ctx, ast.Load)):
                yield Found("attribute", n.value, n, w.name, w.value_type)
    elif w.kind == "subscript":
        yield from _subscripts(nodes, w)
    elif w.kind == "iterate":
        yield from _iterated(nodes, w)
    elif w.kind == "unpack":
        yield from _unpacked(nodes, w)
    elif w.kind == "call":
        yield from _calls(nodes, w)
    elif w.kind == "operator":
        yield from _operators(nodes, w)
    else:
        for n in nodes:
            if isinstance(n, ast.Name) and n.id == w.name and isinstance(n.ctx, ast.Load):
                yield Found("other", n, n, w.name, None)


def _subscripts(nodes: list[ast.AST], w: Wanted) -> Iterator[Found]:
    context: type[ast.expr_context] = ast.Load
    if w.form in ("item assignment", "index assignment"):
        context = ast.Store
    elif w.form == "item deletion":
        context = ast.Del
    for n in nodes:
        if isinstance(n, ast.Call) and w.form == "key" and _method(n) == "pop" and len(n.args) == 1:
            if _key_fits(n.args[0], w.name):
                yield Found("call", _receiver(n), n, w.name, None, n.args[0])
        if not isinstance(n, ast.Subscript):
            continue
        if w.form == "key":
            if not isinstance(n.ctx, ast.Store) and _key_fits(n.slice, w.name):
                yield Found("subscript", n.value, n, w.name, None, n.slice)
        elif w.form in ("index", "index assignment", "indices"):
            if isinstance(n.ctx, context) and not isinstance(n.slice, ast.Slice):
                yield Found("subscript", n.value, n, None, w.value_type, n.slice)
        elif isinstance(n.ctx, context):
            yield Found("subscript", n.value, n, None, w.value_type, n.slice)


def _key_fits(key: ast.expr, shown: str | None) -> bool:
    """Whether a subscript's key may be the one a KeyError shows (its repr): a literal only when its repr is it."""
    try:
        value = ast.literal_eval(key)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return True  # computed: it may be any key
    return repr(value) == shown


def _iterated(nodes: list[ast.AST], w: Wanted) -> Iterator[Found]:
    for n in nodes:
        if w.form == "in":
            if isinstance(n, ast.Compare):
                for op, right in zip(n.ops, n.comparators, strict=True):
                    if isinstance(op, ast.In | ast.NotIn):
                        yield Found("iterate", right, n, "in", w.value_type)
            continue
        if isinstance(n, ast.For | ast.AsyncFor | ast.comprehension):
            yield Found("iterate", n.iter, n.iter, None, w.value_type)
        elif isinstance(n, ast.Starred) and isinstance(n.ctx, ast.Load):
            yield Found("iterate", n.value, n, None, w.value_type)
        elif isinstance(n, ast.YieldFrom):
            yield Found("iterate", n.value, n, None, w.value_type)
        elif isinstance(n, ast.Call) and w.form != "star":
            for argument in _iterated_arguments(n):
                yield Found("iterate", argument, n, None, w.value_type)


def _iterated_arguments(call: ast.Call) -> list[ast.expr]:
    if isinstance(call.func, ast.Name) and call.func.id in _ITERATING:
        return [a for a in call.args[_ITERATING[call.func.id] :] if not isinstance(a, ast.Starred)]
    if _method(call) in _ITERATING_METHODS and len(call.args) == 1 and not isinstance(call.args[0], ast.Starred):
        return [call.args[0]]
    return []


def _unpacked(nodes: list[ast.AST], w: Wanted) -> Iterator[Found]:
    for n in nodes:
        pairs: list[tuple[ast.expr, ast.expr]] = []
        if isinstance(n, ast.Assign):
            pairs = [(t, n.value) for t in n.targets]
        elif isinstance(n, ast.For | ast.AsyncFor | ast.comprehension):
            pairs = [(n.target, n.iter)]
        for target, value in pairs:
            if isinstance(target, ast.Tuple | ast.List) and _count_fits(target, w.count):
                yield Found("unpack", value, target, None, w.value_type)


def _count_fits(target: ast.Tuple | ast.List, count: int | None) -> bool:
    starred = any(isinstance(e, ast.Starred) for e in target.elts)
    return count is None or (len(target.elts) - 1 <= count if starred else len(target.elts) == count)


def _calls(nodes: list[ast.AST], w: Wanted) -> Iterator[Found]:
    for n in nodes:
        if not isinstance(n, ast.Call):
            continue
        if w.form == "not callable":
            yield Found("call", n.func, n, None, w.value_type)
        elif w.form == "len":
            if isinstance(n.func, ast.Name) and n.func.id == "len" and len(n.args) == 1:
                yield Found("call", n.args[0], n, "len", w.value_type)
        elif w.form == "double star":
            for k in n.keywords:
                if k.arg is None:
                    yield Found("call", k.value, n, None, w.value_type)
        elif w.form == "pop":
            if _method(n) in ("pop", "popitem"):
                yield Found("call", _receiver(n), n, "pop", w.value_type)
        else:
            yield Found("call", n.func, n, w.name, None)


def _narrowed_calls(found: list[Found], w: Wanted) -> list[Found]:
    """The calls that may be of the function the message names: those spelled with its name, when any is (else all:
    a function is often called through another name); of those, for an unexpected keyword, the ones that pass it,
    else those that pass `**` something (it may hold it), else all of them."""
    calls = [(f, f.whole) for f in found if isinstance(f.whole, ast.Call)]
    calls = [(f, c) for f, c in calls if _named(c, w.function)] or calls
    if w.form != "keyword":
        return [f for f, _ in calls]
    passing = [f for f, c in calls if any(k.arg == w.name for k in c.keywords)]
    unpacking = [f for f, c in calls if any(k.arg is None for k in c.keywords)]
    return passing or unpacking or [f for f, _ in calls]


def _named(call: ast.Call, function: str | None) -> bool:
    """Whether a call may be of the function a message names (`f`, `Cls.meth`, `Cls.__init__` for `Cls(...)`)."""
    if function is None:
        return True
    parts = function.split(".")
    called = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", None)
    if parts[-1] in ("__init__", "__new__") and len(parts) > 1:
        return called in (parts[-2], parts[-1])
    return called == parts[-1]


def _operators(nodes: list[ast.AST], w: Wanted) -> Iterator[Found]:
    symbol = w.name
    for n in nodes:
        if isinstance(n, ast.BinOp) and _fits_operator(_BINARY.get(type(n.op)), w):
            yield _operand(n.left, n.right, n, _BINARY[type(n.op)], w)
        elif isinstance(n, ast.AugAssign) and _fits_operator(_BINARY.get(type(n.op)), w, augmented=True):
            yield _operand(n.target, n.value, n, _BINARY[type(n.op)] + "=", w)
        elif isinstance(n, ast.Compare) and w.form == "comparison":
            left = n.left
            for op, right in zip(n.ops, n.comparators, strict=True):
                if _COMPARE.get(type(op)) == symbol:
                    yield _operand(left, right, n, symbol, w)
                left = right
        elif isinstance(n, ast.UnaryOp) and w.form == "unary" and _UNARY.get(type(n.op)) == symbol:
            yield Found("operator", n.operand, n, symbol, w.value_type)


def _fits_operator(symbol: str | None, w: Wanted, augmented: bool = False) -> bool:
    if symbol is None:
        return False
    if w.form == "division":
        return symbol in _DIVIDING
    if w.form == "concatenate":
        return symbol == "+"
    if w.form != "operands":
        return False
    return w.name == (symbol + "=" if augmented else symbol)


def _operand(left: ast.AST, right: ast.AST, whole: ast.AST, symbol: str | None, w: Wanted) -> Found:
    """The operation with the operand the message says failed: the one that is None when only one is (`for +: 'int'
    and 'NoneType'`: the right one), the divisor of a division by zero; else the whole operation (the message does
    not tell which operand is wrong)."""
    if w.form == "division":
        return Found("operator", right, whole, symbol, None)
    if w.value_type == NONE_TYPE and w.other_type != NONE_TYPE:
        return Found("operator", left, whole, symbol, NONE_TYPE)
    if w.other_type == NONE_TYPE and w.value_type != NONE_TYPE:
        return Found("operator", right, whole, symbol, NONE_TYPE)
    return Found("operator", whole, whole, symbol, None)


def _method(call: ast.Call) -> str | None:
    return call.func.attr if isinstance(call.func, ast.Attribute) else None


def _receiver(call: ast.Call) -> ast.AST:
    return call.func.value if isinstance(call.func, ast.Attribute) else call.func
