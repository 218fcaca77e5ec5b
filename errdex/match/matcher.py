"""`explain(text)`: the raise sites that may have produced a pasted error, best first, or an abstention."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import NamedTuple

from errdex.errors import InputError
from errdex.match.autoindex import (
    distribution_of,
    in_this_environment,
    index_missing,
    installed_version,
    raising_package,
)
from errdex.match.drift import ApiAnswer, api_answer
from errdex.match.interpreter import question_of
from errdex.match.parse import parse
from errdex.match.parse.embedded import embedded
from errdex.match.parse.lines import is_type_name
from errdex.match.rank import ABSTAIN_BELOW, Query, Scored, rank
from errdex.match.result import Candidate, Copy, MatchResult
from errdex.match.suggest import did_you_mean
from errdex.match.tables import ReleasePlace, Tables, tables_for
from errdex.model import JsonValue, ParsedError
from errdex.store import Store, shared_store

MAX_LIMIT = 100
MAX_ALSO = 5  # of the paste's other errors and warnings, the last ones answered beside the main one


def explain(
    text: str, *, store: Store | None = None, fetch: bool = False, auto_index: bool = False, limit: int = 5
) -> MatchResult:
    """Find where a pasted error message, log line or traceback was raised, in the indexed releases.

    `store` defaults to the user's default index, opened once per thread and kept for the process (`shared_store`).
    Nothing is indexed unless asked: `auto_index` indexes, from disk, the installed package a traceback names when
    it is missing (the CLI and the hooks ask for it); `fetch` also allows downloading that release. A bad argument
    raises TypeError or ValueError.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    if not isinstance(limit, int) or isinstance(limit, bool):
        raise TypeError(f"limit must be an int, not {type(limit).__name__}")
    if not 1 <= limit <= MAX_LIMIT:
        raise InputError(f"limit must be between 1 and {MAX_LIMIT}, not {limit}")
    parsed = parse(text)
    store = store if store is not None else shared_store()
    tables = tables_for(store)
    note = None
    if auto_index or fetch:
        note = index_missing(parsed, store, tables.indexed_versions, fetch)
        if note is not None:
            tables = tables_for(store)
    result = match(parsed, tables, limit, note)
    return replace(result, api=_api_answer(result.parsed, store, text))


def _api_answer(parsed: ParsedError, store: Store, text: str) -> ApiAnswer | None:
    """The answer from the API of the indexed releases, when the paste is an interpreter's error about one; the
    version installed here counts as the user's when the traceback's files are this environment's."""
    if question_of(parsed) is None:
        return None
    here = bool(parsed.frames) and in_this_environment(parsed)
    return api_answer(parsed, store, text, installed_version if here else None)


def match(parsed: ParsedError, tables: Tables, limit: int = 5, note: str | None = None) -> MatchResult:
    """Rank the indexed errors against an already parsed paste."""
    parsed = _typed_by_the_index(parsed, tables)
    query, scored = rank(parsed, tables, limit)
    inner = embedded(parsed)
    if inner is not parsed:  # a `Type: message` inside the user's words: the reading that fits better answers
        inner_query, inner_scored = rank(inner, tables, limit)
        if inner_scored and (not scored or inner_scored[0].confidence > scored[0].confidence):
            parsed, query, scored = inner, inner_query, inner_scored
    matches = [_candidate(tables, query, s) for s in scored]
    abstain = not matches or matches[0].confidence < ABSTAIN_BELOW
    hint = _hint(parsed, tables, query) if abstain else None
    also = _also(parsed, tables, {c.id for c in matches[:1]})
    return MatchResult(abstain, matches, parsed, " ".join(filter(None, (note, hint))) or None, also)


def _also(parsed: ParsedError, tables: Tables, answered: set[str]) -> list[Candidate]:
    """The answers to the paste's other errors and warnings (the last MAX_ALSO of them, each at most once),
    in paste order: a warning printed before the fatal error is listed as such, never taken for it."""
    out: list[Candidate] = []
    for other in parsed.others[-MAX_ALSO:]:
        query, scored = rank(_typed_by_the_index(other, tables), tables, 1)
        found = _candidate(tables, query, scored[0]) if scored else None
        if found is not None and found.confidence >= ABSTAIN_BELOW and found.id not in answered:
            answered.add(found.id)
            out.append(found)
    return out


def _typed_by_the_index(parsed: ParsedError, tables: Tables) -> ParsedError:
    """A bare `Name: message` whose name does not read as an exception type by itself
    (`ConfigEntryNotReady: Error connecting to API`) is typed when an indexed error raises that class."""
    if parsed.exception is not None or parsed.source_format != "message":
        return parsed
    name, colon, message = parsed.message.partition(": ")
    if (
        not colon
        or not name[:1].isupper()
        or not is_type_name(name)
        or not tables.core.raised_anywhere(name.rsplit(".", 1)[-1])
    ):
        return parsed
    return replace(parsed, exception=name, message=message)  # (a *Warning name was typed by the parser already)


class Placed(NamedTuple):
    """An error placed in one release for an answer: its package, the versions raising it, the place chosen."""

    package: str
    versions: tuple[str, ...]
    place: ReleasePlace


def _placed(tables: Tables, query: Query, i: int, pointed: frozenset[str]) -> Placed:
    core = tables.core
    package = core.packages[core.package[i]]
    places = tables.places(i)
    versions = tuple(dict.fromkeys([p.version for p in places]))
    return Placed(package, versions, _choose_place(places, versions, query, package, pointed))


def _candidate(tables: Tables, query: Query, s: Scored) -> Candidate:
    core, i = tables.core, s.error
    placed = _placed(tables, query, i, s.releases)
    package, versions, place = placed.package, placed.versions, placed.place
    function, end_line = place.function, place.end_line
    if function is None:
        function, end_line = _site_function(tables, core.ids[i], place)
    values = s.alignment.values if s.alignment else ()
    suggestions: dict[str, list[str]]
    allowed: dict[str, list[JsonValue]]
    suggestions, allowed = {}, {}
    details = tables.details(i) if values else None
    if details is not None:
        suggestions, allowed = did_you_mean(details.condition, details.resolved, details.holes, values)
    return Candidate(
        id=core.ids[i],
        score=s.confidence + min(s.hit, 10_000) / 1e7,
        confidence=round(s.confidence, 4),
        package=package,
        version=place.version,
        file=place.file,
        line=place.line,
        end_line=end_line,
        function=function,
        exception=core.exception[i],
        template=core.template[i],
        kind=core.kind[i],
        values=values,
        suggestions=suggestions,
        allowed=allowed,
        approximate=s.alignment is None or not s.alignment.exact,
        cut=s.alignment is not None and s.alignment.cut,
        versions=versions,
        evidence=s.evidence,
        copies=tuple(_copy(tables, query, j) for j in s.copies),
    )


def _copy(tables: Tables, query: Query, i: int) -> Copy:
    """Where an identical copy of an answer is, placed as the answer is."""
    placed = _placed(tables, query, i, frozenset())
    return Copy(tables.core.ids[i], placed.package, placed.place.version, placed.place.file, placed.place.line)


def _choose_place(
    places: list[ReleasePlace], versions: tuple[str, ...], query: Query, package: str, pointed: frozenset[str]
) -> ReleasePlace:
    """The place the frame points at, else the installed version's, else the newest release's first.

    Places in the releases the traceback's frames point to come before the others.
    """
    if len(places) == 1:  # most errors: nothing to choose from
        return places[0]
    order = {v: k for k, v in enumerate(versions)}
    hint = query.hint
    if hint is not None:
        files = {p.file for p in hint.points} | {hint.path}
        same = [p for p in places if p.file in files]
        exact = [p for p in same if hint.at(p.file, p.line, p.end_line)]
        if exact or same:
            return _first(exact or same, order, pointed)
    if len(versions) > 1 and not pointed:
        version = installed_version(package)
        installed = [p for p in places if p.version == version]
        if installed:
            return _first(installed, order, pointed)
    return _first(places, order, pointed)


def _first(places: list[ReleasePlace], order: dict[str, int], pointed: frozenset[str]) -> ReleasePlace:
    """The first of `places` in the releases pointed to, newest release first, with its function known first;
    the first listed among equals (`min`, not a sort: an error may be raised at hundreds of places)."""
    return min(places, key=lambda p: (p.version not in pointed, -order[p.version], p.function is None))


def _site_function(tables: Tables, error_id: str, place: ReleasePlace) -> tuple[str | None, int]:
    """The function and last line of a place known only by its line (an error's second site in a release)."""
    record = tables.store.error(error_id, place.version)
    for site in record.sites:
        if site.file == place.file and site.line == place.line:
            return site.function, site.end_line
    return None, place.line


def _hint(parsed: ParsedError, tables: Tables, query: Query) -> str:
    """What would help when nothing fits well enough."""
    if not tables.core.ids:
        return "Nothing is indexed yet: index the library the error comes from, e.g. errdex index transformers"
    top = raising_package(parsed)
    if top is not None and top not in tables.core.top_set:
        return f"The error was raised in '{top}', which is not indexed: errdex index {distribution_of(top) or top}"
    hint = query.hint
    if hint is not None and hint.path is None and hint.strength == "caller":
        return (
            "No indexed warning fits these words well enough. The line shown is where your code called the "
            "library (a warning points at its caller), so it cannot name the library: index the library whose "
            "call that is (errdex index NAME)."
        )
    if hint is not None and hint.path is None and parsed.source_format != "message":
        return (
            "The innermost frame is not in an installed library: the error comes from your own code, "
            "the standard library or the interpreter, which errdex does not index, or from compiled code that "
            "line called (an extension module's function: index its library, errdex index NAME)."
        )
    if not query.text:
        return "The paste has no message: paste the whole error, with its traceback if you have it."
    if query.exception == "KeyError" and not parsed.frames and " " not in query.text:
        return (
            "A KeyError's message is only the key that was missing, so its words cannot tell where it was "
            "looked up. Paste the whole traceback: its innermost frame names the lookup."
        )
    if query.interpreter and hint is None:
        return (
            "Python itself writes this message (an operation on the wrong kind of value, a missing name or "
            "attribute), so its words alone do not tell which library raised it. Paste the whole traceback: "
            "its innermost frame tells whether your code or a library did."
        )
    home = query.exception_home
    if home in tables.core.top_set:
        ask = " Paste the whole traceback: its innermost frame names the raise site." if not parsed.frames else ""
        return (
            f"'{home}' is indexed, but none of its errors fits these words well enough: it may "
            f"write this message at run time, or in a helper.{ask}"
        )
    if home is not None and home not in sys.stdlib_module_names and home.isidentifier() and not home.startswith("__"):
        return (
            f"The exception's class comes from '{home}', which is not indexed: errdex index "
            f"{distribution_of(home) or home} (a release from the package index brings the C, C++, Cython and Rust"
            " sources of its sdist too)."
        )
    return (
        "No indexed error fits well enough. If it comes from a library, index that library "
        "(errdex index NAME), or paste the whole traceback: its frames name the package."
    )
