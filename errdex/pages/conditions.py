"""A guarding condition in words: each clause of `a and b and not c` said as a sentence.

The condition is the source text the extractor kept (nested `if`s joined by `and`, an `else`
branch written `not (...)`). It is parsed with `ast` and described clause by clause; negation
is pushed inwards (De Morgan) so that `not (0 < x < 1)` reads "x is at most 0 or at least 1".
Tests of where the code runs (`__debug__`, `sys.version_info`, `is_torch_available()`, values a
module fixes at import) are said as conditions of the environment (see `environment.py`) and
are never taken for inputs. Nothing is evaluated here; see `evaluate.py` for that.
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass
from typing import Any

from errdex.pages.environment import inside, only_environment, phrase
from errdex.pages.model import CheckClause, JsonValue, MembershipList
from errdex.pages.syntax import MIRRORED_OP, NEGATED_OP, OP_WORDS, container_kind, membership, unparse

NO_NAMES: frozenset[str] = frozenset()
MAX_CONDITION_CHARS = 4000
MAX_CONDITION_DEPTH = 100  # the describers and the evaluator recurse on the tree
_BUILTIN_NAMES = frozenset(dir(builtins))


@dataclass(frozen=True)
class Clause:
    """One conjunct of a condition: its code, when it holds and when not (in words), and what kind of test it is."""

    code: str
    text: str
    negated: str
    kind: str  # membership | comparison | identity | isinstance | truthiness | call | combined | environment | other

    def json(self) -> CheckClause:
        return {"code": self.code, "text": self.text, "negated": self.negated, "kind": self.kind}


def parse_condition(condition: str | None) -> ast.expr | None:
    """The condition as an expression tree, or None when there is none or it does not parse."""
    if not condition or len(condition) > MAX_CONDITION_CHARS:
        return None
    try:
        node = ast.parse(condition, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return node if _depth(node) <= MAX_CONDITION_DEPTH else None


def _depth(root: ast.AST) -> int:
    """How deeply the tree nests, found without recursion."""
    deepest, stack = 0, [(root, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest


def conjuncts(node: ast.expr) -> list[ast.expr]:
    """The top-level `and` parts of a condition (a single part when it is not an `and`)."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return [part for value in node.values for part in conjuncts(value)]
    return [node]


def clauses(node: ast.expr, resolved: dict[str, JsonValue], names: frozenset[str] = NO_NAMES) -> list[Clause]:
    """Each conjunct of the condition, in words.

    `names` are the module's values fixed at import (see environment.py).
    """
    return [
        Clause(
            unparse(part),
            describe(part, resolved, False, names),
            describe(part, resolved, True, names),
            clause_kind(part, names),
        )
        for part in conjuncts(node)
    ]


def clause_kind(node: ast.expr, names: frozenset[str] = NO_NAMES) -> str:
    """What kind of test an expression is, looking through `not`."""
    if only_environment(node, names):
        return "environment"
    while isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        if isinstance(node.operand, (ast.Name, ast.Attribute)):
            return "truthiness"
        node = node.operand
    if isinstance(node, ast.BoolOp):
        return "combined"
    if isinstance(node, ast.Compare):
        op = type(node.ops[0])
        if op in (ast.In, ast.NotIn):
            return "membership"
        if op in (ast.Is, ast.IsNot):
            return "identity"
        return "comparison"
    if isinstance(node, ast.Call):
        return "isinstance" if _call_name(node) in ("isinstance", "issubclass") else "call"
    if isinstance(node, (ast.Name, ast.Attribute)):
        return "truthiness"
    return "other"


def describe(
    node: ast.expr, resolved: dict[str, JsonValue], negated: bool = False, names: frozenset[str] = NO_NAMES
) -> str:
    """A sentence saying when `node` is true (or false, when `negated`)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return describe(node.operand, resolved, not negated, names)
    if isinstance(node, ast.BoolOp):
        return _describe_boolop(node, resolved, negated, names)
    environment = phrase(node, negated, names)
    if environment is not None:
        return environment
    if isinstance(node, ast.Compare):
        return _describe_compare(node, resolved, negated)
    if isinstance(node, ast.Call):
        return _describe_call(node, negated)
    if isinstance(node, (ast.Name, ast.Attribute)):
        if negated:
            return f"`{unparse(node)}` is empty, zero, False or None"
        return f"`{unparse(node)}` is set to a true value (not empty, zero, False or None)"
    return f"`{unparse(node)}` is {'false' if negated else 'true'}"


def _describe_boolop(node: ast.BoolOp, resolved: dict[str, JsonValue], negated: bool, names: frozenset[str]) -> str:
    """A part that joins its own parts the other way is bracketed: `a and (b or c)` reads "A and (either B or C)"."""
    is_and = isinstance(node.op, ast.And) != negated  # De Morgan
    parts = [
        f"({text})" if _joins(value, negated) == (not is_and) else text
        for value in node.values
        for text in [describe(value, resolved, negated, names)]
    ]
    return " and ".join(parts) if is_and else either(parts)


def _joins(node: ast.expr, negated: bool) -> bool | None:
    """Whether `describe` joins the parts of `node` with "and" (True) or "or" (False); None when it has no parts."""
    while isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        node, negated = node.operand, not negated
    if isinstance(node, ast.BoolOp):
        return isinstance(node.op, ast.And) != negated
    if isinstance(node, ast.Compare) and len(node.ops) > 1:
        return not negated
    return None


def either(parts: list[str]) -> str:
    """'A', 'either A or B', 'any of: A; B; C' (and for two when one is an 'either' itself)."""
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2 and not any(p.startswith("either ") for p in parts):
        return f"either {parts[0]} or {parts[1]}"
    return "any of: " + "; ".join(parts)


def _describe_compare(node: ast.Compare, resolved: dict[str, JsonValue], negated: bool) -> str:
    pairs = list(zip([node.left, *node.comparators], node.ops, node.comparators, strict=False))  # one left over
    parts = [_describe_pair(left, op, right, resolved, negated) for left, op, right in pairs]
    if len(parts) == 1:
        return parts[0]
    return (" or " if negated else " and ").join(parts)


def _describe_pair(
    left: ast.expr, op: ast.cmpop, right: ast.expr, resolved: dict[str, JsonValue], negated: bool
) -> str:
    op_type = type(op)
    if negated:
        op_type = NEGATED_OP[op_type]
    if _is_literal(left) and not _is_literal(right) and op_type in MIRRORED_OP:
        left, right, op_type = right, left, MIRRORED_OP[op_type]
    subject = _subject(left)
    if op_type in (ast.Is, ast.IsNot) and _is_none(right):
        return f"{subject} is None" if op_type is ast.Is else f"{subject} is set (not None)"
    if op_type in (ast.In, ast.NotIn):
        return membership(subject, op_type, _operand(right, resolved), container_kind(right, resolved))
    return f"{subject} {OP_WORDS[op_type]} {_operand(right, resolved)}"


def _describe_call(node: ast.Call, negated: bool) -> str:
    name = _call_name(node)
    if name in ("isinstance", "issubclass") and len(node.args) == 2:
        kinds = _type_names(node.args[1])
        relation = "an instance" if name == "isinstance" else "a subclass"
        verb = "is not" if negated else "is"
        return f"`{unparse(node.args[0])}` {verb} {relation} of {' or '.join(f'`{k}`' for k in kinds)}"
    if name == "hasattr" and len(node.args) == 2 and isinstance(node.args[1], ast.Constant):
        verb = "has no" if negated else "has an"
        return f"`{unparse(node.args[0])}` {verb} attribute `{node.args[1].value!s}`"
    if name == "callable" and len(node.args) == 1:
        return f"`{unparse(node.args[0])}` is {'not ' if negated else ''}callable"
    return f"`{unparse(node)}` returns a {'false' if negated else 'true'} value"


def _subject(node: ast.expr) -> str:
    if isinstance(node, ast.Call) and _call_name(node) == "len" and len(node.args) == 1:
        return f"the length of `{unparse(node.args[0])}`"
    return f"`{unparse(node)}`"


def _operand(node: ast.expr, resolved: dict[str, JsonValue]) -> str:
    code = unparse(node)
    if code in resolved and isinstance(resolved[code], (list, dict)):
        return f"`{code}` ({count_phrase(resolved[code])})"
    if code in resolved:
        return f"`{code}` (= {python_repr(resolved[code])})"
    return code if _is_literal(node) else f"`{code}`"


def count_phrase(value: Any) -> str:
    """'11 values', '1 value', '3 keys' for a resolved container."""
    count = len(value)
    noun = "key" if isinstance(value, dict) else "value"
    return f"{count} {noun}{'' if count == 1 else 's'}"


def python_repr(value: Any, limit: int = 200) -> str:
    """A JSON value written as Python (`None`, `'text'`, `['a', 'b']`), cut at `limit` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _type_names(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Tuple):
        return [unparse(elt) for elt in node.elts]
    return [unparse(node)]


def _call_name(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _is_literal(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _is_literal(node.operand)
    return isinstance(node, ast.Constant)


def subjects(
    node: ast.expr,
    checks: tuple[str, ...] | list[str],
    resolved: dict[str, JsonValue],
    names: frozenset[str] = NO_NAMES,
) -> list[str]:
    """The inputs a condition tests, as code: `self.cache_implementation`, `path`, in order of appearance.

    An input is an attribute of `self`/`cls` or a plain name, named in the site's `checks`, not
    resolved to a constant, not only called (`is_torch_available()` is not an input), and not part
    of a test of the environment (`sys` in `sys.platform == "win32"`, a module's `WIN` flag).
    """
    excluded = {id(n.func) for n in ast.walk(node) if isinstance(n, ast.Call)} | inside(node, names)
    wanted = set(checks)
    found: dict[str, None] = {}
    for sub in ast.walk(node):
        code = _input_code(sub, excluded)
        if code and code not in resolved and code.rsplit(".", 1)[-1] in wanted:
            found.setdefault(code, None)
    return sorted(found, key=lambda code: _position(node, code))


def _input_code(node: ast.AST, excluded: set[int]) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
        return None if id(node) in excluded else f"{node.value.id}.{node.attr}"
    if isinstance(node, ast.Name) and node.id not in _BUILTIN_NAMES and node.id not in ("self", "cls"):
        return None if id(node) in excluded else node.id
    return None


def _position(root: ast.expr, code: str) -> tuple[int, int]:
    for sub in ast.walk(root):
        if isinstance(sub, (ast.Name, ast.Attribute)) and unparse(sub) == code:
            return (sub.lineno, sub.col_offset)
    return (0, 0)


def input_name(code: str) -> str:
    """`self.cache_implementation` -> `cache_implementation`; `path` -> `path`."""
    return code.rsplit(".", 1)[-1]


def membership_lists(
    node: ast.expr | None, resolved: dict[str, JsonValue], names: frozenset[str] = NO_NAMES
) -> list[MembershipList]:
    """Each `x in NAME` / `x not in NAME` test whose NAME was resolved to a list or dict, or that tests a collection
    written out of plain constants (`x not in ['left', 'right']`, NAME being then the collection as written).

    Tests of the environment are left aside.

    `role` is what the list is for the error: `allowed` when the error is raised for values
    outside it (`x not in NAME`, or `not (x in NAME)`), `forbidden` when raised for values in it.
    """
    out: list[MembershipList] = []
    environment = inside(node, names)
    for sub, negated in _atoms(node, False) if node is not None else []:
        if id(sub) in environment:
            continue
        sides = [sub.left, *sub.comparators]
        for i, op in enumerate(sub.ops):
            name = unparse(sides[i + 1])
            collection = resolved.get(name, _written_collection(sides[i + 1]))
            if isinstance(op, (ast.In, ast.NotIn)) and isinstance(collection, (list, dict)):
                outside = isinstance(op, ast.NotIn) != negated
                out.append(
                    {
                        "subject": unparse(sides[i]),
                        "name": name,
                        "role": "allowed" if outside else "forbidden",
                        "values": list(collection),
                    }
                )
    return out


def _written_collection(node: ast.expr) -> list[JsonValue] | None:
    """The items of a list, tuple or set display (the keys of a dict display) made only of plain constants."""
    items = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", None)
    if not isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)) or items is None:
        return None
    out: list[JsonValue] = []
    for item in items:
        value = item.value if isinstance(item, ast.Constant) else ...
        if not isinstance(value, (str, int, float, bool, type(None))):
            return None
        out.append(value)
    return out


def _atoms(node: ast.expr, negated: bool) -> list[tuple[ast.Compare, bool]]:
    """The comparisons of a condition, each with whether an odd number of `not` wraps it."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return _atoms(node.operand, not negated)
    if isinstance(node, ast.BoolOp):
        return [atom for value in node.values for atom in _atoms(value, negated)]
    return [(node, negated)] if isinstance(node, ast.Compare) else []
