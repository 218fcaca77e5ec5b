"""One error id raised at several places: a page about one place (`site=`), or about all of them and true at each."""

from __future__ import annotations

import pytest

from errdex.caches import PAGES
from errdex.errors import NotIndexedError
from errdex.pages import build_page
from errdex.store import Store
from tests.pages.conftest import Indexer, error_id_of, strings

# one message, three places, three different checks (copied code drifts apart like this)
KITCHEN = """
    MODES = ("fast", "slow")
    SIZES = ("s", "m")


    class Oven:
        def __init__(self, mode="fast"):
            self.mode = mode
            if self.mode not in MODES:
                raise ValueError(f"unsupported value {self.mode!r}")


    class Grill:
        def __init__(self, size="s"):
            if size not in SIZES:
                raise ValueError(
                    f"unsupported value {size!r}"
                )


    def heat(level):
        if level > 3:
            raise ValueError(f"unsupported value {level!r}")
"""
# one message, two places that share part of their check
KEYS = """
    MODES = ("fast", "slow")


    def pick(key, default=None):
        if key is not None and key not in MODES:
            raise KeyError(f"bad key {key!r}")


    def pick_or_auto(key):
        if key is not None and key not in MODES and key != "auto":
            raise KeyError(f"bad key {key!r}")
"""
# one message, two places with the very same check (copied code)
COPIES = """
    def first(count):
        if count < 0:
            raise ValueError(f"negative count {count}")


    def second(count):
        if count < 0:
            raise ValueError(f"negative count {count}")
"""


@pytest.fixture
def kitchen(indexed: Indexer) -> tuple[Store, str]:
    store = indexed({"kitchen/__init__.py": "", "kitchen/tools.py": KITCHEN}, name="kitchen")
    return store, error_id_of(store, "kitchen", "unsupported value {}")


@pytest.fixture
def keys(indexed: Indexer) -> tuple[Store, str]:
    store = indexed({"keys/__init__.py": "", "keys/pick.py": KEYS}, name="keys")
    return store, error_id_of(store, "keys", "bad key {}")


def test_a_page_for_all_places_whose_checks_differ_claims_nothing_of_one_of_them(kitchen: tuple[Store, str]) -> None:
    store, eid = kitchen
    page = build_page(store, eid, values=["'fats'"])
    scope = page["site_scope"]
    assert (scope["site"], scope["count"], scope["exact"]) == (None, 3, False)
    assert [c["condition"] for c in scope["checks"]] == ["self.mode not in MODES", "size not in SIZES", "level > 3"]
    assert "guarded by 3 different checks: this page says only what holds at every one of them" in scope["text"]
    assert [s["check"] for s in page["sites"]] == [0, 1, 2]
    assert page["condition"] is None and page["resolved"] == {}
    assert page["what_it_means"]["summary"] == (
        "Each of its 3 places raises ValueError; each place has its own check: ask for the page of one place."
    )
    assert page["triggers"] == [] and page["example_fix"] is None
    assert page["solutions"] == []
    assert page["user_input"]["checked"][0]["result"] == "not checked"
    assert page["when_it_happens"]["summary"].startswith(
        "Traced at the first of its 3 places, `Oven.__init__` (kitchen/tools.py:9); the others are in 2 other functions"
    )
    claims = [t for t in strings({k: v for k, v in page.items() if k not in ("snippet", "site_scope", "related")})]
    assert not any("MODES" in t or "SIZES" in t for t in claims)


def test_a_page_for_one_place_is_about_that_place(kitchen: tuple[Store, str]) -> None:
    store, eid = kitchen
    page = build_page(store, eid, site=("kitchen/tools.py", 15), values=["'l'"])
    assert (page["file"], page["line"], page["function"]) == ("kitchen/tools.py", 15, "Grill.__init__")
    assert page["condition"] == "size not in SIZES"
    assert page["resolved"] == {"SIZES": ["s", "m"]}
    assert page["site_scope"]["site"] == "kitchen/tools.py:15" and page["site_scope"]["exact"]
    assert page["snippet"]["start"] <= 15 <= page["snippet"]["end"]
    assert "raise ValueError(" in page["snippet"]["text"].splitlines()[15 - page["snippet"]["start"]]
    assert page["triggers"][0]["code"].endswith("Grill(size='l')")
    assert page["example_fix"]["after"].endswith("Grill(size='s')")
    assert page["user_input"]["checked"][0]["result"] == "raises"
    assert page["solutions"][0]["kind"] == "use_allowed_value" and page["solutions"][0]["values"] == ["s", "m"]
    assert page["source_url"] is None and page["versions"]["releases"][0]["function"] == "Grill.__init__"


def test_a_traceback_line_inside_the_raise_statement_finds_its_place(kitchen: tuple[Store, str]) -> None:
    store, eid = kitchen
    assert build_page(store, eid, site=("kitchen/tools.py", 16))["line"] == 15
    with pytest.raises(
        NotIndexedError, match=r"not raised at kitchen/tools.py:3 in kitchen 1.0; its places are kitchen/tools.py:9, "
    ):
        build_page(store, eid, site=("kitchen/tools.py", 3))


def test_pages_are_cached_per_place(kitchen: tuple[Store, str]) -> None:
    store, eid = kitchen
    build_page(store, eid)
    build_page(store, eid, site=("kitchen/tools.py", 17))
    assert store.cache_get(PAGES.key(eid, "1.0", "*")) is not None
    assert store.cache_get(PAGES.key(eid, "1.0", "kitchen/tools.py", 15)) is not None
    assert build_page(store, eid, site=("kitchen/tools.py", 22))["function"] == "heat"


def test_shared_clauses_give_the_solutions_true_at_every_place(keys: tuple[Store, str]) -> None:
    store, eid = keys
    page = build_page(store, eid, values=["'auto'"])
    assert page["condition"] == "key is not None and key not in MODES"
    assert page["site_scope"]["exact"] is False
    assert page["what_it_means"]["summary"].endswith(
        "Every one of them requires that `key` is set (not None) and `key` is not one of `MODES` (2 values); what"
        " more each place tests, if anything, is on the page of that place."
    )
    assert page["solutions"][0]["kind"] == "use_allowed_value" and page["solutions"][0]["values"] == ["fast", "slow"]
    assert page["user_input"]["checked"][0]["result"] == "unknown"  # raised by `pick`, accepted by `pick_or_auto`
    assert page["triggers"] == []
    everywhere = build_page(store, eid, values=["'fast'"])
    assert everywhere["user_input"]["checked"][0]["result"] == "accepted"
    assert (
        build_page(store, eid, site=("keys/pick.py", 6), values=["'auto'"])["user_input"]["checked"][0]["result"]
        == "raises"
    )
    assert (
        build_page(store, eid, site=("keys/pick.py", 11), values=["'auto'"])["user_input"]["checked"][0]["result"]
        == "accepted"
    )


def test_places_with_the_very_same_check(indexed: Indexer) -> None:
    store = indexed({"copies/__init__.py": "", "copies/count.py": COPIES}, name="copies")
    page = build_page(store, error_id_of(store, "copies", "negative count {}"))
    assert page["site_scope"]["exact"] and page["site_scope"]["site"] is None
    assert "all guarded by the same check" in page["site_scope"]["text"]
    assert page["what_it_means"]["summary"] == "Each of its 2 places raises ValueError when `count` is less than 0."
    assert page["triggers"][0]["code"].endswith("first(count=-1)")
    assert page["when_it_happens"]["summary"].startswith(
        "Traced at the first of its 2 places, `first` (copies/count.py:3)"
    )


def test_versions_follow_the_place_across_releases(indexed: Indexer) -> None:
    older = KITCHEN.replace('SIZES = ("s", "m")', 'SIZES = ("s", "m", "l")')
    indexed({"kitchen/__init__.py": "", "kitchen/tools.py": older}, name="kitchen", version="0.9")
    store = indexed({"kitchen/__init__.py": "", "kitchen/tools.py": KITCHEN}, name="kitchen", version="1.0")
    eid = error_id_of(store, "kitchen", "unsupported value {}")
    page = build_page(store, eid, site=("kitchen/tools.py", 15), values=["'l'"])
    releases = page["versions"]["releases"]
    assert [(r["version"], r["function"], r["exact"]) for r in releases] == [
        ("0.9", "Grill.__init__", True),
        ("1.0", "Grill.__init__", True),
    ]
    assert page["versions"]["value_changes"][0]["removed"] == ["l"]
    drift = [s["text"] for s in page["solutions"] if s["kind"] == "version_drift"]
    assert "'l' is accepted in kitchen 0.9 but rejected in 1.0" in drift[0]
    everywhere = build_page(store, eid, values=["'l'"])
    assert [r["exact"] for r in everywhere["versions"]["releases"]] == [False, False]
    assert not any("'l' is accepted" in s["text"] for s in everywhere["solutions"])
