"""What `ast.unparse` writes, for the few simple shapes most conditions and messages take.

Every site's condition and message is written back as source (for display and ids), and
`ast.unparse` builds a printer object and walks it for each, an f-string costing a printer per
placeholder: a tenth of extracting a package. Names, dotted names, plain constants, simple
calls, comparisons, `not` and `and`/`or` of these, and f-strings of plain text and names are
written here directly, with the brackets `ast.unparse` puts (a third and later operand of
`and` that is a comparison gets some); anything else gets None, and `ast.unparse` writes it.
`tests/extract/test_quick_unparse.py` checks the two agree.
"""

from __future__ import annotations

import ast

from errdex.extract.resolve import dotted_name

_COMPARISONS = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
}
# how tightly each shape binds, as `ast._Precedence` numbers them: an operand is bracketed when
# the place it stands in asks for more than its own
_OR, _AND, _NOT, _COMPARE, _ATOM = 5, 6, 7, 8, 18
_CONVERSIONS = {-1: "", ord("r"): "!r", ord("s"): "!s", ord("a"): "!a"}
_QUOTES = ("'", '"')
_ATOMS = (ast.Name, ast.Attribute, ast.Constant, ast.Call)  # the shapes `_atom` writes


def quick_unparse(node: ast.AST) -> str | None:
    """The source `ast.unparse(node)` gives, when `node` has one of the simple shapes; else None."""
    found = _written(node)
    return found[0] if found is not None else None


def _written(node: ast.AST) -> tuple[str, int] | None:
    """The source of a simple expression and how tightly it binds."""
    if type(node) in _ATOMS:
        atom = _atom(node)
        return (atom, _ATOM) if atom is not None else None
    if type(node) is ast.Compare:
        text = _comparison(node)
        return (text, _COMPARE) if text is not None else None
    if type(node) is ast.UnaryOp and type(node.op) is ast.Not:
        operand = _written(node.operand)
        if operand is None or operand[1] < _NOT:
            return None
        return "not " + operand[0], _NOT
    if type(node) is ast.BoolOp:
        return _boolean(node)
    if type(node) is ast.JoinedStr:
        text = _fstring(node)
        return (text, _ATOM) if text is not None else None
    return None


def _atom(node: ast.AST) -> str | None:
    """A name, a dotted name, a str/int/bool/None constant, or a call of a dotted name with such arguments."""
    if type(node) is ast.Name or type(node) is ast.Attribute:
        return dotted_name(node)
    if type(node) is ast.Constant:
        value = node.value
        if node.kind is None and (value is None or type(value) in (str, int, bool)):
            return repr(value)
        return None
    if type(node) is ast.Call:
        return _call(node)
    return None


def _call(node: ast.Call) -> str | None:
    func = dotted_name(node.func)
    if func is None:
        return None
    pieces = []
    for arg in node.args:
        text = _atom(arg)
        if text is None:
            return None
        pieces.append(text)
    for keyword in node.keywords:
        text = _atom(keyword.value) if keyword.arg is not None else None
        if text is None:
            return None
        pieces.append(f"{keyword.arg}={text}")
    return f"{func}({', '.join(pieces)})"


def _comparison(node: ast.Compare) -> str | None:
    left = _atom(node.left)
    if left is None:
        return None
    pieces = [left]
    for op, right in zip(node.ops, node.comparators, strict=True):
        text = _atom(right)
        if text is None:
            return None
        pieces += (_COMPARISONS[type(op)], text)  # every comparison operator is in the table
    return " ".join(pieces)


def _boolean(node: ast.BoolOp) -> tuple[str, int] | None:
    """`a and b ...`: the n-th operand stands where the operator's precedence plus n is asked for."""
    own = _AND if type(node.op) is ast.And else _OR
    pieces = []
    for n, value in enumerate(node.values, 1):
        operand = _written(value)
        if operand is None:
            return None
        text, binds = operand
        pieces.append(f"({text})" if own + n > binds else text)
    return (" and " if own == _AND else " or ").join(pieces), own


def _fstring(node: ast.JoinedStr) -> str | None:
    """An f-string of printable text without quotes or backslashes, and of names without format specs."""
    pieces = []
    for value in node.values:
        if type(value) is ast.Constant:
            text = value.value
            if not isinstance(text, str) or not text.isprintable() or "\\" in text or any(q in text for q in _QUOTES):
                return None
            pieces.append(text.replace("{", "{{").replace("}", "}}"))
        elif type(value) is ast.FormattedValue:
            name = dotted_name(value.value)
            if name is None or value.format_spec is not None or value.conversion not in _CONVERSIONS:
                return None
            pieces.append(f"{{{name}{_CONVERSIONS[value.conversion]}}}")
        else:
            return None
    return "f'" + "".join(pieces) + "'"
