"""Links to a site's lines in the upstream repository, pinned to the release, with what they assume said plainly.

A release names its repository, not where its files sit in it nor how its tags are written. Where
the files sit is learned from a project tree's paths when the index has one (the release's own
sdist, folder or git commit; a wheel's sdist): `src/transformers/x.py` for the installed
`transformers/x.py`. An sdist's root is taken for the repository's root unless the release's
metadata names the project's folder (a monorepo's source URL `.../tree/master/libs/x`); the label
says which. A git commit is linked by its sha; a release by the tag `v<version>`, with the
bare `<version>` offered beside it, each labelled as the assumption it is.
"""

from __future__ import annotations

from typing import NamedTuple

from errdex.model import ReleaseRecord, language_of
from errdex.pages.model import SourceLink

SRC_LAYOUT = "src"
SRC_LABEL = (
    "if the repository keeps its packages under `src/`: the index does not know where this release's files sit"
    " in its repository (no sdist or project tree was read), so the first link uses the path as installed"
)
_TREE_WORDS = {"sdist": "the release's sdist", "archive": "the release's archive", "folder": "the indexed folder"}


class SourceLinks(NamedTuple):
    """The link to the lines, what it assumes (None: nothing), and the other links that may be the right one."""

    url: str | None
    label: str | None
    alternatives: list[SourceLink]


class _Ref(NamedTuple):
    name: str  # a commit sha or a tag
    assumed: str | None  # the words saying which tag form is assumed; None for a commit


def source_links(release: ReleaseRecord, path: str, line: int, end_line: int) -> SourceLinks:
    """The link to the lines, pinned to the release, with the assumptions it makes and its alternatives."""
    refs = _refs(release)
    paths = _paths(release, path)
    url = _blob(release, paths[0][0], refs[0].name, line, end_line)
    if url is None:
        return SourceLinks(None, None, [])
    alternatives: list[SourceLink] = [
        {
            "url": _blob(release, repo_path, ref.name, line, end_line),
            "path": repo_path,
            "ref": ref.name,
            "label": "the same lines " + " and ".join(w for w in (why, ref.assumed if ref != refs[0] else None) if w),
        }
        for repo_path, why in paths
        for ref in refs
        if (repo_path, ref) != (paths[0][0], refs[0])
    ]
    return SourceLinks(url, _label(release, paths[0][0], refs[0]), alternatives)


def _refs(release: ReleaseRecord) -> list[_Ref]:
    """The commit of a git release; else the tag `v<version>` first, then the bare `<version>`."""
    if release.source_kind == "git" and release.digest:
        return [_Ref(release.digest, None)]
    tagged, bare = f"v{release.version}", release.version
    return [
        _Ref(tagged, f"if the release's tag is `{tagged}`"),
        _Ref(bare, f"if the release's tag is `{bare}` (without the `v`)"),
    ]


def _paths(release: ReleaseRecord, path: str) -> list[tuple[str, str | None]]:
    """The file's path in the repository (learned, or as installed) and, when not learned, the `src/` one;
    under the project's folder when its metadata names one."""
    folder = f"{release.repository_folder}/" if release.repository_folder else ""
    if language_of(path) not in ("python", None):  # a compiled source's path is its path in the project tree
        return [(folder + path, None)]
    if release.layout is not None:
        return [(folder + release.layout.repository_path(path), None)]
    if path.startswith(SRC_LAYOUT + "/"):
        return [(folder + path, None)]
    return [(folder + path, None), (f"{folder}{SRC_LAYOUT}/{path}", SRC_LABEL)]


def _label(release: ReleaseRecord, repo_path: str, ref: _Ref) -> str | None:
    """What the link assumes, in one sentence; None when it assumes nothing (a git commit's own tree)."""
    layout, folder = release.layout, release.repository_folder
    parts = []
    if ref.assumed is not None:
        parts.append(f"the tag `{ref.name}` (the index does not know how the repository writes its tags)")
    if folder:
        parts.append(
            f"the path `{repo_path}`, in the folder `{folder}` that the release's metadata names as its source"
        )
    if layout is None:
        parts.append(
            f"the path as installed, `{repo_path}` (the index does not know where this release's files sit in its"
            " repository)"
        )
    elif layout.learned_from in _TREE_WORDS and not folder:
        parts.append(
            f"the path `{repo_path}` as {_TREE_WORDS[layout.learned_from]} has it from its root (a repository that"
            " keeps the project in a subfolder, as a monorepo does, has it deeper)"
        )
    return f"This link assumes {' and '.join(parts)}." if parts else None


def _blob(release: ReleaseRecord, path: str, ref: str, line: int, end_line: int) -> str | None:
    """A link to lines of a file upstream at a commit or tag; GitHub and GitLab only."""
    repo = (release.repository_url or "").rstrip("/")
    if repo.startswith("https://github.com/"):
        return f"{repo}/blob/{ref}/{path}#L{line}-L{end_line}"
    if repo.startswith("https://gitlab.com/"):
        return f"{repo}/-/blob/{ref}/{path}#L{line}-{end_line}"
    return None
