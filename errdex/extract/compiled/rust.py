"""The raises of Rust sources: PyO3's exceptions (`PyValueError::new_err`, `PyErr::new::<T, _>`), polars'
`polars_bail!`/`polars_ensure!`/`polars_err!`, and the messages an error type writes for itself (its
`Display`, or a message function's table such as pydantic-core's error types)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from errdex.extract.compiled.grammar import Node, literal, matches, parser, text
from errdex.extract.compiled.messages import literal_parts, rust_format
from errdex.extract.compiled.raisers import POLARS_KINDS, POLARS_MACROS, pyo3_exception
from errdex.extract.compiled.sites import enclosing, guards, if_branch, negated, raw_site, squeezed, unwrapped
from errdex.extract.records import RawSite
from errdex.extract.templates import Parts, render

_MENTIONS = re.compile(r"\bnew_err\b|PyErr::new\b|\bpolars_(?:bail|ensure|err)!|\bfn \w*(?:message|fmt)\w*\b")
_FUNCTIONS = ("function_item",)
_ERROR_TYPES = ("Error", "Err", "Exception")  # how Rust names its error types (`TokenError`, `PolarsError`)
_MACROS = (
    "((macro_invocation macro: (identifier) @name (token_tree) @tokens) @call (#any-of? @name "
    + " ".join(f'"{m}"' for m in (*POLARS_MACROS, "write", "writeln"))
    + "))"
)
_NEW_ERR = (
    "((call_expression function: (scoped_identifier path: (_) @type name: (identifier) @method)"
    ' arguments: (arguments) @arguments) @call (#eq? @method "new_err"))'
)
_PYERR_NEW = (
    "((call_expression function: (generic_function function: (_) @function type_arguments: (type_arguments) @types)"
    ' arguments: (arguments) @arguments) @call (#match? @function "PyErr::new$"))'
)
_TABLE_ARMS = "(match_arm pattern: (_) @pattern value: [(string_literal) (raw_string_literal)] @value) @arm"


def rust_sites(text_: str) -> Iterator[RawSite]:
    """The raise sites of one Rust source."""
    if not _MENTIONS.search(text_):
        return
    root = parser("rust").parse(text_.encode("utf-8", "surrogatepass")).root_node
    for captured in matches("rust", _MACROS, root):
        site = _macro_site(captured["call"][0], text(captured["name"][0]), _items(captured["tokens"][0]))
        if site is not None:
            yield site
    for captured in matches("rust", _NEW_ERR, root):
        call, written = captured["call"][0], text(captured["type"][0])
        if written == "Self":  # `Self::new_err(...)` in the `impl` of an exception type
            written = function_name(call).rpartition("::")[0] or written
        yield _new_err(call, pyo3_exception(written), captured["arguments"][0])
    for captured in matches("rust", _PYERR_NEW, root):
        types = [c for c in captured["types"][0].named_children]
        exception = pyo3_exception(text(types[0])) if types else None
        yield _new_err(captured["call"][0], exception, captured["arguments"][0])
    for captured in matches("rust", _TABLE_ARMS, root):
        site = _table_arm(captured["arm"][0], captured["pattern"][0], captured["value"][0])
        if site is not None:
            yield site


def _items(tokens: Node) -> list[list[Node]]:
    """A macro's arguments: its token tree's tokens split at its top-level commas."""
    items: list[list[Node]] = [[]]
    for child in tokens.children[1:-1]:  # inside the delimiters
        if child.type == ",":
            items.append([])
        else:
            items[-1].append(child)
    return [item for item in items if item]


def _written(item: list[Node]) -> str:
    return " ".join(squeezed(node) for node in item).replace(" . ", ".").replace(" (", "(")


def _format_of(item: list[Node], rest: list[list[Node]]) -> Parts | None:
    """The template of a `"format", args...` pair of macro arguments."""
    if len(item) != 1 or literal(item[0]) is None:
        return None
    return rust_format(literal(item[0]) or "", [_written(i) for i in rest])


def _macro_site(call: Node, name: str, items: list[list[Node]]) -> RawSite | None:
    function = function_name(call)
    clauses = guards(call, _FUNCTIONS, branch)
    if name in ("write", "writeln"):  # an error type's `Display`: `write!(f, "...", ...)` in `fn fmt`
        owner, _, method = function.rpartition("::")
        if method != "fmt" or not owner.endswith(_ERROR_TYPES) or len(items) < 2:
            return None  # only an error type's `Display` writes an error's message (a URL's writes a URL)
        parts = _format_of(items[1], items[2:])
        if parts is None or render(parts) is None:
            return None  # a `Display` that only forwards another value's text writes no message of its own
        return raw_site(call, "error", None, parts, function, clauses, _source(items[1:]))
    if name == "polars_ensure":
        if not items:
            return None
        clauses = (*clauses, negated(_written(items[0])))
        items = items[1:]
    if not items or len(items[0]) < 3 or items[0][1].type != ":" or items[0][0].type != "identifier":
        return None  # the shorthand forms (`polars_bail!(oob = i, len)`) write their messages elsewhere
    kind = text(items[0][0])
    exception = POLARS_KINDS.get(kind, f"polars.exceptions.{kind}")
    message = [items[0][2:], *items[1:]]
    return raw_site(call, "error", exception, _format_of(message[0], message[1:]), function, clauses, _source(message))


def _source(items: list[list[Node]]) -> str:
    return ", ".join(_written(item) for item in items)


def _new_err(call: Node, exception: str | None, arguments: Node) -> RawSite:
    given = [c for c in arguments.named_children if c.type not in ("line_comment", "block_comment")]
    parts: Parts | None = None
    if given:
        argument = given[-1] if given[0].type == "identifier" and given[0].text == b"py" else given[0]
        parts = _message_of(argument)
    source = ", ".join(squeezed(g) for g in given)
    return raw_site(call, "error", exception, parts, function_name(call), guards(call, _FUNCTIONS, branch), source)


def _message_of(node: Node) -> Parts:
    """A message argument: a literal, `format!(...)`, or `(...).to_string()` of either."""
    if node.type == "macro_invocation" and text(node.child_by_field_name("macro") or node) == "format":
        tokens = next((c for c in node.children if c.type == "token_tree"), None)
        items = _items(tokens) if tokens is not None else []
        if items:
            found = _format_of(items[0], items[1:])
            if found is not None:
                return found
    return literal_parts(node)


def _table_arm(arm: Node, pattern: Node, value: Node) -> RawSite | None:
    """A match arm giving an error type's message: only in a function named for messages (`message_template`)."""
    function = function_name(arm)
    if "message" not in function.rsplit("::", 1)[-1]:
        return None
    parts = rust_format(literal(value) or "", [])
    clause = f"matches!(self, {squeezed(pattern)})"
    return raw_site(value, "error", None, parts, function, (*guards(arm, _FUNCTIONS, branch), clause), squeezed(value))


def branch(ancestor: Node, child: Node) -> str | None:
    """What being inside `child` of `ancestor` requires: an `if`'s test (or its negation in the `else`), a
    `let ... else`'s failed pattern, a `match` arm's pattern, or the `Option`/`Result` a closure handles."""
    kind = ancestor.type
    if kind == "if_expression":
        return if_branch(ancestor, child, _if_test)
    if kind == "let_declaration" and child == ancestor.child_by_field_name("alternative"):
        return negated(_let_test(ancestor))
    if kind == "match_arm" and child == ancestor.child_by_field_name("value"):
        return _arm_test(ancestor)
    if kind == "closure_expression" and child == ancestor.child_by_field_name("body"):
        return _closure_test(ancestor)
    return None


def _arm_test(arm: Node) -> str | None:
    """When a `match` arm runs: the arms before it did not match, and its own pattern does (a pattern that binds
    anything, `x` or `_`, adds nothing of its own)."""
    matched = enclosing(arm, ("match_expression",))
    scrutinee = matched.child_by_field_name("value") if matched is not None else None
    if scrutinee is None or arm.parent is None:
        return None
    value = squeezed(scrutinee)
    tests = []
    for earlier in arm.parent.named_children:
        if earlier == arm:
            break
        pattern = earlier.child_by_field_name("pattern") if earlier.type == "match_arm" else None
        if pattern is not None:
            tests.append(f"!matches!({value}, {squeezed(pattern)})")
    pattern = arm.child_by_field_name("pattern")
    if pattern is not None and not _binds_anything(pattern):
        tests.append(f"matches!({value}, {squeezed(pattern)})")
    return " && ".join(tests) or None


def _binds_anything(pattern: Node) -> bool:
    """A pattern every value matches: `_`, or a bare name with no `if` guard."""
    written = squeezed(pattern)
    inner = pattern.named_children
    return written == "_" or (len(inner) == 1 and inner[0].type == "identifier" and squeezed(inner[0]) == written)


def _if_test(condition: Node) -> str:
    return _let_test(condition) if condition.type == "let_condition" else unwrapped(condition)


def _let_test(node: Node) -> str:
    """`let PATTERN = VALUE` as the test it is: `matches!(VALUE, PATTERN)`."""
    pattern, value = node.child_by_field_name("pattern"), node.child_by_field_name("value")
    if pattern is None or value is None:
        return squeezed(node)
    return f"matches!({squeezed(value)}, {squeezed(pattern)})"


_HANDLED = {"ok_or_else": "None", "map_err": "Err(_)"}  # the closure runs on this value only


def _closure_test(closure: Node) -> str | None:
    """When a closure passed to a method of an `Option` or `Result` runs: `.ok_or_else(|| ...)` on `None`."""
    arguments = closure.parent
    call = arguments.parent if arguments is not None else None
    called = call.child_by_field_name("function") if call is not None else None
    if called is None or called.type != "field_expression":
        return None
    method, receiver = called.child_by_field_name("field"), called.child_by_field_name("value")
    if method is None or receiver is None:
        return None
    handled = _HANDLED.get(text(method))
    if handled is None:
        return f"{squeezed(receiver)}.{text(method)}(...) calls the closure"
    return f"matches!({squeezed(receiver)}, {handled})"


def function_name(node: Node) -> str:
    """The enclosing `fn`'s name, with the type of the `impl` it is in: `ErrorType::message_template_python`."""
    function = enclosing(node, ("function_item",))
    if function is None:
        return "<file>"
    name = text(function.child_by_field_name("name") or function)
    owner = enclosing(function, ("impl_item",))
    owner_type = owner.child_by_field_name("type") if owner is not None else None
    if owner_type is None:
        return name
    return f"{text(owner_type).split('<', 1)[0]}::{name}"
