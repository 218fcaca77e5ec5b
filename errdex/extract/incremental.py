"""Analyse a changed file from its previous analysis: only the functions whose text changed are parsed.

A release changes a few lines of most changed files. The analysis of a file (see `file.py`) is
its chunks' registrations (module constants, imports, classes), then a visit of each chunk that
may raise. A function chunk's visit is pure: it reads the chunk's text, its scopes and the
module's registered names (constants with their lines and text, imports, class bases and
constants), and it writes only sites. So when the registered names of the old and the new text
are equal, a function chunk whose text and scopes are unchanged has the old chunk's sites,
moved by as many lines as the chunk moved. Anything else (a chunk that may write a class
message template, a module-level statement, a file that does not split into chunks) is analysed
again, and the result is exactly what `analyse_file` gives (tests/extract/test_incremental.py).
"""

from __future__ import annotations

import warnings
from typing import Any

from errdex.extract.chunks import Chunk
from errdex.extract.file import MAX_FILE_BYTES, FallBack, analyse_file, decode, plan_chunks, result, visit_chunk
from errdex.extract.scope import ModuleScope
from errdex.extract.visitor import SiteVisitor

Analysis = dict[str, Any]
Planned = list[tuple[Chunk, list[tuple[str, str]]]]
_MESSAGE_METHODS = ("__init__", "__str__")  # their visit may add a message template to their class


def analyse_changed(path: str, data: bytes, old_data: bytes | None, old_analysis: Analysis | None) -> Analysis:
    """The analysis of `data`, reusing the sites of the unchanged functions of the same path's earlier
    bytes `old_data` (whose analysis is `old_analysis`); the same as `analyse_file(path, data)`."""
    if old_data is None or old_analysis is None or old_analysis.get("skip") or len(data) > MAX_FILE_BYTES:
        return analyse_file(path, data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return _reuse(path, data, old_data, old_analysis["sites"]) or analyse_file(path, data)
        except (FallBack, KeyError, RecursionError, MemoryError):  # KeyError: a site read a value from nowhere known
            return analyse_file(path, data)


def _reuse(path: str, data: bytes, old_data: bytes, old_sites: list[dict[str, Any]]) -> Analysis | None:
    """The analysis with reused sites, or None when the file must be analysed from scratch."""
    (text, _), (old_text, _) = decode(data), decode(old_data)
    if text is None or old_text is None or not all(_own(site, path) for site in old_sites):
        return None
    old_module, module = ModuleScope(path), ModuleScope(path)
    old_plan, plan = plan_chunks(old_text, old_module), plan_chunks(text, module)
    old_lines, new_lines = _definitions(old_module), _definitions(module)
    moved = _moved_definitions(old_lines, new_lines)
    if moved is None or old_module.imports != module.imports or _bases(old_module) != _bases(module):
        return None
    known = _sites_by_chunk(old_plan, old_sites)
    if known is None:
        return None
    visitor = SiteVisitor(module)
    for chunk, scopes in plan:
        reused = known.pop((chunk.text, tuple(scopes)), None) if _pure(chunk, scopes) else None
        if reused is None:
            visit_chunk(chunk, scopes, visitor)
        else:
            old_line, sites = reused
            visitor.sites.extend(_moved(site, old_line, chunk, path, moved) for site in sites)
    return result(module, visitor)


def _own(site: dict[str, Any], path: str) -> bool:
    """Whether an old site was found at `path` (an analysis is stored by content, the same bytes may sit elsewhere)."""
    return all(origin.startswith(path + ":") for origin in site["resolved_from"].values())


def _pure(chunk: Chunk, scopes: list[tuple[str, str]]) -> bool:
    """Whether visiting the chunk only adds sites (a function that cannot add a class message template)."""
    return chunk.kind == "def" and not (scopes and scopes[-1][0] == "class" and chunk.name in _MESSAGE_METHODS)


def _definitions(module: ModuleScope) -> dict[tuple[str, str], tuple[int, str | None]]:
    """Every module and class constant, by (class, name): its line and text."""
    out = {("", name): (d.line, d.text) for name, d in module.constants.items()}
    for qualname, cls in module.classes.items():
        out.update(((qualname, name), (d.line, d.text)) for name, d in cls.constants.items())
    return out


def _bases(module: ModuleScope) -> dict[str, tuple[str, ...]]:
    return {qualname: cls.bases for qualname, cls in module.classes.items()}


def _moved_definitions(old: dict[Any, tuple[int, str | None]], new: dict[Any, tuple[int, str | None]]) -> dict[int, int] | None:
    """Old line -> new line of each constant, if the constants are the same ones with the same text."""
    if old.keys() != new.keys() or any(old[k][1] != new[k][1] for k in old):
        return None
    lines: dict[int, int] = {}
    for key, (line, _) in old.items():
        if lines.setdefault(line, new[key][0]) != new[key][0]:
            return None
    return lines


def _sites_by_chunk(
    plan: Planned, sites: list[dict[str, Any]]
) -> dict[tuple[str, tuple[tuple[str, str], ...]], tuple[int, list[dict[str, Any]]]] | None:
    """The old sites of each pure chunk, by (text, scopes); None if they do not line up with the chunks."""
    out: dict[tuple[str, tuple[tuple[str, str], ...]], tuple[int, list[dict[str, Any]]]] = {}
    at = 0
    for chunk, scopes in plan:
        last = _last_line(chunk, chunk.line)
        begin = at
        while at < len(sites) and chunk.line <= sites[at]["line"] <= last:
            at += 1
        key = (chunk.text, tuple(scopes))
        if _pure(chunk, scopes):
            out[key] = (chunk.line, sites[begin:at]) if key not in out else out[key]
    return out if at == len(sites) else None


def _moved(site: dict[str, Any], old_line: int, chunk: Chunk, path: str, moved: dict[int, int]) -> dict[str, Any]:
    """A copy of an old site of a chunk that now starts at `chunk.line`; constants it read moved as `moved` says."""
    shift = chunk.line - old_line
    last = _last_line(chunk, old_line)
    out = dict(site, line=site["line"] + shift, end_line=site["end_line"] + shift)
    out["resolved_from"] = {
        name: _moved_origin(origin, path, old_line, last, shift, moved) for name, origin in site["resolved_from"].items()
    }
    return out


def _last_line(chunk: Chunk, first: int) -> int:
    """The line of the chunk's last character that is not a newline, the chunk starting at `first`."""
    return first + chunk.text.rstrip("\n").count("\n")


def _moved_origin(origin: str, path: str, first: int, last: int, shift: int, moved: dict[int, int]) -> str:
    """Where a value now comes from: inside the chunk (a local assignment) it moved with it, else with its constant."""
    line = int(origin[len(path) + 1 :])
    return f"{path}:{line + shift if first <= line <= last else moved[line]}"
