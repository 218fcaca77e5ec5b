"""Links to a site's lines in the upstream repository, pinned to the release, with what is not known said plainly.

A release names its repository, not where its files sit in it: a wheel (or installed files)
keeps `transformers/x.py` while the repository may keep it at `src/transformers/x.py`. The
index does not record the repository's layout, so the link uses the path as installed and a
second link puts it under `src/`, labelled as the alternative it is.
"""

from __future__ import annotations

from errdex.model import ReleaseRecord
from errdex.pages.model import SourceLink

SRC_LAYOUT = "src"
SRC_LABEL = (
    "the same lines if the repository keeps its packages under `src/`: the index does not record the repository's"
    " layout, so the first link uses the path as installed and may not exist"
)


def source_links(release: ReleaseRecord, path: str, line: int, end_line: int) -> tuple[str | None, list[SourceLink]]:
    """The link to the lines (path as installed) and the alternative links, each with its repository path and label."""
    url = _blob(release, path, line, end_line)
    if url is None or path.startswith(SRC_LAYOUT + "/"):
        return url, []
    src = f"{SRC_LAYOUT}/{path}"
    return url, [{"url": _blob(release, src, line, end_line), "path": src, "label": SRC_LABEL}]


def _blob(release: ReleaseRecord, path: str, line: int, end_line: int) -> str | None:
    """A link to lines of a file upstream, pinned to the commit (git) or the release tag; GitHub and GitLab only."""
    repo = (release.repository_url or "").rstrip("/")
    ref = release.digest if release.source_kind == "git" and release.digest else f"v{release.version}"
    if repo.startswith("https://github.com/"):
        return f"{repo}/blob/{ref}/{path}#L{line}-L{end_line}"
    if repo.startswith("https://gitlab.com/"):
        return f"{repo}/-/blob/{ref}/{path}#L{line}-{end_line}"
    return None
