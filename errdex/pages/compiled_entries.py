"""The Python names that reach a compiled raise: the functions a module exports to Python (its method tables,
pybind11's `.def`, PyO3's `#[pyfunction]`; see `extract/compiled/exports.py`) from which calls found by name
lead down to the raising function.

numpy's `raise_reshape_size_mismatch` raises; `_fix_unknown_dimension` calls it, `PyArray_Newshape` calls that,
and `array_reshape`, which calls `PyArray_Newshape`, is `ndarray.reshape` in the method table of methods.c. The
search goes up at most MAX_DEPTH calls and follows at most MAX_NAMES functions, nearest first: an entry further
up may be missed, so the page says "found", never "every".
"""

from __future__ import annotations

import json
from typing import cast

from errdex.caches import PAGES
from errdex.extract.compiled.calls import calls_of, reaches
from errdex.extract.compiled.exports import Exported, exports_of
from errdex.model import ReleaseRecord
from errdex.pages.compiled_callers import CompiledSource, compiled_sources
from errdex.pages.model import EntryStep, PublicEntry
from errdex.store import Store

MAX_DEPTH = 6
MAX_NAMES = 60
MAX_ENTRIES = 3


def compiled_entries(store: Store, release: ReleaseRecord, file: str, function: str, line: int) -> list[PublicEntry]:
    """The bindings found from which calls lead down to `function` (the raise at `file:line`), nearest first."""
    key = PAGES.key("compiled-entries", release.package, release.version, file, function, line)
    cached = store.cache_get(key)
    if cached is not None:
        return cast(list[PublicEntry], json.loads(cached))
    sources = list(compiled_sources(store, release))
    exports = [(s.path, e) for s in sources for e in exports_of(s.text, s.language)]
    found = _search(sources, exports, file, function, line)
    store.cache_put(key, json.dumps(found).encode())
    return found


def _search(
    sources: list[CompiledSource], exports: list[tuple[str, Exported]], file: str, function: str, line: int
) -> list[PublicEntry]:
    """Breadth first up the calls by name, from the raising function to the bound functions."""
    inline = [(path, e) for path, e in exports if path == file and e.lines and e.lines[0] <= line <= e.lines[1]]
    entries = [_entry(path, e, []) for path, e in inline]
    bound: dict[str, list[tuple[str, Exported]]] = {}
    for path, exported in exports:
        if exported.function is not None:
            bound.setdefault(exported.function.rsplit("::", 1)[-1], []).append((path, exported))
    frontier: list[tuple[str, list[EntryStep]]] = [(function, [])]
    seen = {function}
    for _ in range(MAX_DEPTH):
        following: list[tuple[str, list[EntryStep]]] = []
        for called, steps in frontier:
            short = called.rsplit("::", 1)[-1]
            where = steps[0]["file"] if steps else file
            entries += [_entry(path, e, steps) for path, e in bound.get(short, []) if _binds(path, e, where, called)]
        if len(entries) >= MAX_ENTRIES or not frontier:
            break
        by_name: dict[str, list[tuple[str, list[EntryStep]]]] = {}
        for called, steps in frontier:
            by_name.setdefault(called.rsplit("::", 1)[-1], []).append((called, steps))
        defined_in = {called: steps[0]["file"] if steps else file for called, steps in frontier}
        for source in sources:
            for call in calls_of(source.text, source.language, by_name.keys()):
                for called, steps in by_name[call.called]:
                    if call.function in seen or len(seen) >= MAX_NAMES or not reaches(call, called, defined_in[called]):
                        continue
                    seen.add(call.function)
                    step = EntryStep(function=call.function, file=source.path, line=call.line, call=call.call[:120])
                    following.append((call.function, [step, *steps]))
        frontier = following
    return entries[:MAX_ENTRIES]


def _binds(path: str, exported: Exported, file: str, function: str) -> bool:
    """Whether a binding's target is the function: the same name and the same class (or neither a method); for a
    Rust function of no `impl`, also the same crate (`crates/polars-python/`), whose modules share names."""
    bound_owner = (exported.function or "").rpartition("::")[0].rsplit("::", 1)[-1]
    owner = function.rpartition("::")[0].rsplit("::", 1)[-1]
    if bound_owner != owner:
        return False
    return bool(owner) or not file.endswith(".rs") or _crate(path) == _crate(file)


def _crate(path: str) -> str:
    """The folder of the crate a Rust file is in: the part of its path before `src/`."""
    return path.partition("/src/")[0] if "/src/" in path else ""


def _entry(path: str, exported: Exported, steps: list[EntryStep]) -> PublicEntry:
    return PublicEntry(
        function=exported.python_name, file=f"{path}:{exported.line}", import_from="", kind="binding", steps=steps
    )
