"""Rich renderables for the terminal (the CLI and the in-process hooks share them)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias, TypedDict

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.padding import Padding
from rich.panel import Panel
from rich.rule import Rule
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from errdex.model import NO_FIX, ReleaseRecord, class_shown, way_note

if TYPE_CHECKING:  # the pipeline, matcher, pages and store are heavy to import; only their types are named here
    from errdex.indexing import IndexResult
    from errdex.match import Candidate
    from errdex.match.drift_text import DriftText
    from errdex.pages.model import Page, Solution, YourLine
    from errdex.store import IndexedSite

RUN_STYLE = {"verified": "green", "disproved": "red"}
MAX_CALLERS_SHOWN = 10
MAX_VALUES_SHOWN = 60
MAX_SHOWN_VALUE = 300
MAX_SHOWN_ALLOWED = 30
MAX_SHOWN_LABEL = 60
MAX_SHOWN_TEMPLATE = 100
MAX_SKIPPED_SHOWN = 10  # skipped files listed under `errdex index`'s line for a release
SCREEN_HEIGHT = 40  # the first screen when the output is not a terminal (a pipe, a file, a test): an 80x40 one
MIN_SCREEN_HEIGHT = 24  # a terminal smaller than that scrolls: the answer is then cut no shorter than for 24 lines
MORE_MEANING = " … (more with --full)"  # ends what the first screen keeps of the page's meaning


class SkippedFileJson(TypedDict):
    """A file of a release that was not analysed, and why."""

    path: str
    reason: str


class IndexResultJson(TypedDict):
    """What indexing one release did, as `errdex index --json` reports it."""

    package: str
    version: str
    source_kind: str
    digest: str
    files: int
    analysed: int
    reused: int
    skipped: int
    skipped_files: list[SkippedFileJson]  # every one, however many
    sites: int
    errors: int
    seconds: float


def index_result_json(result: IndexResult) -> IndexResultJson:
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
        "skipped_files": [{"path": f.path, "reason": f.reason} for f in result.skipped_files],
        "sites": r.site_count,
        "errors": r.error_count,
        "seconds": round(result.seconds, 3),
    }


def index_summary(result: IndexResult) -> Text:
    """One line for the release, then a line for each skipped file with its reason (the first few)."""
    r = result.release
    text = Text()
    text.append("indexed ", style="green")
    text.append(f"{r.package} {r.version}", style="bold")
    text.append(
        f": {r.error_count} errors at {r.site_count} sites in {result.files} files"
        f" ({result.reused} reused, {result.skipped} skipped) in {result.seconds:.1f}s"
    )
    for skipped in result.skipped_files[:MAX_SKIPPED_SHOWN]:
        text.append("\n  skipped ", style="yellow")
        text.append(skipped.path, style="bold")
        text.append(f": {skipped.reason}")
    if result.skipped > MAX_SKIPPED_SHOWN:
        text.append(f"\n  and {result.skipped - MAX_SKIPPED_SHOWN} more skipped; --json lists them all", style="dim")
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


def sureness(c: Candidate) -> tuple[str, str] | None:
    """How far a candidate falls short of the message, as (what, why); None when the message matched it."""
    from errdex.match.result import by_class_alone

    if by_class_alone(c.evidence):
        return "found by its exception class alone", "no words of the message were matched"
    if c.cut:
        return "cut short", "the paste stops partway through this template"
    if c.approximate and c.template is not None:
        return "approximate", "the message differs from this version's template"
    return None


@dataclass(frozen=True)
class SummaryRow:
    """One labelled fact of a candidate: a line `label: text` in the CLI, a row of the hooks' grid."""

    label: str
    text: Text
    label_style: str = "dim"

    def line(self) -> Text:
        return Text.assemble((f"{self.label}: ", self.label_style), self.text)


@dataclass(frozen=True)
class CandidateSummary:
    """A candidate at a glance (where, the check, the values, the did-you-mean), each fact rendered once."""

    id: str
    head: Text  # exception, release, confidence and how sure
    template: Text
    place: Text
    check: SummaryRow | None
    values: list[SummaryRow]  # labelled with the code that filled each hole of the message
    did_you_mean: list[SummaryRow]
    allowed: list[SummaryRow]
    versions: SummaryRow | None
    copies: SummaryRow | None  # identical code elsewhere, which the paste cannot tell from this place

    def panel(self) -> Panel:
        """The summary as the CLI shows it above the page."""
        rows = [self.check, *self.values, *self.did_you_mean, *self.allowed, self.versions, self.copies]
        lines = [self.head, self.template, self.place, *(row.line() for row in rows if row is not None)]
        return Panel(Group(*lines), title=self.id, title_align="left")


def candidate_summary(
    c: Candidate, page: Page | None, max_value: int = MAX_SHOWN_VALUE, max_check: int | None = None
) -> CandidateSummary:
    """The summary of a candidate with its page (None: it could not be built); values cut at `max_value` characters.

    The page names what filled each hole of the message and gives the check; `max_check` cuts the check.
    """
    from errdex.pages.values import holes

    codes = [h.code for h in holes(page["message_source"], c.template) or []] if page is not None else []
    condition = page["condition"] if page is not None else None
    shown_check = condition if max_check is None or not condition else clip(condition, max_check)
    return CandidateSummary(
        id=c.id,
        head=_candidate_head(c),
        template=Text(c.template or "(no template)", style="bold"),
        place=Text(f"{c.file}:{c.line} in {c.function or '?'}", style="cyan"),
        check=SummaryRow("check that fired", Text(shown_check, style="yellow")) if shown_check else None,
        values=[
            SummaryRow(
                clip(codes[k], MAX_SHOWN_LABEL) if k < len(codes) else f"value {k + 1}",
                Text(clip(v, max_value)) if v else Text("(empty)", style="dim"),  # captured, and empty
            )
            for k, v in enumerate(c.values)
            if v is not None
        ],
        did_you_mean=[
            SummaryRow(
                "did you mean",
                Text.assemble(f"{name} = ", (" or ".join(repr(v) for v in close), "bold")),
                "bold magenta",
            )
            for name, close in c.suggestions.items()
        ],
        allowed=[SummaryRow(f"allowed {name}", Text(_listed(options))) for name, options in c.allowed.items()],
        versions=SummaryRow("in indexed versions", Text(", ".join(c.versions))) if len(c.versions) > 1 else None,
        copies=SummaryRow("same code also at", Text(_places(c))) if c.copies else None,
    )


def _candidate_head(c: Candidate) -> Text:
    head = Text()
    head.append(c.exception or c.kind, style="bold red")
    head.append(f"  {c.package} {c.version}", style="bold")
    head.append(f"  confidence {c.confidence:.0%}", style="green" if c.confidence >= 0.8 else "yellow")
    short = sureness(c)
    if short is not None:
        head.append(f"  ({short[0]}: {short[1]})", style="yellow")
    return head


def _listed(options: list[Any]) -> str:
    return ", ".join(repr(o) for o in options[:MAX_SHOWN_ALLOWED]) + (
        ", ..." if len(options) > MAX_SHOWN_ALLOWED else ""
    )


def _places(c: Candidate) -> str:
    """A candidate's identical copies, as `package file:line`, the first few."""
    shown = [f"{k.package} {k.file}:{k.line}" for k in c.copies[:MAX_SHOWN_ALLOWED]]
    return ", ".join(shown) + (f" and {len(c.copies) - len(shown)} more" if len(c.copies) > len(shown) else "")


def other_candidates(others: list[Candidate], title: str = "other candidates") -> RenderableType:
    """Candidates one line each: those after the best one, or the answers to the paste's other errors."""
    lines = [Text(title, style="bold")]
    for c in others:
        line = Text()
        line.append(f"{c.confidence:4.0%} ", style="dim")
        line.append(c.id, style="cyan")
        line.append(f"  {c.package} {c.version}  {c.file}:{c.line}  ", style="dim")
        line.append(clip(c.template or "", MAX_SHOWN_TEMPLATE))
        lines.append(line)
    return Group(*lines)


def clip(text: str, limit: int) -> str:
    """The text, cut to `limit` characters with `...` when longer."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def page_panel(page: Page) -> RenderableType:
    """The whole explanation page (build_page's dict) as sections, for the terminal and the hooks."""
    sections: list[RenderableType] = [_page_header(page)]
    for title, render in _SECTIONS:
        body = render(page)
        if body is not None:
            sections += [_heading(title), body]
    return _framed(page, sections)


def _framed(page: Page, sections: list[RenderableType]) -> Panel:
    return Panel(Group(*sections), title=Text(page["id"], style="cyan"), title_align="left")


def _heading(title: str) -> Rule:
    return Rule(Text(title, style="bold"), align="left", style="dim")


def _page_header(page: Page) -> RenderableType:
    lines: list[RenderableType] = [_head_line(page), Text(page["template"] or f"({page['reason']})", style="bold")]
    lines += _raised_at(page)
    if page["source_url"]:
        lines.append(Text(page["source_url"], style="dim"))
    if page["source_url_label"]:
        lines.append(Text(page["source_url_label"], style="dim"))
    return Group(*lines)


def _head_line(page: Page) -> Text:
    """The release, the kind and the class raised (with its bases): the page's first line."""
    head = Text()
    head.append(f"{page['package']} {page['version']}", style="bold")
    head.append(f" · {page['kind']} · ")
    meaning = page["what_it_means"]
    shown = class_shown(
        page["kind"],
        page["exception"],
        page["level"],
        meaning["class_parameter"],
        meaning["class_returned_by"],
        meaning["class_held_by"],
    )
    head.append(shown, style="bold red")
    if page["exception_bases"]:
        head.append(f" ({', '.join(page['exception_bases'])})")
    return head


def _raised_at(page: Page) -> list[Text]:
    """Where it is raised, and where its message is written when a helper writes it."""
    lines = [Text(f"{page['file']}:{page['line']} in {page['function']}", style="cyan")]
    written = page["written_at"]
    if written:
        lines.append(
            Text(f"message written at {written['file']}:{written['line']} in {written['function']}", style="cyan")
        )
    return lines


def _meaning(page: Page) -> RenderableType:
    """The short form and the code's own words; the whole reading is the check's, as on the web."""
    meaning = page["what_it_means"]
    parts: list[RenderableType] = [code_text(meaning["plain"])]
    if meaning["in_their_words"]:
        parts.append(code_text(meaning["in_their_words"]))
    return Group(*parts)


def _check(page: Page) -> RenderableType:
    """The whole reading of the check, the check as code, its clauses and the names it resolved: after the fix, as
    on the web."""
    meaning = page["what_it_means"]
    parts: list[RenderableType] = [code_text(meaning["summary"])]
    if meaning["condition"]:
        parts.append(Syntax(meaning["condition"], "python", word_wrap=True, background_color="default"))
    if len(meaning["clauses"]) > 1:
        parts += [code_text(f"  • {c['text']}") for c in meaning["clauses"]]
    listed = {s["list"] for s in page["solutions"] if "list" in s}  # their values are printed once, in the solutions
    for value in meaning["values"]:
        if value["name"] in listed:
            line = Text.assemble((value["name"], "bold"), ": ", f"{value['count']}, listed under Solutions")
        else:
            shown = _short_value(value["value"]) if value["known"] else "(not resolved)"
            line = Text.assemble((value["name"], "bold"), " = ", shown)
        if value["defined_at"]:
            line.append(f"  ({value['defined_at']})", style="dim")
        parts.append(line)
        if value["choice"]:
            parts.append(code_text(f"  {value['choice']}"))
    return Group(*parts)


def _source(page: Page) -> RenderableType | None:
    from errdex.pages.excerpt import excerpt_lexer

    snippet = page["snippet"]
    if not snippet["text"]:
        return None
    return Syntax(
        snippet["text"],
        excerpt_lexer(snippet["inside_string"], snippet["language"]),  # a Python excerpt may start inside a docstring
        line_numbers=True,
        start_line=snippet["start"],
        word_wrap=True,
        highlight_lines=set(range(page["line"], page["end_line"] + 1)),
        background_color="default",
    )


def _happens(page: Page) -> RenderableType:
    from errdex.pages.entries import ENTRIES_HEADING, entry_line

    happens = page["when_it_happens"]
    parts: list[RenderableType] = []
    if happens["entries"]:
        parts.append(Text(ENTRIES_HEADING, style="dim"))
        parts += [code_text(f"  ⇢ {entry_line(e, page['function'])}") for e in happens["entries"]]
    parts.append(code_text(happens["summary"]))
    shown = dict.fromkeys(  # one line per way, though several inputs share it
        (
            "→" if way["reaches_check"] else "·",
            way["call"] or way["via"],
            way["file"],
            way["line"],
            way_note(way["reaches_check"], item["name"], bool(way["through"])),  # the input it sets, not the keyword
        )
        for item in happens["inputs"]
        for way in item["ways_in"]
    )
    for mark, way_in, file, line, note in shown:
        parts.append(code_text(f"  {mark} `{way_in}`  ({file}:{line})" + (f": {note}" if note else "")))
    callers = page["callers"]
    if callers:
        table = Table(box=None, show_header=False, pad_edge=False)
        for caller in callers[:MAX_CALLERS_SHOWN]:
            place = Text(f"{caller['file']}:{caller['line']}", style="dim")
            held = caller["caught"]
            caught = f", inside try: catches {held['catches'] or 'everything'}" if held else ""
            through = f" through {caller['through']}" if caller["through"] else ""
            how = Text(f"{caller['match']}{through}, {caller['use']}{caught}", style="dim")
            if caller["when"]:
                how.append(f"; when {' and '.join(caller['when'])}")
            table.add_row(Text(caller["function"]), place, how)
        # the same words as the web: a use (a decorator handed the function, a guess on an object named like its
        # class, marked `receiver`) is not always a call
        uses = f"{len(callers)} use{'s' if len(callers) != 1 else ''} of {page['function']} found in the release:"
        parts += [Text(uses, style="dim"), table]
        if len(callers) > MAX_CALLERS_SHOWN:
            parts.append(Text(f"... and {len(callers) - MAX_CALLERS_SHOWN} more (--json lists them all)", style="dim"))
    return Group(*parts)


def _triggers(page: Page) -> RenderableType | None:
    if not page["triggers"]:
        return None
    parts: list[RenderableType] = []
    for i, trigger in enumerate(page["triggers"]):
        parts.append(code_text(trigger["text"] + (" (your value)" if trigger["from_user"] else "")))
        if trigger["code"]:
            parts.append(Syntax(trigger["code"], "python", background_color="default"))
        if i == 0:  # `verified` speaks for the first trigger
            parts += _runs_beside(page, "trigger")
    return Group(*parts)


def _runs_beside(page: Page, role: str, ran_only: bool = False) -> list[RenderableType]:
    """What running the page's snippet of `role` showed, under it (with `ran_only`, nothing for one never run)."""
    runs = [r for r in page["verified"] if r["role"] == role and r["beside"]]
    runs = [r for r in runs if r["detail"] is not None or not ran_only]
    return [code_text(r["text"], style=RUN_STYLE.get(r["status"], "dim")) for r in runs]


def _solutions(page: Page) -> RenderableType | None:
    if not page["solutions"]:  # an example fix is a fix the code supports: then nothing is said here
        return None if page["example_fix"] or _yours(page) else Text(NO_FIX, style="dim")
    return Group(*(code_text(f"{s['rank']}. {s['text']}") for s in page["solutions"]))


def _example_fix(page: Page) -> RenderableType | None:
    fix = page["example_fix"]
    parts = _your_line(page)
    if fix:
        parts += [
            Text("before", style="red"),
            Syntax(fix["before"], "python", background_color="default"),
            Text("after", style="green"),
            Syntax(fix["after"], "python", background_color="default"),
            code_text(fix["note"]),
            *_runs_beside(page, "fix"),
        ]
    return Group(*parts) if parts else None


def _yours(page: Page) -> YourLine | None:
    user = page["user_input"]
    return user["your_line"] if user is not None else None


def _your_line(page: Page) -> list[RenderableType]:
    """The user's own line from their traceback, before and after, first: the fix in their code."""
    line = _yours(page)
    if line is None:
        return []
    return [
        code_text(f"Your line ({line['file']}:{line['line']}), with the value {line['source']} gives:"),
        Text("before", style="red"),
        Syntax(line["before"], "python", background_color="default"),
        Text("after", style="green"),
        Syntax(line["after"], "python", background_color="default"),
    ]


def _related(page: Page) -> RenderableType | None:
    if not page["related"]:
        return None
    table = Table(box=None, show_header=False, pad_edge=False)
    for r in page["related"]:
        template = r["template"].split("\n", 1)[0]
        table.add_row(
            Text(r["id"], style="cyan"),
            Text(r["relation"], style="dim"),
            Text(template, overflow="ellipsis", no_wrap=True),
        )
    return table


def _versions(page: Page) -> RenderableType:
    versions = page["versions"]
    parts: list[RenderableType] = []
    for release in versions["releases"]:
        places = ", ".join(f"{p['file']}:{p['line']}" for p in release["places"])
        parts.append(Text.assemble((release["version"], "bold"), f"  {places}"))
    for same in versions["same_check"]:
        parts.append(
            Text.assemble(
                (same["version"], "bold"),
                f"  {same['file']}:{same['line']}  ",
                "same check, other text: " if same["difference"] is None else "related check, other text: ",
                (same["id"], "cyan"),
                f" ({same['difference']})" if same["difference"] else "",
            )
        )
    parts.append(code_text(versions["summary"]))
    for change in versions["value_changes"]:
        parts.append(
            Text(
                f"{change['from_version']} → {change['to_version']}: {change['name_before']} → {change['name_after']}"
                f"  added {change['added'] or 'nothing'}, removed {change['removed'] or 'nothing'}"
            )
        )
    return Group(*parts)


def _provenance(page: Page) -> RenderableType:
    lines = []
    for fact in page["provenance"]:
        where = f"{fact['file']}:{fact['line']}" if fact["file"] else (fact["detail"] or "")
        lines.append(Text.assemble(code_text(fact["fact"]), (f"  {fact['release']}  {where}", "dim")))
    lines.append(Text(f"generated by: {page['generated_by']}", style="dim"))
    return Group(*lines)


def _prose(page: Page) -> RenderableType | None:
    prose = page["prose"]
    if not prose:
        return None
    if not prose["text"]:
        return Text(f"{prose['label']} prose unavailable: {prose['error']}", style="dim")
    return Panel(
        Text(prose["text"]), title=Text(f"{prose['label']} ({prose['model']})", style="magenta"), title_align="left"
    )


def _documented(page: Page) -> RenderableType | None:
    """The author's words, each with its place: quoted, so they may be out of date where the code moved on."""
    said = page["documented"]
    parts: list[RenderableType] = []
    if said["docstring"]:
        parts.append(Text(f"{page['function']} (docstring, line {said['docstring']['line']}):", style="dim"))
        parts.append(Padding(Text(said["docstring"]["text"]), (0, 0, 0, 2)))
    for doc in said["parameters"]:
        parts.append(
            Text(
                f"`{doc['keyword']}` in the docstring of {doc['documented_in']} ({doc['file']}:{doc['line']}):",
                style="dim",
            )
        )
        parts.append(Padding(Text(doc["text"]), (0, 0, 0, 2)))
    if said["comments"]:
        parts.append(Text("Comments at the check:", style="dim"))
        parts += [code_text(f"  {c['line']}: # {c['text']}") for c in said["comments"]]
    return Group(*parts) if parts else None


Section: TypeAlias = "tuple[str, Callable[[Page], RenderableType | None]]"  # a title and what renders its body
# the answer first (what went wrong, the fix): the first screen shortens these and leaves out the rest
_ANSWER: list[Section] = [("What it means", _meaning), ("Solutions", _solutions), ("Example fix", _example_fix)]
_SECTIONS: list[Section] = [
    *_ANSWER,
    # then how it is reached, the source and the rest
    ("The check in detail", _check),
    ("When it happens", _happens),
    ("Trigger", _triggers),
    ("In the code's own words", _documented),
    ("Source", _source),
    ("Related errors", _related),
    ("Versions", _versions),
    ("AI-assisted explanation", _prose),
    ("Provenance", _provenance),
]


@dataclass(frozen=True)
class Brevity:
    """How much of the answer a first screen keeps: `FIRST_SCREENS` goes from the fullest to the shortest."""

    link: bool  # the source link in the header (its caveat is only in the whole page)
    meaning_lines: int
    solutions: int  # the first few, each cut to its first sentence and to `solution_lines`
    solution_lines: int
    fix_before: bool  # the example fix's code before the change (the user has it already: it raised)
    fix_note_lines: int  # the note under the example fix (what the change is known to do); 0 leaves it out


FIRST_SCREENS = [
    Brevity(link=True, meaning_lines=6, solutions=3, solution_lines=6, fix_before=True, fix_note_lines=3),
    Brevity(link=False, meaning_lines=6, solutions=2, solution_lines=5, fix_before=True, fix_note_lines=2),
    Brevity(link=False, meaning_lines=5, solutions=2, solution_lines=4, fix_before=True, fix_note_lines=0),
    Brevity(link=False, meaning_lines=4, solutions=1, solution_lines=4, fix_before=True, fix_note_lines=0),
    Brevity(link=False, meaning_lines=4, solutions=1, solution_lines=3, fix_before=False, fix_note_lines=0),
]


def first_screens(page: Page, full: str, header: bool = True) -> list[RenderableType]:
    """The page's answer (what it means, the first solutions, the example fix) at each brevity, fullest first.

    Each ends with a line naming what it leaves out and how to see it: `full`, the command for the whole page.
    `header=False` leaves out the page's header, for `explain`, whose candidate summary above says the same.
    """
    rest = [title for title, render in _SECTIONS[len(_ANSWER) :] if render(page) is not None]  # once for all
    return [_first_screen(page, brevity, full, header, rest) for brevity in FIRST_SCREENS]


def _first_screen(page: Page, brevity: Brevity, full: str, header: bool, rest: list[str]) -> Panel:
    sections: list[RenderableType] = [_short_header(page, brevity.link)] if header else []
    bodies = [_short_meaning(page, brevity), _short_solutions(page, brevity), _short_fix(page, brevity)]
    for (title, _), body in zip(_ANSWER, bodies, strict=True):
        if body is not None:
            sections += [_heading(title), body]
    sections.append(_left_out(page, brevity, full, rest))
    return _framed(page, sections)


def _short_header(page: Page, link: bool) -> RenderableType:
    template = Text(page["template"] or f"({page['reason']})", style="bold")
    lines: list[RenderableType] = [_head_line(page), Clamped(template, 2), *_raised_at(page)]
    if link and page["source_url"]:
        lines.append(Text(page["source_url"], style="dim"))
    return Group(*lines)


def _short_meaning(page: Page, brevity: Brevity) -> RenderableType:
    """The short form: the whole reading is the whole page's."""
    return Clamped(code_text(page["what_it_means"]["plain"]), brevity.meaning_lines, MORE_MEANING)


def _first_sentence(text: str) -> str:
    """Up to the first sentence's end, as the pages find it (not at `e.g.`, nor at the dot of `Cls.method`)."""
    from errdex.pages.syntax import SENTENCE_END

    return re.split(SENTENCE_END, text.strip(), maxsplit=1)[0]


def _short_solutions(page: Page, brevity: Brevity) -> RenderableType | None:
    if not page["solutions"]:
        return _solutions(page)  # what the whole page says when there is none
    return Group(*(_short_solution(s, brevity.solution_lines) for s in page["solutions"][: brevity.solutions]))


def _short_solution(solution: Solution, lines: int) -> Clamped:
    """A solution's first sentence: what to do, with the values it names (the rest qualifies it)."""
    first = _first_sentence(solution["text"])
    return Clamped(code_text(f"{solution['rank']}. {first}"), lines, cut=first != solution["text"])


def _short_fix(page: Page, brevity: Brevity) -> RenderableType | None:
    fix = page["example_fix"]
    parts: list[RenderableType] = _your_line(page)
    if not fix:
        return Group(*parts) if parts else None
    if brevity.fix_before:
        parts += [Text("before", style="red"), Syntax(fix["before"], "python", background_color="default")]
    parts += [Text("after", style="green"), Syntax(fix["after"], "python", background_color="default")]
    if brevity.fix_note_lines:
        parts.append(Clamped(code_text(fix["note"]), brevity.fix_note_lines))
    return Group(*parts, *_runs_beside(page, "fix", ran_only=True))


def _left_out(page: Page, brevity: Brevity, full: str, sections: list[str]) -> Text:
    """The last line: the solutions and `sections` the first screen leaves out, and the command that shows them."""
    solutions = len(page["solutions"]) - brevity.solutions
    what = [_count(solutions, "more solution")] if solutions > 0 else []
    if sections:
        what.append(f"{_count(len(sections), 'more section')} ({', '.join(sections)})")
    said = f"… {' and '.join(what)}:" if what else "the whole page:"
    out = Text.assemble((said, "dim"), "\n", (full, "bold"))  # the command on a line of its own, to copy
    scope = page["site_scope"]
    if scope["count"] > 1 and not scope["site"] and not scope["exact"]:  # the places' own checks differ
        first = page["sites"][0]
        one = f"errdex show {page['id']} --version {page['version']} --at {first['file']}:{first['line']}"
        out.append_text(Text.assemble("\n", (f"the page of one of its {scope['count']} places:", "dim"), "\n", one))
    return out


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'s' if n != 1 else ''}"


@dataclass(frozen=True)
class Clamped:
    """Text cut to its first `lines` lines at the width it is drawn in, the cut marked by `more`.

    `cut` says the text is already a part of a longer one (its first sentence): `more` then ends it however short.
    """

    text: Text
    lines: int
    more: str = " …"
    cut: bool = False

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        wrapped = self.text.wrap(console, options.max_width)
        if len(wrapped) <= self.lines and not self.cut:
            yield self.text
            return
        kept = list(wrapped)[: self.lines]
        last = kept[-1]
        last.truncate(max(options.max_width - cell_len(self.more), 1))
        last.rstrip()
        last.append(self.more, style="dim")
        yield Text("\n").join(kept)


@dataclass(frozen=True)
class FirstFitting:
    """The first of `choices` (the fullest first) that fits one screen, else the last: what a screen shows first."""

    choices: list[RenderableType]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        height = screen_height(console)
        fits = (c for c in self.choices if len(console.render_lines(c, options, pad=False)) <= height)
        yield next(fits, self.choices[-1])


def screen_height(console: Console) -> int:
    """The lines of one screen: the terminal's own (at least MIN_SCREEN_HEIGHT), else SCREEN_HEIGHT."""
    return max(console.height, MIN_SCREEN_HEIGHT) if console.is_terminal else SCREEN_HEIGHT


def code_text(text: str, style: str = "") -> Text:
    """Plain text with `backtick` spans shown as code; never read as rich markup."""
    out = Text(style=style)
    for i, part in enumerate(text.split("`")):
        out.append(part, style="cyan" if i % 2 else "")
    return out


def _short_value(value: Any) -> str:
    if isinstance(value, list) and len(value) > MAX_VALUES_SHOWN:
        return repr(value[:MAX_VALUES_SHOWN])[:-1] + ", ...]"
    return repr(value)


def drift_panel(text: DriftText, title: str) -> Panel:
    """An interpreter's error about an API, answered from the indexed releases: the change, the user's release, the
    warning they may have missed, the fixes, then each release compared."""
    lines: list[RenderableType] = [Text(text.headline, style="bold")]
    if text.warned:
        lines.append(Text(text.warned))
    if text.yours:
        lines.append(Text(text.yours))
    if text.warning:
        lines.append(Text.assemble(("its deprecation warning: ", "dim"), clip(text.warning, 400)))
    if text.fixes:
        lines.append(Text("fix", style="bold"))
        lines += [Text(f"  {fix}") for fix in text.fixes]
    table = Table(box=None, show_header=False, pad_edge=False, padding=(0, 2, 0, 0))
    for row in text.timeline:
        style = {"present": "green", "deprecated": "yellow", "absent": "red"}.get(row.state, "dim")
        table.add_row(row.version, Text(row.words, style=style), Text(row.place or "", style="dim"))
    lines += [Text(text.compared, style="dim"), table]
    return Panel(Group(*lines), title=Text(title, style="cyan"), title_align="left")
