"""A failing statement in plain lines for the command line: pure, so any front end can print the same words."""

from __future__ import annotations

from errdex.pages.statement_model import (
    NOT_PASSED,
    NOT_RESOLVED,
    Callers,
    FailingStatement,
    LocalBinding,
    NearbyCheck,
    NoneReason,
    Operation,
    Origin,
)

UNKNOWN = "unknown"
MAX_CALLERS_SHOWN = 5
_NONE_WORDS: dict[NoneReason, str] = {
    "none literal": "it is assigned `None`",
    "get call": "`.get(...)` / `.pop(..., None)` gives None when the key is missing",
    "getattr default": "`getattr(..., None)` gives None when the attribute is missing",
    "conditional": "a conditional expression with a `None` branch",
    "parameter default": "a parameter whose default is `None`",
    "regex match": "`re.match`/`search`/`fullmatch` give None when nothing matches",
}


def statement_lines(statement: FailingStatement) -> list[str]:
    """The record as plain text lines: each sentence says what the code says, with its file and line; what is not
    known is said so ("not resolved", "none is found"), never left out."""
    s = statement
    where = f"{s.file}:{s.line}"
    head = f"{s.exception or 'exception ' + UNKNOWN}: {s.message or UNKNOWN}"
    if not s.matches_release:
        return [
            head,
            f"{s.package} {s.version}, {where} reads: {s.text or '(an empty line)'}",
            f"The traceback printed: {s.printed}",
            "The lines differ: this frame did not run this release's code, so nothing here is analysed.",
        ]
    lines = [head, f"{s.package} {s.version}, {where}, {_scope(s)}:"]
    lines += ["    " + t for t in s.text.splitlines()]
    if s.start != s.end:
        lines.append(f"(the statement spans lines {s.start}-{s.end})")
    if s.same_line_in:
        lines.append(f"The same line is in the indexed versions {', '.join(s.same_line_in)}.")
    if s.explicit:
        lines.append("This statement raises the error itself (a `raise` or an `assert`): its error page explains it.")
    if not s.understood:
        lines.append("The message is not one whose operation errdex reads: which operation failed is not resolved.")
        return lines
    if not s.operations:
        lines.append("No part of this statement fits the message: which operation failed is not resolved.")
        return lines
    if len(s.operations) > 1:
        lines.append(f"{len(s.operations)} parts of the statement fit the message; none is picked:")
    for number, operation in enumerate(s.operations, 1):
        lines += _operation_lines(s, operation, number if len(s.operations) > 1 else None)
    return lines


def _scope(s: FailingStatement) -> str:
    if s.function is not None:
        return f"in `{s.function.qualname}` (def at line {s.function.line})"
    if s.in_class is not None:
        return f"in the body of class `{s.in_class}`"
    return "at module level"


def _operation_lines(s: FailingStatement, op: Operation, number: int | None) -> list[str]:
    mark = f"{number}. " if number is not None else ""
    typed = f"; the message says it is a `{op.value_type}`" if op.value_type else ""
    lines = [f"{mark}Failed at {s.file}:{op.line}: {_what(op)}{typed}."]
    lines += ["   " + t for t in _origin_lines(s, op.origin, op.expression)]
    if op.key is not None and op.key.origin is not None:
        lines.append(f"   The key `{op.key.source}`:")
        lines += ["     " + t for t in _origin_lines(s, op.key.origin, op.key.source)]
    lines += ["   " + t for t in _check_lines(s, op.checks, op.expression)]
    return lines


def _what(op: Operation) -> str:
    name = op.name or UNKNOWN
    if op.kind == "attribute":
        return f"attribute `{name}` of `{op.expression}`"
    if op.kind == "subscript":
        key = f" with key {op.name}" if op.name else ""
        return f"`{op.operation}`, a subscript of `{op.expression}`{key}"
    if op.kind == "iterate":
        inside = f" in `{op.operation}`" if op.operation != op.expression else ""
        return f"iterating over `{op.expression}`{inside}"
    if op.kind == "unpack":
        return f"unpacking `{op.expression}` into `{op.operation}`"
    on = f" on `{op.expression}`" if op.expression != op.operation else ""
    if op.kind == "operator":
        return f"operator `{name}` in `{op.operation}`{on}"
    if op.kind == "call":
        named = f" (the message names `{op.name}`)" if op.name else ""
        return f"the call `{op.operation}`{on}{named}"
    return f"the name `{op.expression}`"


def _origin_lines(s: FailingStatement, origin: Origin | None, expression: str) -> list[str]:
    if origin is None:
        return [f"`{expression}` is not read from a name (a call's result, a literal): its origin is not resolved."]
    scope = s.function.qualname if s.function else s.in_class or "the module"
    lines: list[str] = []
    parameter = origin.parameter
    if parameter is not None:
        default = f"default `{parameter.default}`" if parameter.default is not None else "no default"
        none = ": it is None when a call leaves it out" if parameter.may_be_none else ""
        lines.append(f"`{origin.root}` is a parameter of `{scope}` ({s.file}:{parameter.line}), {default}{none}.")
    lines += [_binding_line(s, origin.root, b) for b in origin.bindings]
    self_attribute = "." in origin.root
    if not origin.bindings and parameter is None and not self_attribute:
        said = f"`{origin.root}` is neither a parameter nor bound in `{scope}` before line {s.start}"
        if not origin.module_bindings:
            lines.append(f"{said}, nor bound at module level: where it comes from is not resolved.")
        else:
            lines.append(f"{said}; at module level:")
            lines += ["  " + _binding_line(s, origin.root, b) for b in origin.module_bindings]
    if self_attribute:
        lines += _assignment_lines(s, origin)
    if origin.callers is not None and s.function is not None:
        lines += _caller_lines(s, origin.callers, origin.root, s.function.qualname)
    return lines


def _binding_line(s: FailingStatement, root: str, b: LocalBinding) -> str:
    none = f" — may be None: {_NONE_WORDS[b.may_be_none]}" if b.may_be_none else ""
    if b.form in ("assign", "walrus"):
        return f"{s.file}:{b.line} binds `{root} = {b.source}`{none}."
    if b.form in ("loop", "comprehension", "lambda"):
        return f"{s.file}:{b.line} binds `{root}` in `{b.source}`."
    if b.form in ("unpacked", "augmented", "with"):
        return f"{s.file}:{b.line} binds `{root}` ({b.form}) from `{b.source}`."
    return f"{s.file}:{b.line} binds `{root}` ({b.form}): `{b.source}`."


def _assignment_lines(s: FailingStatement, origin: Origin) -> list[str]:
    if not origin.attribute_assignments:
        return [f"No assignment of `{origin.root}` is found in its class or its bases in {s.file}."]
    lines = [f"`{origin.root}` is assigned in the class ({s.file}):"]
    for a in origin.attribute_assignments:
        none = f" — may be None: {_NONE_WORDS[a.may_be_none]}" if a.may_be_none else ""
        lines.append(f"  line {a.line} in `{a.owner}`: `{origin.root} = {a.source}`{none}")
    return lines


def _caller_lines(s: FailingStatement, callers: Callers, parameter: str, function: str) -> list[str]:
    """The callers found, those passing a value first, at most MAX_CALLERS_SHOWN, with how many do what."""
    unseen = "; ".join(callers.not_followed) or "nothing"
    if not callers.found:
        return [f"No caller of `{function}` is found in {s.package} {s.version} (not followed: {unseen})."]
    passing = [c for c in callers.found if c.passes not in (NOT_PASSED, NOT_RESOLVED)]
    counts = [
        f"{len(passing)} pass `{parameter}`",
        f"{sum(c.passes == NOT_PASSED for c in callers.found)} leave its default",
        f"{sum(c.passes == NOT_RESOLVED for c in callers.found)} not resolved",
    ]
    cut = ", the search stopped at its limit" if callers.truncated else ""
    many = f"{len(callers.found)} caller{'s' if len(callers.found) > 1 else ''}"
    lines = [f"{many} of `{function}` in {s.package} {s.version}{cut}: {', '.join(counts)}:"]
    shown = [*passing, *(c for c in callers.found if c not in passing)][:MAX_CALLERS_SHOWN]
    for c in shown:
        lines.append(f"  {c.file}:{c.line} in `{c.function}`: `{c.call}` — `{parameter}`: {c.passes}")
    if len(shown) < len(callers.found):
        lines.append(f"  ... and {len(callers.found) - len(shown)} more")
    return lines


def _check_lines(s: FailingStatement, checks: tuple[NearbyCheck, ...], expression: str) -> list[str]:
    if not checks:
        return [
            f"No `if`/`assert`/`is None` check of `{expression}` (or what it is read from) is found before line"
            f" {s.start} in this scope."
        ]
    lines = [f"Checks of `{expression}` or what it is read from, before it:"]
    for c in checks:
        where = {"body": "; the statement is in its body", "else": "; the statement is in its else branch", None: ""}
        written = c.test if c.form == "comparison" else f"{c.form} {c.test}"
        lines.append(f"  {s.file}:{c.line} `{written}` (tests `{c.mentions}`){where[c.branch]}")
    return lines
