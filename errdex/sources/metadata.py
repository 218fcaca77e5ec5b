"""Read a release's name, version and code-host URL from its metadata files, never from its code."""

from __future__ import annotations

import configparser
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from email.parser import BytesHeaderParser
from email.policy import compat32
from urllib.parse import urlsplit

CODE_HOSTS = frozenset({"github.com", "gitlab.com", "bitbucket.org", "codeberg.org"})
# Labels that most likely point at the code, best first; any other label comes after them.
_LABEL_RANK = ("source", "source code", "repository", "code", "github", "homepage", "home-page", "home")
_MAX_FIELD = 1000
# Labels of a URL that names where the code is: one pointing into a folder of the repository names the project's folder.
_CODE_LABELS = frozenset({"source", "source code", "repository", "code"})


@dataclass(frozen=True)
class Meta:
    """What one metadata file says; None where it says nothing usable."""

    name: str | None = None
    version: str | None = None
    urls: tuple[tuple[str, str], ...] = ()  # (label, url) in the order written


def _clean(value: object) -> str | None:
    """A short, single-line string value, or None for anything else."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if not text or len(text) > _MAX_FIELD or "\n" in text:
        return None
    return text


def from_core_metadata(data: bytes) -> Meta:
    """Parse METADATA / PKG-INFO (RFC 822 headers) of a wheel, sdist or installed distribution."""
    msg = BytesHeaderParser(policy=compat32).parsebytes(data)
    urls = []
    for value in msg.get_all("Project-URL") or ():
        label, _, url = str(value).partition(",")
        urls.append((label.strip(), url.strip()))
    home = _clean(str(msg.get("Home-page", "")))
    if home:
        urls.append(("Home-page", home))
    return Meta(_clean(str(msg.get("Name", ""))), _clean(str(msg.get("Version", ""))), tuple(urls))


def from_pyproject(data: bytes) -> Meta:
    """Parse the [project] table of pyproject.toml; a broken file says nothing."""
    try:
        project = tomllib.loads(data.decode("utf-8")).get("project")
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return Meta()
    if not isinstance(project, dict):
        return Meta()
    urls = project.get("urls")
    pairs = tuple((str(k), v) for k, v in urls.items() if isinstance(v, str)) if isinstance(urls, dict) else ()
    return Meta(_clean(project.get("name")), _clean(project.get("version")), pairs)


def from_setup_cfg(data: bytes) -> Meta:
    """Parse the [metadata] section of setup.cfg; `attr:` and `file:` versions are not literal, so ignored."""
    parser = configparser.RawConfigParser(strict=False)
    try:
        parser.read_string(data.decode("utf-8", "replace"))
    except configparser.Error:
        return Meta()
    if not parser.has_section("metadata"):
        return Meta()
    section = parser["metadata"]
    version = _clean(section.get("version"))
    if version and version.startswith(("attr:", "file:")):
        version = None
    urls = []
    for line in section.get("project_urls", "").splitlines():
        label, _, url = line.partition("=")
        if url.strip():
            urls.append((label.strip(), url.strip()))
    for key in ("url", "home_page", "home-page"):
        if section.get(key):
            urls.append(("Home-page", section[key].strip()))
    return Meta(_clean(section.get("name")), version, tuple(urls))


def merge(metas: Iterable[Meta]) -> Meta:
    """Combine metadata files: the first name and version found win; URLs are kept in order."""
    name = version = None
    urls: list[tuple[str, str]] = []
    for meta in metas:
        name = name or meta.name
        version = version or meta.version
        urls.extend(meta.urls)
    return Meta(name, version, tuple(urls))


def normalize_repository(url: str) -> str | None:
    """'git@github.com:o/r.git' or 'https://www.github.com/o/r/tree/x' -> 'https://github.com/o/r'; else None."""
    text = url.strip()[:_MAX_FIELD]
    if "://" not in text and "@" in text and ":" in text:  # scp-like git remote: user@host:owner/repo
        host_part, _, path = text.partition("@")[2].partition(":")
        text = f"https://{host_part}/{path}"
    try:
        parts = urlsplit(text)
        host = (parts.hostname or "").lower()
    except ValueError:
        return None
    host = host.removeprefix("www.")
    if host not in CODE_HOSTS:
        return None
    segments = [s for s in parts.path.split("/") if s]
    # gitlab nests groups and ends the project path at "/-/"; the other hosts are owner/repo.
    segments = segments[: segments.index("-")] if host == "gitlab.com" and "-" in segments else segments[:2]
    if len(segments) < 2:
        return None
    segments[-1] = segments[-1].removesuffix(".git")
    return f"https://{host}/" + "/".join(segments)


def repository_url(urls: Iterable[tuple[str, str]]) -> str | None:
    """The release's code repository: the best-labelled URL that points at a code host."""

    def rank(pair: tuple[str, str]) -> int:
        label = pair[0].strip().lower()
        return _LABEL_RANK.index(label) if label in _LABEL_RANK else len(_LABEL_RANK)

    for _, url in sorted(urls, key=rank):
        found = normalize_repository(url)
        if found:
            return found
    return None


def repository_folder(urls: Iterable[tuple[str, str]], repository: str | None) -> str | None:
    """The folder of the repository the project sits in, when a URL labelled as the code names it:
    'https://github.com/o/r/tree/master/libs/x' -> 'libs/x' (a monorepo); None when none does.

    The ref is taken to be one path segment (a branch or tag name without '/')."""
    if repository is None:
        return None
    for label, url in urls:
        if label.strip().lower() not in _CODE_LABELS or normalize_repository(url) != repository:
            continue
        rest = [s for s in urlsplit(url.strip()).path.split("/") if s][len(urlsplit(repository).path.split("/")) - 1 :]
        rest = rest[1:] if rest[:1] == ["-"] else rest
        if len(rest) > 2 and rest[0] == "tree":
            return "/".join(rest[2:])
    return None
