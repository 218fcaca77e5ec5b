"""Tree-sitter's parsers of the compiled languages, and what every walker asks of a node.

The grammars come from the package registry (tree-sitter-c, -cpp, -rust); a parser is made once per
process and language. Nothing here knows which calls raise: that is `raisers.py`.
"""

from __future__ import annotations

from functools import cache

import tree_sitter
import tree_sitter_c
import tree_sitter_cpp
import tree_sitter_rust

from errdex.model import Language

Node = tree_sitter.Node
_GRAMMARS = {"c": tree_sitter_c.language, "cpp": tree_sitter_cpp.language, "rust": tree_sitter_rust.language}
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "'": "'", "a": "\a", "v": "\v"}


@cache
def grammar(language: Language) -> tree_sitter.Language:
    return tree_sitter.Language(_GRAMMARS[language]())


@cache
def parser(language: Language) -> tree_sitter.Parser:
    return tree_sitter.Parser(grammar(language))


@cache
def query(language: Language, text: str) -> tree_sitter.Query:
    return tree_sitter.Query(grammar(language), text)


def matches(language: Language, pattern: str, root: Node) -> list[dict[str, list[Node]]]:
    """The captures of each match of a query, in the order the matches start."""
    return [captured for _, captured in tree_sitter.QueryCursor(query(language, pattern)).matches(root)]


def text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def line(node: Node) -> int:
    """The node's first line, counted from 1."""
    return node.start_point[0] + 1


def end_line(node: Node) -> int:
    return node.end_point[0] + 1


def literal(node: Node) -> str | None:
    """The value of a string literal (C's `"..."`, Rust's `"..."` and `r"..."`), escapes decoded; None for any
    other node. C's concatenated literals (`"a" "b"`) are one value."""
    if node.type == "concatenated_string":
        parts = [literal(child) for child in node.named_children]
        return None if any(p is None for p in parts) else "".join(p or "" for p in parts)
    if node.type == "raw_string_literal":
        content = next((c for c in node.named_children if c.type == "string_content"), None)
        return text(content) if content is not None else ""
    if node.type != "string_literal":
        return None
    out: list[str] = []
    continued = False
    for child in node.named_children:
        if child.type == "string_content":
            written = text(child)
            out.append(written.lstrip(" \t\n") if continued else written)  # Rust skips a continued line's indent
            continued = False
        elif child.type == "escape_sequence":
            escape = text(child)
            continued = escape[1:2] == "\n"
            out.append(unescape(escape))
    return "".join(out)


def unescape(escape: str) -> str:
    """One escape sequence's character; an escape this does not know is kept as written."""
    body = escape[1:]
    if body in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[body]
    if body.startswith("\n"):  # a line continuation inside a literal
        return ""
    try:
        if body[:1] in ("x", "u", "U"):
            return chr(int(body[1:].strip("{}"), 16))
        if body[:1].isdigit():
            return chr(int(body, 8))
    except (ValueError, OverflowError):
        pass
    return escape
