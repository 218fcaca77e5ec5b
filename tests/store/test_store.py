"""The store on each backend: migrations, atomic replacement, content-addressed reuse, stable ids."""

from __future__ import annotations

import hashlib
import zlib
from dataclasses import replace
from pathlib import Path

import pytest

from errdex.errors import NotIndexedError, StoreError
from errdex.extract import EXTRACTOR_VERSION
from errdex.indexing import index
from errdex.model import ReleaseInfo, Site, WrittenAt
from errdex.store import IndexedSite, Store, StoreStats, Verification
from tests.backends import (
    blob_sql,
    break_index,
    migrations,
    run_sql,
    set_schema_version_sql,
)
from tests.fixtures import shop, write_tree


@pytest.fixture
def store(db_url: str) -> Store:
    with Store(db_url) as s:
        yield s


def index_shop(tmp_path: Path, store: Store, version: str, modes: tuple[str, ...] = ("fast", "slow")):
    root = write_tree(tmp_path / f"shop-{version}", shop(version, modes))
    return index(str(root), store)


def test_new_database_is_at_the_latest_schema(store: Store) -> None:
    assert store.schema_version == len(migrations(store.path))
    assert store.stats() == StoreStats(packages=0, releases=0, errors=0, sites=0, files=0)


def test_older_schema_is_migrated_and_keeps_data(db_url: str) -> None:
    steps = migrations(db_url)
    run_sql(db_url, steps[0] + ";" + set_schema_version_sql(db_url, 1) + ";")
    run_sql(db_url, "INSERT INTO packages (name, display_name) VALUES ('old', 'old')")
    with Store(db_url) as store:
        assert store.schema_version == len(steps)
        assert store.stats().packages == 1
        assert store.generation() == 0


OLD_SITES = """
INSERT INTO packages (name, display_name) VALUES ('tpl', 'tpl');
INSERT INTO releases (package_id, version, spec, source_kind, digest, indexed_at, extractor_version,
    file_count, site_count, error_count, skip_count)
    SELECT id, '1.0', 'tpl==1.0', 'wheel', 'd', '2026-01-01T00:00:00+00:00', '12', 1, 2, 2, 0 FROM packages;
INSERT INTO errors (id, package_id, kind, exception, template) SELECT 'a', id, 'error', 'E', 'bad {}' FROM packages;
INSERT INTO errors (id, package_id, kind, exception, template) SELECT 'b', id, 'error', 'E', 'plain' FROM packages;
INSERT INTO sites (release_id, error_id, kind, exception, exception_bases, template, reason, file, line, end_line,
    function, condition, resolved, resolved_from, checks, message_source, level)
    SELECT id, 'a', 'error', 'E', '[]', 'bad {}', NULL, 'tpl/p.py', 7, 7, 'Parser.fail', 'x and y', '{"N": 1}',
        '{"N": "tpl/p.py:2", "<via>": "tpl/q.py:11 Parser.parse"}', '[]', 'msg', NULL FROM releases;
INSERT INTO sites (release_id, error_id, kind, exception, exception_bases, template, reason, file, line, end_line,
    function, condition, resolved, resolved_from, checks, message_source, level)
    SELECT id, 'b', 'error', 'E', '[]', 'plain', NULL, 'tpl/p.py', 9, 9, 'f', NULL, '{}', '{}', '[]', 'm', NULL
    FROM releases;
"""


def test_sites_stored_before_clauses_and_written_at_keep_their_facts(db_url: str) -> None:
    steps = migrations(db_url)
    before = next(i for i, step in enumerate(steps) if "ADD COLUMN written_file" in step)
    run_sql(db_url, ";".join(steps[:before]) + ";" + set_schema_version_sql(db_url, before) + ";")
    run_sql(db_url, OLD_SITES)
    with Store(db_url) as store:
        helper, plain = (found.site for found in store.errors("tpl"))
    assert (helper.clauses, helper.condition, plain.clauses, plain.condition) == (("x and y",), "x and y", (), None)
    assert helper.written_at == WrittenAt("tpl/q.py", 11, "Parser.parse") and plain.written_at is None
    assert helper.resolved_from == {"N": "tpl/p.py:2"} and helper.resolved == {"N": 1}
    assert helper.holes == () == plain.holes  # not known one by one: did-you-mean reads the values loosely


def test_corrupt_database_gives_a_clear_error(db_url: str) -> None:
    break_index(db_url)
    with pytest.raises(StoreError, match="not a usable errdex index"):
        Store(db_url)


def test_reindexing_reuses_every_analysed_file(tmp_path: Path, store: Store) -> None:
    first = index_shop(tmp_path, store, "1.0")
    second = index_shop(tmp_path, store, "1.0")
    assert (first.analysed, first.reused) == (2, 0)
    assert (second.analysed, second.reused) == (0, 2)
    assert store.stats().releases == 1
    assert store.generation() == 2


def test_generation_sees_writes_by_other_connections_and_its_own(tmp_path: Path, store: Store, db_url: str) -> None:
    """The matcher asks for the generation on every query: a cheaper answer must still see every write."""
    assert store.generation() == store.generation() == 0
    with Store(db_url) as other:
        index_shop(tmp_path, other, "1.0")
    assert store.generation() == 1
    run_sql(db_url, "UPDATE meta SET value = '7' WHERE key = 'generation'")
    assert store.generation() == 7
    index_shop(tmp_path, store, "2.0")
    assert store.generation() == 8
    with pytest.raises(RuntimeError), store._transaction():
        store.db.execute("UPDATE meta SET value = '99' WHERE key = 'generation'")
        assert store.generation() == 99
        raise RuntimeError("rolled back")
    assert store.generation() == 8


def test_blobs_written_with_zlib_by_earlier_versions_are_still_read(tmp_path: Path, store: Store) -> None:
    """Stores written before Zstandard hold zlib blobs: their sources show and their analyses are reused."""
    first = index_shop(tmp_path, store, "1.0")
    record = store.release("shop", "1.0")
    errors = store.errors("shop", "1.0")
    hashes = [hashlib.sha256(text.encode()).hexdigest() for text in shop("1.0").values()]
    old_source = zlib.compress(b"# as stored before\n")
    for h, data in store.known_files(hashes, EXTRACTOR_VERSION).items():
        assert data is not None
        run_sql(
            store.path, f"UPDATE analyses SET data = {blob_sql(store.path, zlib.compress(data))} WHERE hash = '{h}'"
        )
        run_sql(store.path, f"UPDATE files SET source = {blob_sql(store.path, old_source)} WHERE hash = '{h}'")
    assert store.source(record, "shop/cart.py") == "# as stored before\n"
    second = index_shop(tmp_path, store, "1.0")
    assert (first.analysed, second.analysed, second.reused) == (2, 0, 2)
    assert errors and store.errors("shop", "1.0") == errors


def test_error_ids_stay_the_same_across_releases(tmp_path: Path, store: Store) -> None:
    index_shop(tmp_path, store, "1.0")
    index_shop(tmp_path, store, "2.0", modes=("fast", "slow", "eco"))
    old = {e.error_id: e.site for e in store.errors("shop", "1.0")}
    new = {e.error_id: e.site for e in store.errors("shop", "2.0")}
    assert old.keys() == new.keys()
    eid = next(e for e, s in new.items() if s.template.startswith("mode must"))
    assert new[eid].resolved == {"MODES": ["fast", "slow", "eco"]}
    assert [v.version for v in store.error_versions(eid)] == ["1.0", "2.0"]
    assert store.error(eid).release.version == "2.0"
    assert store.error(eid, "1.0").site.resolved == {"MODES": ["fast", "slow"]}


def test_a_failed_write_leaves_the_previous_release_intact(tmp_path: Path, store: Store) -> None:
    index_shop(tmp_path, store, "1.0")
    before = store.errors("shop", "1.0")
    info = ReleaseInfo("shop", "1.0", "x", "folder", "digest")
    broken = replace(before[0].site, resolved={"bad": object()})  # cannot be written as JSON
    with pytest.raises(TypeError):
        store.replace_release(info, [], [], [IndexedSite("abc", broken)], [], EXTRACTOR_VERSION)
    assert store.errors("shop", "1.0") == before


def test_a_release_rewritten_from_rows_of_another_version_is_replaced_whole_or_not_at_all(
    tmp_path: Path, store: Store
) -> None:
    """Copying 1.0's rows into 2.0 (as indexing does for unchanged files) replaces 2.0 in one step;
    a failure keeps it."""
    index_shop(tmp_path, store, "1.0")
    index_shop(tmp_path, store, "2.0", modes=("fast", "slow", "eco"))
    old, before = store.release("shop", "1.0"), store.errors("shop", "2.0")
    files = store.release_paths(old)
    paths = [f.path for f in files]
    info = ReleaseInfo("shop", "2.0", "again", "folder", "digest-2")
    broken = replace(before[0].site, resolved={"bad": object()})  # cannot be written as JSON
    with pytest.raises(TypeError):
        store.replace_release_reusing(info, files, [], [IndexedSite("abc", broken)], [], EXTRACTOR_VERSION, old, paths)
    assert store.errors("shop", "2.0") == before and store.release("shop", "2.0").digest != "digest-2"
    record = store.replace_release_reusing(info, files, [], [], [], EXTRACTOR_VERSION, old, paths)
    assert store.errors("shop", "2.0") == store.errors("shop", "1.0") != before
    assert (record.version, record.digest, record.site_count) == ("2.0", "digest-2", old.site_count)
    assert [r.version for r in store.releases("shop")] == ["1.0", "2.0"]
    assert store.release_paths(record) == files


def test_unknown_package_version_and_id(tmp_path: Path, store: Store) -> None:
    index_shop(tmp_path, store, "1.0")
    with pytest.raises(NotIndexedError, match="'nope' is not indexed"):
        store.release("nope")
    with pytest.raises(NotIndexedError, match=r"shop 9.9 is not indexed \(indexed: 1.0\)"):
        store.release("shop", "9.9")
    with pytest.raises(NotIndexedError, match="no error with id"):
        store.error("0000000000000000")


def test_search_templates_quotes_user_text(tmp_path: Path, store: Store) -> None:
    index_shop(tmp_path, store, "1.0")
    assert len(store.search_templates(["slow", "mode"])) == 1
    assert store.search_templates(['"', "AND", "NEAR(", "*"]) == []


def test_caches_are_invalidated_by_new_releases(tmp_path: Path, store: Store) -> None:
    store.cache_put("lookup", b"data")
    assert store.cache_get("lookup") == b"data"
    index_shop(tmp_path, store, "1.0")
    assert store.cache_get("lookup") is None
    assert store.cache_get("lookup", any_generation=True) == b"data"


def test_site_round_trip_keeps_every_field(tmp_path: Path, store: Store) -> None:
    index_shop(tmp_path, store, "1.0")
    record = store.error(next(e.error_id for e in store.errors("shop") if e.site.template.startswith("mode")))
    site: Site = record.site
    assert site.function == "Cart.validate"
    assert site.condition == "self.mode not in MODES"
    assert site.checks == ("mode",)
    assert site.snippet.text.splitlines()[site.line - site.snippet.start].strip().startswith("raise ValueError")
    assert record.release.repository_url == "https://github.com/example/shop"


def test_values_json_cannot_spell_are_stored_exactly(tmp_path: Path, store: Store) -> None:
    """Big integers and lone surrogates leave the fast encoder for the standard one; non-finite floats become text."""
    code = (
        'BIG = 1180591620717411303424\nHUGE = 1e999\nODD = "\\ud800"\n\n'
        'def check(x):\n    if x in (BIG, HUGE, ODD):\n        raise ValueError(f"x is out of range: {x}")\n'
    )
    index(str(write_tree(tmp_path / "limits", {"limits/__init__.py": code})), store)
    [error] = store.errors("limits")
    assert error.site.resolved == {"BIG": 2**70, "HUGE": "inf", "ODD": "\ud800"}


def test_an_error_described_at_another_of_its_places(tmp_path: Path, store: Store) -> None:
    files = shop()
    files["shop/cart.py"] += (
        "\n\ndef check(mode):\n    if mode == 'slow':\n        raise NotImplementedError(\"slow mode is not ready\")\n"
    )
    index(str(write_tree(tmp_path / "shop", files)), store)
    eid = next(e.error_id for e in store.errors("shop") if e.site.exception == "NotImplementedError")
    first, second = store.error(eid).sites
    record = store.error(eid, at=second)
    assert (record.site.function, record.site.line) == ("check", second.line)
    assert "def check(mode):" in record.site.snippet.text
    assert record.sites == (first, second)
    assert all(r.line != second.line for r in record.related)


def test_database_from_a_newer_errdex_is_refused(db_url: str) -> None:
    Store(db_url).close()
    run_sql(db_url, set_schema_version_sql(db_url, 99))
    with pytest.raises(StoreError, match="newer errdex"):
        Store(db_url)


def test_a_verification_is_kept_when_the_release_is_indexed_again(tmp_path: Path, store: Store) -> None:
    index_shop(tmp_path, store, "1.0")
    error_id = store.errors("shop", "1.0")[0].error_id
    run = Verification(
        error_id=error_id, package="shop", version="1.0", python="3.11", role="trigger",
        code="from shop.cart import Cart\n\nCart(mode='x')", status="verified", detail="it raised ValueError: x",
        exception="builtins.ValueError", message="x", file="shop/cart.py", line=5,
        isolation="network namespace", checked_at="2026-12-03T10:00:00+00:00",
    )  # fmt: skip
    store.put_verification(run)
    store.put_verification(replace(run, status="disproved", checked_at="2026-12-03T11:00:00+00:00"))
    store.put_verification(replace(run, role="fix", status="verified"))
    (tmp_path / "shop-1.0" / "shop" / "extra.py").write_text("X = 1\n")  # the same release indexed again, changed
    index(str(tmp_path / "shop-1.0"), store)
    kept = store.verifications(error_id, "1.0")
    assert [(v.role, v.status) for v in kept] == [("trigger", "disproved"), ("fix", "verified")]
    assert kept[0] == replace(run, status="disproved", checked_at="2026-12-03T11:00:00+00:00")
    assert store.verifications(error_id, "2.0") == []
