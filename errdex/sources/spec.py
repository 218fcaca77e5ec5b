"""Tell what kind of source a user's spec names: a requirement, a path, or a git revision."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement

from errdex.errors import SourceError

from .archive import ARCHIVE_SUFFIXES

MAX_SPEC = 4096
_PROJECT_FILES = ("pyproject.toml", "setup.py", "setup.cfg")
_DIRECT_URL = "{!r} is a direct URL; download the file and pass its path instead"
_HELP = "give NAME, NAME==VERSION, a folder, a .whl/.zip/.tar.gz file, or git+PATH_OR_URL@REV"


@dataclass(frozen=True)
class PipSpec:
    requirement: Requirement


@dataclass(frozen=True)
class PathSpec:
    path: Path


@dataclass(frozen=True)
class GitSpec:
    location: str
    rev: str | None


Spec = PipSpec | PathSpec | GitSpec


def _looks_like_path(text: str) -> bool:
    """Like pip: a separator, a leading dot or tilde, an archive name, or an existing project folder."""
    if "/" in text or os.sep in text or text.startswith((".", "~")) or text.lower().endswith(ARCHIVE_SUFFIXES):
        return True
    return os.path.isdir(text) and any(os.path.isfile(os.path.join(text, f)) for f in _PROJECT_FILES)


def _git_spec(text: str) -> GitSpec:
    """`PATH_OR_URL[@REV]`; in a URL the revision is the last `@` of the path, after the host."""
    if not text:
        raise SourceError(f"'git+' names no repository; {_HELP}")
    if os.path.exists(os.path.expanduser(text)):
        return GitSpec(text, None)
    host_end = text.find("/", text.index("://") + 3) if "://" in text else 0
    head, path = (text, "") if host_end < 0 else (text[:host_end], text[host_end:])
    if "@" in path:
        path, rev = path.rsplit("@", 1)
        if not rev:
            raise SourceError(f"{'git+' + text!r} has an empty revision after '@'; {_HELP}")
        return GitSpec(head + path, rev)
    return GitSpec(text, None)


def parse_spec(spec: str) -> Spec:
    """Classify a spec, or say clearly why it is none of the kinds errdex reads."""
    text = spec.strip()
    if not text:
        raise SourceError(f"The package spec is empty; {_HELP}")
    if len(text) > MAX_SPEC:
        raise SourceError(f"The package spec is longer than {MAX_SPEC} characters; {_HELP}")
    if "\x00" in text:  # no path nor name holds one (and the system calls that look a path up refuse it)
        raise SourceError(f"{text!r} contains a NUL character; {_HELP}")
    if text.startswith("git+"):
        return _git_spec(text[4:])
    if "://" in text:
        raise SourceError(_DIRECT_URL.format(text))
    if _looks_like_path(text):
        path = Path(os.path.expanduser(text))  # "~nobody" stays as written
        if not path.exists():
            raise SourceError(f"No such file or folder: {text!r} (check the path)")
        return PathSpec(path)
    try:
        requirement = Requirement(text)
    except InvalidRequirement as exc:
        raise SourceError(f"{text!r} is not a package name or requirement; {_HELP}") from exc
    if requirement.url:
        raise SourceError(_DIRECT_URL.format(text))
    return PipSpec(requirement)


def folder_of_the_name(spec: str) -> str | None:
    """`./NAME` when the spec is read as the package NAME (pip's rule: a folder with no project file is no
    path) though a folder of that name is here; the user may have meant the folder."""
    try:
        parsed = parse_spec(spec)
    except SourceError:
        return None
    if not isinstance(parsed, PipSpec) or not os.path.isdir(parsed.requirement.name):
        return None
    return os.path.join(os.curdir, parsed.requirement.name)
