"""The callers of a function of compiled code, found by name in the release's compiled sources.

C resolves a call by the function's name, so a call of that name in the release's C sources is a call of it
(or of a `static` namesake of another file); in C++ and Rust, where overloads, namespaces and methods share
names, a call is kept only where names tell it is one (see `calls.reaches`: no method called on an object). The
same file's calls come first. Cython's functions are called from Python and Cython alike: not searched here.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import cast

from errdex.caches import CALLERS
from errdex.extract.compiled.calls import calls_of, reaches
from errdex.model import NATIVE_LANGUAGES, Language, ReleaseRecord, language_of, normalize_name
from errdex.pages.callers import CalledFunction
from errdex.pages.model import Caller, CallerSearch
from errdex.store import Store

MAX_CALLERS = 200
SEARCHED = ("calls by name in the release's C, C++ and Rust sources",)
NOT_FOLLOWED = (
    "calls through function pointers and tables",
    "methods called on an object (their class is not known)",
    "calls from Python (bindings)",
)


@dataclass(frozen=True, slots=True)
class CompiledSource:
    """A C, C++ or Rust file of a release, with its text."""

    path: str
    language: Language
    text: str


def compiled_sources(store: Store, release: ReleaseRecord) -> Iterator[CompiledSource]:
    """The release's C, C++ and Rust files, read in one query, in path order."""
    read = store.release_sources(release)
    try:
        for source in read:
            language = language_of(source.path)
            if language in NATIVE_LANGUAGES:
                yield CompiledSource(source.path, language, source.text)
    finally:
        read.close()


def compiled_callers(store: Store, release: ReleaseRecord, target: CalledFunction) -> CallerSearch:
    """The calls of a compiled function by name across the release's compiled sources, cached per function."""
    if language_of(target.file) == "cython":
        return CallerSearch(
            callers=[],
            decorated_by=[],
            files_searched=0,
            files_parsed=0,
            files_not_followed=0,
            truncated=False,
            unresolved=0,
            searched_for=[],
            not_followed=["calls of a Cython function (see `cython_callers`)"],
        )
    key = CALLERS.key(normalize_name(release.package), release.version, target.file, target.function, "compiled")
    cached = store.cache_get(key)
    if cached is not None:
        return cast(CallerSearch, json.loads(cached))
    name = target.function.rsplit("::", 1)[-1]
    found: list[Caller] = []
    searched = 0
    for source in compiled_sources(store, release):
        searched += 1
        for call in calls_of(source.text, source.language, (name,)):
            if not reaches(call, target.function, target.file):
                continue  # a method called on an object, or another class's function of that name
            match = "recursive" if call.function == target.function and source.path == target.file else "name"
            found.append(_caller(source.path, call.line, call.function, call.call, call.guards, match))
    found.sort(key=lambda c: (c["file"] != target.file, c["file"], c["line"]))
    result = CallerSearch(
        callers=found[:MAX_CALLERS],
        decorated_by=[],
        files_searched=searched,
        files_parsed=searched,
        files_not_followed=0,
        truncated=len(found) > MAX_CALLERS,
        unresolved=0,
        searched_for=list(SEARCHED),
        not_followed=list(NOT_FOLLOWED),
    )
    store.cache_put(key, json.dumps(result).encode())
    return result


def cython_callers(function: str) -> str:
    """What a page says of the callers of a Cython function, which are not searched."""
    return (
        f"`{function}` is Cython: Python code and other Cython functions call it, and those calls are not searched"
        " (a `def` or `cpdef` function, or a method of a `cdef class`, is called from Python by its name)."
    )


def _caller(file: str, line: int, function: str, call: str, when: tuple[str, ...], match: str) -> Caller:
    return Caller(
        function=function,
        file=file,
        line=line,
        match=match,
        through=None,
        use="call",
        call=call,
        arguments=None,
        inside_try=[],
        loops={},
        truths={},
        when=list(when),
    )
