"""Every cache errdex keeps, declared once: its name, its version and the code whose output it keeps.

A kept result is right only while the code that computed it is unchanged, so each cache's version is
part of every key it writes (the analyses' version is a column of the rows it keys): bumping it makes
the old entries unreachable. `tests/test_cache_versions.py` fails when the code a cache lists changed
but its version did not (the snapshot beside it is refreshed with `python -m tests.cache_versions --update`).
A cache whose entries are computed from another cache's `builds_on` it: that one's version is in its
keys too. Data read from the store needs no version: writing a release starts a new store generation.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Cache:
    """One namespace of kept results and the code that computes them."""

    name: str
    version: int
    holds: str  # what it keeps, and where
    code: tuple[str, ...]  # files (globs) relative to the errdex package whose code shapes what is kept
    builds_on: tuple[Cache, ...] = ()  # caches its entries are computed from
    ignores: tuple[str, ...] = ()  # modules the code imports that do not shape what is kept

    def stamp(self) -> tuple[str, ...]:
        """`name-vN` of this cache and of every cache it builds on: a bump of any of them changes the keys."""
        own = (f"{self.name}-v{self.version}",)
        return tuple(dict.fromkeys(own + tuple(s for c in self.builds_on for s in c.stamp())))

    def key(self, *parts: str | int) -> str:
        """The key of one entry: the stamp, then the parts that tell entries apart."""
        return ":".join((*self.stamp(), *map(str, parts)))


ANALYSES = Cache(
    "analyses",
    27,
    "each file's sites, classes and imports (table `analyses`, by content hash and this version) and each"
    " release's linked sites (its `extractor_version`: indexing many releases redoes one when it differs)",
    code=("extract/*.py", "extract/compiled/*.py"),
)
LINK_TRACES = Cache(
    "link-trace",
    6,
    "what linking each file of a release read, so that the next release reuses the sites of unchanged files",
    code=("indexing/link.py",),
    builds_on=(ANALYSES,),
)
MATCH_TABLES = Cache(
    "match",
    11,
    "the matcher's lookup tables of a store generation: the core and its shards of places and of files' sites",
    code=("match/tables.py", "match/literals.py", "match/packed.py", "match/text.py"),
    ignores=("match/suggest.py",),  # did-you-mean reads the stored condition when a query asks
)
CALLERS = Cache(
    "callers",
    24,
    "the callers of a function of a release (static call graph, names resolved through imports and class hierarchies)",
    code=(
        "pages/callers.py",
        "pages/hierarchy.py",
        "pages/source.py",
        "pages/receivers.py",
        "pages/guards.py",
        "pages/compiled_callers.py",
        "extract/resolve.py",
        "extract/compiled/*.py",
    ),
    ignores=(
        "pages/model.py",  # the page's types: they compute nothing
        "extract/file.py",  # source.py takes only parser_warnings_silenced from it
        "extract/budget.py",  # a type of resolve.py's; the call graph takes only dotted_name from it
        "extract/records.py",  # the compiled walkers' site records: the calls found by name do not use them
        "extract/templates.py",  # the compiled walkers' message holes: the calls found by name do not use them
        "extract/visitor.py",  # the compiled walkers take only the message's length bound from it
    ),
)
PAGES = Cache(
    "page",
    76,
    "the static part of an error's page, per release and place (what the user's values do not change)",
    code=(
        "pages/page.py",
        "pages/compiled_entries.py",
        "pages/advice.py",
        "pages/ahead.py",
        "pages/bindings.py",
        "pages/documented.py",
        "pages/entries.py",
        "pages/carried.py",
        "pages/yours.py",
        "pages/plain.py",
        "pages/caught.py",
        "pages/checked.py",
        "pages/conditions.py",
        "pages/defaults.py",
        "pages/defined.py",
        "pages/derive.py",
        "pages/environment.py",
        "pages/fields.py",
        "pages/evaluate.py",
        "pages/excerpt.py",
        "pages/handlers.py",
        "pages/happens.py",
        "pages/inforce.py",
        "pages/inputs.py",
        "pages/links.py",
        "pages/meaning.py",
        "pages/noreturn.py",
        "pages/record.py",
        "pages/scope.py",
        "pages/settings.py",
        "pages/siblings.py",
        "pages/solutions.py",
        "pages/source.py",
        "pages/syntax.py",
        "pages/triggers.py",
        "pages/prior.py",
        "pages/public.py",
        "pages/receives.py",
        "pages/returned.py",
        "pages/values.py",
        "pages/versions.py",
        "pages/wrapped.py",
        "extract/resolve.py",
    ),
    builds_on=(CALLERS,),
    ignores=(
        "pages/model.py",  # the page's types: they compute nothing
        "pages/prose.py",  # added to the page after the static part is kept
        "pages/verified.py",  # the runs of `errdex verify`: added after the static part is kept
        "extract/budget.py",  # a type of resolve.py's; pages evaluate without a budget
        "extract/file.py",  # source.py takes only parser_warnings_silenced from it
    ),
)
PROSE = Cache(
    "prose",
    3,
    "the AI-assisted prose of a page, per release, place and model",
    code=("pages/prose.py",),
    builds_on=(PAGES,),
    ignores=("pages/model.py",),  # the page's types: they compute nothing
)
CACHES = (ANALYSES, LINK_TRACES, MATCH_TABLES, CALLERS, PAGES, PROSE)
EXTRACTOR_VERSION = str(ANALYSES.version)  # as the store keeps it
