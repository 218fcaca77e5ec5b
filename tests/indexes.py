"""Indexes of release lists that tests share between runs: built once, kept in the release cache."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from errdex.extract import EXTRACTOR_VERSION
from errdex.indexing import index
from errdex.match.tables import tables_for
from errdex.store import Store


def cached_index(cache: Path, name: str, releases: str) -> Path:
    """The index of these releases (one spec a line), built with its match tables into cache/name/ when absent.

    Keyed by the extractor version and the release list, so a change to either builds a new one.
    """
    key = hashlib.sha256(f"{EXTRACTOR_VERSION}\n{releases}".encode()).hexdigest()[:16]
    folder = cache / name / key
    if not folder.exists():
        # Built in a folder of its own, renamed when complete: never a half-built index (or its journal) in `folder`.
        building = cache / name / f"{key}.building-{os.getpid()}"
        building.mkdir(parents=True)
        with Store(building / "index.db") as store:
            for spec in releases.split():
                index(spec, store, cache_dir=cache)
            tables_for(store)
        try:
            os.replace(building, folder)
        except OSError:
            if not folder.exists():
                raise
            shutil.rmtree(building)  # another run finished first
    return folder / "index.db"
