"""What the frames of a paste say about where the error was raised.

The innermost frame of a traceback is where the exception was raised, with two exceptions:
code run by `exec` (six's `raise_from` runs in '<string>') is skipped, and an exception raised
with another one's traceback (`raise exc.with_traceback(tb)`) may have been raised by the frame
that says so, further out: both count. Below a library frame that raised, the frames printed are
the traceback the exception carried, which the library may have cut (jinja2 keeps only its
template's frames): an innermost frame there that only calls is no witness against a site
elsewhere. The frame's file, read as a path inside a release (site-packages, a `src/` checkout,
or a folder named like an indexed package), names the package and the file, and its line names the site. A
warning's location is wherever `stacklevel` points (often the caller), and a log line's file
comes from its logger's name, so for those the frame is weaker evidence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from errdex.match.parse import release_path
from errdex.model import FileLine, Frame, ParsedError

Strength = Literal["raise", "caller", "module"]  # traceback frame, warning location, logger module
Agreement = Literal["line", "file", "package", "callee", "other", "user", "none", "class"]  # class: see rank
_NOT_FILES = ("<", "Cell In[", "Input In [")
_EXECUTED = "<string>"
_RAISING = ("raise", "assert")


@dataclass(frozen=True)
class FrameHint:
    """The innermost frame of the paste as a path inside a release, and the frames that re-raised."""

    path: str | None  # e.g. "transformers/generation/configuration_utils.py"; None for user code
    line: int | None
    library: bool  # the file is library code (installed, or a file of an indexed release)
    strength: Strength
    reraised: tuple[FileLine, ...] = ()  # library frames that ran `raise exc.with_traceback(tb)`
    attached: bool = False  # its line raises nothing and it comes after a library frame that raised (see _attached)

    @property
    def top(self) -> str | None:
        return self.path.split("/", 1)[0] if self.path and "/" in self.path else None

    @property
    def points(self) -> tuple[FileLine, ...]:
        """Every path and line that may have raised the exception shown."""
        own = (FileLine(self.path, self.line),) if self.path is not None and self.line is not None else ()
        return own + self.reraised

    def at(self, file: str, line: int, end_line: int) -> bool:
        """Whether a site spanning `line`..`end_line` of `file` is one of the points."""
        return _at(self.points, file, line, end_line)

    def raised_again_at(self, file: str, line: int, end_line: int) -> bool:
        """Whether the site is only at a re-raising frame with another one inside it.

        Such a frame raised again an exception a frame further in had already raised with its
        traceback (sqlalchemy's `safe_reraise` around `_handle_dbapi_exception`): the innermost
        re-raising frame is where the exception shown was first raised.
        """
        first = self.points[: len(self.points) - len(self.reraised)] + self.reraised[-1:]
        return _at(self.reraised[:-1], file, line, end_line) and not _at(first, file, line, end_line)


def _at(points: tuple[FileLine, ...], file: str, line: int, end_line: int) -> bool:
    return any(p.file == file and line <= p.line <= max(line, end_line) for p in points)


def frame_hint(parsed: ParsedError, tops: set[str]) -> FrameHint | None:
    """The hint of the paste's innermost frame, or None when it shows no frame."""
    if not parsed.frames:
        return None
    shown = tuple(f for f in parsed.frames if f.file != _EXECUTED) or parsed.frames
    frame = shown[-1]
    strength: Strength = (
        "module"
        if parsed.kind == "log"
        else "caller"
        if parsed.kind == "warning" or parsed.printed_above or _test_that_failed(parsed, frame)
        else "raise"
    )
    path = library_path(frame, tops)
    if path is None and frame.file.startswith("<") and _called_by_library(shown, tops):
        return None  # a library's own pseudo-file ('<template>' of jinja2): it tells nothing
    return FrameHint(path, frame.line, path is not None, strength, _reraised(shown, tops), _attached(shown, tops))


def _test_that_failed(parsed: ParsedError, frame: Frame) -> bool:
    """pytest's summary line (`FAILED tests/test_x.py::test_y - ValueError: ...`) names the test that failed, a
    caller of whatever raised: no line of its own, where the exception surfaced rather than where it was raised."""
    return parsed.source_format == "pytest" and frame.line is None


def _attached(frames: tuple[Frame, ...], tops: set[str]) -> bool:
    """Whether the innermost frame only calls, below a library frame that raised an exception.

    A frame further out that shows a `raise` raised an exception carrying a traceback of its own
    (`raise exc.with_traceback(tb)`, jinja2's `raise rewrite_traceback_stack(...)`), which is
    printed below it and may have been cut or rewritten: its innermost frame need not be the site.
    """
    code = (frames[-1].code or "").split(maxsplit=1)
    if not code or code[0] in _RAISING:
        return False
    return any((f.code or "").lstrip().startswith("raise ") and library_path(f, tops) is not None for f in frames[:-1])


def _reraised(frames: tuple[Frame, ...], tops: set[str]) -> tuple[FileLine, ...]:
    """Library frames that raised with another exception's traceback, which is printed inside theirs."""
    out: list[FileLine] = []
    for frame in frames:
        code = (frame.code or "").lstrip()
        path = library_path(frame, tops) if code.startswith("raise ") and ".with_traceback(" in code else None
        if path is not None and frame.line is not None:
            out.append(FileLine(path, frame.line))
    return tuple(out)


def _called_by_library(frames: tuple[Frame, ...], tops: set[str]) -> bool:
    """Whether the innermost frame was called from library code."""
    return len(frames) > 1 and library_path(frames[-2], tops) is not None


def library_path(frame: Frame, tops: set[str]) -> str | None:
    """The path inside a release of a frame's file, or None when it is not library code."""
    name = frame.file.strip().replace("\\", "/")
    if not name or name.startswith(_NOT_FILES):
        return None
    found = release_path(name)
    if found:
        return found
    parts = name.split("/")
    for k in range(len(parts) - 2, -1, -1):
        if parts[k] in tops:
            return "/".join(parts[k:])
    relative = not name.startswith("/") and ":" not in name[:3]
    return name if relative and "/" in name else None  # a logger's module 'numpy/linalg/linalg.py'


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
        return "callee" if hint.attached else "package"
    return "other"
