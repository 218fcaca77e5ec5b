"""An excerpt that starts inside a docstring is highlighted as its whole file is: the raise is code, not text."""

from __future__ import annotations

from pygments.lexers import PythonLexer
from pygments.token import Keyword, Name, String, _TokenType
from rich.console import Console
from rich.syntax import Syntax

from errdex.pages import build_page
from errdex.pages.excerpt import excerpt_lexer, string_opening
from errdex.store import Store
from errdex.terminal import _source
from errdex.web.render import excerpt

from .conftest import Indexer, error_id_of

DOC_LINES = "\n".join(f"    Line {n} of a docstring long enough to open above the excerpt." for n in range(30))
MODULE = f'''
def check(mode):
    """Check the mode.

{DOC_LINES}
    """
    if mode not in ("a", "b"):
        raise ValueError("bad mode")
'''


def line_tokens(lexer: PythonLexer, text: str, line: int) -> list[tuple[_TokenType, str]]:
    """The non-blank tokens of one line (1-based) of `text`."""
    lines: list[list[tuple[_TokenType, str]]] = [[]]
    for kind, value in lexer.get_tokens(text):
        for n, part in enumerate(value.split("\n")):
            if n:
                lines.append([])
            if part.strip():
                lines[-1].append((kind, part.strip()))
    return lines[line - 1]


def test_the_opening_of_the_string_a_line_continues() -> None:
    source = 'x = 1\ny = rb"""a\nb\n"""\nz = "one line"\n'
    assert [string_opening(source, n) for n in (1, 2, 3, 4, 5)] == [None, None, 'rb"""', 'rb"""', None]


def test_an_excerpt_opening_inside_a_docstring_highlights_the_raise_as_code(indexed: Indexer, store: Store) -> None:
    indexed({"pkg/modes.py": MODULE})
    page = build_page(store, error_id_of(store, "pkg", "bad mode"))
    snippet = page["snippet"]
    assert snippet["inside_string"] == '"""' and snippet["text"].lstrip().startswith("Line")
    raise_line = page["line"] - snippet["start"] + 1

    alone = line_tokens(PythonLexer(), snippet["text"], raise_line)  # the excerpt lexed on its own: inverted
    assert all(kind in String for kind, _ in alone)
    tokens = line_tokens(excerpt_lexer(snippet["inside_string"]), snippet["text"], raise_line)
    assert tokens[:2] == [(Keyword, "raise"), (Name.Exception, "ValueError")]
    assert line_tokens(excerpt_lexer(snippet["inside_string"]), snippet["text"], 1)[0][0] in String

    assert '<span class="k">raise</span>' in excerpt(snippet, page["line"], page["end_line"])

    syntax = _source(page)
    assert isinstance(syntax, Syntax)
    text, console = syntax.highlight(syntax.code), Console()
    keyword = Syntax("raise", "python", background_color="default").highlight("raise").get_style_at_offset(console, 0)
    assert text.get_style_at_offset(console, text.plain.index("raise ValueError")) == keyword
