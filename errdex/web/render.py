"""HTML from page data: Jinja2 with autoescaping everywhere, pygments for source excerpts.

Every value a template prints is escaped (pasted text and indexed code are untrusted); the only
markup not written by a template is pygments' output, which escapes the code it wraps, and the
filters here, which escape what they are given, and the `<wbr>` that `break_long_words` adds.
"""

from __future__ import annotations

import json
import os
import re
import textwrap
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import ChainableUndefined, Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

from errdex.match.result import by_class_alone
from errdex.model import NO_FIX, Language, class_shown, way_note
from errdex.pages.entries import ENTRIES_HEADING, entry_line
from errdex.pages.excerpt import excerpt_lexer
from errdex.pages.model import SourceExcerpt
from errdex.pages.source import module_name
from errdex.web.breaks import break_long_words
from errdex.web.links import Links

HERE = Path(__file__).parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
STRICT_ENV = "ERRDEX_STRICT_TEMPLATES"
CODE_CLASS = "code"
MAX_HIGHLIGHT_CHARS = 200_000  # an excerpt longer than this is cut
RELATIONS = {
    "function": "same function",
    "setting": "checks the same setting",
}
_TICKED = re.compile(r"`([^`\n]+)`")


def environment() -> Environment:
    """The one Jinja2 environment: autoescaping on for every template.

    A key the page data lacks renders as nothing, so that a page model with a section left out
    still gives a page; with ERRDEX_STRICT_TEMPLATES set (the tests set it) it is an error instead.
    """
    strict = bool(os.environ.get(STRICT_ENV))
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=StrictUndefined if strict else ChainableUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["module"] = module_name
    env.filters["pretty"] = pretty
    env.filters["excerpt"] = excerpt
    env.filters["python"] = python
    env.filters["ticks"] = ticks
    env.filters["http_url"] = http_url
    env.filters["thousands"] = thousands
    env.globals["holes"] = holes
    env.globals["by_class_alone"] = by_class_alone
    env.globals["RELATIONS"] = RELATIONS
    env.globals["NO_FIX"] = NO_FIX
    env.globals["class_shown"] = class_shown
    env.globals["way_note"] = way_note
    env.globals["entry_line"] = entry_line
    env.globals["ENTRIES_HEADING"] = ENTRIES_HEADING
    return env


class Renderer:
    """Renders a named page template with its data and the links of where it is shown."""

    def __init__(self) -> None:
        self.env = environment()

    def page(self, name: str, data: Mapping[str, object], links: Links, **extra: Any) -> str:
        return break_long_words(self.env.get_template(name).render(page=data, links=links, **extra))


def pretty(value: Any) -> str:
    """A resolved value as a reader expects it: strings bare, everything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def holes(template: str, values: list[str | None] | None = None) -> list[tuple[str, str | None, bool]]:
    """The template cut at its `{}` holes: (literal text, the value in the hole after it, has a hole)."""
    parts = template.split("{}")
    values = list(values or [])
    out = []
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        out.append((part, None if last or i >= len(values) else values[i], not last))
    return out


def ticks(text: str | None) -> Markup:
    """Prose with `code` in backticks: escaped first, then each backticked span set as code."""
    return Markup(_TICKED.sub(r"<code>\1</code>", str(escape(text or ""))))


def thousands(number: int) -> str:
    """A count with thousands separated: 7,078."""
    return f"{number:,}"


def http_url(url: str | None) -> str | None:
    """The URL if it is http(s), else None: links read from package metadata must not run anything."""
    return url if isinstance(url, str) and url.lower().startswith(("https://", "http://")) else None


def python(code: str | None) -> Markup:
    """A short piece of Python (a trigger, a fix) highlighted, without line numbers."""
    return Markup(_python(code or ""))


@lru_cache(maxsize=1024)
def _python(code: str) -> str:
    formatter = HtmlFormatter(cssclass=CODE_CLASS, wrapcode=True)
    return _scrollable(highlight(code[:MAX_HIGHLIGHT_CHARS], PythonLexer(), formatter))


def excerpt(snippet: SourceExcerpt, line: int, end_line: int) -> Markup:
    """The source excerpt highlighted, numbered from its first line, the raise lines marked.

    The indentation all its lines share is removed, so that the code fits narrow screens; the lexer
    starts where the whole file's lexing would (`excerpt_lexer`: an excerpt may open inside a docstring).
    """
    return Markup(
        _highlighted(snippet["text"], snippet["start"], line, end_line, snippet["inside_string"], snippet["language"])
    )


@lru_cache(maxsize=1024)
def _highlighted(text: str, start: int, line: int, end_line: int, inside_string: str | None, language: Language) -> str:
    marked = [n - start + 1 for n in range(line, max(line, end_line) + 1)]
    formatter = HtmlFormatter(
        cssclass=CODE_CLASS,
        linenos="inline",
        linenostart=max(start, 1),
        hl_lines=marked,
        lineanchors="L",  # each line has an id (#L-687) to link to; its number is no link, so not a Tab stop
        wrapcode=True,
    )
    return _scrollable(
        highlight(textwrap.dedent(text[:MAX_HIGHLIGHT_CHARS]), excerpt_lexer(inside_string, language), formatter)
    )


def _scrollable(html: str) -> str:
    """Code that scrolls sideways is one Tab stop, so that a keyboard can scroll it too."""
    return html.replace("<pre>", '<pre tabindex="0">', 1)


@lru_cache(maxsize=1)
def highlight_css() -> str:
    """The stylesheet of the highlighted excerpts, light and dark."""
    light = HtmlFormatter(style="default").get_style_defs(f".{CODE_CLASS}")
    dark = HtmlFormatter(style="github-dark").get_style_defs(f".{CODE_CLASS}")
    return f"{light}\n@media (prefers-color-scheme: dark) {{\n{dark}\n}}\n"
