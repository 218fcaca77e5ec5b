"""The raises of C and C++ sources: CPython's C API, numpy's, torch's and OpenCV's macros, pybind11's
failures and C++ `throw`s, read with tree-sitter's C and C++ grammars."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache

from errdex.extract.compiled.grammar import Node, line, literal, matches, parser, text
from errdex.extract.compiled.messages import joined, literal_parts, printf, rust_format, string_constants
from errdex.extract.compiled.raisers import C_RAISERS, RETHROWN, Raiser, python_exception
from errdex.extract.compiled.sites import enclosing, guards, if_branch, negated, raw_site, squeezed, unwrapped
from errdex.extract.records import ClassRecord, RawSite
from errdex.extract.templates import Hole, Parts, render
from errdex.model import Kind, Language

_FUNCTIONS = ("function_definition",)
_CLASSES = ("class_specifier", "struct_specifier")
_CALLS = (
    "((call_expression function: (identifier) @name arguments: (argument_list) @arguments) @call"
    " (#any-of? @name " + " ".join(f'"{name}"' for name in C_RAISERS) + "))"
)
_STORES = "(assignment_expression left: (_) @left right: (_) @right)"
# `ds->errorStr = (char *)message;`: a text kept as an error's, which the prefilter lets through to be parsed
_STORED = re.compile(r"(?:->|\.)\w*(?i:err|msg|message)\w*\s*=\s*(?:\(\s*(?:const\s+)?\w+\s*\*?\s*\)\s*)?\w+\s*;")
_CALLED = "(call_expression function: (identifier) @name arguments: (argument_list) @arguments) @call"
_THROWS = "(throw_statement (call_expression function: (_) @name arguments: (argument_list) @arguments) @call)"
_ERROR_BUFFER = re.compile(r"err|msg|message", re.IGNORECASE)
_ALWAYS_FALSE = ("false", "0")
_OPENCV_CHECKS = {"EQ": "==", "NE": "!=", "LT": "<", "LE": "<=", "GT": ">", "GE": ">="}


@cache
def _mentions(language: Language) -> re.Pattern[str]:
    """Whether a file can hold a raise at all: it names a raiser (or throws), checked before it is parsed."""
    names = sorted(C_RAISERS, key=len, reverse=True)
    extra = [r"\bthrow\b"] if language == "cpp" else []
    return re.compile("|".join([r"\b(?:" + "|".join(map(re.escape, names)) + r")\s*\(", *extra, _STORED.pattern]))


def c_sites(text_: str, language: Language) -> Iterator[RawSite]:
    """The raise sites of one C or C++ source."""
    if not _mentions(language).search(text_):
        return
    root = parser(language).parse(text_.encode("utf-8", "surrogatepass")).root_node
    helpers: dict[str, Helper] = {}
    constants = string_constants(root)
    for captured in matches(language, _CALLS, root):
        raiser = C_RAISERS[text(captured["name"][0])]
        call, arguments = captured["call"][0], _arguments(captured["arguments"][0])
        site = _macro_site(call, raiser, arguments, constants)
        if site is not None:
            yield site
        helper = _passes_on(call, raiser, arguments, site.exception if site is not None else raiser.exception)
        if helper is not None:
            helpers.setdefault(helper.function, helper)
    for captured in matches(language, _STORES, root) if _STORED.search(text_) else ():
        helper = _stores(captured["left"][0], captured["right"][0])
        if helper is not None:
            helpers.setdefault(helper.function, helper)
    if helpers:
        yield from _helper_sites(language, root, helpers)
    if language == "cpp":
        for captured in matches(language, _THROWS, root):
            thrown = text(captured["name"][0])
            if thrown.rsplit("::", 1)[-1] not in RETHROWN:
                yield _throw_site(captured["call"][0], thrown, _arguments(captured["arguments"][0]))


_CLASSES_DERIVED = (
    "[(class_specifier name: (type_identifier) @name (base_class_clause) @bases)"
    " (struct_specifier name: (type_identifier) @name (base_class_clause) @bases)] @class"
)
_EXCEPTION_WORDS = re.compile(r"error|exception", re.IGNORECASE)
_DERIVES_AN_EXCEPTION = re.compile(r"\b(?:class|struct)\s+\w+\s*(?:final\s*)?:[^{;]{0,200}?(?i:error|exception)")


def cpp_exception_classes(text_: str) -> list[ClassRecord]:
    """The classes of a C++ source derived from an exception class (a base whose name says error or exception, or
    a class of the file kept so), with their bases as written: what a `throw` of one raises in Python is read
    through them at linking."""
    if not _DERIVES_AN_EXCEPTION.search(text_):  # most files declare none: not parsed again
        return []
    root = parser("cpp").parse(text_.encode("utf-8", "surrogatepass")).root_node
    derived = []
    for captured in matches("cpp", _CLASSES_DERIVED, root):
        bases = tuple(
            squeezed(base)
            for base in captured["bases"][0].named_children
            if base.type not in ("access_specifier", "comment")
        )
        derived.append(ClassRecord(text(captured["name"][0]), line(captured["class"][0]), bases, ()))
    kept: dict[str, ClassRecord] = {}
    while True:  # an exception class, and the classes of the file derived from one kept (to a fixed point)
        more = {
            c.qualname: c
            for c in derived
            if c.qualname not in kept
            and any(_EXCEPTION_WORDS.search(b) or b.rsplit("::", 1)[-1] in kept for b in c.bases)
        }
        if not more:
            return list(kept.values())
        kept.update(more)


@dataclass(frozen=True, slots=True)
class Helper:
    """A function of the file that hands one of its parameters on as the message of a raise (or stores it as an
    error's text, which Python code raises later): a call of it with a literal there writes a message."""

    function: str
    position: int
    exception: str | None
    kind: Kind
    buffer: str | None = None  # the error's field it keeps the message in


def _parameters(definition: Node) -> list[str]:
    """The names of a C function's parameters, in order."""
    declarator = definition.child_by_field_name("declarator")
    while declarator is not None and declarator.type != "function_declarator":
        declarator = declarator.child_by_field_name("declarator")
    listed = declarator.child_by_field_name("parameters") if declarator is not None else None
    names: list[str] = []
    for parameter in listed.named_children if listed is not None else []:
        named = parameter.child_by_field_name("declarator")
        while named is not None and named.type not in ("identifier",):
            named = named.child_by_field_name("declarator")
        names.append(text(named) if named is not None else "")
    return names


def _helper(node: Node, given: Node, exception: str | None, kind: Kind, buffer: str | None = None) -> Helper | None:
    """The helper `node`'s function is when `given` is one of its parameters, as it was passed in."""
    while given.type in ("cast_expression", "parenthesized_expression"):
        inner = given.child_by_field_name("value") or (given.named_children[-1] if given.named_children else None)
        if inner is None:
            return None
        given = inner
    definition = enclosing(node, _FUNCTIONS)
    if given.type != "identifier" or definition is None:
        return None
    parameters = _parameters(definition)
    if text(given) not in parameters:
        return None
    return Helper(function_name(node).rsplit("::", 1)[-1], parameters.index(text(given)), exception, kind, buffer)


def _passes_on(call: Node, raiser: Raiser, arguments: list[Node], exception: str | None) -> Helper | None:
    if raiser.message_arg >= len(arguments) or raiser.form not in ("literal", "printf"):
        return None
    return _helper(call, arguments[raiser.message_arg], exception, raiser.kind)


def _stores(left: Node, right: Node) -> Helper | None:
    """`ds->errorStr = (char *)message;`: the parameter is kept as an error's text."""
    return _helper(left, right, None, "error", field_name(left)) if _ERROR_BUFFER.search(text(left)) else None


def _helper_sites(language: Language, root: Node, helpers: dict[str, Helper]) -> Iterator[RawSite]:
    """The calls of the file's helpers that pass them a literal message."""
    for captured in matches(language, _CALLED, root):
        helper = helpers.get(text(captured["name"][0]))
        if helper is None:
            continue
        call, arguments = captured["call"][0], _arguments(captured["arguments"][0])
        if helper.position >= len(arguments) or not _has_literal(arguments[helper.position]):
            continue
        message = arguments[helper.position]
        yield raw_site(
            call,
            helper.kind,
            helper.exception,
            literal_parts(message),
            function_name(call),
            clauses_of(call),
            squeezed(message),
            helper.buffer,
        )


def field_name(node: Node) -> str:
    """The last name of a field or variable as written: `error_msg` of `self->error_msg`."""
    return re.split(r"->|\.", squeezed(node))[-1].strip("() *&")


def _has_literal(node: Node) -> bool:
    return literal(node) is not None or node.type == "concatenated_string"


def _arguments(node: Node) -> list[Node]:
    return [child for child in node.named_children if child.type != "comment"]


def _macro_site(call: Node, raiser: Raiser, arguments: list[Node], constants: Mapping[str, str]) -> RawSite | None:
    if raiser.buffer_arg is not None and (
        raiser.buffer_arg >= len(arguments) or not _ERROR_BUFFER.search(text(arguments[raiser.buffer_arg]))
    ):
        return None
    function = function_name(call)
    clauses = clauses_of(call)
    exception = raiser.exception
    if raiser.exception_arg is not None:
        if raiser.exception_arg >= len(arguments):
            return None
        exception = python_exception(text(arguments[raiser.exception_arg]))
    if raiser.condition_arg is not None:
        if raiser.condition_arg >= len(arguments):
            return None
        condition = squeezed(arguments[raiser.condition_arg])
        if condition not in _ALWAYS_FALSE:  # `TORCH_CHECK(false, ...)` fails whenever it runs: its `if`s say when
            clauses = (*clauses, negated(condition))
    parts = _message(raiser, arguments, function, constants)
    if raiser.buffer_arg is not None and (parts is None or render(parts) is None):
        return None  # a buffer filled from other text: no message of its own
    shown_args = arguments[raiser.message_arg :] if raiser.form != "cv_assert" else arguments
    buffer = field_name(arguments[raiser.buffer_arg]) if raiser.buffer_arg is not None else None
    source = ", ".join(squeezed(a) for a in shown_args)
    return raw_site(call, raiser.kind, exception, parts, function, clauses, source, buffer)


def _message(raiser: Raiser, arguments: list[Node], function: str, constants: Mapping[str, str]) -> Parts | None:
    given = arguments[raiser.message_arg :]
    short = function.rsplit("::", 1)[-1]
    where: Parts = (" in function '", Hole(), f"{short}'")  # MSVC writes `cv::resize` where gcc writes `resize`
    if raiser.form == "torch_assert":  # `#cond "INTERNAL ASSERT FAILED at " __FILE__ ":" __LINE__ ", please ..."`
        where_failed = (Hole(), "INTERNAL ASSERT FAILED at ", Hole(), ", please report a bug to PyTorch. ")
        return (squeezed(arguments[0]), *where_failed, *joined(given, constants))
    if raiser.form == "cv_assert":
        return (Hole(), "error: (-215:Assertion failed) ", squeezed(arguments[0]), *where)
    if raiser.form == "cv_error":
        if not given:
            return None
        return (Hole(), "error: (", Hole(), ") ", *_opencv_message(given[0], constants), *where)
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
            *literal_parts(given[0], constants),
            f" (expected: '{expected}'), where",
            Hole(),
        )
    if not given:
        if raiser.unchecked is not None and raiser.condition_arg is not None:
            before, _, after = raiser.unchecked.partition("{}")
            return (before, squeezed(arguments[raiser.condition_arg]), after)
        return None
    if raiser.form == "printf":
        return printf(given[0], given[1:], constants)
    if raiser.form == "joined":
        return joined(given, constants)
    return literal_parts(given[0], constants)


def _opencv_message(node: Node, constants: Mapping[str, str]) -> Parts:
    """`CV_Error_`'s message is a parenthesised printf call: `("format", args...)`."""
    if node.type == "parenthesized_expression":
        inner = node.named_children[0] if node.named_children else node
        items = _comma_items(inner)
        if items and literal(items[0]) is not None or (items and items[0].type == "concatenated_string"):
            return printf(items[0], items[1:], constants)
    return literal_parts(node, constants)


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
    return raw_site(call, "error", python_exception(name), parts, function, clauses_of(call), source)


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
    if ancestor.type in _PREPROCESSED:
        return _built_when(ancestor, child)
    return if_branch(ancestor, child, unwrapped) if ancestor.type == "if_statement" else None


def clauses_of(node: Node) -> tuple[str, ...]:
    """What must hold for `node` to run, outermost first: the build configuration its function is compiled in
    (`#ifndef HAVE_QT` around the whole function), then the tests inside the function."""
    definition = enclosing(node, _FUNCTIONS)
    built = guards(definition, (), _preprocessed) if definition is not None else ()
    return (*built, *guards(node, _FUNCTIONS, branch))


def _preprocessed(ancestor: Node, child: Node) -> str | None:
    return _built_when(ancestor, child) if ancestor.type in _PREPROCESSED else None


_PREPROCESSED = ("preproc_ifdef", "preproc_if", "preproc_elif", "preproc_elifdef")


def _built_when(directive: Node, child: Node) -> str | None:
    """The build configuration under which code inside a preprocessor conditional is compiled: `defined(HAVE_QT)`,
    `!defined(HAVE_QT)` in its `#else`, an `#if`'s expression."""
    alternative = directive.child_by_field_name("alternative")
    if directive.type in ("preproc_ifdef", "preproc_elifdef"):
        name = directive.child_by_field_name("name")
        if name is None:
            return None
        negative = (directive.children[0].text or b"").endswith(b"ndef")
        test = f"{'!' if negative else ''}defined({text(name)})"
    else:
        condition = directive.child_by_field_name("condition")
        if condition is None or child == condition:
            return None
        test = unwrapped(condition)
    return negated(test) if child == alternative else test


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
