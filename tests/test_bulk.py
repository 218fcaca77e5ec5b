"""Batches: worker processes prepare, one writer stores; failures are kept with reasons; resume."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from packaging.specifiers import SpecifierSet

from errdex.cli import main
from errdex.errors import InputError
from errdex.indexing.bulk import Options, Outcome, Status, index_many
from errdex.indexing.versions import choose, expand, read_list
from errdex.model import RepoLayout
from errdex.store import Store
from tests.fixtures import shop, write_wheel
from tests.sources.conftest import write_tree

CAFE = {
    "cafe/__init__.py": "",
    "cafe/menu.py": "SIZES = ('s', 'm')\n\n\ndef order(size):\n"
    "    if size not in SIZES:\n        raise ValueError(f'size must be one of {SIZES}')\n",
}


def wheels(folder: Path) -> list[str]:
    """Three releases of shop and two of cafe, as wheel files."""
    folder.mkdir(exist_ok=True)
    out = [
        write_wheel(folder, "shop", v, shop(v, modes))
        for v, modes in (("1.0", ("fast",)), ("2.0", ("fast", "slow")), ("3.0", ("fast", "slow", "eco")))
    ]
    out += [
        write_wheel(folder, "cafe", v, {**CAFE, "cafe/menu.py": CAFE["cafe/menu.py"].replace("'m'", f"'m', '{v}'")})
        for v in ("1.0", "2.0")
    ]
    return [str(p) for p in out]


def test_a_batch_in_worker_processes_indexes_everything(tmp_path: Path, db_url: str) -> None:
    specs = wheels(tmp_path / "w")
    with Store(db_url) as store:
        status = index_many(specs, store, jobs=2)
        assert [r.version for r in store.releases("shop")] == ["1.0", "2.0", "3.0"]
        assert [r.version for r in store.releases("cafe")] == ["1.0", "2.0"]
        eid = next(
            e.error_id for e in store.errors("shop", "3.0") if e.site.template and e.site.template.startswith("mode")
        )
        assert [v.version for v in store.error_versions(eid)] == ["1.0", "2.0", "3.0"]
        assert store.errors("shop", "3.0")[0].site.resolved == {"MODES": ["fast", "slow", "eco"]}
    assert [o.status for o in status.outcomes].count("indexed") == 5
    assert status.done == status.total == 5
    assert status.files == 3 * 2 + 2 * 2
    assert status.errors == 3 * 2 + 2 * 1


def test_failures_are_kept_with_their_reason_and_the_rest_is_indexed(tmp_path: Path, db_url: str) -> None:
    broken = tmp_path / "broken-1.0.tar.gz"
    broken.write_bytes(b"not an archive")
    specs = [str(tmp_path / "missing"), str(broken), *wheels(tmp_path / "w")[:2]]
    with Store(db_url) as store:
        status = index_many(specs, store, jobs=2)
    failed = {o.spec: o.error for o in status.failures}
    assert set(failed) == {str(tmp_path / "missing"), str(broken)}
    assert "No such file or folder" in failed[str(tmp_path / "missing")]
    assert all(failed.values())
    assert [o.status for o in status.outcomes].count("indexed") == 2


def test_an_interrupted_batch_resumes_where_it_stopped(tmp_path: Path, db_url: str) -> None:
    specs = wheels(tmp_path / "w")

    def stop_after_two(status: Status, outcome: Outcome | None) -> None:
        if status.done == 2:
            raise KeyboardInterrupt

    with Store(db_url) as store:
        with pytest.raises(KeyboardInterrupt):
            index_many(specs, store, jobs=1, report=stop_after_two)
        assert store.stats().releases == 2
        status = index_many(specs, store, jobs=1)
        assert [o.status for o in status.outcomes] == ["unchanged", "unchanged", "indexed", "indexed", "indexed"]
        again = index_many(specs[:1], store, Options(force=True))
        assert again.outcomes[0].status == "indexed"


def test_later_releases_of_a_package_reuse_the_earlier_ones(tmp_path: Path, db_url: str) -> None:
    specs = wheels(tmp_path / "w")[:2]
    with Store(db_url) as store:
        status = index_many(specs, store, jobs=1)
    second = status.outcomes[1].result
    assert second is not None
    assert (second.analysed, second.linked) == (1, 1)  # only cart.py changed; __init__.py kept its sites


def test_choose_versions_by_range_and_newest() -> None:
    available = ["5.9.0", "5.10.0", "5.10.1", "5.11.0rc1", "5.16.0", "5.17.0", "not-a-version"]
    assert choose(available, SpecifierSet(">=5.10,<=5.16"), None) == ["5.10.0", "5.10.1", "5.16.0"]
    assert choose(available, SpecifierSet(""), 2) == ["5.16.0", "5.17.0"]
    assert choose(available, SpecifierSet(">=5.11rc1,<5.12"), None) == ["5.11.0rc1"]


def test_list_files_skip_comments_and_refuse_options(tmp_path: Path) -> None:
    good = tmp_path / "packages.txt"
    good.write_text("# popular\nrequests==2.32.3  # pinned\n\n  ./local/pkg\ngit+https://example.org/r.git@v1#egg=r\n")
    assert read_list(good) == ["requests==2.32.3", "./local/pkg", "git+https://example.org/r.git@v1#egg=r"]
    bad = tmp_path / "bad.txt"
    bad.write_text("requests\n--index-url https://example.org/simple\n")
    with pytest.raises(InputError, match="bad.txt:2: pip options"):
        read_list(bad)
    with pytest.raises(InputError, match="Cannot read the list"):
        read_list(tmp_path / "absent.txt")
    big = tmp_path / "big.txt"
    big.write_bytes(b"x\n" * 600_000)
    with pytest.raises(InputError, match="larger than"):
        read_list(big)


def test_paths_are_not_expanded_and_bad_ranges_are_named(tmp_path: Path) -> None:
    assert expand([str(tmp_path)], None, None) == [str(tmp_path)]
    with pytest.raises(InputError, match="not a PEP 440 version range"):
        expand(["requests"], "five or newer", None)


def test_cli_batch_from_a_list_with_json(tmp_path: Path, db_url: str) -> None:
    listing = tmp_path / "list.txt"
    listing.write_text("# all of them\n" + "\n".join(wheels(tmp_path / "w")) + "\n")
    db = db_url
    result = CliRunner().invoke(main, ["index", "-r", str(listing), "--json", "--db", db])
    assert result.exit_code == 0, result.output
    entries = json.loads(result.stdout)
    assert [e["status"] for e in entries] == ["indexed"] * 5
    again = CliRunner().invoke(main, ["index", "-r", str(listing), "--db", db])
    assert again.exit_code == 0 and "5 releases: 0 indexed, 5 unchanged, 0 failed" in again.stdout


def test_cli_needs_something_to_index(tmp_path: Path, db_url: str) -> None:
    result = CliRunner().invoke(main, ["index", "--db", db_url])
    assert result.exit_code == 1 and "Nothing to index" in result.stderr


@pytest.mark.network
def test_versions_are_listed_through_pip() -> None:
    assert expand(["docopt"], ">=0.6,<0.6.2", None) == ["docopt==0.6.0", "docopt==0.6.1"]
    assert expand(["docopt==0.6.2"], None, 1) == ["docopt==0.6.2"]


@pytest.mark.network
def test_cli_indexes_a_version_range(db_url: str, release_cache: Path) -> None:
    args = ["index", "docopt", "--versions", ">=0.6.1,<0.6.3", "--json", "--db", db_url]
    result = CliRunner().invoke(main, args, env={"ERRDEX_CACHE": str(release_cache)})
    assert result.exit_code == 0, result.output
    entries = json.loads(result.stdout)
    assert [(e["spec"], e["status"]) for e in entries] == [("docopt==0.6.1", "indexed"), ("docopt==0.6.2", "indexed")]
    assert entries[1]["linked"] <= entries[1]["files"]


PYPROJECT = '[project]\nname = "shop"\nversion = "1.0"\n'


def test_a_release_indexed_before_its_layout_was_known_is_indexed_again(tmp_path: Path) -> None:
    """An index written before releases recorded their layout (migration 4 left it NULL) learns it in a batch."""
    folder = write_tree(tmp_path / "shop", {"src/shop/__init__.py": "", "pyproject.toml": PYPROJECT})
    db = tmp_path / "x.db"
    with Store(str(db)) as store:
        assert [o.status for o in index_many([str(folder)], store).outcomes] == ["indexed"]
        assert [o.status for o in index_many([str(folder)], store).outcomes] == ["unchanged"]
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE releases SET layout_prefix = NULL, layout_source = NULL")
    with Store(str(db)) as store:
        assert [o.status for o in index_many([str(folder)], store).outcomes] == ["indexed"]
        assert store.release("shop", "1.0").layout == RepoLayout("src", "folder")
