"""Analyse a changed file from its previous analysis: only the functions whose text changed are parsed.

A release changes a few lines of most changed files. The analysis of a file (see `file.py`) is
its chunks' registrations (module constants, imports, classes), then a visit of each chunk that
may raise. A function chunk's visit is pure: it reads the chunk's text, its scopes and what the
module registered, and it writes only sites. The old text is only split, never parsed: when
every chunk that registers something (all but functions, down through the classes that
changed) has the same text in both versions, the module registers the same names with the same
values, each moved with its chunk. Then a function whose text and scopes are unchanged has the
old chunk's sites, moved by as many lines as the chunk (and the constants it read) moved.
Anything else is analysed again, and the result is exactly what `analyse_file` gives
(tests/extract/test_incremental.py).
"""

from __future__ import annotations

import bisect
import warnings
from dataclasses import dataclass, field
from typing import Any

from errdex.extract.chunks import Chunk, class_parts, split_block
from errdex.extract.file import MAX_FILE_BYTES, FallBack, analyse_file, decode, parse_chunk, plan_chunks, result, visit_chunk
from errdex.extract.scope import ModuleScope
from errdex.extract.visitor import SiteVisitor

Analysis = dict[str, Any]
Scopes = tuple[tuple[str, str], ...]
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


@dataclass
class _Pairing:
    """What the old and new chunks have in common."""

    moves: list[tuple[int, int, int]] = field(default_factory=list)  # (old first line, old last line, shift)
    same_classes: list[tuple[int, int, int]] = field(default_factory=list)  # (new first line, new last line, shift)
    old_defs: dict[tuple[str, Scopes], list[int]] = field(default_factory=dict)  # old functions -> their lines
    new_defs: set[tuple[str, Scopes]] = field(default_factory=set)


def _reuse(path: str, data: bytes, old_data: bytes, old_sites: list[dict[str, Any]]) -> Analysis | None:
    """The analysis with reused sites, or None when the file must be analysed from scratch."""
    (text, _), (old_text, _) = decode(data), decode(old_data)
    if text is None or old_text is None or not all(_own(site, path) for site in old_sites):
        return None
    top = split_block(text, "", 1)
    pairing = _Pairing()
    if not _pair(split_block(old_text, "", 1), top, (), pairing) or not _old_defs_parse(pairing):
        return None
    module = ModuleScope(path)
    plan = plan_chunks(text, module, top)
    pairing.moves.sort()
    pairing.same_classes.sort()
    visitor = SiteVisitor(module)
    for chunk, scopes in plan:
        old_line = _old_line(chunk, tuple(scopes), pairing) if _pure(chunk, scopes) else None
        if old_line is None:
            visit_chunk(chunk, scopes, visitor)
        else:
            last = _last_line(chunk, old_line)
            visitor.sites.extend(
                _moved(site, old_line, last, chunk.line - old_line, path, pairing.moves)
                for site in old_sites if old_line <= site["line"] <= last
            )
    return result(module, visitor)


def _own(site: dict[str, Any], path: str) -> bool:
    """Whether an old site was found at `path` (an analysis is stored by content, the same bytes may sit elsewhere)."""
    return all(origin.startswith(path + ":") for origin in site["resolved_from"].values())


def _pure(chunk: Chunk, scopes: list[tuple[str, str]]) -> bool:
    """Whether visiting the chunk only adds sites (a function that cannot add a class message template)."""
    return chunk.kind == "def" and not (scopes and scopes[-1][0] == "class" and chunk.name in _MESSAGE_METHODS)


def _pair(old: list[Chunk], new: list[Chunk], scopes: Scopes, out: _Pairing) -> bool:
    """Pair the chunks that register names, in order; False if one of them changed (but a class's methods)."""
    old_context = [c for c in old if c.kind != "def"]
    new_context = [c for c in new if c.kind != "def"]
    if len(old_context) != len(new_context):
        return False
    for o, n in zip(old_context, new_context):
        shift = n.line - o.line
        if o.text == n.text:
            out.moves.append((o.line, _last_line(o, o.line), shift))
            if n.kind == "class":
                out.same_classes.append((n.line, _last_line(n, n.line), shift))
        elif not _pair_class(o, n, scopes, out):
            return False
    for c in old:
        if c.kind == "def":
            out.old_defs.setdefault((c.text, scopes), []).append(c.line)
    out.new_defs.update((c.text, scopes) for c in new if c.kind == "def")
    return True


def _pair_class(old: Chunk, new: Chunk, scopes: Scopes, out: _Pairing) -> bool:
    """A class whose text changed: the same header, and its members paired in turn."""
    if old.kind != "class" or new.kind != "class" or old.name != new.name:
        return False
    old_parts, new_parts = class_parts(old), class_parts(new)
    if old_parts is None or new_parts is None or old_parts[0] != new_parts[0]:
        return False
    return _pair(old_parts[1], new_parts[1], (*scopes, ("class", old.name or "")), out)


def _old_defs_parse(pairing: _Pairing) -> bool:
    """Whether the old functions the new text lacks parse on their own (else the old analysis parsed the
    whole file, and its sites may not be a chunk's)."""
    for (text, scopes), lines in pairing.old_defs.items():
        if (text, scopes) in pairing.new_defs:
            continue
        for line in lines:
            try:
                parse_chunk(Chunk("def", line, text, None))
            except FallBack:
                return False
    return True


def _old_line(chunk: Chunk, scopes: Scopes, pairing: _Pairing) -> int | None:
    """Where the same function stood in the old text, if it did."""
    i = bisect.bisect_right(pairing.same_classes, (chunk.line, float("inf"), 0)) - 1
    if i >= 0 and pairing.same_classes[i][0] <= chunk.line <= pairing.same_classes[i][1]:
        return chunk.line - pairing.same_classes[i][2]
    lines = pairing.old_defs.get((chunk.text, scopes))
    return lines.pop(0) if lines else None


def _last_line(chunk: Chunk, first: int) -> int:
    """The line of the chunk's last character that is not a newline, the chunk starting at `first`."""
    return first + chunk.text.rstrip("\n").count("\n")


def _moved(
    site: dict[str, Any], first: int, last: int, shift: int, path: str, moves: list[tuple[int, int, int]]
) -> dict[str, Any]:
    """A copy of an old site of the chunk at lines first..last, which moved by `shift`; what it read moved too."""
    out = dict(site, line=site["line"] + shift, end_line=site["end_line"] + shift)
    out["resolved_from"] = {
        name: f"{path}:{_moved_line(int(origin[len(path) + 1 :]), first, last, shift, moves)}"
        for name, origin in site["resolved_from"].items()
    }
    return out


def _moved_line(line: int, first: int, last: int, shift: int, moves: list[tuple[int, int, int]]) -> int:
    """Where an old line is now: inside the chunk (a local assignment) it moved with it, else with its own chunk."""
    if first <= line <= last:
        return line + shift
    i = bisect.bisect_right(moves, (line, float("inf"), 0)) - 1
    if i < 0 or not moves[i][0] <= line <= moves[i][1]:
        raise KeyError(line)
    return line + moves[i][2]
