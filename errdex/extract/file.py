"""Analyse one file of a release: its sites, classes and imports, as plain JSON-ready data.

The result depends only on the file's path and bytes, so it is cached by content hash and a
file seen in any release is analysed once. Names that come from other modules are left
`pending` and resolved when the release is linked (see `package.py`).

Fast path: only the statements that can raise, warn or log are parsed (see `chunks.py`); if any
piece does not parse, the whole file is parsed instead, and a file that does not parse at all is
a skip with its reason. A file whose analysis uses up its `Budget` is a skip too, with the sites
found before it stopped.
"""

from __future__ import annotations

import ast
import io
import tokenize
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

from errdex.extract.bindings import bound_names
from errdex.extract.budget import Budget, OverBudget
from errdex.extract.chunks import (
    Chunk,
    assigned_names,
    class_header,
    class_parts,
    class_text,
    defined_names,
    has_nested_class,
    is_interesting,
    self_attributes,
    simple_import,
    split_block,
)
from errdex.extract.compiled import analyse_compiled
from errdex.extract.records import ClassRecord, FileAnalysis, Imported
from errdex.extract.resolve import Unresolved
from errdex.extract.scope import Block, ClassScope, Definition, ModuleScope
from errdex.extract.templates import class_message, format_template
from errdex.extract.visitor import SiteVisitor, looks_like_exception
from errdex.model import language_of

MAX_FILE_BYTES = 20_000_000
_MESSAGE_ATTRIBUTES = (
    "fmt",
    "message",
    "msg",
    "template",
    "default_message",
    "default_detail",
    "msg_template",
    "MESSAGE",
)
_CLASS_MESSAGE_METHODS = ("__init__", "__str__")


class _FallBack(Exception):
    """A piece of the file did not parse on its own: parse the whole file instead."""


def analyse_file(path: str, data: bytes, fast: bool = True, budget: Budget | None = None) -> FileAnalysis:
    """Sites, classes and imports of one Python file (the sites of a compiled source), or a skip with the reason.

    `fast=False` parses the whole file (the reference the fast path is tested against). The
    parser's warnings about the code read (invalid escapes, ...) are the package's business,
    not the user's, so they are silenced. `budget` bounds the work (the default one when None).
    """
    with parser_warnings_silenced():
        return _analyse(path, data, fast, budget if budget is not None else Budget())


@contextmanager
def parser_warnings_silenced() -> Iterator[None]:
    """While errdex reads a package's code: the parser's warnings about it (an invalid escape in a regex) are
    the package's business, not the user's, and Python 3.12+ would show them."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _analyse(path: str, data: bytes, fast: bool, budget: Budget) -> FileAnalysis:
    if len(data) > MAX_FILE_BYTES:
        return skipped(f"file is larger than {MAX_FILE_BYTES // 1_000_000} MB")
    text, reason = decode(data)
    if text is None:
        return skipped(reason)
    language = language_of(path)
    if language not in ("python", None):
        return analyse_compiled(text, language)
    module = ModuleScope(path, budget)
    visitor = SiteVisitor(module)
    try:  # the outer handlers cover the whole-file fallback too
        try:
            if not fast:
                raise _FallBack()
            _analyse_chunks(text, module, visitor)
        except _FallBack:
            module = ModuleScope(path, budget)
            visitor = SiteVisitor(module, defined_names(text))
            tree, reason = parse_module(text)
            if tree is None:
                return skipped(reason)
            register_tree(tree, text, module)
            visitor.visit_body(tree.body)
    except OverBudget as exc:
        return _stopped(module, visitor, exc)
    except (RecursionError, MemoryError):
        return skipped("too deeply nested to analyse")
    return _result(module, visitor)


def _stopped(module: ModuleScope, visitor: SiteVisitor, exc: OverBudget) -> FileAnalysis:
    """A file that used up its budget: a skip that keeps the sites found before it stopped."""
    kept = len(visitor.sites)
    return _result(module, visitor, f"{exc}; partly analysed, {kept} site{'s' if kept != 1 else ''} kept")


def skipped(reason: str) -> FileAnalysis:
    return FileAnalysis(skip=reason)


def decode(data: bytes) -> tuple[str | None, str]:
    """The file's text with newlines normalised, honouring a PEP 263 coding cookie."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
            text = data.decode(encoding)
        except (SyntaxError, LookupError, UnicodeDecodeError) as exc:
            return None, f"cannot be decoded as text: {exc}"
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\x00" in text:
        return None, "contains NUL bytes"
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, ""


def parse_module(text: str) -> tuple[ast.Module | None, str]:
    """The whole module's tree, or None and why it does not parse."""
    try:
        return ast.parse(text), ""
    except SyntaxError as exc:
        return None, f"does not parse: {exc.msg} (line {exc.lineno})"
    except (ValueError, TypeError) as exc:
        return None, f"does not parse: {exc}"
    except (RecursionError, MemoryError):
        return None, "too deeply nested to parse"


# -- fast path: statement chunks -----------------------------------------------------------
def _analyse_chunks(text: str, module: ModuleScope, visitor: SiteVisitor) -> None:
    todo = chunks_to_visit(text, module)
    visitor.functions = defined_names("\n".join(chunk.text for chunk, _ in todo))  # functions are visited in these only
    for chunk, scopes in todo:
        for stmt in _parse_chunk(chunk):
            visitor.visit_in_scopes(stmt, scopes)
    if _found_elsewhere(text, visitor.needed_elsewhere(), [chunk.text for chunk, _ in todo]):
        raise _FallBack()  # a message comes from code the fast path did not read (a helper's caller, a property)


def chunks_to_visit(text: str, module: ModuleScope) -> list[tuple[Chunk, list[tuple[str, str]]]]:
    """Fill `module` from a file's statements; the ones the fast path parses and visits, with the classes
    around each (raises `_FallBack` when a piece does not parse on its own)."""
    todo: list[tuple[Chunk, list[tuple[str, str]]]] = []
    chunks = split_block(text, "", 1)
    module_code = _module_code(chunks)
    for i, chunk in enumerate(chunks):
        found = _register_chunk(chunk, module, [])
        if not found and i < module_code and chunk.kind in ("assign", "other"):
            found = [(chunk, [])]  # what it binds, a site after it sees
        todo.extend(found)
    return todo


def _module_code(chunks: list[Chunk]) -> int:
    """How many chunks lead up to the last statement outside functions and classes that may raise: the whole-file
    parse visits the statements before it, and the names they bind (in an `if` or `try` too) are its site's."""
    return max(
        (i for i, chunk in enumerate(chunks) if chunk.interesting and chunk.kind in ("assign", "other")), default=0
    )


def _found_elsewhere(text: str, needles: list[str], read: list[str]) -> bool:
    """Whether one of `needles` occurs outside the chunks read (code that writes a message may hold no `raise`)."""
    return any(text.count(needle) > sum(chunk.count(needle) for chunk in read) for needle in needles)


def register_chunks(text: str, module: ModuleScope) -> None:
    """Fill a module scope from its text without visiting anything (used when linking)."""
    try:
        for chunk in split_block(text, "", 1):
            _register_chunk(chunk, module, [])
    except _FallBack:
        tree, _ = parse_module(text)
        if tree is not None:
            register_tree(tree, text, module)


def _register_chunk(chunk: Chunk, module: ModuleScope, scopes: list[tuple[str, str]]) -> list[tuple[Chunk, list]]:
    """Record what a chunk defines; return the chunks that must be parsed and visited."""
    # (an import in a class body binds a class attribute, not a module's name)
    if not scopes and (chunk.kind == "import" or (chunk.kind == "other" and "import" in chunk.text)):
        simple = simple_import(chunk.text) if chunk.kind == "import" else None
        for stmt in [simple] if simple is not None else _parse_chunk(chunk):
            _register_imports(stmt, module)
    if chunk.kind == "assign" and chunk.name:
        constants = _constants(module, scopes)
        for name in assigned_names(chunk):
            if scopes:
                constants[name] = Definition(chunk.line, chunk.text)
            else:
                module.add_constant(name, Definition(chunk.line, chunk.text))
        return [(chunk, scopes)] if chunk.interesting else []
    if chunk.kind == "other" and not scopes:  # `if is_x_available(): NAME = ...`, `try: ... except ImportError:`
        for name in bound_names(chunk.text):
            module.add_block(name, Block(chunk.line, chunk.text))
    if chunk.kind == "class":
        return _register_class_chunk(chunk, module, scopes)
    if chunk.kind == "def" and chunk.interesting:
        return [(chunk, scopes)]
    if chunk.kind == "def" and scopes and chunk.name in _CLASS_MESSAGE_METHODS:
        cls = module.classes[".".join(n for _, n in scopes)]
        return [(chunk, scopes)] if looks_like_exception(cls.qualname, cls.bases) else []
    if chunk.kind == "other" and chunk.interesting:
        return [(chunk, scopes)]
    return []


def _register_class_chunk(chunk: Chunk, module: ModuleScope, scopes: list[tuple[str, str]]) -> list[tuple[Chunk, list]]:
    outer = [n for _, n in scopes]
    header = class_header(chunk)
    if header is not None and _unread_body(chunk, header[1]):
        qualname = ".".join([*outer, chunk.name or ""])
        module.classes[qualname] = ClassScope(qualname, *header, read_constants=lambda: _class_constants(chunk))
        return []
    parts = class_parts(chunk)
    if parts is None:
        for stmt in _parse_chunk(chunk):
            if isinstance(stmt, ast.ClassDef):
                _register_class_node(stmt, chunk.text.split("\n"), chunk.line, module, outer)
        return [(chunk, scopes)] if chunk.interesting else []
    header_text, members = parts
    name = chunk.name or ""
    if header is None:
        node = _parse_header(header_text, members, chunk.line)
        name, header = node.name, (node.lineno, tuple(_unparse_base(b) for b in node.bases))
    line, bases = header
    qualname = ".".join([*outer, name])
    attributes = _attributes(class_text(chunk.text)) if chunk.interesting else ()
    module.classes[qualname] = ClassScope(qualname, line, bases, attributes=attributes)
    inner = [*scopes, ("class", name)]
    todo: list[tuple[Chunk, list]] = []
    if chunk.interesting or looks_like_exception(name, bases):
        for member in members:
            todo.extend(_register_chunk(member, module, inner))
    else:
        for member in members:
            if member.kind in ("assign", "class"):
                _register_chunk(member, module, inner)
    return todo


def _unread_body(chunk: Chunk, bases: tuple[str, ...]) -> bool:
    """Whether a class's body can be left unread: nothing in it can raise, and no class inside."""
    return not chunk.interesting and not looks_like_exception(chunk.name or "", bases) and not has_nested_class(chunk)


def _class_constants(chunk: Chunk) -> dict[str, Definition]:
    """The class-level constants of a class without nested classes, read when first looked up."""
    parts = class_parts(chunk)
    if parts is not None:
        return {name: Definition(m.line, m.text) for m in parts[1] if m.kind == "assign" for name in assigned_names(m)}
    scratch = ModuleScope("")
    try:
        for stmt in _parse_chunk(chunk):
            if isinstance(stmt, ast.ClassDef):
                _register_class_node(stmt, chunk.text.split("\n"), chunk.line, scratch, [])
    except _FallBack:
        pass
    return next((c.constants for c in scratch.classes.values()), {})


def _parse_header(header: str, members: list[Chunk], line: int) -> ast.ClassDef:
    indent = members[0].text[: len(members[0].text) - len(members[0].text.lstrip(" \t"))] if members else "    "
    text = header.rstrip("\n") + "\n" + indent + "pass\n"
    stmts = _parse_text(text, line)
    node = stmts[0] if stmts else None
    if not isinstance(node, ast.ClassDef):
        raise _FallBack()
    return node


def _parse_chunk(chunk: Chunk) -> list[ast.stmt]:
    """A chunk's statement, and the strings after it (a statement that starts with a quote starts no chunk).
    Any other statement means statement starts were missed (the split misread where a triple-quoted string
    starts or ends), and so were the names those statements define."""
    stmts = _parse_text(chunk.text, chunk.line)
    if not all(isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) for s in stmts[1:]):
        raise _FallBack()
    return stmts


def _parse_text(text: str, line: int) -> list[ast.stmt]:
    """Parse a piece of a file at its own line numbers.

    Blank lines in front place it (cheaper than renumbering the tree); an indented piece is
    wrapped in `if 1:` so that it parses on its own.
    """
    indented = text[:1] in (" ", "\t")
    prefix = "\n" * (line - 2) + "if 1:\n" if indented and line >= 2 else "\n" * (line - 1)
    if indented and line < 2:
        raise _FallBack()
    try:
        tree = ast.parse(prefix + text)
    except (SyntaxError, ValueError):
        raise _FallBack() from None
    body = tree.body
    if indented:
        body = body[0].body  # type: ignore[attr-defined]  # body[0] is the `if 1:` put around the text
    return body


def _constants(module: ModuleScope, scopes: list[tuple[str, str]]) -> dict[str, Definition]:
    if not scopes:
        return module.constants
    return module.classes[".".join(n for _, n in scopes)].constants


def _unparse_base(node: ast.expr) -> str:
    return ast.unparse(node.value if isinstance(node, ast.Subscript) else node)


# -- slow path: the whole tree ---------------------------------------------------------------
def register_tree(tree: ast.Module, text: str, module: ModuleScope) -> None:
    """Record the module-level constants, imports and classes of a parsed module."""
    lines = text.split("\n")
    for stmt in tree.body:
        _register_imports(stmt, module)
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                if isinstance(target, ast.Name):
                    module.add_constant(target.id, Definition(stmt.lineno, node=stmt.value))
        elif isinstance(stmt, ast.ClassDef):
            _register_class_node(stmt, lines, 1, module, [])
        elif isinstance(stmt, (ast.If, ast.Try, ast.AugAssign)):
            bound = (n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
            for name in dict.fromkeys(bound):
                module.add_block(name, Block(stmt.lineno, statement=stmt))


def _register_class_node(
    node: ast.ClassDef, lines: list[str], first: int, module: ModuleScope, outer: list[str]
) -> None:
    """Record a class and the classes inside it; `lines` are the text parsed, `first` the file line of its first."""
    qualname = ".".join([*outer, node.name])
    bases = tuple(_unparse_base(b) for b in node.bases)
    text = "\n".join(lines[node.lineno - first : (node.end_lineno or node.lineno) - first + 1])  # the class's own lines
    cls = ClassScope(qualname, node.lineno, bases, attributes=_attributes(text))
    module.classes[qualname] = cls
    for stmt in node.body:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                if isinstance(target, ast.Name):
                    cls.constants[target.id] = Definition(stmt.lineno, node=stmt.value)
        elif isinstance(stmt, ast.ClassDef):
            _register_class_node(stmt, lines, first, module, [*outer, node.name])


def _attributes(text: str) -> tuple[str, ...]:
    """The attributes of a class, from its own text (see `chunks.class_text`); only a class that may raise
    needs them."""
    return self_attributes(text) if is_interesting(text) else ()


def _register_imports(stmt: ast.stmt, module: ModuleScope) -> None:
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        module.add_import(stmt)
    elif isinstance(stmt, (ast.If, ast.Try)):  # `if TYPE_CHECKING:` / `try: import x`
        for child in [*stmt.body, *stmt.orelse, *(h for t in getattr(stmt, "handlers", []) for h in t.body)]:
            _register_imports(child, module)


# -- result ----------------------------------------------------------------------------------
def _result(module: ModuleScope, visitor: SiteVisitor, skip: str | None = None) -> FileAnalysis:
    classes = []
    for cls in module.classes.values():
        templates = list(cls.message_templates)
        if looks_like_exception(cls.qualname, cls.bases):
            templates.extend(t for t in _message_attribute(module, cls) if t not in templates)
        messages = tuple(map(class_message, templates))
        classes.append(ClassRecord(cls.qualname, cls.line, tuple(cls.bases), tuple(cls.attributes), messages))
    return FileAnalysis(
        skip=skip,
        sites=tuple(visitor.sites),
        calls=visitor.helper_calls(),
        properties=visitor.message_properties(),
        attribute_classes=visitor.exception_attributes(),
        classes=tuple(classes),
        imports={k: Imported(*v) for k, v in module.imports.items()},
    )


def _message_attribute(module: ModuleScope, cls: ClassScope) -> list[str]:
    """Templates kept as class attributes (`fmt = "... {report}"`), as botocore does."""
    out = []
    for attr in _MESSAGE_ATTRIBUTES:
        if cls.constant(attr) is None:
            continue
        try:
            value, _ = module.class_constant(cls.qualname, attr)
        except (Unresolved, RecursionError):
            continue
        if isinstance(value, str):
            template = format_template(value)
            if template is not None:
                out.append(template)
    return out
