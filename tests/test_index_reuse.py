"""Incremental indexing gives exactly what a cold index gives, and reuses what did not change.

The incremental index is on each backend; the cold one is always a SQLite file, so that on
PostgreSQL the comparison also proves that both backends store the same.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errdex.indexing import IndexResult, index
from errdex.store import Store
from tests.backends import copy_index, new_index
from tests.fixtures import write_tree

PKG = "pkg"
# Every file in a few versions (None: absent); cross-module values, bases, class messages, and
# a class found only by its name are all exercised by some combination.
VARIANTS: dict[str, list[str | None]] = {
    "pkg/__init__.py": ["", "from .errors import PkgError\n"],
    "pkg/consts.py": [None, "MODES = ('a', 'b')\n", "MODES = ('a', 'b', 'c')\nLIMIT = 3\n"],
    "pkg/errors.py": [
        "class PkgError(Exception):\n    pass\n",
        "class PkgError(ValueError):\n    def __init__(self, name):\n        super().__init__(f'bad {name}')\n",
        None,
        "class PkgError(Exception):\n    pass\n\n\nVERSION = '2'\n",
    ],
    "pkg/core.py": [
        "from .consts import MODES\nfrom .errors import PkgError\n\n\ndef run(mode):\n"
        "    if mode not in MODES:\n        raise PkgError(f'mode {mode} not in {MODES}')\n",
        "from . import consts\n\n\ndef run(mode):\n    if mode not in consts.MODES:\n"
        "        raise ValueError(f'bad mode, choose from {consts.MODES}')\n    raise SpecialError()\n",
        "from .consts import LIMIT\n\n\ndef run(n):\n"
        "    if n > LIMIT:\n        raise OverflowError(f'{n} > {LIMIT}')\n",
    ],
    "pkg/other.py": [
        None,
        "class SpecialError(Exception):\n    def __init__(self):\n        super().__init__('special happened')\n",
        "from .errors import PkgError\n\n\nclass SpecialError(PkgError):\n    pass\n",
    ],
    "pkg/more/__init__.py": [None, "class SpecialError(Exception):\n    pass\n"],
    "pkg/plain.py": ["def f(x):\n    if not x:\n        raise KeyError('empty x')\n"],
    # a raise helper and a caller in another module, whose message is a site of the helper's file
    "pkg/helpers.py": [
        None,
        "def fail(msg):\n    raise ValueError(msg)\n",
        "def fail(msg, exc=KeyError):\n    raise exc(msg)\n\n\ndef other():\n    pass\n",
    ],
    "pkg/user.py": [
        None,
        "from .helpers import fail\n\n\ndef use(x):\n"
        "    if x:\n        raise TypeError('bad x')\n    fail('user wrote this message')\n",
        "from . import helpers\n\n\ndef use(x):\n"
        "    if not x:\n        raise TypeError('no x')\n    helpers.fail('another message here')\n",
        "def use(x):\n    if x:\n        raise TypeError('bad x')\n",
    ],
}


def version_files(choice: dict[str, int]) -> dict[str, str]:
    """The files of one version: for each file, the variant chosen (default the first)."""
    files = {path: variants[choice.get(path, 0)] for path, variants in VARIANTS.items()}
    return {path: text for path, text in files.items() if text is not None}


def index_version(store: Store, root: Path, version: str, files: dict[str, str]) -> IndexResult:
    shutil.rmtree(root, ignore_errors=True)
    write_tree(root, files)
    return index(str(root), store, name=PKG, version=version, workers=1)


def snapshot(db: str | Path, version: str) -> dict[str, Any]:
    """Everything stored about one release, in a comparable form."""
    with Store(db) as store:
        record = store.release(PKG, version)
        sites = sorted(store.release_sites(record), key=repr)
        paths = store.release_paths(record)
        classes = sorted(
            tuple(row)
            for row in store.db.execute(
                "SELECT c.file, c.qualname, c.line, c.bases, c.attributes"
                " FROM classes c JOIN releases r ON r.id = c.release_id WHERE r.version = ?",
                (version,),
            )
        )
    counts = (record.file_count, record.site_count, record.error_count, record.skip_count)
    return {"sites": sites, "classes": classes, "paths": paths, "counts": counts}


def assert_same_as_cold(tmp_path: Path, db: str, version: str, files: dict[str, str]) -> None:
    cold = tmp_path / f"cold-{version}.db"
    with Store(cold) as store:
        index_version(store, tmp_path / f"cold-{version}", version, files)
    assert snapshot(db, version) == snapshot(cold, version)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.fixed_dictionaries({path: st.integers(0, len(v) - 1) for path, v in VARIANTS.items()}),
        min_size=2,
        max_size=4,
    )
)
def test_incremental_index_equals_cold_index(
    tmp_path_factory: pytest.TempPathFactory, backend: str, choices: list[dict[str, int]]
) -> None:
    tmp_path = tmp_path_factory.mktemp("reuse")
    db = new_index(backend, tmp_path, "incremental.db")  # each example needs its own
    with Store(db) as store:
        for number, choice in enumerate(choices, 1):
            index_version(store, tmp_path / "src", f"{number}.0", version_files(choice))
    for number, choice in enumerate(choices, 1):
        assert_same_as_cold(tmp_path, db, f"{number}.0", version_files(choice))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["1.0", "2.0"]),
            st.fixed_dictionaries({p: st.integers(0, len(v) - 1) for p, v in VARIANTS.items()}),
        ),
        min_size=2,
        max_size=4,
    )
)
def test_reindexing_versions_in_place_equals_cold_index(
    tmp_path_factory: pytest.TempPathFactory, backend: str, steps: list[tuple[str, dict[str, int]]]
) -> None:
    """A version indexed again keeps its rows of unchanged files where they are; the result is a cold index's."""
    tmp_path = tmp_path_factory.mktemp("in-place")
    db = new_index(backend, tmp_path, "incremental.db")
    last: dict[str, dict[str, str]] = {}
    with Store(db) as store:
        for version, choice in steps:
            last[version] = version_files(choice)
            index_version(store, tmp_path / "src", version, last[version])
        assert store.stats().releases == len(last)
    for version, files in last.items():
        assert_same_as_cold(tmp_path, db, version, files)


def test_unchanged_files_are_neither_analysed_nor_linked(tmp_path: Path, db_url: str) -> None:
    db = db_url
    with Store(db) as store:
        first = index_version(store, tmp_path / "src", "1.0", version_files({}))
        second = index_version(store, tmp_path / "src", "2.0", version_files({"pkg/plain.py": 0}))
    assert (first.analysed, first.linked) == (4, 4)
    assert (second.analysed, second.linked) == (0, 0)
    assert snapshot(db, "1.0")["sites"] == snapshot(db, "2.0")["sites"]


def test_a_changed_constant_relinks_only_the_files_that_read_it(tmp_path: Path, db_url: str) -> None:
    db = db_url
    v1 = version_files({"pkg/consts.py": 1})
    v2 = version_files({"pkg/consts.py": 2})
    with Store(db) as store:
        index_version(store, tmp_path / "src", "1.0", v1)
        second = index_version(store, tmp_path / "src", "2.0", v2)
        (site,) = [e.site for e in store.errors(PKG, "2.0") if e.site.file == "pkg/core.py"]
    assert second.analysed == 1
    assert second.linked == 2  # consts.py itself and core.py, which imports MODES from it
    assert site.resolved == {"MODES": ["a", "b", "c"]}
    assert_same_as_cold(tmp_path, db, "2.0", v2)


def test_a_change_outside_classes_and_imports_keeps_the_files_that_only_followed_a_class(
    tmp_path: Path, db_url: str
) -> None:
    db = db_url
    v1 = version_files({"pkg/consts.py": 1})
    v2 = version_files({"pkg/consts.py": 1, "pkg/errors.py": 3})
    v3 = version_files({"pkg/consts.py": 1, "pkg/errors.py": 1})
    with Store(db) as store:
        index_version(store, tmp_path / "src", "1.0", v1)
        second = index_version(store, tmp_path / "src", "2.0", v2)
        third = index_version(store, tmp_path / "src", "3.0", v3)
        bases = [e.site.exception_bases for e in store.errors(PKG, "3.0") if e.site.exception == "PkgError"]
    assert second.linked == 1  # errors.py itself; core.py raises PkgError but read only its class
    assert third.linked == 2 and bases == [("ValueError",)]
    assert_same_as_cold(tmp_path, db, "2.0", v2)
    assert_same_as_cold(tmp_path, db, "3.0", v3)


def test_a_new_class_of_the_same_name_changes_the_sites_that_found_it_by_name(tmp_path: Path, db_url: str) -> None:
    db = db_url
    v1 = version_files({"pkg/core.py": 1, "pkg/consts.py": 1, "pkg/other.py": 2})
    v2 = {**v1, "pkg/more/__init__.py": VARIANTS["pkg/more/__init__.py"][1]}
    with Store(db) as store:
        index_version(store, tmp_path / "src", "1.0", v1)
        index_version(store, tmp_path / "src", "2.0", v2)
        bases = {
            v: [e.site.exception_bases for e in store.errors(PKG, v) if e.site.exception == "SpecialError"]
            for v in ("1.0", "2.0")
        }
    assert bases == {"1.0": [("PkgError", "Exception")], "2.0": [()]}
    assert_same_as_cold(tmp_path, db, "2.0", v2)


def test_a_module_that_appears_resolves_a_pending_import(tmp_path: Path, db_url: str) -> None:
    db = db_url
    v1 = version_files({"pkg/core.py": 2})
    v2 = version_files({"pkg/core.py": 2, "pkg/consts.py": 2})
    with Store(db) as store:
        index_version(store, tmp_path / "src", "1.0", v1)
        index_version(store, tmp_path / "src", "2.0", v2)
        resolved = {
            v: [e.site.resolved for e in store.errors(PKG, v) if e.site.file == "pkg/core.py"] for v in ("1.0", "2.0")
        }
    assert resolved == {"1.0": [{}], "2.0": [{"LIMIT": 3}]}
    assert_same_as_cold(tmp_path, db, "2.0", v2)


def test_a_changed_caller_relinks_the_helpers_file(tmp_path: Path, db_url: str) -> None:
    db = db_url
    v1 = version_files({"pkg/helpers.py": 1, "pkg/user.py": 1})
    v2 = version_files({"pkg/helpers.py": 1, "pkg/user.py": 2})
    with Store(db) as store:
        index_version(store, tmp_path / "src", "1.0", v1)
        second = index_version(store, tmp_path / "src", "2.0", v2)
        helper = {
            v: [e.site.template for e in store.errors(PKG, v) if e.site.file == "pkg/helpers.py"]
            for v in ("1.0", "2.0")
        }
    assert second.linked == 2  # user.py itself and helpers.py, whose site holds the caller's message
    assert helper == {"1.0": [None, "user wrote this message"], "2.0": [None, "another message here"]}
    assert_same_as_cold(tmp_path, db, "2.0", v2)


def test_reindexing_the_same_version_after_a_change_replaces_it(tmp_path: Path, db_url: str) -> None:
    db = db_url
    v2 = version_files({"pkg/errors.py": 1})
    with Store(db) as store:
        index_version(store, tmp_path / "src", "1.0", version_files({}))
        again = index_version(store, tmp_path / "src", "1.0", v2)
        assert store.stats().releases == 1
    assert again.linked < again.files
    assert_same_as_cold(tmp_path, db, "1.0", v2)


def test_a_trace_from_another_write_is_not_used(tmp_path: Path, db_url: str) -> None:
    """A release replaced by an index without a trace (an older errdex) is linked in full."""
    db = db_url
    with Store(db) as store:
        index_version(store, tmp_path / "src", "1.0", version_files({}))
        store.cache_put("unrelated", b"")  # any later write must not make the old trace look valid
        index_version(store, tmp_path / "src", "1.0", version_files({"pkg/plain.py": 0}))
        store.db.execute("UPDATE releases SET indexed_at = '2000-01-01T00:00:00+00:00'")
        third = index_version(store, tmp_path / "src", "2.0", version_files({}))
    assert third.linked == third.files


@pytest.mark.network
def test_transformers_517_after_516_equals_a_cold_index(
    tmp_path: Path, transformers_db: str, release_cache: Path
) -> None:
    """The real case the reuse is for: a minor release with 370 changed files of 2681."""
    incremental = copy_index(transformers_db, tmp_path, "incremental.db")
    cold = tmp_path / "cold.db"
    with Store(incremental) as store:
        result = index("transformers==5.17.0", store, cache_dir=release_cache)
    with Store(cold) as store:
        index("transformers==5.17.0", store, cache_dir=release_cache)
    assert 0 < result.linked < result.files / 4
    sites = []
    for db in (incremental, cold):
        with Store(db) as store:
            sites.append(sorted(store.release_sites(store.release("transformers", "5.17.0")), key=repr))
    assert sites[0] == sites[1]
