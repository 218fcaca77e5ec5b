"""The SQLite schema, as numbered migrations applied in order (see docs in the README).

Tables:
  packages       one row a distribution (normalised name)
  releases       one row a (package, version) that was indexed, with where it came from and where its
                 files sit in the project tree (layout_prefix, layout_source; NULL when not known) and the
                 project's folder in the repository (repository_folder)
  files          file bytes by sha256 (compressed, see errdex.blobs), shared by every release that has the file
  analyses       per-file extraction results by (sha256, extractor version), so that a file seen
                 in any release is analysed once
  release_files  the files of a release (path -> sha256), with the reason a file was skipped
  errors         one row an error: the stable id of (package, kind, exception, template)
  sites          where an error is raised in a release: file, line, function, condition (and each of its
                 clauses), values, the expressions the template's holes show, where a helper's caller wrote it
  classes        classes of a release: bases and the attributes they set (for related errors)
  errors_fts     FTS5 index over templates
  caches         derived data (matcher lookup tables, computed page parts, AI prose) by key,
                 tagged with the store generation it was computed at
  meta           key/value facts about the store; `generation` grows with every release written
  api_symbols    the public API of each file by (sha256, extractor version): names it defines or exports, with
                 signatures and deprecation shims (see errdex.extract.api); a release's API is its files' rows
  verifications  what running a page's trigger or fix showed (`errdex verify`), by error, release, Python and
                 snippet: kept by name, not by release row, so a later index of the same release keeps it
"""

MIGRATIONS: list[str] = [
    # 1: the first schema
    """
    CREATE TABLE packages (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        display_name TEXT NOT NULL,
        repository_url TEXT
    );
    CREATE TABLE releases (
        id INTEGER PRIMARY KEY,
        package_id INTEGER NOT NULL REFERENCES packages(id),
        version TEXT NOT NULL,
        spec TEXT NOT NULL,
        source_kind TEXT NOT NULL,
        digest TEXT NOT NULL,
        repository_url TEXT,
        indexed_at TEXT NOT NULL,
        extractor_version TEXT NOT NULL,
        file_count INTEGER NOT NULL,
        site_count INTEGER NOT NULL,
        error_count INTEGER NOT NULL,
        skip_count INTEGER NOT NULL,
        UNIQUE (package_id, version)
    );
    CREATE TABLE files (
        hash TEXT PRIMARY KEY,
        size INTEGER NOT NULL,
        source BLOB NOT NULL
    );
    CREATE TABLE analyses (
        hash TEXT NOT NULL,
        extractor_version TEXT NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (hash, extractor_version)
    );
    CREATE TABLE release_files (
        release_id INTEGER NOT NULL REFERENCES releases(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        hash TEXT NOT NULL,
        skip_reason TEXT,
        PRIMARY KEY (release_id, path)
    );
    CREATE TABLE errors (
        id TEXT PRIMARY KEY,
        package_id INTEGER NOT NULL REFERENCES packages(id),
        kind TEXT NOT NULL,
        exception TEXT,
        template TEXT
    );
    CREATE TABLE sites (
        id INTEGER PRIMARY KEY,
        release_id INTEGER NOT NULL REFERENCES releases(id) ON DELETE CASCADE,
        error_id TEXT NOT NULL REFERENCES errors(id),
        kind TEXT NOT NULL,
        exception TEXT,
        exception_bases TEXT NOT NULL,
        template TEXT,
        reason TEXT,
        file TEXT NOT NULL,
        line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        function TEXT NOT NULL,
        condition TEXT,
        resolved TEXT NOT NULL,
        resolved_from TEXT NOT NULL,
        checks TEXT NOT NULL,
        message_source TEXT NOT NULL,
        level TEXT
    );
    CREATE INDEX sites_by_error ON sites (error_id, release_id);
    CREATE INDEX sites_by_place ON sites (release_id, file, line);
    CREATE TABLE classes (
        release_id INTEGER NOT NULL REFERENCES releases(id) ON DELETE CASCADE,
        file TEXT NOT NULL,
        qualname TEXT NOT NULL,
        line INTEGER NOT NULL,
        bases TEXT NOT NULL,
        attributes TEXT NOT NULL
    );
    CREATE INDEX classes_by_name ON classes (release_id, file, qualname);
    CREATE VIRTUAL TABLE errors_fts USING fts5(error_id UNINDEXED, template);
    """,
    # 2: caches of derived data, and a generation counter that invalidates them
    """
    CREATE TABLE caches (
        key TEXT PRIMARY KEY,
        generation INTEGER NOT NULL,
        data BLOB NOT NULL
    );
    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    INSERT INTO meta (key, value) VALUES ('generation', '0');
    """,
    # 3: a site's guarding clauses one by one, the expressions its template's holes show, and where a raise
    # helper's caller wrote its message (it was a "<via>" entry of resolved_from: "path:line function")
    """
    ALTER TABLE sites ADD COLUMN clauses TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE sites ADD COLUMN holes TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE sites ADD COLUMN written_file TEXT;
    ALTER TABLE sites ADD COLUMN written_line INTEGER;
    ALTER TABLE sites ADD COLUMN written_function TEXT;
    UPDATE sites SET clauses = json_array(condition) WHERE condition IS NOT NULL;
    UPDATE sites SET
        written_file = substr(via, 1, instr(via, ':') - 1),
        written_line = CAST(substr(via, instr(via, ':') + 1, instr(via, ' ') - instr(via, ':') - 1) AS INTEGER),
        written_function = substr(via, instr(via, ' ') + 1),
        resolved_from = json_remove(resolved_from, '$."<via>"')
    FROM (SELECT id AS via_id, json_extract(resolved_from, '$."<via>"') AS via FROM sites) AS vias
    WHERE vias.via_id = sites.id AND via IS NOT NULL;
    """,
    # 4: where a release's files sit in its project tree ("src", "lib", "" at the root) and the kind of tree that
    # showed it (the release's own sdist, folder or git commit; a wheel's sdist): NULL when not known; and the
    # project's folder in its repository when its metadata names one (a monorepo's `libs/x`)
    """
    ALTER TABLE releases ADD COLUMN layout_prefix TEXT;
    ALTER TABLE releases ADD COLUMN layout_source TEXT;
    ALTER TABLE releases ADD COLUMN repository_folder TEXT;
    """,
    # 5: what `errdex verify` observed when it ran a page's trigger or fix
    """
    CREATE TABLE verifications (
        error_id TEXT NOT NULL,
        package TEXT NOT NULL,
        version TEXT NOT NULL,
        python TEXT NOT NULL,
        role TEXT NOT NULL,
        code TEXT NOT NULL,
        status TEXT NOT NULL,
        detail TEXT NOT NULL,
        exception TEXT,
        message TEXT,
        file TEXT,
        line INTEGER,
        isolation TEXT NOT NULL,
        checked_at TEXT NOT NULL,
        PRIMARY KEY (error_id, package, version, python, role, code)
    );
    """,
    # 6: the public API of each file, by content (a release has the API of its files)
    """
    CREATE TABLE api_symbols (
        hash TEXT NOT NULL,
        extractor_version TEXT NOT NULL,
        leaf TEXT NOT NULL,
        qualname TEXT NOT NULL,
        kind TEXT NOT NULL,
        line INTEGER NOT NULL,
        detail TEXT NOT NULL
    );
    CREATE INDEX api_by_leaf ON api_symbols (leaf, extractor_version);
    CREATE INDEX api_by_file ON api_symbols (hash, extractor_version);
    CREATE INDEX release_files_by_hash ON release_files (hash, release_id);
    CREATE INDEX release_files_by_path ON release_files (path);
    CREATE INDEX api_by_name ON api_symbols (qualname, extractor_version);
    """,
]
