"""The source excerpt and the lexer that highlights it as its whole file would be highlighted.

An excerpt cut from a file may start inside a string literal (a docstring opened above its first
line). Lexed alone, its closing quotes would open a string instead and the code after them, the
highlighted raise included, would read as text. The page records the opening of the string its
first line continues, read from the whole file; every renderer (terminal, web) lexes the excerpt
through `excerpt_lexer`, which starts from that state.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator

from pygments.lexers import PythonLexer
from pygments.token import _TokenType

from errdex.model import Snippet
from errdex.pages.model import SourceExcerpt

_OPENING = re.compile(r"[A-Za-z]*(\"\"\"|'''|\"|')")


def excerpt_json(snippet: Snippet, source: str | None) -> SourceExcerpt:
    """The excerpt as JSON, with the opening of the string its first line continues (from the whole file)."""
    inside = string_opening(source, snippet.start) if source is not None and snippet.text else None
    return {"start": snippet.start, "end": snippet.end, "text": snippet.text, "inside_string": inside}


def string_opening(source: str, line: int) -> str | None:
    """The prefix and quotes (`\"\"\"`, `rb'''`) of the string literal that line `line` (1-based) starts inside,
    read with Python's own tokenizer up to that line; None when the line starts in code."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    try:
        for token in tokens:
            if token.start[0] >= line:
                return None
            if token.type == tokenize.STRING and token.end[0] >= line:
                opening = _OPENING.match(token.string)
                return opening.group(0) if opening else None
    except (tokenize.TokenError, SyntaxError):
        return None
    return None


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


def excerpt_lexer(inside_string: str | None) -> PythonLexer:
    """The lexer every renderer highlights a page's excerpt with (given its `snippet.inside_string`): it starts
    where the whole file's lexing would."""
    return _ExcerptLexer(inside_string)
