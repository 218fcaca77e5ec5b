"""`errdex diff PACKAGE V1 V2`: the errors added, removed and changed between two releases, and the public API."""

from __future__ import annotations

import json
from typing import Any

import click
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from errdex.cli import console, db_option, json_option, main, print_json, reports_errors
from errdex.pages.api_diff import ApiDiffEntry, api_diff, api_diff_json
from errdex.pages.diff import Entry, ReleaseDiff, diff_json, diff_releases
from errdex.store import Store

_VALUE_WIDTH = 100  # characters of a value shown in the table
_MARKS = {"added": ("+", "green"), "removed": ("-", "red"), "changed": ("~", "yellow")}
_API_MARKS = {
    "removed": ("-", "red"),
    "moved": (">", "yellow"),
    "signature": ("~", "yellow"),
    "deprecated": ("!", "yellow"),
    "added": ("+", "green"),
}


@main.command()
@click.argument("package")
@click.argument("old_version")
@click.argument("new_version")
@click.option("--kind", type=click.Choice(["error", "warning", "log"]), help="Only this kind of site.")
@db_option
@json_option
@reports_errors
def diff(
    package: str, old_version: str, new_version: str, kind: str | None, db_path: str | None, as_json: bool
) -> None:
    """What changed in PACKAGE's errors from OLD_VERSION to NEW_VERSION (both indexed): errors added,
    removed, and changed (reworded, other allowed values, other bases or checks); then its public API: names
    removed, moved, with another signature, newly deprecated, added."""
    with Store(db_path) as store:
        result = diff_releases(store, package, old_version, new_version, kind)
        api = api_diff(store, package, old_version, new_version)
    if as_json:
        print_json({**diff_json(result), "api": api_diff_json(api)})
        return
    console.print(_render(result), _render_api(api))


def _render_api(entries: tuple[ApiDiffEntry, ...]) -> RenderableType:
    """The public API's changes: names removed, moved, with another signature, newly deprecated, added."""
    counts = ", ".join(f"{sum(e.change == c for e in entries)} {c}" for c in _API_MARKS)
    head = Text.assemble(("public API: ", "bold"), counts)
    if not entries:
        return head
    table = Table(show_lines=False, expand=False)
    for column in ("", "name", "kind", "where", "what changed"):
        table.add_column(column, overflow="fold")
    for e in entries:
        mark, style = _API_MARKS[e.change]
        where = Text(f"{e.file}:{e.line}", style="dim")
        table.add_row(Text(mark, style=f"bold {style}"), e.path, e.kind, where, "; ".join(e.details) or e.change)
    return Group(head, table)


def _render(result: ReleaseDiff) -> RenderableType:
    head = Text.assemble(
        (f"{result.package} {result.old_version} → {result.new_version}: ", "bold"),
        (f"{len(result.added)} added", "green"),
        ", ",
        (f"{len(result.removed)} removed", "red"),
        ", ",
        (f"{len(result.changed)} changed", "yellow"),
    )
    if not (result.added or result.removed or result.changed):
        return Group(head, Text("No error was added, removed or changed."))
    table = Table(show_lines=False, expand=False)
    table.add_column("")
    table.add_column("id", no_wrap=True)
    table.add_column("exception")
    table.add_column("where", overflow="fold")
    table.add_column("message / what changed", ratio=1, overflow="fold")
    for name, entries in (("added", result.added), ("removed", result.removed), ("changed", result.changed)):
        mark, style = _MARKS[name]
        for entry in entries:
            site = entry.site
            table.add_row(
                Text(mark, style=f"bold {style}"),
                Text(entry.id, style="cyan"),
                Text(site.exception or site.level or site.kind),
                Text(f"{site.file}:{site.line}", style="dim"),
                _details(entry),
            )
    return Group(head, table)


def _shown(value: Any) -> str:
    """A resolved value as the table shows it: JSON cut to one line's worth (`--json` has it whole)."""
    if value is None:
        return "(not resolved)"
    text = json.dumps(value, ensure_ascii=False)
    if len(text) <= _VALUE_WIDTH:
        return text
    size = f" ({len(value)} items)" if isinstance(value, (list, dict)) else ""
    return text[: _VALUE_WIDTH - len(size) - 1] + "…" + size


def _details(entry: Entry) -> Text:
    site = entry.site
    text = Text(site.template if site.template is not None else f"({site.reason})")
    if entry.old is None or entry.new is None:
        return text
    if "template" in entry.changes:
        text = Text.assemble(
            ("was: ", "dim"),
            entry.old.template or f"({entry.old.reason})",
            "\n",
            ("now: ", "dim"),
            entry.new.template or f"({entry.new.reason})",
        )
    if "moved" in entry.changes:
        where = f"{entry.old.file}:{entry.old.line}" + (f" in {entry.old.function}" if entry.old.function else "")
        text.append(f"\nmoved from {where}", style="dim")
    for value in entry.values:
        if value.added or value.removed:
            parts = [f"+{_shown(v)}" for v in value.added] + [f"-{_shown(v)}" for v in value.removed]
            text.append(f"\n{value.name}: " + " ".join(parts), style="yellow")
        else:
            text.append(f"\n{value.name}: {_shown(value.old)} → {_shown(value.new)}", style="yellow")
    if "bases" in entry.changes:
        text.append(
            f"\nbases: {', '.join(entry.old.exception_bases) or '-'} → {', '.join(entry.new.exception_bases) or '-'}",
            style="yellow",
        )
    if "condition" in entry.changes:
        text.append(f"\ncheck: {entry.old.condition or '-'} → {entry.new.condition or '-'}", style="yellow")
    return text
