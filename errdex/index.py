"""The indexing pipeline: source → extract → store, with progress reports.

Files are hashed first; a file whose analysis is already stored (from any release) is not
parsed again. New files are analysed on every core, then the release is linked and replaced in
the store in one transaction.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import time
import zlib
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from errdex.errors import SourceError
from errdex.extract import EXTRACTOR_VERSION, analyse_file, link
from errdex.extract.file import decode
from errdex.model import ReleaseRecord, SourceFile, error_id
from errdex.sources import open_source
from errdex.store import NewFile, Store

Progress = Callable[[str, int, int], None]  # (stage, done, total)
POOL_THRESHOLD = 64  # fewer new files than this are analysed in this process


@dataclass(frozen=True)
class IndexResult:
    """What one `index` did: the stored release and what it cost."""

    release: ReleaseRecord
    files: int
    analysed: int
    reused: int
    skipped: int
    seconds: float


def index(
    spec: str,
    store: Store,
    *,
    name: str | None = None,
    version: str | None = None,
    installed: bool = False,
    cache_dir: Path | None = None,
    progress: Progress | None = None,
    on_message: Callable[[str], None] | None = None,
    workers: int | None = None,
) -> IndexResult:
    """Index one release named by `spec` into `store`, replacing it if it was indexed before."""
    report = progress or (lambda stage, done, total: None)
    started = time.perf_counter()
    with open_source(spec, name=name, version=version, installed=installed, cache_dir=cache_dir, on_progress=on_message) as source:
        info = source.info
        files = list(source.files())
    if not files:
        raise SourceError(f"{spec} has no Python files to index")
    hashes = {f.path: f.sha256 for f in files}
    known = store.known_files(set(hashes.values()), EXTRACTOR_VERSION)
    todo = _unique_new(files, hashes, known)
    analyses: dict[str, dict] = {h: json.loads(data) for h, data in known.items() if data is not None}
    new_files = []
    for done, (digest, analysis_z, source_z, size) in enumerate(_analyse_all(todo, workers), 1):
        analyses[digest] = json.loads(zlib.decompress(analysis_z))
        new_files.append(NewFile(digest, size, source_z, analysis_z))
        report("files", done + len(files) - len(todo), len(files))
    report("files", len(files), len(files))
    by_path = {f.path: f for f in files}
    per_path = {path: analyses[h] for path, h in hashes.items()}
    sites, classes = link(per_path, lambda path: _text(by_path, path))
    report("sites", len(sites), len(sites))
    rows = [(error_id(info.package, s.kind, s.exception, s.template, s.message_source), s) for s in sites]
    file_rows = [(path, h, analyses[h]["skip"]) for path, h in sorted(hashes.items())]
    record = store.replace_release(info, file_rows, new_files, rows, classes, EXTRACTOR_VERSION)
    skipped = sum(1 for _, _, reason in file_rows if reason)
    return IndexResult(record, len(files), len(todo), len(files) - len(todo), skipped, time.perf_counter() - started)


def _unique_new(files: list[SourceFile], hashes: dict[str, str], known: dict[str, bytes | None]) -> list[SourceFile]:
    """Files whose analysis is not stored yet, one per distinct content."""
    seen: set[str] = set()
    out = []
    for f in files:
        digest = hashes[f.path]
        if known.get(digest) is None and digest not in seen:
            seen.add(digest)
            out.append(f)
    return out


def _analyse_all(files: list[SourceFile], workers: int | None) -> Iterable[tuple[str, bytes, bytes, int]]:
    jobs = [(f.path, f.data) for f in files]
    if len(jobs) < POOL_THRESHOLD or (workers or 0) == 1:
        yield from map(_analyse_job, jobs)
        return
    count = workers or os.cpu_count() or 1
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with ProcessPoolExecutor(max_workers=count, mp_context=context) as pool:
        yield from pool.map(_analyse_job, jobs, chunksize=16)


def _analyse_job(job: tuple[str, bytes]) -> tuple[str, bytes, bytes, int]:
    """Runs in a worker: analyse one file; return its hash, compressed analysis and bytes."""
    path, data = job
    analysis = analyse_file(path, data)
    digest = hashlib.sha256(data).hexdigest()
    return digest, zlib.compress(json.dumps(analysis).encode(), 1), zlib.compress(data, 1), len(data)


def _text(files: dict[str, SourceFile], path: str) -> str | None:
    f = files.get(path)
    if f is None:
        return None
    text, _ = decode(f.data)
    return text
