"""Split a module's text into statement-sized chunks without parsing it.

Parsing whole files is the cost of indexing, and most code raises nothing: a chunk is a
top-level statement or a class member, found by cheap regular expressions over the text (a
statement starts at the block's indentation, outside any triple-quoted string). Only chunks
that can raise, warn or log are parsed; the rest are kept as text and parsed on demand when a
constant they define is needed. A chunk that does not parse makes the caller fall back to
parsing the whole file, so a wrong split costs time, never correctness.
"""

from __future__ import annotations

import ast
import bisect
import functools
import keyword
import re
import unicodedata
from typing import Literal, NamedTuple

ChunkKind = Literal["def", "class", "import", "assign", "other"]

# Words without which a piece of code has no site: `raise`, `assert`, `warn(`, `logger.error(` ...
# Plain substring tests are much faster than one regular expression with alternatives.
SITE_WORDS = ("raise", "assert", "warn", ".error", ".exception", ".critical", ".fatal")

_TRIPLES = ('"""', "'''")
_STATEMENT_START = r"(?:[A-Za-z_@])"
_CONTINUATION = r"(?!(?:else|elif|except|finally)\b)"  # clauses that go on the statement above
_INDENTED_START = re.compile(r"\n([ \t]+)" + _STATEMENT_START)
_CLASS_NAME = re.compile(r"\s*([^(:\s]*)")  # after `class `: the name, up to a bracket, colon or blank
_ASSIGN_TARGET = re.compile(
    r"([A-Za-z_]\w*)\s*(?::[^=\n#]*)?=(?!=)"
)  # (an `=` in a comment after an annotation is none)
# possessive quantifiers (`*+`): giving back a name's letters or blanks could never make these match
_BLANKS = re.compile(r"[ \t]*+")
_COMMENT = re.compile(r"#[^\n]*+")
_ANNOTATION_LINE = re.compile(r"([A-Za-z_]\w*+)[ \t]*+:[^=\n]*+\n")  # `name: Annotated[` with no `=` on the line
_CHAINED_TARGET = re.compile(r"[ \t]*+([A-Za-z_]\w*+)[ \t]*+=(?!=)")  # `b = ` after `a = `: `a = b = None` binds both
_SELF_ATTRIBUTE = re.compile(r"self\.([A-Za-z_]\w*+)[ \t]*+(?::[^=\n]{0,200})?=(?!=)")
# a field's line ends at `=`, a newline or the end of the text; the newline is not consumed (a lookahead): it
# starts the next field
_CLASS_FIELD = re.compile(r"\n[ \t]++([A-Za-z_]\w*+)[ \t]*+:[^=\n]{0,200}+(?![^=\n])")
_DEFINITION = re.compile(r"^[ \t]*((?=(?:async[ \t]+)?def[ \t]|class[ \t]))", re.M)
# `class Name(a.B, C):` alone on its line(s), bases plain dotted names: the common header, read without parsing
_CLASS_LINE = re.compile(
    r"class[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?:\(([A-Za-z0-9_.,\s]*)\))?[ \t]*:[ \t]*(?:#[^\n]*)?\n"
)
_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_FROM = re.compile(r"from[ \t]+(\.*)([A-Za-z0-9_.]*)[ \t]+import[ \t]*(.*)", re.S)
_IMPORT = re.compile(r"import[ \t]+(.*)")
_DEF_NAME = re.compile(r"def[\s\\]+([^\s(\[\\]+)")  # `def`, blanks or line continuations, the name
_COMMENT_LINES = re.compile(
    r"[ \t]*+(?:#[^\n]*+)?(?:\n[ \t]*+(?:#[^\n]*+)?)*+"
)  # what may follow a statement in its chunk


class Chunk(NamedTuple):
    """One statement of a block: where it starts (1-based line) and its text, indentation kept.

    (A named tuple: a file has thousands of chunks, made several times faster than frozen dataclasses.)
    """

    kind: ChunkKind
    line: int
    text: str
    name: str | None  # the function, class or assigned name; None for other statements
    interesting: bool  # see `is_interesting`


def is_interesting(text: str) -> bool:
    """Whether a piece of code may contain a site (a superset: false hits only cost time).

    The words of SITE_WORDS spelled out: a chain of `in` tests costs a fifth of `any()` over them.
    """
    return (
        "raise" in text
        or "assert" in text
        or "warn" in text
        or ".error" in text
        or ".exception" in text
        or ".critical" in text
        or ".fatal" in text
    )


def string_spans(text: str) -> list[tuple[int, int]]:
    """Offsets of triple-quoted strings, so that statement starts inside them are ignored.

    Each kind of quote is found as `str.find` steps through the text, an occurrence after the end of the
    one before (of four quotes, the first three); a string opens at the first quote of either kind and
    closes at the next unescaped one of its kind, quotes of the other kind inside it passed over. A triple
    quote inside a one-line string or a comment opens nothing.
    """
    spans: list[tuple[int, int]] = []
    found = {quote: text.find(quote) for quote in _TRIPLES}
    while True:
        opening = [(at, quote) for quote, at in found.items() if at >= 0]
        if not opening:
            return spans
        start, quote = min(opening)
        if _in_line_string(text, start, spans[-1][1] if spans else 0):
            found[quote] = text.find(quote, start + 3)
            continue
        end = text.find(quote, start + 3)
        while end >= 0 and _escaped(text, end):
            end = text.find(quote, end + 3)
        if end < 0:
            spans.append((start, len(text)))
            return spans
        spans.append((start, end + 3))
        found[quote] = text.find(quote, end + 3)
        for other, at in found.items():
            while 0 <= at < end:
                at = text.find(other, at + 3)
            found[other] = at


def _in_line_string(text: str, pos: int, floor: int) -> bool:
    """Whether `pos` is inside a one-line string or a comment of its line (`r".*'''"`, `"'''"` in a lexer's rules),
    read from the line's start or from `floor`, the end of the triple-quoted string before it."""
    begin = max(text.rfind("\n", 0, pos) + 1, floor)
    before = text[begin:pos]
    if "'" not in before and '"' not in before and "#" not in before:  # most lines: blanks or code before a docstring
        return False
    quote = ""
    i = begin
    while i < pos:
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c == "#":
            return True
        i += 1
    return bool(quote)


def _escaped(text: str, pos: int) -> bool:
    backslashes = 0
    while pos > 0 and text[pos - 1] == "\\":
        backslashes += 1
        pos -= 1
    return backslashes % 2 == 1


def split_block(text: str, indent: str, first_line: int, spans: list[tuple[int, int]] | None = None) -> list[Chunk]:
    """The statements of a block whose statements start with exactly `indent`.

    `text` is the block's text; `first_line` the file line of its first character.
    """
    if spans is None:
        spans = string_spans(text)
    # a literal first character ("\n") lets the regex engine skip ahead: `^` with re.M is much slower
    pattern = re.compile("\n" + re.escape(indent) + _CONTINUATION + _STATEMENT_START)
    starts = [m.start() + 1 for begin, end in _between(spans, len(text)) for m in pattern.finditer(text, begin, end)]
    if pattern.match("\n" + text[: len(indent) + 1]):
        starts.insert(0, 0)
    starts = _merge_decorators(text, starts, len(indent))
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    chunks = []
    line = first_line
    for begin, end in zip(starts, starts[1:] + [len(text)], strict=True):
        body = text[begin:end]
        chunks.append(_classify(body, line, len(indent)))
        line += body.count("\n")
    return chunks


def _between(spans: list[tuple[int, int]], length: int) -> list[tuple[int, int]]:
    """The stretches of a text outside its triple-quoted strings (a statement start never reaches into one:
    it is a newline, blanks and a letter, and a string begins with a quote)."""
    out = []
    at = 0
    for begin, end in spans:
        out.append((at, begin))
        at = max(at, end)
    out.append((at, length))
    return out


def _inside(spans: list[tuple[int, int]], pos: int) -> bool:
    i = bisect.bisect_left(spans, (pos, pos)) - 1
    return i >= 0 and spans[i][0] < pos < spans[i][1]


def _merge_decorators(text: str, starts: list[int], width: int) -> list[int]:
    """Keep a decorator with the definition it decorates."""
    merged: list[int] = []
    after_decorator = False
    for pos in starts:
        if not after_decorator:
            merged.append(pos)
        after_decorator = text.startswith("@", pos + width)
    return merged


def _classify(body: str, line: int, width: int) -> Chunk:
    at = width  # where the statement starts: the body is read in place, not copied (a class can be long)
    if body.startswith("@", at):  # decorators, whose arguments may take several lines, then the definition
        m = _DEFINITION.search(body, at)
        at = m.end(1) if m else len(body)
    interesting = is_interesting(body)
    if body.startswith(("def ", "async def "), at):
        start = body.index("def ", at) + 4
        end = body.find("(", start)
        return Chunk("def", line, body, body[start : end if end >= 0 else len(body)].strip(), interesting)
    if body.startswith("class ", at):
        name = _CLASS_NAME.match(body, at + 6).group(1)  # type: ignore[union-attr]  # it matches any text
        return Chunk("class", line, body, name, interesting)
    if body.startswith(("import ", "from "), at):
        return Chunk("import", line, body, None, interesting)
    m = _ASSIGN_TARGET.match(body, at)
    if m and not body.startswith(("if ", "for ", "while ", "with ", "try", "return ", "print("), at):
        return Chunk("assign", line, body, m.group(1), interesting)
    m = _ANNOTATION_LINE.match(body, at)
    if m and m.group(0).rstrip().endswith(("[", "(")) and _annotated_value(body, width):
        return Chunk("assign", line, body, m.group(1), interesting)
    return Chunk("other", line, body, None, interesting)


def _annotated_value(body: str, width: int) -> bool:
    """Whether a statement whose annotation goes on over several lines gives its name a value (parsed: the
    annotation may hold strings and brackets of any kind, and such statements are few)."""
    try:
        tree = ast.parse("if 1:\n" + body if width else body)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    stmt = tree.body[0].body[0] if width else tree.body[0]  # type: ignore[attr-defined]  # in the `if 1:` put around
    return isinstance(stmt, ast.AnnAssign) and stmt.value is not None


def assigned_names(chunk: Chunk) -> list[str]:
    """The names an assignment chunk binds: its target, and those chained after it (`a = b = None`)."""
    text = chunk.text
    m = _ASSIGN_TARGET.match(text, _BLANKS.match(text).end())  # type: ignore[union-attr]  # it matches any text
    if m is None:  # an annotation over several lines, then the value (see `_classify`)
        return [chunk.name] if chunk.name else []
    names = [m.group(1)]
    while m := _CHAINED_TARGET.match(text, m.end()):
        names.append(m.group(1))
    return names


def defined_names(text: str) -> frozenset[str]:
    """Every name a `def` of the file may give a function (a superset: words after `def` in strings and
    comments too), as the parser spells it (NFKC-normalised)."""
    names = set(_DEF_NAME.findall(text))
    return frozenset(name if name.isascii() else unicodedata.normalize("NFKC", name) for name in names)


def class_header(chunk: Chunk) -> tuple[int, tuple[str, ...]] | None:
    """The line and bases of a class chunk whose `class` line is plain names, or None (parse it then).

    The `class` line must end the line (a block follows), as `ast.ClassDef.lineno` is that line
    (not its decorators'), and each base is a dotted name, as `ast.unparse` would write it.
    """
    text = chunk.text
    definition = _DEFINITION.search(text)  # past the decorators, as `_classify` finds it
    if definition is None:
        return None
    pos = definition.end(1)
    m = _CLASS_LINE.match(text, pos)
    if m is None or m.group(1) != chunk.name:
        return None
    bases = [b.strip() for b in (m.group(2) or "").split(",")]
    if bases[-1] == "":
        bases.pop()
    if not all(_DOTTED.fullmatch(b) for b in bases):
        return None
    return chunk.line + text.count("\n", 0, pos), tuple(bases)


def has_nested_class(chunk: Chunk) -> bool:
    """Whether a class chunk may define a class inside (a superset: false hits only cost time): an indented
    line that starts with `class ` (found by `find`, much faster than a regex that tries every line)."""
    text = chunk.text
    at = text.find("class ", 1)
    while at >= 0:
        start = at
        while start > 0 and text[start - 1] in " \t":
            start -= 1
        if start < at and text[start - 1 : start] == "\n":
            return True
        at = text.find("class ", at + 1)
    return False


@functools.lru_cache(maxsize=4096)
def simple_import(text: str) -> ast.Import | ast.ImportFrom | None:
    """An import chunk of plain names (most are) as the node `ast.parse` gives, or None: parse it then.

    Remembered: most import lines of a package repeat in many of its files (5 in 6 in transformers),
    and the nodes are only read.
    """
    if "(" in text:
        code = text[: text.find(")") + 1]  # empty without a `)`
    else:
        code = text.split("\n", 1)[0].split("#", 1)[0]  # what follows is comments and blank lines, or not simple
    if not code or "#" in code or "\\" in code or ";" in code or not _COMMENT_LINES.fullmatch(text, len(code)):
        return None
    m = _FROM.fullmatch(code)
    if m is not None:
        dots, module, names = m.groups()
        if (module and not _dotted_name(module)) or (not module and not dots):
            return None
        aliases = _aliases(names, dotted=False)
        return ast.ImportFrom(module=module or None, names=aliases, level=len(dots)) if aliases else None
    m = _IMPORT.fullmatch(code)
    aliases = _aliases(m.group(1), dotted=True) if m is not None else None
    return ast.Import(names=aliases) if aliases else None


def _aliases(names: str, dotted: bool) -> list[ast.alias] | None:
    """`a.b as c, d` (an import) or `a as b, c` / `(a,\n b,)` / `*` (a from-import), as ast aliases."""
    names = names.strip()
    if names == "*" and not dotted:
        return [ast.alias(name="*", asname=None)]
    parenthesised = names.startswith("(") and names.endswith(")") and not dotted
    items = [item.split() for item in (names[1:-1] if parenthesised else names).split(",")]
    if parenthesised and len(items) > 1 and not items[-1]:
        items.pop()
    out = []
    for item in items:
        if len(item) == 1 and (_dotted_name(item[0]) if dotted else _plain_name(item[0])):
            out.append(ast.alias(name=item[0], asname=None))
        elif (
            len(item) == 3
            and item[1] == "as"
            and _plain_name(item[2])
            and (_dotted_name(item[0]) if dotted else _plain_name(item[0]))
        ):
            out.append(ast.alias(name=item[0], asname=item[2]))
        else:
            return None
    return out


def _plain_name(word: str) -> bool:
    """An ASCII name, not a keyword (a name of other letters is left to the parser)."""
    return word.isascii() and word.isidentifier() and not keyword.iskeyword(word)


def _dotted_name(word: str) -> bool:
    return all(_plain_name(part) for part in word.split("."))


def class_parts(chunk: Chunk) -> tuple[str, list[Chunk]] | None:
    """Split a class chunk into its header (decorators, `class X(...):`, docstring) and members.

    Returns None when the body is not an indented block we can split (a one-line class).
    """
    text = chunk.text
    spans = string_spans(text)
    definition = _DEFINITION.search(text)  # past the decorators: those of a class in a class are indented lines too
    body = _body_start(text, spans, definition.end(1) if definition is not None else 0)
    if body is None:
        return None
    begin, indent = body
    header = text[:begin]
    inner = [(a - begin, b - begin) for a, b in spans if b > begin]
    return header, split_block(text[begin:], indent, chunk.line + header.count("\n"), inner)


def _body_start(text: str, spans: list[tuple[int, int]], start: int) -> tuple[int, str] | None:
    """Where the body of a class chunk starts, and its indentation: the first indented statement after
    `start` (its `class`), outside strings and outside the brackets of a header that spans several lines."""
    depth = 0
    at = start
    for m in _INDENTED_START.finditer(text, start):
        begin = m.start(1)
        if _inside(spans, begin):
            continue
        depth += _bracket_balance(text, spans, at, begin)
        at = begin
        if depth == 0:
            return begin, m.group(1)
    return None


def _bracket_balance(text: str, spans: list[tuple[int, int]], begin: int, end: int) -> int:
    """Brackets opened minus closed in text[begin:end], triple-quoted strings and comments (`# ... {{{`) left out."""
    balance = 0
    i = bisect.bisect_left(spans, (begin, begin))
    i = i - 1 if i > 0 and spans[i - 1][1] > begin else i
    for span_begin, span_end in [*spans[i:], (end, end)]:
        piece = text[begin : min(span_begin, end)]
        if "#" in piece:
            piece = _COMMENT.sub("", piece)
        balance += sum(piece.count(c) for c in "([{") - sum(piece.count(c) for c in ")]}")
        begin = max(begin, span_end)
        if begin >= end:
            break
    return balance


def class_text(text: str) -> str:
    """A class chunk's text as the parser spans the class: from its `class` line to the end of its last
    statement, the decorators and the comments and blank lines that follow (before the next statement) left out."""
    definition = _DEFINITION.search(text)
    start = definition.start() if definition is not None else 0
    end = len(text)
    while end > start:
        line_start = max(text.rfind("\n", start, end) + 1, start)
        line = text[line_start:end].strip()
        if line and not line.startswith("#"):
            break
        end = max(line_start - 1, start)
    return text[start:end]


def self_attributes(text: str) -> tuple[str, ...]:
    """Names a class sets on `self` (and its annotated fields): the settings its checks refer to.

    A clause alone on its line (`else:`, `try:`) has a field's shape: keywords are left out."""
    names = dict.fromkeys(_SELF_ATTRIBUTE.findall(text))
    names.update(dict.fromkeys(name for name in _CLASS_FIELD.findall(text) if not keyword.iskeyword(name)))
    return tuple(names)
