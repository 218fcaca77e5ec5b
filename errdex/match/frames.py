"""What the frames of a paste say about where the error was raised.

The innermost frame of a traceback is where the exception was raised. Its file, read as a path
inside a release (site-packages, a `src/` checkout, or a folder named like an indexed package),
names the package and the file, and its line names the site. A warning's location is wherever
`stacklevel` points (often the caller), and a log line's file comes from its logger's name, so
for those the frame is weaker evidence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from errdex.match.parse import release_path
from errdex.model import Frame, ParsedError

Agreement = Literal["line", "file", "package", "other", "user", "none"]
_NOT_FILES = ("<", "Cell In[", "Input In [")


@dataclass(frozen=True)
class FrameHint:
    """The innermost frame of the paste, as a path inside a release."""

    path: str | None  # e.g. "transformers/generation/configuration_utils.py"; None for user code
    line: int | None
    library: bool  # the file is library code (installed, or a file of an indexed release)
    strength: Literal["raise", "caller", "module"]  # traceback frame, warning location, logger module

    @property
    def top(self) -> str | None:
        return self.path.split("/", 1)[0] if self.path and "/" in self.path else None


def frame_hint(parsed: ParsedError, tops: set[str]) -> FrameHint | None:
    """The hint of the paste's innermost frame, or None when it shows no frame."""
    if not parsed.frames:
        return None
    frame = parsed.frames[-1]
    strength = "module" if parsed.kind == "log" else "caller" if parsed.kind == "warning" else "raise"
    path = library_path(frame, tops)
    return FrameHint(path, frame.line, path is not None, strength)


def library_path(frame: Frame, tops: set[str]) -> str | None:
    """The path inside a release of a frame's file, or None when it is not library code."""
    name = frame.file.strip().replace("\\", "/")
    if not name or name.startswith(_NOT_FILES):
        return None
    found = release_path(name)
    if found:
        return found
    if not name.startswith("/") and ":" not in name[:3]:
        return name if "/" in name else None  # a logger's module 'transformers/generation/utils.py'
    parts = name.split("/")
    for k in range(len(parts) - 2, -1, -1):
        if parts[k] in tops:
            return "/".join(parts[k:])
    return None


def agreement(hint: FrameHint | None, in_file: bool, at_line: bool, package_tops: set[str]) -> Agreement:
    """How a candidate raised in `package_tops` agrees with the frame hint."""
    if hint is None:
        return "none"
    if hint.path is None:
        return "user"
    if at_line:
        return "line"
    if in_file:
        return "file"
    if hint.top in package_tops:
        return "package"
    return "other"
