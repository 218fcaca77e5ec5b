"""Every binding of a module-level name, as alternatives with the conditions under which each holds.

A module often binds a name twice: a default, then a richer value under `if is_torch_available():`,
in a `try: import ...` body or its `except ImportError:` handler, under `if TYPE_CHECKING:` or a
platform or version test. Walking the module's statements in order gives what the name may be:
an unconditional binding replaces the alternatives before it; a conditional one adds "with <test>:
this value", the earlier ones then holding "otherwise". Only statements that may bind the name are
parsed (see `file.py`), so a module whose names are bound once costs nothing more.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass

from errdex.model import Condition, ConditionKind

MAX_ALTERNATIVES = 8  # a name bound under more conditions than this is left unknown
# what an augmented assignment at module level may bind (`X += [...]`); the superset a regex finds
BLOCK_TARGET = re.compile(r"^[ \t]*([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?(?:[-+|&*/%^@]|//|<<|>>|\*\*)?=(?!=)", re.M)
_AVAILABILITY = re.compile(r"available|installed|^has_|^HAS_|_AVAILABLE$|find_spec|find_loader", re.I)
_IMPORT_ERRORS = ("ImportError", "ModuleNotFoundError")


@dataclass(frozen=True, slots=True)
class Alternative:
    """One value a name may have: the expression bound (None: not known statically, or `imported`),
    the conditions it holds under, and its line."""

    conditions: tuple[Condition, ...]
    line: int
    node: ast.expr | None
    imported: bool = False  # bound by an import: its value is the imported name's


class TooMany(Exception):
    """More alternatives than MAX_ALTERNATIVES: the name is left unknown."""


def alternatives(statements: Iterable[ast.stmt], name: str, state: list[Alternative]) -> list[Alternative]:
    """The alternatives of `name` after the statements run, given those before (`state`, returned as is
    when none of them binds it)."""
    for stmt in statements:
        state = _after(stmt, name, state)
        if len(state) > MAX_ALTERNATIVES:
            raise TooMany(name)
    return state


def _after(stmt: ast.stmt, name: str, state: list[Alternative]) -> list[Alternative]:
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
        return _assigned(stmt, name, state)
    if isinstance(stmt, ast.AugAssign):
        if not (isinstance(stmt.target, ast.Name) and stmt.target.id == name):
            return state
        return [_augmented(a, stmt) for a in state] or [Alternative((), stmt.lineno, None)]
    if isinstance(stmt, ast.If):
        return _branches(stmt, name, state)
    if isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
        return _try(stmt, name, state)  # type: ignore[arg-type]  # TryStar has Try's fields
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        bound = any((alias.asname or alias.name.split(".", 1)[0]) == name for alias in stmt.names)
        return [Alternative((), stmt.lineno, None, imported=True)] if bound else state
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [Alternative((), stmt.lineno, None)] if stmt.name == name else state
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return alternatives(stmt.body, name, state)
    if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
        inside = alternatives([*stmt.body, *stmt.orelse], name, state)
        return state if inside is state else [Alternative((), stmt.lineno, None)]  # a loop's value: not known
    return state


def _assigned(stmt: ast.Assign | ast.AnnAssign, name: str, state: list[Alternative]) -> list[Alternative]:
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
    if stmt.value is None:
        return state
    if any(isinstance(t, ast.Name) and t.id == name for t in targets):
        return [Alternative((), stmt.lineno, stmt.value)]
    unpacked = (n for t in targets if isinstance(t, (ast.Tuple, ast.List)) for n in ast.walk(t))
    if any(isinstance(n, ast.Name) and n.id == name for n in unpacked):
        return [Alternative((), stmt.lineno, None)]
    return state


def _augmented(earlier: Alternative, stmt: ast.AugAssign) -> Alternative:
    """`X op= value` applied to one alternative: `earlier op value` (unknown stays unknown)."""
    if earlier.node is None:
        return Alternative(earlier.conditions, stmt.lineno, None)
    node = ast.BinOp(left=earlier.node, op=stmt.op, right=stmt.value)
    return Alternative(earlier.conditions, stmt.lineno, node)


def _branches(stmt: ast.If, name: str, state: list[Alternative]) -> list[Alternative]:
    yes = alternatives(stmt.body, name, state)
    no = alternatives(stmt.orelse, name, state)
    if yes is state and no is state:
        return state
    test, holds = stmt.test, True
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, holds = test.operand, not holds
    text = ast.unparse(test)
    kind = test_kind(test)
    return [*_under(yes, Condition(text, holds, "if", kind)), *_under(no, Condition(text, not holds, "if", kind))]


def _try(stmt: ast.Try, name: str, state: list[Alternative]) -> list[Alternative]:
    body = alternatives([*stmt.body, *stmt.orelse], name, state)
    handled = [(h, alternatives(h.body, name, state)) for h in stmt.handlers]
    if body is state and all(after is state for _, after in handled):
        return alternatives(stmt.finalbody, name, state)
    caught = [_caught(h) for h in stmt.handlers]
    out = list(body)
    for text in caught:
        out = _under(out, Condition(text, False, "except", _except_kind(text)))
    for text, (_, after) in zip(caught, handled, strict=True):
        out.extend(_under(after, Condition(text, True, "except", _except_kind(text))))
    return alternatives(stmt.finalbody, name, out)


def _caught(handler: ast.ExceptHandler) -> str:
    return ast.unparse(handler.type) if handler.type is not None else "an exception"


def _except_kind(caught: str) -> ConditionKind:
    return "available" if any(e in caught for e in _IMPORT_ERRORS) else "other"


def _under(found: list[Alternative], condition: Condition) -> list[Alternative]:
    return [Alternative((condition, *a.conditions), a.line, a.node, a.imported) for a in found]


def test_kind(test: ast.expr) -> ConditionKind:
    """What an `if` test tests: an optional dependency's presence, type checking, the platform, Python's version."""
    names = [
        n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(test) if isinstance(n, (ast.Name, ast.Attribute))
    ]
    if names and names[0] == "TYPE_CHECKING" or isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING":
        return "type_checking"
    text = ast.unparse(test)
    if "sys.platform" in text or "os.name" in text or "platform." in text:
        return "platform"
    if "version_info" in text or re.search(r"\bPY\d|\bPY_?\d|version", text):
        return "version"
    if any(_AVAILABILITY.search(n) for n in names):
        return "available"
    return "other"


def bound_names(text: str) -> list[str]:
    """The names a compound statement's text may bind (a superset: a keyword argument on its own line too)."""
    return list(dict.fromkeys(BLOCK_TARGET.findall(text)))
