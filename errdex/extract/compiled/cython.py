"""The raises and warnings of Cython sources (`.pyx`, `.pxd`, `.pxi` and their Tempita templates).

Cython's declarations are not Python, but its `raise` and `warnings.warn(...)` statements are: each is cut
out by its lines, parsed alone, and its message made by the same template code as a Python module's. The
function and the `if` tests around it are read from the lines above it, by indentation."""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Iterator
from typing import Any

from errdex.extract.records import RawSite, Template, Values
from errdex.extract.resolve import Unresolved
from errdex.extract.templates import hole_sources, render, templates
from errdex.extract.visitor import MAX_TEMPLATE
from errdex.model import Kind

_STARTS = re.compile(r"^([ \t]*)(raise[ \t]+[A-Za-z_]|warnings\.warn\()")
_DEFINES = re.compile(
    r"^([ \t]*)(?:(?:async[ \t]+)?def|cpdef|cdef(?:[ \t]+inline)?)[ \t]+(?:[\w\[\]\.\*,& \t]+?[ \t\*&]+)?(\w+)[ \t]*\("
)
_CLASS = re.compile(r"^([ \t]*)(?:cdef[ \t]+|cpdef[ \t]+)?class[ \t]+(\w+)")
_TEST = re.compile(r"^([ \t]*)(if|elif|while)[ \t]+(.+?):[ \t]*(?:#.*)?$", re.DOTALL)
_MAX_LINES = 40
MAX_STATEMENTS = 10_000  # `raise` and `warnings.warn` lines read per file
NO_TEXT = "the message is built at run time: no literal text of it is in the source"


class _LocalNames:
    """A name a Cython raise shows, bound earlier in its function by plain Python lines (`message = f"..."`,
    `message += ...`): its values, one per branch that adds to it; any other name resolves to nothing."""

    def __init__(self, lines: list[str], first: int, last: int) -> None:
        self.lines, self.first, self.last = lines, first, last

    def alternatives(self, name: str) -> list[ast.expr] | None:
        binds = re.compile(rf"^([ \t]*){re.escape(name)}[ \t]*(\+?)=[^=]")
        current: list[ast.expr] = []
        level = 0
        branches: list[ast.expr] = []
        for number in range(self.first, self.last):
            found = binds.match(self.lines[number])
            statement = _statement(self.lines, number)[0] if found is not None else None
            if found is None or statement is None:
                continue
            value = statement.value if isinstance(statement, ast.Assign | ast.AugAssign) else None
            if value is None:
                continue
            indent = len(found.group(1).expandtabs())
            if not found.group(2):
                current, level, branches = [value], indent, []
            elif indent > level and current:  # one branch of an if/else adds this
                branches += [ast.BinOp(c, ast.Add(), value) for c in current]
            else:
                current = [ast.BinOp(c, ast.Add(), value) for c in (branches or current)]
                branches = []
        return (branches or current) or None

    def constant(self, name: str) -> Any:
        raise Unresolved(name)


def cython_sites(text: str) -> Iterator[RawSite]:
    lines = text.split("\n")
    tried = 0
    for number, line in enumerate(lines):
        start = _STARTS.match(line)
        if start is None:
            continue
        tried += 1
        if tried > MAX_STATEMENTS:  # a file of nothing but `raise` lines that never parse costs no more than this
            return
        statement, last = _statement(lines, number)
        if statement is None:
            continue
        site = _site(statement, lines, number, last, len(start.group(1).expandtabs()))
        if site is not None:
            yield site


def _statement(lines: list[str], first: int) -> tuple[ast.stmt | None, int]:
    """The statement starting at line `first` and its last line, when some lines from there parse as one."""
    for last in range(first, min(first + _MAX_LINES, len(lines))):
        try:
            body = ast.parse(textwrap.dedent("\n".join(lines[first : last + 1]))).body
        except (SyntaxError, ValueError):
            continue
        except (RecursionError, MemoryError):
            return None, first
        return (body[0] if len(body) == 1 else None), last
    return None, first


def _site(statement: ast.stmt, lines: list[str], number: int, last: int, indent: int) -> RawSite | None:
    kind, exception, message = _parts(statement)
    if kind is None:
        return None
    made = (
        templates(message, _LocalNames(lines, _function_start(lines, number, indent), number))
        if message is not None
        else []
    )
    rendered_all = [(rendered, parts) for parts in made if (rendered := render(parts)) is not None]
    too_long = any(len(rendered) > MAX_TEMPLATE for rendered, _ in rendered_all)
    found = () if too_long else tuple(Template(rendered, hole_sources(parts)) for rendered, parts in rendered_all)
    function, clauses = _context(lines, number, indent)
    return RawSite(
        kind=kind,
        exception=exception,
        templates=found,
        reason=None if found else f"message is longer than {MAX_TEMPLATE:,} characters" if too_long else NO_TEXT,
        line=number + 1,
        end_line=last + 1,
        function=function,
        owner=None,
        clauses=clauses,
        values=Values(),
        message_source=ast.unparse(message)[:MAX_TEMPLATE] if message is not None else "",
    )


def _parts(statement: ast.stmt) -> tuple[Kind | None, str | None, ast.expr | None]:
    """The kind, class and message expression of a `raise` or `warnings.warn(...)` statement."""
    if isinstance(statement, ast.Raise) and statement.exc is not None:
        exc = statement.exc
        if isinstance(exc, ast.Call):
            return "error", ast.unparse(exc.func), exc.args[0] if exc.args else None
        return "error", ast.unparse(exc), None
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        call = statement.value
        category = (
            call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "category"), None)
        )
        return (
            "warning",
            ast.unparse(category) if category is not None else "UserWarning",
            (call.args[0] if call.args else None),
        )
    return None, None, None


def _function_start(lines: list[str], number: int, indent: int) -> int:
    """The line after the `def` (or `cdef`, `cpdef`) that line `number` is in; 0 at module level."""
    for at in range(number - 1, -1, -1):
        line = lines[at]
        level = len(line[: len(line) - len(line.lstrip(" \t"))].expandtabs())
        if line.strip() and level < indent and _DEFINES.match(line):
            return at + 1
    return 0


def _context(lines: list[str], number: int, indent: int) -> tuple[str, tuple[str, ...]]:
    """The qualified name of the function around line `number` and the tests that must hold there, outermost
    first: each `if`/`elif` above it (a header may span lines), and for an `elif` or `else` branch the tests of
    the branches before it, negated."""
    names: list[str] = []
    tests: list[str] = []
    inside_function = False
    at = number - 1
    while at >= 0:
        line = lines[at]
        level = _level(line)
        if not line.strip() or line.lstrip().startswith("#") or level >= indent:
            at -= 1
            continue
        first = _header_start(lines, at, level)
        header = _joined_header(lines, first)
        indent, at = _level(lines[first]), first - 1
        defined = _DEFINES.match(lines[first]) or _CLASS.match(lines[first])
        if defined is not None:
            names.append(defined.group(2))
            inside_function = True
        elif not inside_function:
            tests.extend(reversed(_branch_tests(lines, first, header)))
        if indent == 0:
            break
    return (".".join(reversed(names)) or "<module>"), tuple(reversed(tests))


_HEADER = re.compile(r"[ \t]*(?:if|elif|else|while|for|with|try|except|finally|def|cdef|cpdef|class|async)\b")


def _level(line: str) -> int:
    return len(line[: len(line) - len(line.lstrip(" \t"))].expandtabs())


def _header_start(lines: list[str], at: int, level: int) -> int:
    """The first line of the block header that line `at` ends (an `if (a or` / `b):` spans lines)."""
    if _HEADER.match(lines[at]):
        return at
    for first in range(at - 1, max(at - _MAX_LINES, -1), -1):
        if _HEADER.match(lines[first]) and _level(lines[first]) <= level:
            return first
    return at


def _branch_tests(lines: list[str], first: int, header: str) -> list[str]:
    """What entering a branch requires: its own test and, for `elif`/`else`, the earlier branches' negated."""
    found = _TEST.match(header)
    own = [found.group(3)] if found is not None and found.group(2) != "while" else []
    if not header.lstrip().startswith(("elif", "else")):
        return own
    earlier: list[str] = []
    level = _level(lines[first])
    for at in range(first - 1, -1, -1):
        line = lines[at]
        if not line.strip() or _level(line) > level:
            continue
        if _level(line) < level:
            break
        start = _TEST.match(_joined_header(lines, at))
        if start is None or start.group(2) == "while":
            break
        earlier.insert(0, f"not ({start.group(3)})")
        if start.group(2) == "if":
            break
    return [*earlier, *own]


def _joined_header(lines: list[str], first: int) -> str:
    """A header starting at line `first`, its lines joined up to the one that ends in `:`."""
    parts = []
    for line in lines[first : first + _MAX_LINES]:
        parts.append(line.strip())
        if line.rstrip().endswith(":"):
            break
    return " ".join(parts)
