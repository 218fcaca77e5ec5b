"""The short errdex panel shown under a traceback: one rich renderable, printed as text or exported as HTML.

Every piece of user text (messages, values) is added as rich Text, never as markup, so a value
like `[bold]` is shown as written. Long texts are cut: the full page is one command away.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, TextIO

from rich.console import Console, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from errdex.hooks.explainer import Explanation
from errdex.match.drift_text import drift_text
from errdex.terminal import candidate_summary, drift_panel, sureness

if TYPE_CHECKING:  # the pages are loaded only when there is an error to explain
    from errdex.pages.model import Page

MAX_TEXT = 320
MAX_VALUE = 120
MAX_VALUES = 4
MAX_OTHERS = 3
HTML_WIDTH = 100
HTML_FORMAT = '<pre class="errdex" style="font-family:monospace;line-height:1.3;white-space:pre-wrap">{code}</pre>'


def renderable(explanation: Explanation) -> RenderableType:
    """The panel when errdex found the raise site or the API change behind an interpreter's error, else one dim line
    saying why not."""
    if explanation.candidate is None and explanation.statement is not None:
        from errdex.pages.statement_render import statement_lines

        lines = Text("\n".join(statement_lines(explanation.statement)))
        return Panel(lines, title=Text("errdex · where the interpreter failed", style="bold cyan"), title_align="left")
    if explanation.candidate is None and explanation.api is not None:
        words = drift_text(explanation.api)
        return drift_panel(words, f"errdex · {words.title}")
    if explanation.candidate is None:
        return abstention(explanation)
    return Panel(_rows(explanation), title=_title(explanation), title_align="left", border_style="cyan", expand=False)


def abstention(explanation: Explanation) -> Text:
    """One dim line: why errdex shows no raise site for this error."""
    text = Text("errdex: ", style="bold cyan")
    text.append(_cut(explanation.hint or "no indexed raise site explains this error.", MAX_TEXT), style="dim")
    return text


def _title(e: Explanation) -> Text:
    c = e.candidate
    assert c is not None
    title = Text.assemble(("errdex", "bold cyan"), f" · {c.package} {c.version} · ", (c.exception or c.kind, "bold"))
    short = sureness(c)
    if short is not None:
        title.append(f" · {short[0]} ({c.confidence:.0%})", style="yellow")
    return title


def _rows(e: Explanation) -> Table:
    c = e.candidate
    assert c is not None
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column(overflow="fold")
    if e.earlier:
        grid.add_row("explains", Text(e.error + " (raised earlier in this chain)"))
    summary = candidate_summary(c, e.page, MAX_VALUE, MAX_TEXT)
    grid.add_row("raised at", summary.place)
    for row in [summary.check, *summary.values[:MAX_VALUES], *summary.did_you_mean[:MAX_VALUES]]:
        if row is not None:
            grid.add_row(Text(row.label, style=row.label_style), row.text)
    if e.page is not None:
        _page_rows(grid, e.page)
    grid.add_row(
        "full page",
        Text(f"errdex show {c.id}" + (f" --version {c.version}" if len(c.versions) > 1 else ""), style="bold"),
    )
    others = [
        *e.others[:MAX_OTHERS],
        *([f"… and {len(e.others) - MAX_OTHERS} more"] if len(e.others) > MAX_OTHERS else []),
    ]
    for i, other in enumerate(others):
        grid.add_row("also raised" if i == 0 else "", Text(_cut(other, MAX_VALUE), style="dim"))
    return grid


def _page_rows(grid: Table, page: Page) -> None:
    """The page's first solution and the call of its example fix."""
    if page["solutions"]:
        first = page["solutions"][0]
        text = Text(_cut(first["text"], MAX_TEXT))
        if first.get("code"):
            text.append("\n" + _cut(first["code"], MAX_VALUE), style="bold")
        grid.add_row("fix", text)
    fix = page["example_fix"]
    lines = [line for line in fix["after"].splitlines() if line.strip()] if fix else []
    if lines:  # its last line: the call written with a value that passes
        grid.add_row("try", Text(_cut(lines[-1], MAX_TEXT), style="bold green"))


def _cut(text: str, limit: int) -> str:
    text = " ".join(text.split()) if "\n" in text else text
    return text if len(text) <= limit else text[: limit - 1] + "…"


def print_to(explanation: Explanation, stream: TextIO) -> None:
    """Print the panel to a stream the way rich would for that stream (colour only on a terminal)."""
    Console(file=stream, highlight=False, soft_wrap=False).print(renderable(explanation))


def to_text(shown: RenderableType, color: bool = False, width: int = HTML_WIDTH) -> str:
    """A renderable as text (ANSI colours when `color`)."""
    out = io.StringIO()
    console = Console(
        file=out, width=width, highlight=False, color_system="truecolor" if color else None, force_terminal=color
    )
    console.print(shown)
    return out.getvalue()


def to_html(shown: RenderableType) -> str:
    """A renderable as an HTML fragment with inline styles (for notebooks)."""
    console = Console(
        file=io.StringIO(),
        record=True,
        width=HTML_WIDTH,
        highlight=False,
        color_system="truecolor",
        force_terminal=True,
    )
    console.print(shown)
    return console.export_html(inline_styles=True, code_format=HTML_FORMAT)
