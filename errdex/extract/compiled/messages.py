"""A compiled raise's message as template parts (text and holes), from the forms compiled code writes it in:
printf formats (`PyErr_Format`), string literals joined by the preprocessor or by `+`, the argument lists
torch's and c10's macros stream together, and Rust's `format!` strings."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from errdex.extract.compiled.grammar import Node, literal, text
from errdex.extract.templates import Hole, Parts

# A printf conversion, CPython's own (`%S`, `%R`, `%U`, `%V`, `%A`, `%T`, `%N`) among them.
_PRINTF = re.compile(
    r"%[-+ #0]*(?:\*|\d+)?(?:\.(?:\*|\d+))?(?:hh|h|ll|l|L|z|j|t|q|I64|I32)?[diouxXeEfFgGaAcspnSRUVTN%]"
)
# <inttypes.h>'s format macros stand for the length and conversion of a `%` written before them.
_INTTYPES = re.compile(r"PRI[diouxX](?:8|16|32|64|MAX|PTR|LEAST\d+|FAST\d+)")
# Rust's format placeholders: `{}`, `{0}`, `{name}`, `{:?}`, `{name:>5}`; `{{` and `}}` are braces.
_RUST_FORMAT = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*|\d+)?(?::[^{}]*)?\}")


_NONE: Mapping[str, str] = MappingProxyType({})
# What holds file-level declarations besides the file: preprocessor conditionals and namespaces
_FILE_LEVEL_BLOCKS = frozenset(
    {"preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif", "namespace_definition", "linkage_specification"}
)


def string_constants(root: Node) -> dict[str, str]:
    """A C or C++ file's string constants, which its raises may name: `static const char* MSG = "...";` at file
    level, and `#define MSG "..."`."""
    found: dict[str, str] = {}
    for child in root.named_children:
        if child.type in _FILE_LEVEL_BLOCKS:
            found.update(string_constants(child.child_by_field_name("body") or child))
        elif child.type == "preproc_def":
            name, value = child.child_by_field_name("name"), child.child_by_field_name("value")
            written = text(value).strip() if value is not None else ""
            if name is not None and written.startswith('"') and written.endswith('"') and '"' not in written[1:-1]:
                found[text(name)] = written[1:-1]
        elif child.type == "declaration":
            for declarator in child.children_by_field_name("declarator"):
                value = declarator.child_by_field_name("value") if declarator.type == "init_declarator" else None
                named = declarator.child_by_field_name("declarator") if value is not None else None
                while named is not None and named.type != "identifier":
                    named = named.child_by_field_name("declarator")
                if named is not None and value is not None and literal(value) is not None:
                    found[text(named)] = literal(value) or ""
    return found


class Shown(Hole):
    """A hole showing an expression of compiled code, kept as its source text."""

    __slots__ = ("written",)

    def __init__(self, written: str | None = None) -> None:
        super().__init__(None)
        self.written = written

    def source(self) -> str | None:
        return self.written


def shown(node: Node | None) -> Shown:
    return Shown(" ".join(text(node).split()) if node is not None else None)


def literal_parts(node: Node, constants: Mapping[str, str] = _NONE) -> Parts:
    """What one argument shows: its text when it is a literal (or literals joined by the preprocessor or by
    `+`, or a string constant of the file: `constants`), else one hole showing it."""
    value = literal(node)
    if value is not None:
        return (value,)
    if node.type == "identifier" and text(node) in constants:
        return (constants[text(node)],)
    if node.type == "concatenated_string":
        out: list[str | Hole] = []
        for child in node.named_children:
            value = literal(child)
            if value is not None:
                out.append(value)
            elif child.type == "identifier" and text(child) in constants:
                out.append(constants[text(child)])
            elif child.type == "identifier" and _INTTYPES.fullmatch(text(child)):
                out.append("lld")  # `"%" PRId64` reads as one conversion
            else:
                out.append(shown(child))
        return tuple(out)
    if node.type == "binary_expression" and _operator(node) == "+":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is not None and right is not None and (_has_text(left) or _has_text(right)):
            return (*literal_parts(left, constants), *literal_parts(right, constants))
    inner = _string_made_of(node)
    if inner is not None:
        return literal_parts(inner, constants)
    return (shown(node),)


def _operator(node: Node) -> str | None:
    op = node.child_by_field_name("operator")
    return text(op) if op is not None else None


def _has_text(node: Node) -> bool:
    return any(isinstance(p, str) and p for p in literal_parts(node))


def _string_made_of(node: Node) -> Node | None:
    """The literal a string object is made of: `std::string("x")`, `py::str("x")`, `String::from("x")`,
    `"x".to_string()`, `"x".into()`."""
    if node.type == "call_expression":
        args = node.child_by_field_name("arguments")
        called = text(node.child_by_field_name("function") or node)
        named = args.named_children if args is not None else []
        if len(named) == 1 and called.rsplit("::", 1)[-1] in ("string", "str", "from", "String"):
            return named[0]
        if not named and called.endswith((".to_string", ".into", ".to_owned")):
            receiver = node.child_by_field_name("function")
            value = receiver.child_by_field_name("value") if receiver is not None else None
            return value if value is not None and literal(value) is not None else None
    return None


def joined(arguments: Sequence[Node], constants: Mapping[str, str] = _NONE) -> Parts:
    """The message c10's `str(...)` streams from its arguments (TORCH_CHECK, AT_ERROR, TORCH_WARN)."""
    return tuple(part for argument in arguments for part in literal_parts(argument, constants))


def printf(format_node: Node, arguments: Sequence[Node], constants: Mapping[str, str] = _NONE) -> Parts:
    """A printf format's template, each conversion a hole showing the argument it takes."""
    out: list[str | Hole] = []
    taken = iter(arguments)
    for piece in _merged(literal_parts(format_node, constants)):
        if not isinstance(piece, str):
            out.append(piece)
            continue
        at = 0
        for found in _PRINTF.finditer(piece):
            out.append(piece[at : found.start()])
            spec = found.group()
            if spec == "%%":
                out.append("%")
            else:
                for _ in range(spec.count("*") + (2 if spec.endswith("V") else 1)):  # `*` and %V take more
                    argument = next(taken, None)
                out.append(shown(argument))
            at = found.end()
        out.append(piece[at:])
    return tuple(out)


def _merged(parts: Parts) -> Parts:
    """Adjacent text pieces as one, so that a conversion split between them (`"%" PRId64`) is one."""
    out: list[str | Hole] = []
    for part in parts:
        if isinstance(part, str) and out and isinstance(out[-1], str):
            out[-1] += part
        else:
            out.append(part)
    return tuple(out)


def rust_format(template: str, arguments: Sequence[str]) -> Parts:
    """A Rust format string's template, each placeholder a hole showing what fills it."""
    out: list[str | Hole] = []
    at = 0
    position = 0
    for found in _RUST_FORMAT.finditer(template):
        out.append(template[at : found.start()])
        at = found.end()
        written = found.group()
        if written in ("{{", "}}"):
            out.append(written[0])
            continue
        name = found.group(1)
        if name is None:
            out.append(Shown(arguments[position] if position < len(arguments) else None))
            position += 1
        elif name.isdigit():
            index = int(name)
            out.append(Shown(arguments[index] if index < len(arguments) else None))
        else:
            out.append(Shown(name))
    out.append(template[at:])
    return tuple(out)
