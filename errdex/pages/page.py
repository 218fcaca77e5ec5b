"""The explanation page of one error in one release: one plain dict that the CLI, the web and the JSON API render.

A page speaks for one place of the error (`site=(file, line)`, as a traceback shows it) or for
all of its places; then it claims only what holds at every one (see `scope.py`). The page is
built once per (error id, release, place) and cached in the store; when a user's captured
values are given, the parts that depend on them (triggers, example fix, solutions) are derived
again from the cached facts, which needs no reading of the release.
"""

from __future__ import annotations

import ast
import functools
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import cast

from errdex.caches import PAGES
from errdex.model import ErrorRecord, FileLine, Frame, ReleaseRecord, held_reason, language_of
from errdex.pages.advice import left_to_subclasses
from errdex.pages.callers import CalledFunction, callers
from errdex.pages.caught import page_callers
from errdex.pages.checked import held_back
from errdex.pages.compiled_callers import compiled_callers, cython_callers
from errdex.pages.compiled_entries import compiled_entries
from errdex.pages.conditions import parse_condition
from errdex.pages.derive import candidate_calls, changes_candidates, triggers_and_fix, user_input
from errdex.pages.documented import documented, in_their_words
from errdex.pages.environment import module_values
from errdex.pages.happens import Found, when_it_happens
from errdex.pages.links import source_links
from errdex.pages.meaning import what_it_means
from errdex.pages.model import (
    CallerSearch,
    ErrorJson,
    Page,
    ProvenanceFact,
    StaticFacts,
    StaticPage,
    UserInput,
    WhatItMeans,
)
from errdex.pages.noreturn import ending_calls, never_returning, settled
from errdex.pages.plain import plain, with_yours
from errdex.pages.prose import add_prose
from errdex.pages.record import UNPACKED_MESSAGE, record_json, unpacked_arguments
from errdex.pages.returned import returned_error, with_returned
from errdex.pages.scope import (
    Check,
    check_of,
    chosen_site,
    record_at,
    scope_json,
)
from errdex.pages.settings import kept_related
from errdex.pages.solutions import solutions
from errdex.pages.source import find, parse
from errdex.pages.verified import with_runs
from errdex.pages.versions import versions
from errdex.pages.yours import your_line
from errdex.store import Store

PAGE_CODE = PAGES.stamp()  # the version of the code that builds pages: a page it builds may differ from older ones


def build_page(
    store: Store,
    error_id: str,
    version: str | None = None,
    values: Sequence[str | None] | None = None,
    suggestions: dict[str, list[str]] | None = None,
    site: tuple[str, int] | None = None,
    frames: Sequence[Frame] = (),
) -> Page:
    """The whole page of an error (newest indexed release that has it, unless `version` is given).

    `values` are the user's captured values for the template's `{}` holes, in order (None for a
    hole nothing was captured in), and `suggestions` did-you-mean candidates by resolved name; the
    page is filled with them.
    `site` is the (file, line) that raised it, as the traceback shows it (any line of the raise
    statement): the page is then about that place; without it, about all of the error's places. `frames` are the
    pasted traceback's (innermost last): the user's own line in them is shown fixed (see `pages/yours.py`).
    """
    version, places = _places(store, error_id, version)
    static = static_page(store, error_id, version, places, site)
    user = user_input(static, values, suggestions)
    if user is not None:
        _derive(static, user, frames)
    page: Page = {**static, "user_input": user, "prose": None, "verified": []}
    with_runs(store, page)
    add_prose(store, page)
    return _ordered(page)


def _places(store: Store, error_id: str, version: str | None) -> tuple[str, list[FileLine]]:
    """The release of the page and the error's (file, line) places in it."""
    have = {v.version: v.places for v in store.error_versions(error_id)}
    if not have or (version is not None and version not in have):
        store.error(error_id, version)  # raises NotIndexedError with a message that says what to do
    version = version if version is not None else list(have)[-1]
    return version, list(have[version])


def static_page(
    store: Store,
    error_id: str,
    version: str,
    places: list[FileLine],
    site: tuple[str, int] | None = None,
    read: Callable[[], ErrorRecord] | None = None,
) -> StaticPage:
    """The facts of the page read from the release, cached per (error id, release, place).

    `read` gives the error in `version` when it is needed (one reading can serve the pages of several places).
    """
    read = read or functools.cache(lambda: store.error(error_id, version))
    if site is not None and tuple(site) not in places:  # a line inside the raise statement: find its place
        found = chosen_site(read(), site[0], site[1])
        site = (found.file, found.line)
    place = None if site is None or len(places) == 1 else FileLine(site[0], site[1])
    key = PAGES.key(error_id, version, *(place or ("*",)))
    cached = store.cache_get(key)
    if cached is not None:
        return cast(StaticPage, json.loads(cached))
    page = _static(store, read(), place)
    store.cache_put(key, json.dumps(page).encode())
    return page


def _static(store: Store, record: ErrorRecord, place: FileLine | None) -> StaticPage:
    chosen = chosen_site(record, *place) if place else None
    check = check_of([chosen] if chosen else record.sites)
    record = record_at(store, record, chosen or record.site)
    site, release = record.site, record.release
    source = store.source(release, site.file)
    tree = parse(source)
    trees = functools.cache(lambda path: parse(store.source(release, path)))
    record = replace(record, related=kept_related(record.related, tree, site.function, trees))
    base = _with_check(record_json(record, source), check)
    returned = returned_error(tree, site.file, site.function, site.line, trees) if site.kind == "error" else None
    base = with_returned(base, returned) if returned is not None else base
    if base["template"] is None and unpacked_arguments(tree, site.line):
        base = {**base, "reason": UNPACKED_MESSAGE}
    scope = scope_json(record, site, chosen is not None, check)
    speaks_for = 1 if scope["site"] else scope["count"]
    held = held_back(base["resolved"], base["resolved_from"], tree, site.function, site.file, site.line)
    withheld = {h.name for h in held}
    base = {**base, "resolved": {k: v for k, v in base["resolved"].items() if k not in withheld}}
    base, never = _never_returning(store, release, base, tree, speaks_for)
    names = module_values(tree, site.function)
    called = CalledFunction(site.file, site.function)
    compiled = language_of(site.file) not in ("python", None)
    found = compiled_callers(store, release, called) if compiled else callers(store, release, called, tree)
    listed = page_callers(found["callers"], base)
    links = source_links(release, site.file, site.line, site.end_line)
    search = functools.partial(callers, store, release)
    heirs = functools.partial(store.derived_classes, release)
    happens = when_it_happens(
        base, tree, Found(found, listed), names, trees, search, heirs, _traced_at(record, speaks_for)
    )
    if language_of(site.file) == "cython":  # its callers, in Python and Cython, are not searched
        happens = {**happens, "summary": cython_callers(site.function), "entries": []}
    elif compiled:
        happens = {**happens, "entries": compiled_entries(store, release, site.file, site.function, site.line)}
    said = documented(tree, source, site.file, site.function, site.line, happens["inputs"], trees)
    meaning = _unimplemented(
        what_it_means(base, tree, names, speaks_for, check.exact, held, record.sites, returned, never),
        store,
        release,
        base,
        tree,
    )
    facts: StaticFacts = {
        **base,
        "site_scope": scope,
        "source_url": links.url,
        "source_url_label": links.label,
        "source_url_alternatives": links.alternatives,
        "what_it_means": {**meaning, "in_their_words": in_their_words(said, site.function)},
        "when_it_happens": happens,
        "documented": said,
        "callers": listed,
        "versions": versions(store, record.id, site, check, release.version, release.package, chosen is not None),
        "generated_by": "static",
    }
    held_by = facts["what_it_means"]["class_held_by"]
    if held_by and facts["template"] is None:  # "no message argument": the object raised carries one
        facts = {**facts, "reason": held_reason(held_by)}
    triggers, example_fix = triggers_and_fix(facts, None)
    facts["what_it_means"]["plain"] = plain(facts)
    page: StaticPage = {
        **facts,
        "provenance": provenance(facts, release, found),
        "triggers": triggers,
        "candidates": [],
        "example_fix": example_fix,
        "solutions": solutions(facts, None),
    }
    page["candidates"] = candidate_calls(page, None)
    return page


def _never_returning(
    store: Store, release: ReleaseRecord, base: ErrorJson, tree: ast.Module | None, speaks_for: int
) -> tuple[ErrorJson, frozenset[int]]:
    """The lines of the calls ending an earlier branch of the raise's function that never return (the release's
    files are read only when there is one to look up), and the page's condition settled by them (see
    `noreturn.settled`); one place's page only."""
    located = find(tree, base["function"]) if tree is not None and speaks_for == 1 else None
    if located is None or isinstance(located.node, ast.ClassDef):
        return base, frozenset()
    func, owner = located.node, located.qualname.rsplit(".", 1)[0] if located.owner is not None else None

    never = never_returning(ending_calls(func, base["line"]), base["file"], owner, lambda: _Sources(store, release))
    node = parse_condition(base["condition"])
    if not never or node is None:
        return base, never
    return {**base, "condition": settled(func, base["line"], base["condition"] or "", node, never)}, never


class _Sources(Mapping[str, str]):
    """A release's file texts by path, each read from the store when first asked for (a lookup reads few)."""

    def __init__(self, store: Store, release: ReleaseRecord) -> None:
        self.store, self.release = store, release
        self.paths = [f.path for f in store.release_paths(release) if f.skip_reason is None]
        self.read: dict[str, str] = {}

    def __getitem__(self, path: str) -> str:
        if path not in self.read:
            text = self.store.source(self.release, path) if path in self.paths else None
            if text is None:
                raise KeyError(path)
            self.read[path] = text
        return self.read[path]

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.paths)


def _unimplemented(
    meaning: WhatItMeans, store: Store, release: ReleaseRecord, site: ErrorJson, tree: ast.Module | None
) -> WhatItMeans:
    """A method that only raises NotImplementedError is a placeholder only when it is left to subclasses."""
    if meaning["statement"] != "placeholder" or left_to_subclasses(store, release, site, tree):
        return meaning
    return {**meaning, "statement": "unimplemented"}


def _with_check(base: ErrorJson, check: Check) -> ErrorJson:
    """The page's own fields with the check it speaks for (the whole check of one place, or what all places share)."""
    return {
        **base,
        "condition": check.condition,
        "resolved": check.resolved,
        "resolved_from": check.resolved_from,
        "bindings": check.bindings,
        "prior_checks": check.prior_checks,
        "checks": list(check.checks),
    }


def _traced_at(record: ErrorRecord, speaks_for: int) -> str | None:
    """Says where inputs and callers are traced when the page speaks for places in several functions."""
    site = record.site
    others = {(s.file, s.function) for s in record.sites} - {(site.file, site.function)}
    if speaks_for == 1 or not others:
        return None
    same = sum(1 for s in record.sites if (s.file, s.function) == (site.file, site.function)) - 1
    elsewhere = len(record.sites) - 1 - same
    where = f"{elsewhere} of the others {'are' if elsewhere > 1 else 'is'}" if same else "the others are"
    also = f"; {same} more {'are' if same > 1 else 'is'} in `{site.function}` itself" if same else ""
    return (
        f"Traced at the first of its {len(record.sites)} places, `{site.function}` ({site.file}:{site.line}); {where}"
        f" in {len(others)} other function{'s' if len(others) > 1 else ''}, reached in their own ways{also}."
    )


def _derive(page: StaticPage, user: UserInput, frames: Sequence[Frame]) -> None:
    """Triggers, example fix and solutions for the user's values, and the user's own line fixed when the paste's
    `frames` show it.

    The triggers of a cached page stand when the user's values add nothing for the search to try.
    """
    if changes_candidates(page, user):
        page["triggers"], page["example_fix"] = triggers_and_fix(page, user)
        page["candidates"] = candidate_calls(page, user)
    page["solutions"] = solutions(page, user)
    user["your_line"] = your_line(frames, page["file"], user, page["example_fix"], page["solutions"])
    page["what_it_means"] = {**page["what_it_means"], "plain": with_yours(page["what_it_means"]["plain"], user)}


def provenance(page: StaticFacts, release: ReleaseRecord, found: CallerSearch) -> list[ProvenanceFact]:
    """Which release and file each fact on the page comes from."""
    name = f"{release.package} {release.version}"
    facts = [_fact("message, check and source excerpt", name, page["file"], page["line"])]
    for value in page["what_it_means"]["values"]:
        file, line = _place(value["defined_at"])
        facts.append(_fact(f"value of `{value['name']}`", name, file, line))
    for item in page["when_it_happens"]["inputs"]:
        for way in item["ways_in"]:
            what = f"way in for `{item['name']}`"
            if way["through"]:
                what = f"{what}, passed on unchanged"
            elif not way["reaches_check"]:
                what = f"where `{item['name']}` is set without running the check"
            facts.append(_fact(f"{what} ({way['via']})", name, way["file"], way["line"]))
        for bound in item["bound"]:
            facts.append(_fact(f"where `{item['name']}` is bound", name, bound["file"], bound["line"]))
    language = language_of(page["file"])
    if language == "cython":
        facts.append(_fact("callers: not searched (a Cython function)", name, None, None, None))
    elif language not in ("python", None):
        detail = f"{found['files_searched']} compiled files searched" + (" (cut short)" if found["truncated"] else "")
        facts.append(_fact("callers (calls found by name)", name, None, None, detail))
    else:
        detail = (
            f"{found['files_parsed']} of {found['files_searched']} files parsed; {found['files_not_followed']} more"
            " use the name but name neither the class nor the module"
            + (" (search cut short)" if found["truncated"] else "")
        )
        facts.append(_fact("callers (static call graph, names resolved)", name, None, None, detail))
    for entry in page["versions"]["releases"]:
        place = entry["places"][0]
        facts.append(_fact("versions", f"{release.package} {entry['version']}", place["file"], place["line"]))
    return facts


def _fact(fact: str, release: str, file: str | None, line: int | None, detail: str | None = None) -> ProvenanceFact:
    return {"fact": fact, "release": release, "file": file, "line": line, "detail": detail}


def _place(defined_at: str | None) -> tuple[str | None, int | None]:
    if not defined_at or ":" not in defined_at:
        return defined_at, None
    file, _, line = defined_at.rpartition(":")
    return file, int(line) if line.isdigit() else None


KEY_ORDER = (  # the order of a page's keys in JSON: the error and its check, where it is, then the answer (the
    # user's values, what went wrong, the fix), then how it is reached, the source and the rest
    "id",
    "package",
    "version",
    "kind",
    "exception",
    "exception_bases",
    "template",
    "reason",
    "file",
    "line",
    "end_line",
    "function",
    "written_at",
    "condition",
    "resolved",
    "resolved_from",
    "bindings",
    "prior_checks",
    "checks",
    "message_source",
    "level",
    "sites",
    "site_scope",
    "repository_url",
    "source_url",
    "source_url_label",
    "source_url_alternatives",
    "user_input",
    "what_it_means",
    "solutions",
    "example_fix",
    "when_it_happens",
    "triggers",
    "candidates",
    "verified",
    "documented",
    "snippet",
    "callers",
    "related",
    "versions",
    "provenance",
    "generated_by",
    "prose",
)


def _ordered(page: Page) -> Page:
    """The page with its keys in reading order: the error and its check, where it is, then the sections."""
    keyed: Mapping[str, object] = page
    return cast(Page, {key: keyed[key] for key in KEY_ORDER})
