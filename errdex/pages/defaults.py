"""Calls that cannot raise an error: the literals they pass and the defaults of what they leave out pass its check.

`Dataset.batch` calls `self.map(...)` without `keep_in_memory`; when the check is
`keep_in_memory and cache_file_name is not None`, that default makes it certainly false, so that
call is no way to this error, whatever else it passes; nor is `_check(obj_type="estimator")` when
the check refuses every other type. Decided by the evaluator on the call as written: a call with
`*args`/`**kwargs`, a value that is not a literal, or a check that reads anything but the
function's parameters decides nothing.
"""

from __future__ import annotations

import ast
from typing import Any

from errdex.model import JsonValue
from errdex.pages.evaluate import truth
from errdex.pages.model import Caller, CheckedInput
from errdex.pages.source import FunctionNode, parameter_defaults, parameters


def passes_by_default(
    function: FunctionNode,
    condition: ast.expr,
    inputs: list[CheckedInput],
    resolved: dict[str, JsonValue],
    call: Caller,
) -> bool:
    """Whether what `call` gives the checked parameters — literals as written, defaults for those it leaves out —
    makes the check certainly false, whatever the other arguments hold (those are unknown to the evaluator)."""
    checked = {item["code"] for item in inputs}
    if not checked or any(item["kind"] != "parameter" for item in inputs):
        return False
    passed = _passed(function, call["call"])
    if passed is None:
        return False
    defaults = _defaults(function)
    known = {name: defaults[name] for name in checked - passed.keys() if name in defaults}
    known.update({name: value for name, value in passed.items() if name in checked and value is not _NOT_LITERAL})
    return bool(known) and truth(condition, {**resolved, **known}) is False


_NOT_LITERAL = object()  # an argument whose value is not written as a literal


def _passed(function: FunctionNode, text: str) -> dict[str, Any] | None:
    """The parameters a call as written passes, each with its literal value (or _NOT_LITERAL); None when that
    cannot be told (unpacking, not a call, a call cut short for the page: a whole call ends with `)`)."""
    if not text.rstrip().endswith(")"):
        return None
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if not isinstance(node, ast.Call) or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    if any(k.arg is None for k in node.keywords):
        return None
    named = [p.arg for p in parameters(function)]
    if len(node.args) > len(named):
        return None
    given = [*zip(named, node.args, strict=False), *((k.arg, k.value) for k in node.keywords if k.arg is not None)]
    return {name: _literal(value) for name, value in given}


def _literal(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, RecursionError):
        return _NOT_LITERAL


def _defaults(function: FunctionNode) -> dict[str, Any]:
    """Each parameter's default when it is a literal."""
    found = {name: _literal(node) for name, node in parameter_defaults(function).items()}
    return {name: value for name, value in found.items() if value is not _NOT_LITERAL}
