"""`errdex api`: the public API of an indexed release, or one symbol with its signature and history."""

from __future__ import annotations

import click
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from errdex.cli import console, db_option, json_option, main, print_json, reports_errors
from errdex.match.api_view import ApiView, SymbolView, api_view
from errdex.model import ApiSymbol
from errdex.store import Store

_STATE_STYLE = {"present": "green", "deprecated": "yellow", "absent": "red"}


@main.command("api")
@click.argument("package")
@click.argument("symbol", required=False)
@click.option("--version", "version_", help="Release to read (default: the newest indexed).")
@db_option
@json_option
@reports_errors
def api(package: str, symbol: str | None, version_: str | None, db_path: str | None, as_json: bool) -> None:
    """Show the public API of a release of PACKAGE, or SYMBOL (e.g. TrainingArguments, DataFrame.append) with its
    signature, deprecations and which indexed releases have it."""
    with Store(db_path) as store:
        view = api_view(store, package, version_, symbol)
    if as_json:
        print_json(view.to_json())
        return
    console.print(render(view))


def render(view: ApiView) -> RenderableType:
    head = Text.assemble((f"{view.package} {view.version}", "bold"), ("  indexed: " + ", ".join(view.versions), "dim"))
    if view.symbol is None:
        table = Table(box=None, show_header=False, pad_edge=False)
        for s in view.top_level:
            table.add_row(Text(s.kind, style="dim"), s.qualname, Text(s.target or "", style="dim"))
        return Group(head, Text(f"{len(view.top_level)} names at the top level", style="dim"), table)
    if not view.found:
        return Group(head, Text(f"{view.symbol}: not in {view.package} {view.version}", style="yellow"))
    return Group(head, *(_symbol(found) for found in view.found))


def _symbol(found: SymbolView) -> RenderableType:
    s = found.symbol
    lines: list[RenderableType] = [
        Text.assemble((found.path, "bold cyan"), f"  {s.kind}  ", (f"{found.file}:{s.line}", "dim"))
    ]
    if s.params is not None:
        lines.append(Text(f"  ({_signature(s)})"))
    if s.bases:
        lines.append(Text(f"  bases: {', '.join(s.bases)}"))
    if s.target:
        lines.append(Text(f"  refers to: {s.target}"))
    for d in s.deprecations:
        instead = f" → {d.replacement}" if d.replacement else ""
        lines.append(Text(f"  deprecated: {d.name}{instead}  ({d.message or 'no message read'})", style="yellow"))
    if s.message and not s.deprecations:
        lines.append(Text(f"  message: {s.message}", style="yellow"))
    history = Table(box=None, show_header=False, pad_edge=False, padding=(0, 2, 0, 2))
    for state in found.history:
        history.add_row(
            state.version, Text(state.state, style=_STATE_STYLE.get(state.state, "dim")), state.reason or ""
        )
    lines += [Text("  in the indexed releases:", style="dim"), history]
    return Group(*lines)


def _signature(s: ApiSymbol) -> str:
    out = []
    for p in s.params or ():
        star = "*" if p.kind == "var_positional" else "**" if p.kind == "var_keyword" else ""
        out.append(f"{star}{p.name}" + (f"={p.default}" if p.default is not None else ""))
    return ", ".join(out)
