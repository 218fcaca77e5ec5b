"""Rich renderables for the terminal (the CLI and the in-process hooks share them)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from errdex.index import IndexResult
from errdex.model import ErrorRecord, ReleaseRecord, Site


def index_result_json(result: IndexResult) -> dict[str, Any]:
    r = result.release
    return {
        "package": r.package,
        "version": r.version,
        "source_kind": r.source_kind,
        "digest": r.digest,
        "files": result.files,
        "analysed": result.analysed,
        "reused": result.reused,
        "skipped": result.skipped,
        "sites": r.site_count,
        "errors": r.error_count,
        "seconds": round(result.seconds, 3),
    }


def index_summary(result: IndexResult) -> Text:
    r = result.release
    text = Text()
    text.append("indexed ", style="green")
    text.append(f"{r.package} {r.version}", style="bold")
    text.append(
        f": {r.error_count} errors at {r.site_count} sites in {result.files} files"
        f" ({result.reused} reused, {result.skipped} skipped) in {result.seconds:.1f}s"
    )
    return text


def error_table(release: ReleaseRecord, errors: list[tuple[str, Site]]) -> RenderableType:
    """One entry an error: id, exception and place on one line, the template under it."""
    lines = [Text(f"{release.package} {release.version}: {len(errors)} errors", style="bold")]
    for eid, site in errors:
        line = Text()
        line.append(eid, style="cyan")
        line.append(f"  {site.exception or site.level or site.kind}  ", style="bold")
        line.append(f"{site.file}:{site.line}", style="dim")
        line.append("\n    ")
        line.append(site.template if site.template is not None else f"({site.reason})")
        lines.append(line)
    return Group(*lines)


def error_record(record: ErrorRecord) -> RenderableType:
    site = record.site
    head = Text()
    head.append(f"{record.release.package} {record.release.version}", style="bold")
    head.append(f" · {site.kind} · ")
    head.append(site.exception or site.level or "", style="bold red")
    if site.exception_bases:
        head.append(f" ({', '.join(site.exception_bases)})")
    parts: list[RenderableType] = [head, Text(site.template or f"({site.reason})", style="bold")]
    parts.append(Text(f"{site.file}:{site.line} in {site.function}", style="cyan"))
    if site.condition:
        parts.append(Text.assemble(("check: ", "dim"), (site.condition, "yellow")))
    for name, value in site.resolved.items():
        parts.append(Text.assemble((f"{name} = ", "dim"), repr(value), (f"  ({site.resolved_from.get(name, '')})", "dim")))
    if site.snippet.text:
        parts.append(
            Syntax(site.snippet.text, "python", line_numbers=True, start_line=site.snippet.start,
                   highlight_lines=set(range(site.line, site.end_line + 1)), word_wrap=True)
        )
    if record.related:
        related = Table(box=None, show_header=False, pad_edge=False)
        for r in record.related:
            related.add_row(Text(r.id, style="cyan"), Text(r.relation, style="dim"), Text(r.template or "(no template)"))
        parts.append(Text("related", style="bold"))
        parts.append(related)
    return Panel(Group(*parts), title=record.id, title_align="left")
