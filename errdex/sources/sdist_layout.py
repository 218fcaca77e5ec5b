"""Where a wheel's files sit in its project tree, learned from the member list of the same release's sdist.

A wheel keeps `transformers/x.py`; its repository may keep `src/transformers/x.py`. The sdist of
the same release is a copy of the project tree, so it is fetched (sdist_fetch.py, never built)
and only the archive's member names are read. The answer is kept beside the release file, so a
release is asked about once; a release with no sdist is remembered as not known.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TypedDict

from errdex.errors import SourceError
from errdex.model import ReleaseInfo, RepoLayout

from .archive import archive_python_paths
from .layout import tree_prefix
from .registry import FetchProgress
from .sdist_fetch import release_sdist

LAYOUT_FILE = "layout.json"


class LearnedLayout(TypedDict):
    """What LAYOUT_FILE holds: the prefix (None: the sdist holds none of the wheel's files, or there is
    no sdist) and the sdist it was read from (None when the release has none)."""

    prefix: str | None
    sdist: str | None


def sdist_layout(info: ReleaseInfo, imported: list[str], folder: Path, progress: FetchProgress) -> RepoLayout | None:
    """The layout of a wheel's release read from its sdist, cached in `folder`; None when not known."""
    learned = _cached(folder / LAYOUT_FILE) or _learn(info, imported, folder, progress)
    if learned is None or learned["prefix"] is None:
        return None
    return RepoLayout(learned["prefix"], "sdist")


def _cached(path: Path) -> LearnedLayout | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not all(isinstance(data.get(k), str | None) for k in ("prefix", "sdist")):
        return None
    return LearnedLayout(prefix=data.get("prefix"), sdist=data.get("sdist"))


def _learn(info: ReleaseInfo, imported: list[str], folder: Path, progress: FetchProgress) -> LearnedLayout | None:
    """List the sdist (kept, or fetched for the listing) and keep the answer; None (and nothing kept)
    when pip could not answer (offline, a failed download), so that a later run asks again."""
    progress(f"listing the sdist of {info.package} {info.version} to learn where its files sit in the repository")
    with release_sdist(info, folder, keep=False) as sdist:
        if sdist.path is not None:
            try:
                learned = LearnedLayout(
                    prefix=tree_prefix(imported, archive_python_paths(sdist.path)), sdist=sdist.path.name
                )
            except SourceError as exc:
                progress(f"the sdist cannot be listed ({exc}); the repository's layout is not known")
                return None
        elif sdist.status == "missing":
            learned = LearnedLayout(prefix=None, sdist=None)
        else:
            progress("the sdist could not be fetched; the repository's layout is not known")
            return None
    (folder / LAYOUT_FILE).write_text(json.dumps(learned), encoding="utf-8")
    return learned
