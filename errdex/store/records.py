"""What the Store takes and gives beyond the shared model: one named record a row, never a tuple read by position."""

from __future__ import annotations

from dataclasses import dataclass

from errdex.model import FileLine, RepoLayout, Site


@dataclass(frozen=True, slots=True)
class IndexedSite:
    """One site of a release with the id of the error it raises (an error may have several sites)."""

    error_id: str
    site: Site


@dataclass(frozen=True, slots=True)
class ReleaseFile:
    """A Python file of a release: its path, its content hash, and why it was not analysed (None if it was)."""

    path: str
    hash: str
    skip_reason: str | None


@dataclass(frozen=True, slots=True)
class FileText:
    """The path and text of one analysed file of a release."""

    path: str
    text: str


@dataclass(frozen=True, slots=True)
class ErrorVersion:
    """An indexed release that has an error, with the places it raises it there (file and line order)."""

    version: str
    places: tuple[FileLine, ...]


@dataclass(frozen=True, slots=True)
class ReleaseDigest:
    """What tells whether an indexed release is current: its source's digest, the extractor that read it, and
    where its files sit in the repository (learned anew when a wheel's sdist is listed for the first time)."""

    digest: str
    extractor_version: str
    layout: RepoLayout | None
    repository_folder: str | None


@dataclass(frozen=True, slots=True)
class PackageSummary:
    """An indexed package: its published and normalised names, how many releases and distinct errors it has."""

    package: str
    name: str
    releases: int
    errors: int


@dataclass(frozen=True, slots=True)
class StoreStats:
    """How many rows the index holds of each kind."""

    packages: int
    releases: int
    errors: int
    sites: int
    files: int


@dataclass(frozen=True, slots=True)
class Verification:
    """What running one snippet of an error's page showed (`errdex verify`): kept by (error, release, Python, role,
    code), so a page shows it only beside the very snippet that ran."""

    error_id: str
    package: str
    version: str
    python: str  # "3.11"
    role: str  # trigger | fix
    code: str
    status: str  # verified | disproved | cannot run | timed out | stopped
    detail: str  # what was observed, in words
    exception: str | None  # the class it raised, qualified; None when it raised nothing
    message: str | None
    file: str | None  # the innermost frame inside the package, relative to its site-packages
    line: int | None
    isolation: str  # how the network was cut off
    checked_at: str  # when, ISO 8601 (UTC)
