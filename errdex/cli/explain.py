"""`errdex explain`: where a pasted error, log line or traceback was raised, and what it means."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from errdex import terminal
from errdex.cli import console, db_option, json_option, main, print_json, reports_errors
from errdex.errors import InputError
from errdex.match import Candidate, MatchResult
from errdex.match import explain as explain_text
from errdex.match.result import by_class_alone
from errdex.store import Store

MAX_INPUT = 16_000_000  # characters read from a file or stdin; the parser keeps the end of a longer paste
MAX_SHOWN_VALUE = 300
MAX_SHOWN_ALLOWED = 30


@main.command()
@click.argument("text", required=False)
@click.option(
    "--file", "file_", type=click.Path(exists=True, dir_okay=False, path_type=Path), help="Read the paste from a file."
)
@click.option(
    "--fetch", is_flag=True, help="Allow downloading the release the traceback names when it is not installed."
)
@click.option("--no-index", is_flag=True, help="Do not index the installed package a traceback names.")
@click.option("--limit", type=click.IntRange(1, 100), default=5, show_default=True, help="Candidates to return.")
@db_option
@json_option
@reports_errors
def explain(
    text: str | None, file_: Path | None, fetch: bool, no_index: bool, limit: int, db_path: str | None, as_json: bool
) -> None:
    """Find where an error was raised: TEXT is the message, log line or traceback ('-' reads stdin)."""
    paste = _read_paste(text, file_)
    with Store(db_path) as store:
        result = explain_text(paste, store=store, fetch=fetch, auto_index=not no_index, limit=limit)
        if as_json:
            print_json(result.to_json())
            return
        console.print(render(result, store))


def _read_paste(text: str | None, file_: Path | None) -> str:
    if file_ is not None and text is not None:
        raise InputError("Give the paste either as TEXT or with --file, not both.")
    if file_ is not None:
        try:
            with file_.open(encoding="utf-8", errors="replace") as f:
                return f.read(MAX_INPUT)
        except OSError as exc:
            raise InputError(f"Cannot read {file_}: {exc.strerror}") from None
    if text == "-":
        return sys.stdin.read(MAX_INPUT)
    if text is None:
        raise InputError("Nothing to explain: pass the error as TEXT, '-' to read stdin, or --file FILE.")
    return text


def render(result: MatchResult, store: Store) -> RenderableType:
    """The answer at a glance (site, check, values, did-you-mean), then the top match's full page."""
    best = result.best
    if best is None:
        return _abstention(result)
    from errdex.pages import (
        build_page,  # the page's modules are loaded only to show one
    )

    page = build_page(store, best.id, best.version, values=[v or "" for v in best.values], suggestions=best.suggestions)
    parts: list[RenderableType] = [_summary(best, page), terminal.page_panel(page)]
    others = result.matches[1:]
    if others:
        parts.append(_others(others))
    return Group(*parts)


def _summary(c: Candidate, page: dict[str, Any]) -> RenderableType:
    from errdex.pages.values import holes

    condition = page.get("condition")
    codes = [h.code for h in holes(page.get("message_source", ""), c.template) or []]
    lines: list[RenderableType] = []
    head = Text()
    head.append(c.exception or c.kind, style="bold red")
    head.append(f"  {c.package} {c.version}", style="bold")
    head.append(f"  confidence {c.confidence:.0%}", style="green" if c.confidence >= 0.8 else "yellow")
    if by_class_alone(c.evidence):
        head.append("  (found by its exception class alone: no words of the message were matched)", style="yellow")
    elif c.approximate and c.template is not None:
        head.append("  (approximate: the message differs from this version's template)", style="yellow")
    lines.append(head)
    lines.append(Text(c.template or "(no template)", style="bold"))
    lines.append(Text(f"{c.file}:{c.line} in {c.function or '?'}", style="cyan"))
    if condition:
        lines.append(Text.assemble(("check that fired: ", "dim"), (condition, "yellow")))
    for k, value in enumerate(c.values):
        if value is not None:
            label = _clip(codes[k], 60) if k < len(codes) else f"value {k + 1}"
            lines.append(Text.assemble((f"{label}: ", "dim"), _clip(value, MAX_SHOWN_VALUE)))
    for name, close in c.suggestions.items():
        lines.append(
            Text.assemble(
                ("did you mean: ", "bold magenta"), f"{name} = ", (" or ".join(repr(v) for v in close), "bold")
            )
        )
    for name, options in c.allowed.items():
        shown = ", ".join(repr(o) for o in options[:MAX_SHOWN_ALLOWED]) + (
            ", ..." if len(options) > MAX_SHOWN_ALLOWED else ""
        )
        lines.append(Text.assemble((f"allowed {name}: ", "dim"), shown))
    if len(c.versions) > 1:
        lines.append(Text.assemble(("in indexed versions: ", "dim"), ", ".join(c.versions)))
    return Panel(Group(*lines), title=c.id, title_align="left")


def _others(others: list[Candidate]) -> RenderableType:
    lines = [Text("other candidates", style="bold")]
    for c in others:
        line = Text()
        line.append(f"{c.confidence:4.0%} ", style="dim")
        line.append(c.id, style="cyan")
        line.append(f"  {c.package} {c.version}  {c.file}:{c.line}  ", style="dim")
        line.append(_clip(c.template or "", 100))
        lines.append(line)
    return Group(*lines)


def _abstention(result: MatchResult) -> RenderableType:
    lines: list[RenderableType] = [Text("No indexed error fits this paste well enough.", style="bold yellow")]
    parsed = result.parsed
    if parsed.exception or parsed.message:
        lines.append(
            Text.assemble(("understood: ", "dim"), f"{parsed.exception or parsed.kind}: ", _clip(parsed.message, 200))
        )
    if result.hint:
        lines.append(Text(result.hint))
    if result.matches:
        lines.append(_others(result.matches))
    return Group(*lines)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
