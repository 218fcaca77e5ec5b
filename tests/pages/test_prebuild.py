"""prebuild: a release's pages built ahead of the first request are the pages build_page makes."""

from __future__ import annotations

from pathlib import Path

from errdex.caches import PAGES
from errdex.indexing import index
from errdex.pages import build_page, prebuild
from errdex.store import Store
from tests.pages.conftest import Indexer
from tests.pages.test_callers import FILES
from tests.pages.test_scope import KITCHEN


def test_prebuilt_pages_are_cached_and_equal_to_pages_built_on_request(indexed: Indexer, tmp_path: Path) -> None:
    store = indexed({**FILES, "app/tools.py": KITCHEN}, name="app")
    done = prebuild(store, "app", every_place=True)
    sites = store.release_sites(store.release("app"))
    ids = {e.error_id for e in sites}
    several = {eid: [e.site for e in sites if e.error_id == eid] for eid in ids}
    several = {eid: places for eid, places in several.items() if len(places) > 1}
    assert several  # the kitchen's message is raised at three places
    assert (done["package"], done["version"], done["pages"]) == (
        "app",
        "1.0",
        len(ids) + sum(map(len, several.values())),
    )
    assert done["callers_searched"] == done["functions"] == len({(e.site.file, e.site.function) for e in sites})
    for eid in ids:
        assert store.cache_get(PAGES.key(eid, "1.0", "*")) is not None
    for eid, places in several.items():
        for site in places:
            assert store.cache_get(PAGES.key(eid, "1.0", site.file, site.line)) is not None
    with Store(tmp_path / "on-request.db") as fresh:
        index(str(tmp_path / "app-1.0"), fresh, name="app", version="1.0", workers=1)
        for eid in ids:
            assert build_page(store, eid) == build_page(fresh, eid)
        for eid, places in several.items():
            for site in places:
                assert build_page(store, eid, site=(site.file, site.line)) == build_page(
                    fresh, eid, site=(site.file, site.line)
                )
    assert prebuild(store, "app")["callers_searched"] == 0  # nothing left to search
