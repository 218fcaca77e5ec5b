"""Which indexed releases of a package a traceback was printed from, told by its frames' source lines.

A traceback shows each frame's file, line and the text of that line. When several releases of a
package are indexed, a frame inside it agrees with a release whose file holds the same text at
that line, and disagrees with one whose line differs or which has no such file. The releases with
the most agreeing frames are the ones the paste came from, when the frames tell the releases
apart at all; an error raised only in other releases of that package is then a little less likely.

It stays cheap: only frames inside a package with several indexed releases are read, at most
MAX_FRAMES of them and MAX_RELEASES releases, each file once per query, and the lines of the files
read are kept per store generation, beside the matcher's tables, up to a bound (tables.MAX_SOURCE_CHARS).
"""

from __future__ import annotations

from typing import NamedTuple

from errdex.match.frames import library_path
from errdex.match.tables import Tables
from errdex.model import ParsedError, ReleaseRecord

MAX_FRAMES = 8  # library frames compared, innermost first
MAX_LOOKED_AT = 64  # innermost frames looked at for them (a recursion error shows thousands)
MAX_RELEASES = 12  # newest releases of a package compared
VERSION_DISAGREES = 0.8  # an error found only in releases the frames disagree with: source lines are strong evidence


class ShownFrame(NamedTuple):
    """A library frame of the paste, with the source line the traceback prints under it."""

    path: str  # inside a release, e.g. "jinja2/environment.py"
    line: int
    code: str


def shown_frames(parsed: ParsedError, tops: set[str]) -> tuple[ShownFrame, ...]:
    """The paste's frames inside indexed packages that show their line's text, innermost first."""
    out: list[ShownFrame] = []
    for frame in parsed.frames[: -MAX_LOOKED_AT - 1 : -1]:
        if len(out) == MAX_FRAMES:
            break
        code = (frame.code or "").strip()
        if not code or frame.line is None:
            continue
        path = library_path(frame, tops)
        if path is not None and path.split("/", 1)[0] in tops:
            out.append(ShownFrame(path, frame.line, code))
    return tuple(out)


class Versions:
    """The releases each package's frames point to, worked out when a candidate of it is first weighed."""

    def __init__(self, tables: Tables, frames: tuple[ShownFrame, ...]) -> None:
        self.tables = tables
        self.frames = frames
        self.pointed_at: dict[int, frozenset[str]] = {}  # by package number
        self.by_error: dict[int, frozenset[str] | None] = {}  # agreeing(i), by error

    def factor(self, i: int) -> float:
        """1, or VERSION_DISAGREES when the frames point at releases of error `i`'s package that do not raise it."""
        agreeing = self.agreeing(i)
        return VERSION_DISAGREES if agreeing is not None and not agreeing else 1.0

    def agreeing(self, i: int) -> frozenset[str] | None:
        """The releases the frames point to that raise error `i`; None when the frames do not tell its package's
        releases apart."""
        if not self.frames:
            return None
        if i not in self.by_error:
            pointed = self.pointed(self.tables.core.package[i])
            self.by_error[i] = pointed & {place.version for place in self.tables.places(i)} if pointed else None
        return self.by_error[i]

    def pointed(self, package: int) -> frozenset[str]:
        """The releases of a package its frames agree with most; empty when they do not tell releases apart."""
        if not self.frames:
            return frozenset()
        found = self.pointed_at.get(package)
        if found is None:
            found = self.pointed_at[package] = self._pointed(package)
        return found

    def _pointed(self, package: int) -> frozenset[str]:
        core = self.tables.core
        tops = core.package_top_sets[package]
        frames = [f for f in self.frames if f.path.split("/", 1)[0] in tops]
        if not frames:
            return frozenset()
        releases = self.tables.releases(package)[-MAX_RELEASES:]
        if len(releases) < 2:
            return frozenset()
        votes = {r.version: sum(self._vote(r, f) for f in frames) for r in releases}
        best = max(votes.values())
        if best <= 0 or best == min(votes.values()):
            return frozenset()
        return frozenset(v for v, n in votes.items() if n == best)

    def _vote(self, release: ReleaseRecord, frame: ShownFrame) -> int:
        """+1 when the release's file holds the frame's text at its line, else -1."""
        lines = self.tables.source_lines(release, frame.path)
        if lines is None or not 0 < frame.line <= len(lines):
            return -1
        return 1 if lines[frame.line - 1].strip() == frame.code else -1
