"""The Store: every query errdex runs, in SQL that SQLite and PostgreSQL both accept.

One connection per Store, to a SQLite file (the default) or a PostgreSQL database (a
postgresql:// URL); the backend modules hold what differs (see backend.py). Readers never block
on a writer; each release is replaced in one transaction, so a crash or Ctrl-C mid-way leaves
the previous state of that release intact.
"""

from __future__ import annotations

import ast
import json
import os
import time
from collections.abc import Generator, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import astuple, dataclass, replace
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

import platformdirs
from packaging.version import InvalidVersion, Version

from errdex.blobs import unpack
from errdex.errors import NotIndexedError, StoreError
from errdex.jsontext import dumps_text
from errdex.model import (
    BINDINGS_KEY,
    PRIOR_KEY,
    ApiEntry,
    ApiSymbol,
    Binding,
    ClassInfo,
    ClassPlace,
    ErrorRecord,
    FileLine,
    PriorCheck,
    Related,
    ReleaseInfo,
    ReleaseRecord,
    RepoLayout,
    Site,
    Snippet,
    SourceKind,
    WrittenAt,
    normalize_name,
)
from errdex.store.api_rows import API_COLUMNS, symbol_of_row, symbol_row
from errdex.store.backend import Row, WriteBusy, is_postgres_url, open_database
from errdex.store.records import (
    ErrorVersion,
    FileText,
    IndexedSite,
    PackageSummary,
    ReleaseDigest,
    ReleaseFile,
    StoreStats,
    Verification,
)

SNIPPET_BEFORE = 22
SNIPPET_AFTER = 14
MAX_CONDITION_CHARS = 5000  # a longer condition is not searched for the settings it reads
_SELF = frozenset({"self", "cls"})
_API_COLUMNS_OF_A = ", ".join(f"a.{column}" for column in API_COLUMNS.split(", "))
# the API symbols of the files of indexed releases (`a`, `rf`, `r`): a file's rows of the release's extractor
_API_OF_RELEASES = (
    " FROM api_symbols a JOIN release_files rf ON rf.hash = a.hash"
    " JOIN releases r ON r.id = rf.release_id AND r.extractor_version = a.extractor_version"
)
RELATED_LIMIT = 8  # related errors a page lists: those of the same function first, then of the same setting
CACHE_WAIT_MS = 200  # how long a cache write waits before it is skipped
CACHE_BACK_OFF_S = 5.0  # after a skipped cache write, the next ones are skipped without waiting for this long


def default_path() -> Path | str:
    """`ERRDEX_DB` (a file or a postgresql:// URL), else errdex.db in the user's data directory."""
    env = os.environ.get("ERRDEX_DB")
    if env:
        return env if is_postgres_url(env) else Path(env).expanduser()
    return Path(platformdirs.user_data_dir("errdex")) / "errdex.db"


@dataclass(frozen=True)
class NewFile:
    """A file the store has not seen: its hash, size, compressed bytes and compressed analysis."""

    hash: str
    size: int
    source_z: bytes
    analysis_z: bytes | None
    api: tuple[ApiSymbol, ...] = ()  # the file's API symbols (see errdex.extract.api)


@dataclass(frozen=True)
class TemplateRow:
    """What the matcher needs of one error: id, package, kind, exception and template."""

    error_id: str
    package: str
    kind: str
    exception: str | None
    template: str


class Store:
    """An errdex index: a SQLite file, or a PostgreSQL database when given a postgresql:// URL."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.db = open_database(path if path is not None else default_path())
        self.path: Path | str = self.db.location  # opens the same index again, in a worker process too
        self._cache_busy_until = 0.0
        self._generation: tuple[tuple[int, int], int] | None = None  # (the database's change stamp, generation)

    @property
    def label(self) -> str:
        """The index as messages name it: its path, or its URL without the password."""
        return self.db.label

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- schema ---------------------------------------------------------------------------
    @property
    def schema_version(self) -> int:
        return self.db.schema_version()

    def _transaction(self) -> AbstractContextManager[None]:
        return self.db.transaction()

    def _one(self, sql: str, params: Sequence[Any] = ()) -> Row:
        """The row of a statement that always gives one (a count, an INSERT ... RETURNING, a key just written)."""
        row = self.db.execute(sql, params).fetchone()
        if row is None:
            raise StoreError(f"{self.db.label} gave no row for: {sql}")
        return row

    # -- content-addressed files ----------------------------------------------------------
    def known_files(self, hashes: Iterable[str], extractor_version: str) -> dict[str, bytes | None]:
        """For each hash already stored: its analysis for this extractor version (None if absent)."""
        out: dict[str, bytes | None] = {}
        hashes = list(hashes)
        for chunk in _chunks(hashes, 500):
            marks = ",".join("?" * len(chunk))
            for (h,) in self.db.execute(f"SELECT hash FROM files WHERE hash IN ({marks})", chunk):
                out[h] = None
            rows = self.db.execute(
                f"SELECT hash, data FROM analyses WHERE extractor_version = ? AND hash IN ({marks})",
                [extractor_version, *chunk],
            )
            for h, data in rows:
                out[h] = unpack(data)
        return out

    def add_files(self, new_files: Sequence[NewFile], extractor_version: str) -> None:
        """Store analysed files in their own transaction, ahead of the release that has them.

        Files are content-addressed: whether that release is written later or fails, they are
        correct, and the next index of any release that has them finds them analysed.
        """
        with self._transaction():
            self._insert_files(new_files, extractor_version)

    def analysed_hashes(self, hashes: Iterable[str], extractor_version: str) -> set[str]:
        """The hashes whose analysis by this extractor version is stored, without reading it."""
        out: set[str] = set()
        for chunk in _chunks(list(hashes), 500):
            marks = ",".join("?" * len(chunk))
            rows = self.db.execute(
                f"SELECT hash FROM analyses WHERE extractor_version = ? AND hash IN ({marks})",
                [extractor_version, *chunk],
            )
            out.update(h for (h,) in rows)
        return out

    def file_text(self, file_hash: str) -> str | None:
        row = self.db.execute("SELECT source FROM files WHERE hash = ?", (file_hash,)).fetchone()
        return _source_text(row[0]) if row else None

    # -- writing a release ----------------------------------------------------------------
    def replace_release(
        self,
        info: ReleaseInfo,
        files: Sequence[ReleaseFile],
        new_files: Sequence[NewFile],
        sites: Sequence[IndexedSite],
        classes: Sequence[ClassInfo],
        extractor_version: str,
    ) -> ReleaseRecord:
        """Store one release: its files, and its sites each with the id of its error.

        Everything happens in one transaction: the release is replaced whole or not at all.
        """
        name = normalize_name(info.package)
        error_ids = {s.error_id for s in sites}
        with self._transaction():
            package_id = self._package_id(name, info)
            replaced = self._delete_release(package_id, info.version)
            self._insert_files(new_files, extractor_version)
            release_id = self._insert_release(package_id, info, extractor_version, files, len(sites), len(error_ids))
            self._insert_rows(release_id, package_id, sites, classes)
            self._finish_write(package_id, replaced)
        return self.release(info.package, info.version)

    def replace_release_reusing(
        self,
        info: ReleaseInfo,
        files: Sequence[ReleaseFile],
        new_files: Sequence[NewFile],
        sites: Sequence[IndexedSite],
        classes: Sequence[ClassInfo],
        extractor_version: str,
        previous: ReleaseRecord,
        reused_paths: Sequence[str],
    ) -> ReleaseRecord:
        """Like `replace_release`, but the sites and classes of `reused_paths` are copied from
        `previous` (a release of the same package) inside the database, so unchanged files cost
        one INSERT ... SELECT instead of a row each; when `previous` is this very version, its
        rows of those files are kept where they are.
        """
        name = normalize_name(info.package)
        if normalize_name(previous.package) != name:
            raise ValueError(f"cannot reuse rows of {previous.package} for {info.package}")
        paths = json.dumps(list(reused_paths))
        with self._transaction():
            package_id = self._package_id(name, info)
            row = self.db.execute(
                "SELECT id FROM releases WHERE package_id = ? AND version = ? AND digest = ? AND indexed_at = ?",
                (package_id, previous.version, previous.digest, previous.indexed_at),
            ).fetchone()
            if row is None:
                raise StoreError(
                    f"{previous.package} {previous.version} was indexed again meanwhile; index {info.spec} again"
                )
            old_id = row[0]
            self._insert_files(new_files, extractor_version)
            if previous.version == info.version:
                release_id, replaced = old_id, self._keep_release(old_id, info, extractor_version, files, paths)
                self._insert_rows(release_id, package_id, sites, classes)
            else:
                # `previous` is another version: the one replaced goes first, as in `replace_release`, and
                # the new one is counted once the copied and the new rows are all in
                replaced = self._delete_release(package_id, info.version)
                release_id = self._insert_release(package_id, info, extractor_version, files, 0, 0)
                self._copy_rows(old_id, release_id, paths)
                self._insert_rows(release_id, package_id, sites, classes)
            self.db.execute(
                "UPDATE releases SET site_count = (SELECT COUNT(*) FROM sites WHERE release_id = ?),"
                " error_count = (SELECT COUNT(DISTINCT error_id) FROM sites WHERE release_id = ?) WHERE id = ?",
                (release_id, release_id, release_id),
            )
            self._finish_write(package_id, replaced)
        return self.release(info.package, info.version)

    def _insert_release(
        self,
        package_id: int,
        info: ReleaseInfo,
        extractor_version: str,
        files: Sequence[ReleaseFile],
        site_count: int,
        error_count: int,
    ) -> int:
        """The release row and its files; returns the release's id."""
        (release_id,) = self._one(
            "INSERT INTO releases (package_id, version, spec, source_kind, digest, repository_url, indexed_at,"
            " extractor_version, file_count, site_count, error_count, skip_count, layout_prefix, layout_source,"
            " repository_folder) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id",
            (
                package_id,
                info.version,
                info.spec,
                info.source_kind,
                info.digest,
                info.repository_url,
                _now(),
                extractor_version,
                len(files),
                site_count,
                error_count,
                _skips(files),
                *_layout_columns(info.layout),
                info.repository_folder,
            ),
        )
        self._insert_release_files(release_id, files)
        return int(release_id)

    def _copy_rows(self, old_id: int, release_id: int, paths: str) -> None:
        """Copy the sites and classes of the files in `paths` (a JSON list) from one release to another."""
        self.db.execute(
            f"INSERT INTO sites (release_id, error_id, {_SITE_COLUMNS}) SELECT ?, error_id, {_SITE_COLUMNS}"
            f" FROM sites WHERE release_id = ? AND file IN ({self.db.json_values}) ORDER BY id",
            (release_id, old_id, paths),
        )
        self.db.execute(
            "INSERT INTO classes (release_id, file, qualname, line, bases, attributes)"
            " SELECT ?, file, qualname, line, bases, attributes FROM classes"
            f" WHERE release_id = ? AND file IN ({self.db.json_values}) ORDER BY {self.db.row_order}",
            (release_id, old_id, paths),
        )

    def _keep_release(
        self,
        release_id: int,
        info: ReleaseInfo,
        extractor_version: str,
        files: Sequence[ReleaseFile],
        kept: str,
    ) -> bool:
        """Rewrite a release in place but the sites and classes of the files in `kept` (a JSON list);
        whether any site was deleted (its error may have no site left)."""
        dropped = self.db.execute(
            f"DELETE FROM sites WHERE release_id = ? AND file NOT IN ({self.db.json_values})", (release_id, kept)
        ).rowcount
        self.db.execute(
            f"DELETE FROM classes WHERE release_id = ? AND file NOT IN ({self.db.json_values})", (release_id, kept)
        )
        self.db.execute("DELETE FROM release_files WHERE release_id = ?", (release_id,))
        self._insert_release_files(release_id, files)
        self.db.execute(
            "UPDATE releases SET spec = ?, source_kind = ?, digest = ?, repository_url = ?, indexed_at = ?,"
            " extractor_version = ?, file_count = ?, skip_count = ?, layout_prefix = ?, layout_source = ?,"
            " repository_folder = ? WHERE id = ?",
            (
                info.spec,
                info.source_kind,
                info.digest,
                info.repository_url,
                _now(),
                extractor_version,
                len(files),
                _skips(files),
                *_layout_columns(info.layout),
                info.repository_folder,
                release_id,
            ),
        )
        return bool(dropped)

    def _insert_release_files(self, release_id: int, files: Sequence[ReleaseFile]) -> None:
        self.db.executemany(
            "INSERT INTO release_files (release_id, path, hash, skip_reason) VALUES (?,?,?,?)",
            [(release_id, f.path, f.hash, f.skip_reason) for f in files],
        )

    def _insert_rows(
        self, release_id: int, package_id: int, sites: Sequence[IndexedSite], classes: Sequence[ClassInfo]
    ) -> None:
        """The errors, sites and classes of a release."""
        self._insert_errors(package_id, sites)
        self.db.executemany(
            f"INSERT INTO sites (release_id, error_id, {_SITE_COLUMNS}) VALUES ({_SITE_VALUES})",
            [(release_id, s.error_id, *_site_row(s.site)) for s in sites],
        )
        self.db.executemany(
            "INSERT INTO classes (release_id, file, qualname, line, bases, attributes) VALUES (?,?,?,?,?,?)",
            [
                (release_id, c.file, c.qualname, c.line, _json(c.bases), _json(c.attributes))
                for c in classes
                if c.attributes or c.bases
            ],
        )

    def _delete_release(self, package_id: int, version: str) -> bool:
        """Delete a release with its rows; whether there was one."""
        cursor = self.db.execute("DELETE FROM releases WHERE package_id = ? AND version = ?", (package_id, version))
        return bool(cursor.rowcount)

    def _finish_write(self, package_id: int, replaced: bool) -> None:
        """Drop errors no release has any more (only a replaced release can leave some); mark derived caches stale."""
        if replaced:
            self._drop_orphan_errors(package_id)
        self.db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'")

    def _package_id(self, name: str, info: ReleaseInfo) -> int:
        self.db.execute(
            "INSERT INTO packages (name, display_name, repository_url) VALUES (?,?,?)"
            " ON CONFLICT (name) DO UPDATE"
            " SET repository_url = COALESCE(excluded.repository_url, packages.repository_url)",
            (name, info.package, info.repository_url),
        )
        return int(self._one("SELECT id FROM packages WHERE name = ?", (name,))[0])

    def _insert_files(self, new_files: Sequence[NewFile], extractor_version: str) -> None:
        self.db.executemany(
            "INSERT INTO files (hash, size, source) VALUES (?,?,?) ON CONFLICT (hash) DO NOTHING",
            [(f.hash, f.size, f.source_z) for f in new_files],
        )
        self.db.executemany(
            "INSERT INTO analyses (hash, extractor_version, data) VALUES (?,?,?)"
            " ON CONFLICT (hash, extractor_version) DO UPDATE SET data = excluded.data",
            [(f.hash, extractor_version, f.analysis_z) for f in new_files if f.analysis_z is not None],
        )
        with_api = [f for f in new_files if f.analysis_z is not None]
        self.db.executemany(
            "DELETE FROM api_symbols WHERE hash = ? AND extractor_version = ?",
            [(f.hash, extractor_version) for f in with_api],
        )
        self.db.executemany(
            "INSERT INTO api_symbols (hash, extractor_version, leaf, qualname, kind, line, detail)"
            " VALUES (?,?,?,?,?,?,?)",
            [symbol_row(f.hash, extractor_version, symbol) for f in with_api for symbol in f.api],
        )

    def _insert_errors(self, package_id: int, sites: Sequence[IndexedSite]) -> None:
        new: dict[str, Site] = {}
        for s in sites:
            new.setdefault(s.error_id, s.site)
        known: set[str] = set()
        ids = list(new)
        for chunk in _chunks(ids, 500):
            marks = ",".join("?" * len(chunk))
            known.update(r[0] for r in self.db.execute(f"SELECT id FROM errors WHERE id IN ({marks})", chunk))
        rows = [(eid, package_id, s.kind, s.exception, s.template) for eid, s in new.items() if eid not in known]
        self.db.executemany("INSERT INTO errors (id, package_id, kind, exception, template) VALUES (?,?,?,?,?)", rows)
        self.db.executemany(
            "INSERT INTO errors_fts (error_id, template) VALUES (?,?)",
            [(eid, template) for eid, _, _, _, template in rows if template],
        )

    def _drop_orphan_errors(self, package_id: int) -> None:
        orphan = (
            "SELECT id FROM errors e WHERE package_id = ?"
            " AND NOT EXISTS (SELECT 1 FROM sites s WHERE s.error_id = e.id)"
        )
        self.db.execute(f"DELETE FROM errors_fts WHERE error_id IN ({orphan})", (package_id,))
        self.db.execute(f"DELETE FROM errors WHERE id IN ({orphan})", (package_id,))

    # -- reading --------------------------------------------------------------------------
    def packages(self) -> list[PackageSummary]:
        """Every indexed package with its release and error counts, by normalised name."""
        rows = self.db.execute(
            "SELECT p.display_name, p.name, COUNT(DISTINCT r.id),"
            " (SELECT COUNT(*) FROM errors e WHERE e.package_id = p.id)"
            " FROM packages p JOIN releases r ON r.package_id = p.id GROUP BY p.id ORDER BY p.name"
        )
        return [PackageSummary(package, name, int(releases), int(errors)) for package, name, releases, errors in rows]

    def releases(self, package: str) -> list[ReleaseRecord]:
        """The indexed releases of a package, oldest version first."""
        rows = self.db.execute(_RELEASE_SQL + " WHERE p.name = ?", (normalize_name(package),)).fetchall()
        return sorted((_release(r) for r in rows), key=lambda r: version_key(r.version))

    def release(self, package: str, version: str | None = None) -> ReleaseRecord:
        """One release; the newest indexed version when `version` is None."""
        releases = self.releases(package)
        if not releases:
            raise NotIndexedError(f"'{package}' is not indexed", f"run: errdex index {package}")
        if version is None:
            return releases[-1]
        for record in releases:
            if record.version == version:
                return record
        have = ", ".join(r.version for r in releases)
        raise NotIndexedError(
            f"{package} {version} is not indexed (indexed: {have})", f"run: errdex index {package}=={version}"
        )

    def release_digest(self, package: str, version: str) -> ReleaseDigest | None:
        """The digest and extractor version of an indexed release, or None: lets a batch skip what it has."""
        row = self.db.execute(
            "SELECT r.digest, r.extractor_version, r.layout_prefix, r.layout_source, r.repository_folder"
            " FROM releases r JOIN packages p ON p.id = r.package_id WHERE p.name = ? AND r.version = ?",
            (normalize_name(package), version),
        ).fetchone()
        if row is None:
            return None
        digest, extractor_version, prefix, learned_from, folder = row
        return ReleaseDigest(digest, extractor_version, _layout(prefix, learned_from), folder)

    def _release_id(self, record: ReleaseRecord) -> int:
        row = self.db.execute(
            "SELECT r.id FROM releases r JOIN packages p ON p.id = r.package_id WHERE p.name = ? AND r.version = ?",
            (normalize_name(record.package), record.version),
        ).fetchone()
        if row is None:
            raise NotIndexedError(f"{record.package} {record.version} is no longer indexed")
        return int(row[0])

    def errors(
        self,
        package: str,
        version: str | None = None,
        exception: str | None = None,
        kind: str | None = None,
        template: str | None = None,
    ) -> list[IndexedSite]:
        """The errors of one release, each with its first site, in file and line order; with `template`, only the
        errors with that very message."""
        record = self.release(package, version)
        sql = "SELECT error_id, " + _SITE_COLUMNS + " FROM sites WHERE release_id = ?"
        args: list[Any] = [self._release_id(record)]
        if exception:
            sql += f" AND (exception = ? OR exception {self.db.like} ? OR exception_bases {self.db.like} ?)"
            args += [exception, f"%.{exception}", f'%"{exception}"%']
        if kind:
            sql += " AND kind = ?"
            args.append(kind)
        if template is not None:
            sql += " AND template = ?"
            args.append(template)
        seen: dict[str, IndexedSite] = {}
        for error_id, *columns in self.db.execute(sql + " ORDER BY file, line, id", args):
            if error_id not in seen:
                seen[error_id] = IndexedSite(error_id, _site(columns))
        return list(seen.values())

    def release_sites(self, record: ReleaseRecord) -> list[IndexedSite]:
        """Every site of a release with its error's id, in file and line order (for comparing releases)."""
        rows = self.db.execute(
            "SELECT error_id, " + _SITE_COLUMNS + " FROM sites WHERE release_id = ? ORDER BY file, line, id",
            (self._release_id(record),),
        )
        return [IndexedSite(error_id, _site(columns)) for error_id, *columns in rows]

    def error(self, error_id: str, version: str | None = None, at: Site | None = None) -> ErrorRecord:
        """An error in one release (the newest that has it, unless `version` is given).

        The record describes its first place in file order, or `at` (one of its places): the
        excerpt around it and the errors related to it.
        """
        row = self.db.execute(
            "SELECT p.display_name FROM errors e JOIN packages p ON p.id = e.package_id WHERE e.id = ?", (error_id,)
        ).fetchone()
        if row is None:
            raise NotIndexedError(f"no error with id '{error_id}' is indexed", "find ids with: errdex list PACKAGE")
        package = row[0]
        versions = [v.version for v in self.error_versions(error_id)]
        if version is None:
            version = versions[-1]
        elif version not in versions:
            have = ", ".join(versions)
            raise NotIndexedError(f"error {error_id} is not in {package} {version} (it is in: {have})")
        record = self.release(package, version)
        release_id = self._release_id(record)
        rows = self.db.execute(
            "SELECT " + _SITE_COLUMNS + " FROM sites WHERE release_id = ? AND error_id = ? ORDER BY file, line, id",
            (release_id, error_id),
        ).fetchall()
        sites = tuple(_site(r) for r in rows)
        first = self._with_snippet(release_id, at or sites[0])
        related = tuple(self._related(release_id, error_id, first))
        return ErrorRecord(error_id, record, first, sites, related)

    def error_versions(self, error_id: str) -> list[ErrorVersion]:
        """Every indexed release that has the error, oldest first, with its places there."""
        rows = self.db.execute(
            "SELECT r.version, s.file, s.line FROM sites s JOIN releases r ON r.id = s.release_id"
            " WHERE s.error_id = ? ORDER BY s.file, s.line",
            (error_id,),
        )
        places: dict[str, list[FileLine]] = {}
        for version, file, line in rows:
            places.setdefault(version, []).append(FileLine(file, line))
        return [ErrorVersion(v, tuple(places[v])) for v in sorted(places, key=version_key)]

    def _with_snippet(self, release_id: int, site: Site) -> Site:
        text = self.release_file_text(release_id, site.file)
        if text is None:
            return site
        lines = text.split("\n")
        start = max(1, site.line - SNIPPET_BEFORE)
        end = min(len(lines), site.end_line + SNIPPET_AFTER)
        snippet = Snippet(start, end, "\n".join(lines[start - 1 : end]))
        return replace(site, snippet=snippet)

    def release_file_text(self, release_id: int, path: str) -> str | None:
        row = self.db.execute(
            "SELECT f.source FROM release_files rf JOIN files f ON f.hash = rf.hash"
            " WHERE rf.release_id = ? AND rf.path = ?",
            (release_id, path),
        ).fetchone()
        return _source_text(row[0]) if row else None

    def source(self, record: ReleaseRecord, path: str) -> str | None:
        """The text of one file of an indexed release."""
        return self.release_file_text(self._release_id(record), path)

    def _related(self, release_id: int, error_id: str, site: Site) -> list[Related]:
        """The few errors that share the site's function or a setting it checks, each with a template."""
        rows = self.db.execute(
            "SELECT error_id, template, exception, file, line, function FROM sites WHERE release_id = ?"
            " AND kind = 'error' AND template IS NOT NULL AND file = ? AND function = ? ORDER BY ABS(line - ?), id",
            (release_id, site.file, site.function, site.line),
        ).fetchall()
        seen = {error_id}
        found = list(_take(rows, "function", seen, RELATED_LIMIT))
        return found + list(_take(self._same_setting(release_id, site), "setting", seen, RELATED_LIMIT - len(found)))

    def _same_setting(self, release_id: int, site: Site) -> list[Sequence[Any]]:
        """Errors of other functions whose checks read the same setting of the site's class as the site (each
        row ends with the setting's name: the page keeps only those a user sets, see `pages.settings`).

        A setting is a public attribute the class sets on `self` that the site's condition reads as
        `self.NAME` (a private `self._state` is the class's own bookkeeping, not a setting). Another check
        reads it when its condition reads `self.NAME` in that class, a subclass or a base, or `NAME` of a
        variable named after the class (`generation_config.NAME` for `GenerationConfig`); a local variable,
        a parameter or another class's attribute of the same name is not the setting, nor is a class of
        the same name in another file (each management command's `Command` is its own class).
        """
        owner = site.function.rpartition(".")[0]
        hierarchy = self._hierarchy(release_id, site.file, owner) if owner else None
        if hierarchy is None:
            return []
        attributes, family = hierarchy
        own = {name for receiver, name in attributes_read(site.condition) if receiver in _SELF}
        instance = owner.rsplit(".", 1)[-1].lower()
        matching: list[Sequence[Any]] = []
        for name in sorted(n for n in own & attributes & set(site.checks) if not n.startswith("_")):
            rows = self.db.execute(
                "SELECT error_id, template, exception, file, line, function, condition FROM sites"
                f" WHERE release_id = ? AND kind = 'error' AND template IS NOT NULL AND condition {self.db.like} ?"
                " AND NOT (file = ? AND function = ?) ORDER BY file, line, id",
                (release_id, f"%.{name}%", site.file, site.function),
            )
            for *fields, condition in rows:
                receivers = {receiver for receiver, read in attributes_read(condition) if read == name}
                other_class = str(fields[-1]).rpartition(".")[0].rsplit(".", 1)[-1]
                namesake = other_class == owner.rsplit(".", 1)[-1] and fields[3] != site.file
                if any(r.replace("_", "").lower() == instance for r in receivers) or (
                    receivers & _SELF and other_class in family and not namesake
                ):
                    matching.append((*fields, name))
        return matching

    def _hierarchy(self, release_id: int, file: str, qualname: str) -> tuple[set[str], set[str]] | None:
        """A class's attributes, and the names of the class, its bases and the classes based on it."""
        row = self.db.execute(
            "SELECT attributes, bases FROM classes WHERE release_id = ? AND file = ? AND qualname = ?"
            f" ORDER BY {self.db.row_order}",
            (release_id, file, qualname),
        ).fetchone()
        if row is None:
            return None
        name = qualname.rsplit(".", 1)[-1]
        bases = {b.rsplit(".", 1)[-1] for b in json.loads(row[1])}
        subclasses = self.db.execute(  # a base named `name` exactly, or `module.name`, not `BaseName`
            f"SELECT qualname FROM classes WHERE release_id = ? AND (bases {self.db.like} ? OR bases {self.db.like} ?)",
            (release_id, f'%"{name}"%', f'%.{name}"%'),
        )
        return set(json.loads(row[0])), {name, *bases, *(q.rsplit(".", 1)[-1] for (q,) in subclasses)}

    def derived_classes(self, record: ReleaseRecord, name: str, limit: int = 200) -> list[ClassPlace]:
        """The release's classes based on a class named `name`, directly or through one another, matched by name
        (a base written `name` or `module.name`, not `BaseName`), at most `limit` of them."""
        release_id, found, queue = self._release_id(record), dict[ClassPlace, None](), [name]
        while queue and len(found) < limit:
            base = queue.pop()
            rows = self.db.execute(
                f"SELECT file, qualname FROM classes WHERE release_id = ? AND (bases {self.db.like} ?"
                f" OR bases {self.db.like} ?) ORDER BY {self.db.row_order}",
                (release_id, f'%"{base}"%', f'%.{base}"%'),
            ).fetchall()
            for place in map(ClassPlace._make, rows):
                if place not in found:
                    found[place] = None
                    queue.append(place.qualname.rsplit(".", 1)[-1])
        return list(found)

    def templates(self) -> Iterator[TemplateRow]:
        """Every error that has a template, for building the matcher's index."""
        rows = self.db.execute(
            "SELECT e.id, p.display_name, e.kind, e.exception, e.template FROM errors e"
            " JOIN packages p ON p.id = e.package_id WHERE e.template IS NOT NULL"
        )
        for row in rows:
            yield TemplateRow(*row)

    def search_templates(self, words: Sequence[str], limit: int = 50) -> list[str]:
        """Error ids whose template contains all the words (full-text search), best first."""
        return self.db.search(words, limit)

    def release_paths(self, record: ReleaseRecord) -> list[ReleaseFile]:
        """The files of a release, in path order."""
        rows = self.db.execute(
            "SELECT path, hash, skip_reason FROM release_files WHERE release_id = ? ORDER BY path",
            (self._release_id(record),),
        )
        return [ReleaseFile(*row) for row in rows]

    def api_named(self, package: str, leaf: str) -> dict[str, list[ApiEntry]]:
        """The API symbols whose last name part is `leaf`, in every indexed release of a package, by version."""
        rows = self.db.execute(
            f"SELECT r.version, rf.path, {_API_COLUMNS_OF_A} "
            f"{_API_OF_RELEASES}"
            " JOIN packages p ON p.id = r.package_id"
            " WHERE a.leaf = ? AND p.name = ? ORDER BY r.version, rf.path, a.line",
            (leaf, normalize_name(package)),
        )
        return _entries_by_version(rows)

    def api_qualnamed(
        self, package: str, qualnames: Sequence[str], paths: Sequence[str] | None = None
    ) -> dict[str, list[ApiEntry]]:
        """The API symbols with one of these qualified names, in every indexed release of a package, by version;
        only in the files at `paths` when given (a name many modules have, such as `__all__`, is looked up there)."""
        if not qualnames or paths is not None and not paths:
            return {}
        marks = ",".join("?" * len(qualnames))
        within = "" if paths is None else f" AND rf.path IN ({','.join('?' * len(paths))})"
        rows = self.db.execute(
            f"SELECT r.version, rf.path, {_API_COLUMNS_OF_A} "
            f"{_API_OF_RELEASES}"
            " JOIN packages p ON p.id = r.package_id"
            f" WHERE a.qualname IN ({marks}) AND p.name = ?{within} ORDER BY r.version, rf.path, a.line",
            (*qualnames, normalize_name(package), *(paths or ())),
        )
        return _entries_by_version(rows)

    def api_lazy_tabled(self, package: str, paths: Sequence[str]) -> dict[str, set[str]]:
        """Which of these files hold a lazy table read statically (named `lazy` rows), per indexed release."""
        if not paths:
            return {}
        marks = ",".join("?" * len(paths))
        rows = self.db.execute(
            "SELECT DISTINCT r.version, rf.path"
            f"{_API_OF_RELEASES}"
            " JOIN packages p ON p.id = r.package_id"
            f" WHERE a.kind = 'lazy' AND a.qualname <> '*' AND a.leaf <> '' AND p.name = ? AND rf.path IN ({marks})",
            (normalize_name(package), *paths),
        )
        out: dict[str, set[str]] = {}
        for version, path in rows:
            out.setdefault(version, set()).add(path)
        return out

    def release_has_paths(self, package: str, paths: Sequence[str]) -> dict[str, set[str]]:
        """Which of these file paths each indexed release of a package has, by version (every release is a key)."""
        out: dict[str, set[str]] = {r.version: set() for r in self.releases(package)}
        if not paths or not out:
            return out
        marks = ",".join("?" * len(paths))
        rows = self.db.execute(
            "SELECT r.version, rf.path FROM release_files rf JOIN releases r ON r.id = rf.release_id"
            f" JOIN packages p ON p.id = r.package_id WHERE rf.path IN ({marks}) AND p.name = ?",
            (*paths, normalize_name(package)),
        )
        for version, path in rows:
            out[version].add(path)
        return out

    def packages_with_top(self, top: str) -> list[str]:
        """The indexed packages (normalised names) with a file in the top-level module or folder `top`."""
        rows = self.db.execute(
            "SELECT DISTINCT p.name FROM release_files rf JOIN releases r ON r.id = rf.release_id"
            " JOIN packages p ON p.id = r.package_id WHERE (rf.path >= ? AND rf.path < ?) OR rf.path = ?"
            " ORDER BY p.name",
            (f"{top}/", f"{top}0", f"{top}.py"),
        )
        return [name for (name,) in rows]

    def api_prefixed(self, record: ReleaseRecord, prefix: str) -> list[ApiSymbol]:
        """The API symbols of a release whose qualified name starts with `prefix` ("DataFrame." for its members)."""
        after = prefix[:-1] + chr(ord(prefix[-1]) + 1)
        return self._release_symbols(record, "a.qualname >= ? AND a.qualname < ?", (prefix, after), "a.qualname")

    def _release_symbols(
        self, record: ReleaseRecord, where: str, params: tuple[str, ...], order: str
    ) -> list[ApiSymbol]:
        rows = self.db.execute(
            f"SELECT {_API_COLUMNS_OF_A} {_API_OF_RELEASES} WHERE {where} AND rf.release_id = ? ORDER BY {order}",
            (*params, self._release_id(record)),
        )
        return [symbol_of_row(row) for row in rows]

    def api_packages_naming(self, leaf: str) -> list[str]:
        """The indexed packages that have an API symbol named `leaf` in some release (their normalised names)."""
        rows = self.db.execute(
            "SELECT DISTINCT p.name "
            f"{_API_OF_RELEASES}"
            " JOIN packages p ON p.id = r.package_id WHERE a.leaf = ? ORDER BY p.name",
            (leaf,),
        )
        return [name for (name,) in rows]

    def api_file(self, record: ReleaseRecord, path: str) -> list[ApiSymbol]:
        """The API symbols of one file of a release, in line order."""
        return self._release_symbols(record, "rf.path = ?", (path,), "a.line, a.qualname")

    def release_sources(self, record: ReleaseRecord) -> Generator[FileText, None, None]:
        """Every analysed file of a release with its text, in path order, in one query (close it to end the read)."""
        rows = self.db.execute(
            "SELECT rf.path, f.source FROM release_files rf JOIN files f ON f.hash = rf.hash"
            " WHERE rf.release_id = ? AND rf.skip_reason IS NULL ORDER BY rf.path",
            (self._release_id(record),),
        )
        for path, source in rows:
            yield FileText(path, _source_text(source))

    # -- caches of derived data -----------------------------------------------------------
    def generation(self) -> int:
        """A number that grows whenever a release is written; caches computed before are stale.

        Read again only when the database's change stamp says it may have changed (every query asks:
        SQLite tells that for less than reading the number).
        """
        stamp = self.db.change_stamp()
        if stamp is not None and self._generation is not None and self._generation[0] == stamp:
            return self._generation[1]
        value = int(self._one("SELECT value FROM meta WHERE key = 'generation'")[0])
        self._generation = (stamp, value) if stamp is not None else None
        return value

    def cache_get(self, key: str, any_generation: bool = False) -> bytes | None:
        """Derived data stored under `key`, if it was computed at the current generation."""
        row = self.db.execute("SELECT generation, data FROM caches WHERE key = ?", (key,)).fetchone()
        if row is None or (not any_generation and row[0] != self.generation()):
            return None
        return bytes(row[1])

    def cache_put(self, key: str, data: bytes) -> bool:
        """Keep derived data; skipped (False) rather than wait while another process writes a release.

        A cache is only a shortcut, so a reader such as `errdex serve` must never stall or fail
        because an indexer holds the write lock for the minutes a large release takes. After one
        skipped write, the next ones skip at once for a while instead of each waiting again.
        """
        if time.monotonic() < self._cache_busy_until:
            return False
        try:
            with self.db.transaction(wait_ms=CACHE_WAIT_MS):
                self.db.execute(
                    "INSERT INTO caches (key, generation, data)"
                    " VALUES (?, (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'generation'), ?)"
                    " ON CONFLICT (key) DO UPDATE SET generation = excluded.generation, data = excluded.data",
                    (key, data),
                )
        except WriteBusy:
            self._cache_busy_until = time.monotonic() + CACHE_BACK_OFF_S
            return False
        except self.db.failure as exc:
            raise StoreError(f"{self.db.label}: cannot write a cache entry ({exc})") from None
        return True

    # -- verifications (see errdex.verify) -------------------------------------------------
    def put_verification(self, found: Verification) -> None:
        """Keep what running a snippet showed, replacing an earlier run of the same snippet on the same Python."""
        with self._transaction():
            self.db.execute(
                "INSERT INTO verifications (error_id, package, version, python, role, code, status, detail, exception,"
                " message, file, line, isolation, checked_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
                " ON CONFLICT (error_id, package, version, python, role, code) DO UPDATE SET status = excluded.status,"
                " detail = excluded.detail, exception = excluded.exception, message = excluded.message,"
                " file = excluded.file, line = excluded.line, isolation = excluded.isolation,"
                " checked_at = excluded.checked_at",
                astuple(found),
            )

    def runs_of(self, error_id: str) -> tuple[int, str | None]:
        """How many runs of the error's snippets are kept, and the newest's time: what a cached page that shows
        them depends on."""
        row = self._one("SELECT COUNT(*), MAX(checked_at) FROM verifications WHERE error_id = ?", (error_id,))
        return int(row[0]), row[1]

    def verifications(self, error_id: str, version: str) -> list[Verification]:
        """What running the error's snippets in `version` showed, newest first."""
        rows = self.db.execute(
            f"SELECT {_VERIFICATION_COLUMNS} FROM verifications WHERE error_id = ? AND version = ?"
            " ORDER BY checked_at DESC, python DESC, role, code",
            (error_id, version),
        ).fetchall()
        return [Verification(*row) for row in rows]

    def stats(self) -> StoreStats:
        """How many packages, releases, errors, sites and files the index holds."""
        return StoreStats(
            packages=self._count("packages"),
            releases=self._count("releases"),
            errors=self._count("errors"),
            sites=self._count("sites"),
            files=self._count("files"),
        )

    def _count(self, table: str) -> int:
        return int(self._one(f"SELECT COUNT(*) FROM {table}")[0])


_RELEASE_SQL = (
    "SELECT p.display_name, r.version, r.spec, r.source_kind, r.digest, COALESCE(r.repository_url, p.repository_url),"
    " r.indexed_at, r.file_count, r.site_count, r.error_count, r.skip_count, r.layout_prefix, r.layout_source,"
    " r.repository_folder"
    " FROM releases r JOIN packages p ON p.id = r.package_id"
)
_SITE_COLUMNS = (
    "kind, exception, exception_bases, template, reason, file, line, end_line, function, condition,"
    " resolved, resolved_from, checks, message_source, level, clauses, holes, written_file, written_line,"
    " written_function"
)
_VERIFICATION_COLUMNS = (
    "error_id, package, version, python, role, code, status, detail, exception, message, file, line, isolation,"
    " checked_at"
)
_SITE_VALUES = ",".join("?" * (2 + _SITE_COLUMNS.count(",") + 1))  # release id, error id, then the columns


def _entries_by_version(rows: Iterable[Sequence[Any]]) -> dict[str, list[ApiEntry]]:
    """Rows of (version, path, API columns) as each release's entries."""
    out: dict[str, list[ApiEntry]] = {}
    for version, path, *rest in rows:
        out.setdefault(version, []).append(ApiEntry(path, symbol_of_row(rest)))
    return out


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _skips(files: Sequence[ReleaseFile]) -> int:
    return sum(1 for f in files if f.skip_reason)


def _source_text(blob: bytes) -> str:
    """A stored file's text, bytes that are not UTF-8 replaced."""
    return unpack(blob).decode("utf-8", "replace")


def _site_row(site: Site) -> tuple[Any, ...]:
    return (
        site.kind,
        site.exception,
        _json(site.exception_bases),
        site.template,
        site.reason,
        site.file,
        site.line,
        site.end_line,
        site.function,
        site.condition,
        _json(_with_bindings(site)),
        _json(site.resolved_from),
        _json(site.checks),
        site.message_source,
        site.level,
        _json(site.clauses),
        _json(site.holes),
        *_written_at(site.written_at),
    )


def _written_at(written: WrittenAt | None) -> tuple[str | None, int | None, str | None]:
    return (written.file, written.line, written.function) if written is not None else (None, None, None)


def _json(value: tuple[Any, ...] | dict[str, Any]) -> str:
    """A row's list or mapping as JSON text; most are empty, and those need no encoder call."""
    if not value:
        return "{}" if isinstance(value, dict) else "[]"
    return dumps_text(value)


def _site(row: Sequence[Any]) -> Site:
    (
        kind,
        exception,
        bases,
        template,
        reason,
        file,
        line,
        end_line,
        function,
        _condition,  # (kept for whoever reads the table: the clauses joined)
        resolved,
        resolved_from,
        checks,
        message_source,
        level,
        clauses,
        holes,
        written_file,
        written_line,
        written_function,
    ) = row
    values = json.loads(resolved)
    bindings = values.pop(BINDINGS_KEY, {})
    prior = values.pop(PRIOR_KEY, [])
    return Site(
        kind=kind,
        exception=exception,
        exception_bases=tuple(json.loads(bases)),
        template=template,
        reason=reason,
        file=file,
        line=line,
        end_line=end_line,
        function=function,
        clauses=tuple(json.loads(clauses)),
        resolved=values,
        resolved_from=json.loads(resolved_from),
        checks=tuple(json.loads(checks)),
        message_source=message_source,
        level=level,
        holes=tuple(map(tuple, json.loads(holes))),
        written_at=WrittenAt(written_file, written_line, written_function) if written_file is not None else None,
        bindings={name: tuple(map(Binding.from_json, found)) for name, found in bindings.items()},
        prior_checks=tuple(map(PriorCheck.from_json, prior)),
    )


def _with_bindings(site: Site) -> dict[str, Any]:
    """A site's resolved values as stored: with its names' alternatives under BINDINGS_KEY and its earlier
    raising checks under PRIOR_KEY, when it has any."""
    if not site.bindings and not site.prior_checks:
        return site.resolved
    out: dict[str, Any] = dict(site.resolved)
    if site.bindings:
        out[BINDINGS_KEY] = {name: [b.to_json() for b in found] for name, found in site.bindings.items()}
    if site.prior_checks:
        out[PRIOR_KEY] = [check.to_json() for check in site.prior_checks]
    return out


def _release(row: Sequence[Any]) -> ReleaseRecord:
    *counted, prefix, learned_from, folder = row
    package, version, spec, kind, digest, url, indexed_at, files, sites, errors, skips = counted
    layout = _layout(prefix, learned_from)
    return ReleaseRecord(
        package, version, spec, kind, digest, url, indexed_at, files, sites, errors, skips, layout, folder
    )


def _layout(prefix: str | None, learned_from: SourceKind) -> RepoLayout | None:
    """A release's layout from its layout_prefix and layout_source columns (NULL: not known)."""
    return None if prefix is None else RepoLayout(prefix, learned_from)


def _layout_columns(layout: RepoLayout | None) -> tuple[str | None, str | None]:
    """A release's layout_prefix and layout_source columns: both NULL when the layout is not known."""
    return (None, None) if layout is None else (layout.prefix, layout.learned_from)


@lru_cache(maxsize=4096)
def attributes_read(condition: str | None) -> frozenset[tuple[str, str]]:
    """The attributes a condition reads as (receiver, name): `self.mode` -> ("self", "mode"); none if unparsable."""
    if not condition or len(condition) > MAX_CONDITION_CHARS:
        return frozenset()
    try:
        tree = ast.parse(condition, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    return frozenset((ast.unparse(node.value), node.attr) for node in ast.walk(tree) if isinstance(node, ast.Attribute))


def _take(rows: Iterable[Sequence[Any]], relation: str, seen: set[str], limit: int) -> Iterator[Related]:
    """The rows as related errors, each once; a row of `_same_setting` ends with the setting's name."""
    taken = 0
    for error_id, template, exception, file, line, function, *setting in rows:
        if error_id in seen or taken >= limit:
            continue
        seen.add(error_id)
        taken += 1
        yield Related(error_id, template, exception, file, line, function, relation, setting[0] if setting else None)


def version_key(version: str) -> tuple[int, Any]:
    """A sort key of versions: PEP 440 order, after any version that is not one (in text order)."""
    try:
        return (1, Version(version))
    except InvalidVersion:
        return (0, version)


def _chunks(items: list[str], size: int) -> Iterator[list[str]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]
