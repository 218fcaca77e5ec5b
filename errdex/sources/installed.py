"""Read an installed distribution's Python files from disk, by its RECORD, without importing it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlsplit

from packaging.requirements import InvalidRequirement, Requirement

from errdex.errors import SourceError
from errdex.model import ReleaseInfo

from .folder import FolderTree
from .layout import import_paths
from .metadata import from_core_metadata, repository_folder, repository_url
from .tree import DEFAULT_LIMITS, SourceLimits, TreeSource, read_capped


class InstalledTree:
    """The Python files a distribution's RECORD lists inside site-packages."""

    def __init__(self, dist: metadata.Distribution, label: str, limits: SourceLimits) -> None:
        self.label = label
        self._dist = dist
        self._limits = limits
        self._paths = [
            str(p)
            for p in dist.files or ()
            if p.suffix == ".py"
            and not p.is_absolute()
            and ".." not in p.parts
            and not p.name.startswith("__editable__")
        ]

    def paths(self) -> Sequence[str]:
        return self._paths

    def read(self, path: str) -> bytes:
        try:
            with open(Path(str(self._dist.locate_file(path))), "rb") as f:
                return read_capped(f, self.label, path, self._limits)
        except OSError as exc:
            raise SourceError(f"Cannot read '{path}' of {self.label}: {exc.strerror or exc}") from exc


def _editable_folder(dist: metadata.Distribution) -> Path | None:
    """The project folder of an editable install (PEP 660 direct_url.json), if it still exists."""
    try:
        direct = json.loads(dist.read_text("direct_url.json") or "null")
    except ValueError:
        return None
    if not isinstance(direct, dict) or not (direct.get("dir_info") or {}).get("editable"):
        return None
    url = urlsplit(str(direct.get("url", "")))
    folder = Path(unquote(url.path)) if url.scheme == "file" else None
    return folder if folder and folder.is_dir() else None


def open_installed_source(spec: str, limits: SourceLimits = DEFAULT_LIMITS) -> TreeSource:
    """Open the distribution installed in errdex's own environment; an editable one reads its project folder."""
    try:
        requirement = Requirement(spec.strip())
        dist = metadata.distribution(requirement.name)
    except InvalidRequirement as exc:
        raise SourceError(f"'{spec}' is not a distribution name (give the name as pip shows it)") from exc
    except metadata.PackageNotFoundError as exc:
        raise SourceError(f"No distribution '{spec}' is installed here (check the name with `pip list`)") from exc
    if requirement.specifier and not requirement.specifier.contains(dist.version, prereleases=True):
        raise SourceError(f"Installed '{requirement.name}' is version {dist.version}, not {requirement.specifier}")
    text = dist.read_text("METADATA") or dist.read_text("PKG-INFO") or ""
    meta = from_core_metadata(text.encode("utf-8", "surrogateescape"))
    label = f"installed distribution '{requirement.name}'"
    editable = _editable_folder(dist)
    if editable is not None:
        tree: FolderTree | InstalledTree = FolderTree(editable, limits)
    elif dist.files is None:
        raise SourceError(f"The {label} has no RECORD of its files; reinstall it with pip")
    else:
        tree = InstalledTree(dist, label, limits)
    info = ReleaseInfo(
        package=meta.name or requirement.name,
        version=dist.version,
        spec=spec,
        source_kind="installed",
        digest="",
        repository_url=repository_url(meta.urls),
        repository_folder=repository_folder(meta.urls, repository_url(meta.urls)),
    )
    source = TreeSource(info, tree, import_paths(tree.paths(), wheel=editable is None))
    return source.hashed()
