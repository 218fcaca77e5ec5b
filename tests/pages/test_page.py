"""The page as a whole: the keys of its type, cached, rendered by `errdex show`."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from click.testing import CliRunner
from rich.console import Console

from errdex.caches import PAGES
from errdex.cli import main
from errdex.errors import NotIndexedError
from errdex.pages import build_page
from errdex.pages.model import Page
from errdex.store import Store
from errdex.terminal import page_panel
from tests.fixtures import MODE_TEMPLATE as TEMPLATE
from tests.fixtures import cart_module
from tests.pages.conftest import Indexer, error_id_of
from tests.pages.test_model_doc import mismatches

PACKAGE = {"pyproject.toml": "", "shop/__init__.py": "", "shop/cart.py": cart_module()}


@pytest.fixture
def shop(indexed: Indexer) -> tuple[Store, str]:
    store = indexed(
        {k: v for k, v in PACKAGE.items() if k != "pyproject.toml"}, name="shop", url="https://github.com/example/shop"
    )
    return store, error_id_of(store, "shop", TEMPLATE)


def test_a_built_page_has_the_keys_of_its_type(shop: tuple[Store, str]) -> None:
    """At every level (docs/page.md lists the same keys: test_model_doc)."""
    store, eid = shop
    page = build_page(store, eid, values=["('fast', 'slow')", "'fats'"])
    assert page["triggers"] and page["callers"] and page["example_fix"] and page["user_input"]  # every section filled
    assert mismatches(page, Page) == []
    assert mismatches({**page, "solutions": [{**page["solutions"][0], "extra": 1}]}, Page) == [
        "page.solutions[0]: " + str(sorted([*page["solutions"][0], "extra"]))
    ]


def test_the_page_is_plain_json_data(shop: tuple[Store, str]) -> None:
    store, eid = shop
    page = build_page(store, eid, values=["('fast', 'slow')", "'fats'"])
    assert json.loads(json.dumps(page)) == page


def test_the_static_part_is_cached_and_the_user_part_is_not(shop: tuple[Store, str]) -> None:
    store, eid = shop
    plain = build_page(store, eid)
    assert store.cache_get(PAGES.key(eid, "1.0", "*")) is not None
    filled = build_page(store, eid, values=["('fast', 'slow')", "'fats'"])
    assert plain["user_input"] is None and filled["user_input"]["checked"][1]["result"] == "raises"
    assert filled["triggers"][0]["code"].endswith("Cart(mode='fats')")
    assert build_page(store, eid)["triggers"] == plain["triggers"]


def test_unknown_id_or_version_fails_with_what_to_do(shop: tuple[Store, str]) -> None:
    store, eid = shop
    with pytest.raises(NotIndexedError, match="errdex list PACKAGE"):
        build_page(store, "0123456789abcdef")
    with pytest.raises(NotIndexedError, match=r"is not in shop 9\.9 \(it is in: 1\.0\)"):
        build_page(store, eid, version="9.9")


def test_page_panel_shows_every_section(shop: tuple[Store, str]) -> None:
    store, eid = shop
    out = io.StringIO()
    Console(file=out, width=120, color_system=None).print(page_panel(build_page(store, eid)))
    text = out.getvalue()
    for title in (
        "What it means",
        "Source",
        "When it happens",
        "Trigger",
        "Solutions",
        "Example fix",
        "Related errors",
        "Versions",
        "Provenance",
    ):
        assert title in text, title
    assert "❱ 11" in text  # the raise line is marked in the excerpt
    assert "Cart(mode='invalid')" in text and "Cart(mode='fast')" in text
    assert "[bold]" not in text


def test_show_command_text_and_json(shop: tuple[Store, str]) -> None:
    store, eid = shop
    db = str(store.path)
    shown = CliRunner().invoke(main, ["show", eid, "--db", db])
    assert shown.exit_code == 0, shown.output
    assert "What it means" in shown.stdout and "shop/cart.py:11" in shown.stdout
    as_json = CliRunner().invoke(main, ["show", eid, "--version", "1.0", "--json", "--db", db])
    assert json.loads(as_json.stdout) == build_page(store, eid, "1.0")


def test_pages_do_not_share_state(shop: tuple[Store, str]) -> None:
    store, eid = shop
    first: dict[str, Any] = build_page(store, eid)
    first["solutions"].clear()
    first["what_it_means"]["clauses"].clear()
    again = build_page(store, eid)
    assert again["solutions"] and again["what_it_means"]["clauses"]
