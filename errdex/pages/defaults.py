"""Calls that cannot raise an error: the parameters its check reads that they leave out have defaults that pass it.

`Dataset.batch` calls `self.map(...)` without `keep_in_memory`; when the check is
`keep_in_memory and cache_file_name is not None`, that default makes it certainly false, so that
call is no way to this error, whatever else it passes. Decided by the evaluator on the call as
written: a call with `*args`/`**kwargs`, a default that is not a literal, or a check that reads
anything but the function's parameters decides nothing.
"""

from __future__ import annotations

import ast
from typing import Any

from errdex.model import JsonValue
from errdex.pages.evaluate import truth
from errdex.pages.model import Caller, CheckedInput
from errdex.pages.source import FunctionNode, parameters


def passes_by_default(
    function: FunctionNode,
    condition: ast.expr,
    inputs: list[CheckedInput],
    resolved: dict[str, JsonValue],
    call: Caller,
) -> bool:
    """Whether the defaults of the checked parameters `call` does not pass make the check certainly false, whatever
    the parameters it passes hold (those are unknown to the evaluator)."""
    checked = {item["code"] for item in inputs}
    if not checked or any(item["kind"] != "parameter" for item in inputs):
        return False
    passed = _passed(function, call["call"])
    if passed is None:
        return False
    defaults = _defaults(function)
    left = {name: defaults[name] for name in checked - passed if name in defaults}
    return bool(left) and truth(condition, {**resolved, **left}) is False


def _passed(function: FunctionNode, text: str) -> set[str] | None:
    """The parameters a call as written passes, or None when that cannot be told (unpacking, not a call, a
    call cut short for the page: a whole call's text ends with its closing parenthesis)."""
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
    positional = named[: len(node.args)] if len(node.args) <= len(named) else None
    if positional is None:
        return None
    return {*positional, *(k.arg for k in node.keywords if k.arg is not None)}


def _defaults(function: FunctionNode) -> dict[str, Any]:
    """Each parameter's default when it is a literal."""
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    pairs = [
        *zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True),
        *((a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None),
    ]
    out: dict[str, Any] = {}
    for arg, default in pairs:
        try:
            out[arg.arg] = ast.literal_eval(default)
        except (ValueError, SyntaxError, TypeError, RecursionError):
            continue
    return out
