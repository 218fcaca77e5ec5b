"""The one place that fetches a wheel's sdist: pip's finder downloads the archive, never building it.

Readers ask for it by release and cache folder: the layout only lists the archive (so it is fetched
into a temporary folder), the compiled sources read it (so it is kept in KEPT_FOLDER, fetched once).
That the index has no sdist is a lasting answer and is remembered; a failed fetch (offline, a broken
download) is not, so that a later run asks again.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from packaging.requirements import InvalidRequirement, Requirement

from errdex.model import ReleaseInfo

from .archive import ARCHIVE_SUFFIXES
from .registry import SDIST_ONLY, run_finder

KEPT_FOLDER = "sdist"  # beside the release's wheel: the kept sdist, or NO_SDIST
NO_SDIST = "none"  # a file in KEPT_FOLDER: the index has no sdist of this release


@dataclass(frozen=True)
class Sdist:
    """What asking for a release's sdist gave: its archive (open while the context is), or why there is none."""

    path: Path | None
    status: Literal["found", "missing", "failed"]  # missing: the index has none; failed: not fetched this time
    detail: str = ""  # why it failed, in words


def kept_sdist(folder: Path) -> Sdist | None:
    """The sdist kept (or known missing) in a release's cache folder, or None when nothing is known."""
    kept = folder / KEPT_FOLDER
    if (kept / NO_SDIST).is_file():
        return Sdist(None, "missing")
    try:
        archives = sorted(p for p in kept.iterdir() if p.is_file() and p.name.lower().endswith(ARCHIVE_SUFFIXES))
    except OSError:
        return None
    return Sdist(archives[0], "found") if archives else None


@contextmanager
def release_sdist(info: ReleaseInfo, folder: Path, *, keep: bool) -> Iterator[Sdist]:
    """The sdist of `info`'s release: as kept in `folder`, else fetched by pip's finder (never built)
    into a temporary folder there, and moved into KEPT_FOLDER when `keep`."""
    known = kept_sdist(folder)
    if known is not None:
        yield known
        return
    try:
        requirement = Requirement(f"{info.package}=={info.version}")
    except InvalidRequirement:
        yield Sdist(None, "failed", f"'{info.package}=={info.version}' is not a requirement pip can look up")
        return
    with tempfile.TemporaryDirectory(dir=folder, prefix=".sdist-") as tmp:
        result, tail = run_finder(requirement, Path(tmp), [SDIST_ONLY])
        if "file" in result:
            found = Path(result["file"])
            yield Sdist(_keep(found, folder) if keep else found, "found")
        elif result.get("error") == "not_found" and not result.get("unreachable"):
            _remember_missing(folder)
            yield Sdist(None, "missing")
        elif result.get("error") == "not_found":
            yield Sdist(None, "failed", "the package index could not be reached")
        else:
            yield Sdist(None, "failed", result.get("detail") or tail)


def _keep(downloaded: Path, folder: Path) -> Path:
    """Move a downloaded sdist into the release's KEPT_FOLDER, where later runs find it."""
    target = folder / KEPT_FOLDER / downloaded.name
    target.parent.mkdir(exist_ok=True)
    os.replace(downloaded, target)
    return target


def _remember_missing(folder: Path) -> None:
    (folder / KEPT_FOLDER).mkdir(exist_ok=True)
    (folder / KEPT_FOLDER / NO_SDIST).touch()
