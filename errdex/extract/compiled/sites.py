"""What every compiled walker says of a raise it found: the enclosing function, the checks that guard it,
and the site record itself."""

from __future__ import annotations

import re
from collections.abc import Callable

from errdex.extract.compiled.grammar import Node, end_line, line, text
from errdex.extract.records import RawSite, Template, Values
from errdex.extract.templates import Parts, hole_sources, render
from errdex.extract.visitor import MAX_TEMPLATE
from errdex.model import Kind

_COMMENT = re.compile(r'"(?:\\.|[^"\\\n])*"|/\*.*?\*/|//[^\n]*', re.DOTALL)  # strings first: `"http://"` stays
_CALLED = re.compile(r"[A-Za-z_][\w:.]*!?\((?=.*\)$)")
NO_TEXT = "the message is built at run time: no literal text of it is in the source"


def squeezed(node: Node) -> str:
    """A node's source on one line, as the preprocessor's `#` writes it."""
    return " ".join(text(node).split())


def unwrapped(condition: Node) -> str:
    """A condition's source without its comments and the parentheses its `if` needs."""
    written = " ".join(_COMMENT.sub(_uncommented, text(condition)).split())
    while written.startswith("(") and written.endswith(")") and _balanced(written[1:-1]):
        written = written[1:-1].strip()
    return written


def _balanced(inner: str) -> bool:
    depth = 0
    for char in inner:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def _uncommented(found: re.Match[str]) -> str:
    return found.group() if found.group().startswith('"') else " "


def negated(condition: str) -> str:
    if condition.startswith("!(") and condition.endswith(")") and _balanced(condition[2:-1]):
        return condition[2:-1]
    called = _CALLED.match(condition)
    if called is not None and _balanced(condition[called.end() : -1]):
        return f"!{condition}"  # one call (`matches!(...)`, `f(x)`) needs no parentheses
    inner = _CALLED.match(condition[1:]) if condition.startswith("!") else None
    if inner is not None and _balanced(condition[1 + inner.end() : -1]):
        return condition[1:]  # `!ssize.empty()` fails when `ssize.empty()`
    return f"!({condition})"


def guards(node: Node, stop: tuple[str, ...], branch: Callable[[Node, Node], str | None]) -> tuple[str, ...]:
    """The conditions that must hold for `node` to run, outermost first, up to the enclosing `stop` node:
    `branch(ancestor, child)` says what being in that child of that ancestor requires (None: nothing)."""
    found: list[str] = []
    child, parent = node, node.parent
    while parent is not None and parent.type not in stop:
        needed = branch(parent, child)
        if needed:
            found.append(needed)
        child, parent = parent, parent.parent
    return tuple(reversed(found))


def if_branch(conditional: Node, child: Node, test: Callable[[Node], str]) -> str | None:
    """What being inside `child` of an `if` (C's statement, Rust's expression) requires: its test in the body,
    negated in the `else`; nothing inside the test itself."""
    condition = conditional.child_by_field_name("condition")
    if condition is None or child == condition:
        return None
    if child == conditional.child_by_field_name("consequence"):
        return test(condition)
    if child == conditional.child_by_field_name("alternative"):
        return negated(test(condition))
    return None


def enclosing(node: Node, kinds: tuple[str, ...]) -> Node | None:
    parent = node.parent
    while parent is not None and parent.type not in kinds:
        parent = parent.parent
    return parent


def raw_site(
    node: Node,
    kind: Kind,
    exception: str | None,
    parts: Parts | None,
    function: str,
    clauses: tuple[str, ...],
    message_source: str,
    buffer: str | None = None,
) -> RawSite:
    """The site of one compiled raise, its template made from `parts` (None: the message is not in the source);
    `buffer` names the error's field a message is written into, for Python code to raise later."""
    rendered = render(parts) if parts is not None else None
    too_long = rendered is not None and len(rendered) > MAX_TEMPLATE
    templates = (Template(rendered, hole_sources(parts or ())),) if rendered is not None and not too_long else ()
    return RawSite(
        kind=kind,
        exception=exception,
        templates=templates,
        reason=None if templates else f"message is longer than {MAX_TEMPLATE:,} characters" if too_long else NO_TEXT,
        line=line(node),
        end_line=end_line(node),
        function=function,
        owner=None,
        clauses=clauses,
        values=Values(),
        message_source=message_source[:MAX_TEMPLATE],
        buffer=buffer,
    )
