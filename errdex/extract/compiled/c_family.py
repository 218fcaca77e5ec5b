"""The raises of C and C++ sources: CPython's C API, numpy's, torch's and OpenCV's macros, pybind11's
failures and C++ `throw`s, read with tree-sitter's C and C++ grammars."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from errdex.extract.compiled.grammar import Node, literal, matches, parser, text
from errdex.extract.compiled.messages import joined, literal_parts, printf, rust_format
from errdex.extract.compiled.raisers import C_RAISERS, RETHROWN, Raiser, python_exception
from errdex.extract.compiled.sites import enclosing, guards, negated, raw_site, squeezed, unwrapped
from errdex.extract.records import RawSite
from errdex.extract.templates import Hole, Parts, render
from errdex.model import Language

_FUNCTIONS = ("function_definition",)
_CLASSES = ("class_specifier", "struct_specifier")
_CALLS = (
    "((call_expression function: (identifier) @name arguments: (argument_list) @arguments) @call"
    " (#any-of? @name " + " ".join(f'"{name}"' for name in C_RAISERS) + "))"
)
_THROWS = "(throw_statement (call_expression function: (_) @name arguments: (argument_list) @arguments) @call)"
_ERROR_BUFFER = re.compile(r"err|msg|message", re.IGNORECASE)
_OPENCV_CHECKS = {"EQ": "==", "NE": "!=", "LT": "<", "LE": "<=", "GT": ">", "GE": ">="}


@cache
def _mentions(language: Language) -> re.Pattern[str]:
    """Whether a file can hold a raise at all: it names a raiser (or throws), checked before it is parsed."""
    names = sorted(C_RAISERS, key=len, reverse=True)
    extra = [r"\bthrow\b"] if language == "cpp" else []
    return re.compile("|".join([r"\b(?:" + "|".join(map(re.escape, names)) + r")\s*\(", *extra]))


def c_sites(text_: str, language: Language) -> Iterator[RawSite]:
    """The raise sites of one C or C++ source."""
    if not _mentions(language).search(text_):
        return
    root = parser(language).parse(text_.encode("utf-8", "surrogatepass")).root_node
    for captured in matches(language, _CALLS, root):
        raiser = C_RAISERS[text(captured["name"][0])]
        site = _macro_site(captured["call"][0], raiser, _arguments(captured["arguments"][0]))
        if site is not None:
            yield site
    if language == "cpp":
        for captured in matches(language, _THROWS, root):
            thrown = text(captured["name"][0])
            if thrown.rsplit("::", 1)[-1] not in RETHROWN:
                yield _throw_site(captured["call"][0], thrown, _arguments(captured["arguments"][0]))


def _arguments(node: Node) -> list[Node]:
    return [child for child in node.named_children if child.type != "comment"]


def _macro_site(call: Node, raiser: Raiser, arguments: list[Node]) -> RawSite | None:
    if raiser.buffer_arg is not None and (
        raiser.buffer_arg >= len(arguments) or not _ERROR_BUFFER.search(text(arguments[raiser.buffer_arg]))
    ):
        return None
    function = function_name(call)
    clauses = guards(call, _FUNCTIONS, branch)
    exception = raiser.exception
    if raiser.exception_arg is not None:
        if raiser.exception_arg >= len(arguments):
            return None
        exception = python_exception(text(arguments[raiser.exception_arg]))
    if raiser.condition_arg is not None:
        if raiser.condition_arg >= len(arguments):
            return None
        clauses = (*clauses, negated(squeezed(arguments[raiser.condition_arg])))
    parts = _message(raiser, arguments, function)
    if raiser.buffer_arg is not None and (parts is None or render(parts) is None):
        return None  # a buffer filled from other text: no message of its own
    shown_args = arguments[raiser.message_arg :] if raiser.form != "cv_assert" else arguments
    return raw_site(call, raiser.kind, exception, parts, function, clauses, ", ".join(squeezed(a) for a in shown_args))


def _message(raiser: Raiser, arguments: list[Node], function: str) -> Parts | None:
    given = arguments[raiser.message_arg :]
    short = function.rsplit("::", 1)[-1]
    where: Parts = (" in function '", Hole(), f"{short}'")  # MSVC writes `cv::resize` where gcc writes `resize`
    if raiser.form == "cv_assert":
        return (Hole(), "error: (-215:Assertion failed) ", squeezed(arguments[0]), *where)
    if raiser.form == "cv_error":
        if not given:
            return None
        return (Hole(), "error: (", Hole(), ") ", *_opencv_message(given[0]), *where)
    if raiser.form == "cv_check":
        if not given:
            return None
        test = _OPENCV_CHECKS.get(raiser.name.removeprefix("CV_Check"))
        expected = f"{squeezed(arguments[0])} {test} {squeezed(arguments[1])}" if test else squeezed(arguments[1])
        return (
            Hole(),
            "error: (-2:Unspecified error) in function '",
            Hole(),
            f"{short}'\n> ",
            *literal_parts(given[0]),
            f" (expected: '{expected}'), where",
            Hole(),
        )
    if not given:
        if raiser.unchecked is not None and raiser.condition_arg is not None:
            before, _, after = raiser.unchecked.partition("{}")
            return (before, squeezed(arguments[raiser.condition_arg]), after)
        return None
    if raiser.form == "printf":
        return printf(given[0], given[1:])
    if raiser.form == "joined":
        return joined(given)
    return literal_parts(given[0])


def _opencv_message(node: Node) -> Parts:
    """`CV_Error_`'s message is a parenthesised printf call: `("format", args...)`."""
    if node.type == "parenthesized_expression":
        inner = node.named_children[0] if node.named_children else node
        items = _comma_items(inner)
        if items and literal(items[0]) is not None or (items and items[0].type == "concatenated_string"):
            return printf(items[0], items[1:])
    return literal_parts(node)


def _comma_items(node: Node) -> list[Node]:
    if node.type != "comma_expression":
        return [node]
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    return [*(_comma_items(left) if left else []), *(_comma_items(right) if right else [])]


def _throw_site(call: Node, thrown: str, arguments: list[Node]) -> RawSite:
    function = function_name(call)
    name = thrown.split("<", 1)[0]
    parts = literal_parts(arguments[0]) if arguments else None
    if parts is not None and len(parts) == 1 and isinstance(parts[0], Hole) and arguments:
        parts = _formatted(arguments[0]) or parts
    source = ", ".join(squeezed(a) for a in arguments)
    return raw_site(call, "error", python_exception(name), parts, function, guards(call, _FUNCTIONS, branch), source)


def _formatted(node: Node) -> Parts | None:
    """`fmt::format("...{}", x)` / `std::format` / `c10::str(...)` as a thrown message."""
    if node.type != "call_expression":
        return None
    called = text(node.child_by_field_name("function") or node).rsplit("::", 1)[-1]
    arguments = _arguments(node.child_by_field_name("arguments") or node)
    if called == "str" and arguments:
        return joined(arguments)
    if called == "format" and arguments and literal(arguments[0]) is not None:
        return rust_format(literal(arguments[0]) or "", [squeezed(a) for a in arguments[1:]])
    return None


def branch(ancestor: Node, child: Node) -> str | None:
    """What being inside `child` of `ancestor` requires: an `if`'s test (its negation in the `else`), or a
    `switch` case's value."""
    if ancestor.type == "case_statement":
        value = ancestor.child_by_field_name("value")
        switch = enclosing(ancestor, ("switch_statement",))
        tested = switch.child_by_field_name("condition") if switch is not None else None
        return f"{unwrapped(tested)} == {squeezed(value)}" if value is not None and tested is not None else None
    if ancestor.type != "if_statement":
        return None
    condition = ancestor.child_by_field_name("condition")
    if condition is None or child == condition:
        return None
    if child == ancestor.child_by_field_name("consequence"):
        return unwrapped(condition)
    if child == ancestor.child_by_field_name("alternative"):
        return negated(unwrapped(condition))
    return None


def function_name(node: Node) -> str:
    """The enclosing function's name as its definition writes it (`cv::resize`, `Tensor::view`), with the
    class it is defined in for a method written inside its class; `<file>` outside any function."""
    definition = enclosing(node, _FUNCTIONS)
    if definition is None:
        return "<file>"
    declarator = definition.child_by_field_name("declarator")
    while declarator is not None and declarator.type != "function_declarator":
        declarator = declarator.child_by_field_name("declarator")
    named = declarator.child_by_field_name("declarator") if declarator is not None else None
    name = squeezed(named) if named is not None else "<function>"
    owner = enclosing(definition, _CLASSES)
    owner_name = owner.child_by_field_name("name") if owner is not None else None
    return f"{text(owner_name)}::{name}" if owner_name is not None and "::" not in name else name
