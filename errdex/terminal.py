"""Rich renderables for the terminal (the CLI and the in-process hooks share them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from errdex.model import ReleaseRecord

if TYPE_CHECKING:  # the index pipeline and the store are heavy to import; only their result types are named here
    from errdex.indexing import IndexResult
    from errdex.store import IndexedSite

MAX_CALLERS_SHOWN = 10
MAX_VALUES_SHOWN = 60


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


def error_table(release: ReleaseRecord, errors: list[IndexedSite]) -> RenderableType:
    """One entry an error: id, exception and place on one line, the template under it."""
    lines = [Text(f"{release.package} {release.version}: {len(errors)} errors", style="bold")]
    for error in errors:
        site = error.site
        line = Text()
        line.append(error.error_id, style="cyan")
        line.append(f"  {site.exception or site.level or site.kind}  ", style="bold")
        line.append(f"{site.file}:{site.line}", style="dim")
        line.append("\n    ")
        line.append(site.template if site.template is not None else f"({site.reason})")
        lines.append(line)
    return Group(*lines)


def page_panel(page: dict[str, Any]) -> RenderableType:
    """The whole explanation page (build_page's dict) as sections, for the terminal and the hooks."""
    sections: list[RenderableType] = [_page_header(page)]
    for title, render in _SECTIONS:
        body = render(page)
        if body is not None:
            sections += [Rule(Text(title, style="bold"), align="left", style="dim"), body]
    return Panel(Group(*sections), title=Text(page["id"], style="cyan"), title_align="left")


def _page_header(page: dict[str, Any]) -> RenderableType:
    head = Text()
    head.append(f"{page['package']} {page['version']}", style="bold")
    head.append(f" · {page['kind']} · ")
    head.append(page["exception"] or page["level"] or "", style="bold red")
    if page["exception_bases"]:
        head.append(f" ({', '.join(page['exception_bases'])})")
    lines: list[RenderableType] = [head, Text(page["template"] or f"({page['reason']})", style="bold")]
    lines.append(Text(f"{page['file']}:{page['line']} in {page['function']}", style="cyan"))
    written = page.get("written_at")
    if written:
        lines.append(
            Text(f"message written at {written['file']}:{written['line']} in {written['function']}", style="cyan")
        )
    if page["source_url"]:
        lines.append(Text(page["source_url"], style="dim"))
    return Group(*lines)


def _meaning(page: dict[str, Any]) -> RenderableType:
    meaning = page["what_it_means"]
    parts: list[RenderableType] = [code_text(meaning["summary"])]
    if meaning["condition"]:
        parts.append(Syntax(meaning["condition"], "python", word_wrap=True, background_color="default"))
    if len(meaning["clauses"]) > 1:
        parts += [code_text(f"  • {c['text']}") for c in meaning["clauses"]]
    for value in meaning["values"]:
        line = Text.assemble((value["name"], "bold"), " = ", _short_value(value["value"]))
        if value["defined_at"]:
            line.append(f"  ({value['defined_at']})", style="dim")
        parts.append(line)
    return Group(*parts)


def _source(page: dict[str, Any]) -> RenderableType | None:
    snippet = page["snippet"]
    if not snippet["text"]:
        return None
    return Syntax(
        snippet["text"],
        "python",
        line_numbers=True,
        start_line=snippet["start"],
        word_wrap=True,
        highlight_lines=set(range(page["line"], page["end_line"] + 1)),
        background_color="default",
    )


def _happens(page: dict[str, Any]) -> RenderableType:
    happens = page["when_it_happens"]
    parts: list[RenderableType] = [code_text(happens["summary"])]
    for item in happens["inputs"]:
        for way in item["ways_in"]:
            mark = "→" if way["reaches_check"] else "·"
            parts.append(code_text(f"  {mark} `{way['call'] or way['via']}`  ({way['file']}:{way['line']})"))
    callers = page["callers"]
    if callers:
        table = Table(box=None, show_header=False, pad_edge=False)
        for caller in callers[:MAX_CALLERS_SHOWN]:
            place = Text(f"{caller['file']}:{caller['line']}", style="dim")
            table.add_row(Text(caller["function"]), place, Text(caller["match"], style="dim"))
        parts += [Text("callers (by name):", style="dim"), table]
        if len(callers) > MAX_CALLERS_SHOWN:
            parts.append(Text(f"... and {len(callers) - MAX_CALLERS_SHOWN} more (--json lists them all)", style="dim"))
    return Group(*parts)


def _triggers(page: dict[str, Any]) -> RenderableType | None:
    if not page["triggers"]:
        return None
    parts: list[RenderableType] = []
    for trigger in page["triggers"]:
        parts.append(code_text(trigger["text"] + (" (your value)" if trigger["from_user"] else "")))
        if trigger["code"]:
            parts.append(Syntax(trigger["code"], "python", background_color="default"))
    return Group(*parts)


def _solutions(page: dict[str, Any]) -> RenderableType | None:
    if not page["solutions"]:
        return None
    return Group(*(code_text(f"{s['rank']}. {s['text']}") for s in page["solutions"]))


def _example_fix(page: dict[str, Any]) -> RenderableType | None:
    fix = page["example_fix"]
    if not fix:
        return None
    return Group(
        Text("before", style="red"),
        Syntax(fix["before"], "python", background_color="default"),
        Text("after", style="green"),
        Syntax(fix["after"], "python", background_color="default"),
    )


def _related(page: dict[str, Any]) -> RenderableType | None:
    if not page["related"]:
        return None
    table = Table(box=None, show_header=False, pad_edge=False)
    for r in page["related"]:
        template = (r["template"] or "(no template)").split("\n", 1)[0]
        table.add_row(
            Text(r["id"], style="cyan"),
            Text(r["relation"], style="dim"),
            Text(template, overflow="ellipsis", no_wrap=True),
        )
    return table


def _versions(page: dict[str, Any]) -> RenderableType:
    versions = page["versions"]
    parts: list[RenderableType] = []
    for release in versions["releases"]:
        places = ", ".join(f"{p['file']}:{p['line']}" for p in release["places"])
        parts.append(Text.assemble((release["version"], "bold"), f"  {places}"))
    if versions["missing_in"]:
        parts.append(Text(f"not in: {', '.join(versions['missing_in'])}", style="dim"))
    changed = versions["text_changed"]
    if changed:
        before = (
            f": was {changed['previous_id']} {changed['previous_template']!r}" if changed["previous_id"] else " (new)"
        )
        parts.append(Text(f"text since {changed['version']}{before}"))
    for change in versions["value_changes"]:
        parts.append(
            Text(
                f"{change['from_version']} → {change['to_version']}: {change['name_before']} → {change['name_after']}"
                f"  added {change['added'] or 'nothing'}, removed {change['removed'] or 'nothing'}"
            )
        )
    return Group(*parts)


def _provenance(page: dict[str, Any]) -> RenderableType:
    lines = []
    for fact in page["provenance"]:
        where = f"{fact['file']}:{fact['line']}" if fact["file"] else (fact["detail"] or "")
        lines.append(Text.assemble(code_text(fact["fact"]), (f"  {fact['release']}  {where}", "dim")))
    lines.append(Text(f"generated by: {page['generated_by']}", style="dim"))
    return Group(*lines)


def _prose(page: dict[str, Any]) -> RenderableType | None:
    prose = page.get("prose")
    if not prose:
        return None
    if not prose["text"]:
        return Text(f"{prose['label']} prose unavailable: {prose['error']}", style="dim")
    return Panel(
        Text(prose["text"]), title=Text(f"{prose['label']} ({prose['model']})", style="magenta"), title_align="left"
    )


_SECTIONS: list[tuple[str, Any]] = [
    ("What it means", _meaning),
    ("Source", _source),
    ("When it happens", _happens),
    ("Trigger", _triggers),
    ("Solutions", _solutions),
    ("Example fix", _example_fix),
    ("Related errors", _related),
    ("Versions", _versions),
    ("AI-assisted explanation", _prose),
    ("Provenance", _provenance),
]


def code_text(text: str) -> Text:
    """Plain text with `backtick` spans shown as code; never read as rich markup."""
    out = Text()
    for i, part in enumerate(text.split("`")):
        out.append(part, style="cyan" if i % 2 else "")
    return out


def _short_value(value: Any) -> str:
    if isinstance(value, list) and len(value) > MAX_VALUES_SHOWN:
        return repr(value[:MAX_VALUES_SHOWN])[:-1] + ", ...]"
    return repr(value)
