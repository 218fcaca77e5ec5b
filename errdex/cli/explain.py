"""`errdex explain`: where a pasted error, log line or traceback was raised, and what it means."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from errdex import terminal
from errdex.cli import console, db_option, full_option, json_option, main, print_json, reports_errors
from errdex.errors import InputError
from errdex.match import MatchResult
from errdex.match import explain as explain_text
from errdex.store import Store

if TYPE_CHECKING:
    from errdex.pages.statement_model import FailingStatement

MAX_INPUT = 16_000_000  # characters read from a file or stdin; the parser keeps the end of a longer paste


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
@full_option
@db_option
@json_option
@reports_errors
def explain(
    text: str | None,
    file_: Path | None,
    fetch: bool,
    no_index: bool,
    limit: int,
    full: bool,
    db_path: str | None,
    as_json: bool,
) -> None:
    """Find where an error was raised: TEXT is the message, log line or traceback ('-' reads stdin)."""
    paste = _read_paste(text, file_)
    with Store(db_path) as store:
        result = explain_text(paste, store=store, fetch=fetch, auto_index=not no_index, limit=limit)
        statement = _failed_statement(store, result)
        if as_json:
            print_json(_answer_json(result, statement))
            return
        console.print(render(result, store, full, statement))


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


ALSO_TITLE = "also in this paste (other errors and warnings, listed after the one that stopped it)"


def _answer_json(result: MatchResult, statement: FailingStatement | None) -> dict[str, object]:
    """The answer as the web's JSON answer has it (without the paste): the matcher's, the API change in words, the
    failing statement with its lines."""
    from errdex.match.drift_text import drift_text
    from errdex.pages.statement_render import statement_lines

    return {
        **result.to_json(),
        "api_words": drift_text(result.api).to_json() if result.api else None,
        "statement": statement.to_json() if statement else None,
        "statement_words": statement_lines(statement) if statement else None,
    }


def _failed_statement(store: Store, result: MatchResult) -> FailingStatement | None:
    """With no raise site and no API change to answer, the library statement the interpreter failed at."""
    if result.answered or not result.parsed.frames:
        return None
    from errdex.pages.statement import statement_for  # loaded only when nothing else answered

    return statement_for(store, result.parsed)


def render(result: MatchResult, store: Store, full: bool, statement: FailingStatement | None = None) -> RenderableType:
    """The answer at a glance (site, check, values, did-you-mean), then the top match's page: its answer, as much of
    it as fits one screen with the summary, or (`full`) all of it. With no raise site and no API change to show, the
    library statement the interpreter failed at, when the traceback's innermost frame is in an indexed release."""
    best = result.best
    if best is None:
        if statement is not None:
            from errdex.pages.statement_render import statement_lines

            lines = [Text(line) for line in statement_lines(statement)]
            return Group(
                Panel(Group(*lines), title=Text("where the interpreter failed", style="cyan"), title_align="left")
            )
        return _api_answer(result) or _abstention(result)
    from errdex.pages import (
        build_page,  # the page's modules are loaded only to show one
    )

    page = build_page(
        store,
        best.id,
        best.version,
        values=[v or "" for v in best.values],
        suggestions=best.suggestions,
        frames=result.parsed.frames,
    )
    summary = terminal.candidate_summary(best, page).panel()
    if full:
        parts: list[RenderableType] = [summary, terminal.page_panel(page)]
    else:
        screens = terminal.first_screens(page, "the same command with --full", header=False)
        parts = [terminal.FirstFitting([Group(summary, screen) for screen in screens])]
    if result.alternatives:
        parts.append(terminal.other_candidates(result.alternatives, "other possible sources"))
    if result.also:
        parts.append(terminal.other_candidates(result.also, ALSO_TITLE))
    api = _api_answer(result)
    if api is not None:
        parts.append(api)
    return Group(*parts)


def _api_answer(result: MatchResult) -> RenderableType | None:
    """The interpreter's error answered from the API of the indexed releases, with what errdex understood."""
    if result.api is None:
        return None
    from errdex.match.drift_text import drift_text

    parsed = result.parsed
    understood = Text.assemble(
        ("the interpreter raised ", "dim"), f"{parsed.exception}: ", terminal.clip(parsed.message, 200)
    )
    words = drift_text(result.api)
    panel = terminal.drift_panel(words, words.title)
    return Group(understood, panel)


def _abstention(result: MatchResult) -> RenderableType:
    lines: list[RenderableType] = [Text("No indexed error fits this paste well enough.", style="bold yellow")]
    parsed = result.parsed
    if parsed.exception or parsed.message:
        lines.append(
            Text.assemble(
                ("understood: ", "dim"), f"{parsed.exception or parsed.kind}: ", terminal.clip(parsed.message, 200)
            )
        )
    if result.hint:
        lines.append(Text(result.hint))
    if result.matches:
        lines.append(terminal.other_candidates(result.matches))
    if result.also:
        lines.append(terminal.other_candidates(result.also, ALSO_TITLE))
    return Group(*lines)
