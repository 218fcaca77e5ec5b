"""The short errdex panel shown under a traceback: one rich renderable, printed as text or exported as HTML.

Every piece of user text (messages, values) is added as rich Text, never as markup, so a value
like `[bold]` is shown as written. Long texts are cut: the full page is one command away.
"""

from __future__ import annotations

import io
from typing import Any, TextIO

from rich.console import Console, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from errdex.hooks.explainer import Explanation

MAX_TEXT = 320
MAX_VALUE = 120
MAX_VALUES = 4
MAX_OTHERS = 3
HTML_WIDTH = 100
HTML_FORMAT = '<pre class="errdex" style="font-family:monospace;line-height:1.3;white-space:pre-wrap">{code}</pre>'


def renderable(explanation: Explanation) -> RenderableType:
    """The panel when errdex found the raise site, else one dim line saying why not."""
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
    if c.approximate:
        title.append(f" · approximate ({c.confidence:.0%})", style="yellow")
    return title


def _rows(e: Explanation) -> Table:
    c = e.candidate
    assert c is not None
    page = e.page or {}
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column(overflow="fold")
    if e.earlier:
        grid.add_row("explains", Text(e.error + " (raised earlier in this chain)"))
    grid.add_row("raised at", Text.assemble((f"{c.file}:{c.line}", "cyan"), f" in {c.function}" if c.function else ""))
    if e.check:
        grid.add_row("check", Text(_cut(e.check, MAX_TEXT), style="yellow"))
    for label, value in _values(c.values, page.get("user_input")):
        grid.add_row(label, value)
    mean = _did_you_mean(c.suggestions, page.get("user_input"))
    if mean is not None:
        grid.add_row("did you mean", mean)
    solution = _solution(page)
    if solution is not None:
        grid.add_row("fix", solution)
    example = _example(page)
    if example is not None:
        grid.add_row("try", example)
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


def _values(values: tuple[str | None, ...], user: dict[str, Any] | None) -> list[tuple[str, Text]]:
    """The captured values, named by the code that filled each hole of the message when it is known."""
    checked = (user or {}).get("checked") or []
    rows: list[tuple[str, Text]] = []
    if checked:
        for entry in checked[:MAX_VALUES]:
            line = Text.assemble((str(entry.get("code")), "bold"), " = ", _cut(str(entry.get("value")), MAX_VALUE))
            if entry.get("result") in ("raises", "differs"):
                line.append(f"  ({entry['result']})", style="red" if entry["result"] == "raises" else "yellow")
            rows.append(("value" if not rows else "", line))
        return rows
    shown = [v for v in values if v]
    return [("value" if i == 0 else "", Text(_cut(v, MAX_VALUE))) for i, v in enumerate(shown[:MAX_VALUES])]


def _did_you_mean(suggestions: dict[str, list[str]], user: dict[str, Any] | None) -> Text | None:
    merged = {**((user or {}).get("suggestions") or {}), **suggestions}
    closest: dict[str, str] = {}
    for name, options in merged.items():
        if options and options[0] not in closest:
            closest[options[0]] = name
    if not closest:
        return None
    text = Text()
    for i, (value, name) in enumerate(list(closest.items())[:MAX_VALUES]):
        text.append(", " if i else "")
        text.append(repr(value), style="bold green")
        text.append(f" (for {name})", style="dim")
    return text


def _solution(page: dict[str, Any]) -> Text | None:
    solutions = page.get("solutions") or []
    if not solutions:
        return None
    text = Text(_cut(str(solutions[0].get("text", "")), MAX_TEXT))
    code = solutions[0].get("code")
    if code:
        text.append("\n" + _cut(str(code), MAX_VALUE), style="bold")
    return text


def _example(page: dict[str, Any]) -> Text | None:
    """The last line of the page's example fix: the call written with a value that passes."""
    fix = page.get("example_fix") or {}
    lines = [line for line in str(fix.get("after") or "").splitlines() if line.strip()]
    return Text(_cut(lines[-1], MAX_TEXT), style="bold green") if lines else None


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
