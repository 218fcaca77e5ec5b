"""The source excerpt and the lexer that highlights it as its whole file would be highlighted.

An excerpt cut from a file may start inside a string literal (a docstring opened above its first
line). Lexed alone, its closing quotes would open a string instead and the code after them, the
highlighted raise included, would read as text. The page records the opening of the string its
first line continues, read from the whole file; every renderer (terminal, web) lexes the excerpt
through `excerpt_lexer`, which starts from that state.
"""

from __future__ import annotations

import functools
import io
import re
import tokenize
from collections.abc import Iterator

from pygments.lexer import Lexer
from pygments.lexers import CLexer, CppLexer, CythonLexer, PythonLexer, RustLexer
from pygments.token import _TokenType

from errdex.model import Language, Snippet, language_of
from errdex.pages.model import SourceExcerpt

_COMPILED_LEXERS: dict[str, type[Lexer]] = {"c": CLexer, "cpp": CppLexer, "cython": CythonLexer, "rust": RustLexer}
_OPENING = re.compile(r"[A-Za-z]*(\"\"\"|'''|\"|')")


def excerpt_json(snippet: Snippet, source: str | None, path: str) -> SourceExcerpt:
    """The excerpt as JSON, with its file's language and the opening of the Python string its first line
    continues (from the whole file)."""
    language = language_of(path) or "python"
    python = language == "python" and source is not None and snippet.text
    inside = string_opening(source, snippet.start) if python and source is not None else None
    return {
        "start": snippet.start,
        "end": snippet.end,
        "text": snippet.text,
        "inside_string": inside,
        "language": language,
    }


def string_opening(source: str, line: int) -> str | None:
    """The prefix and quotes (`\"\"\"`, `rb'''`) of the string literal that line `line` (1-based) starts inside,
    read with Python's own tokenizer; None when the line starts in code."""
    for first, last, opening in _long_strings(source):
        if first < line <= last:
            return opening
        if first >= line:
            break
    return None


@functools.lru_cache(maxsize=2)  # one per file: each of its errors' pages asks again
def _long_strings(source: str) -> tuple[tuple[int, int, str | None], ...]:
    """Each string literal that spans lines: its first and last line and its opening, in order (up to where the
    tokenizer gives up)."""
    out: list[tuple[int, int, str | None]] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.STRING and token.end[0] > token.start[0]:
                opening = _OPENING.match(token.string)
                out.append((token.start[0], token.end[0], opening.group(0) if opening else None))
    except (tokenize.TokenError, SyntaxError):
        pass
    return tuple(out)


class _ExcerptLexer(PythonLexer):
    """Python, lexed from inside the string literal the excerpt starts in (see `excerpt_lexer`)."""

    def __init__(self, opening: str | None) -> None:
        super().__init__(stripnl=False)  # a leading blank line is a line of the excerpt: keep the numbering
        self._opening = opening or ""

    def get_tokens(self, text: str, unfiltered: bool = False) -> Iterator[tuple[_TokenType, str]]:
        skip = len(self._opening)
        for kind, value in super().get_tokens(self._opening + text, unfiltered):
            if skip >= len(value):
                skip -= len(value)
                continue
            yield kind, value[skip:]
            skip = 0


def excerpt_lexer(inside_string: str | None, language: Language = "python") -> Lexer:
    """The lexer every renderer highlights a page's excerpt with (given its `snippet.inside_string` and
    `language`): a Python excerpt's starts where the whole file's lexing would."""
    compiled = _COMPILED_LEXERS.get(language)
    return compiled(stripnl=False) if compiled is not None else _ExcerptLexer(inside_string)
