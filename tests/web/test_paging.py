"""A long list of errors comes in pages of whole modules, on the server, in the API and in the static site."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from errdex.indexing import index
from errdex.store import Store
from errdex.web import create_app
from errdex.web.export import export
from errdex.web.views import PAGE_ERRORS
from tests.backends import new_index
from tests.fixtures import write_tree
from tests.web.conftest import assert_problem
from tests.web.test_export import assert_links_resolve

pytestmark = pytest.mark.anyio
PER_MODULE = PAGE_ERRORS * 3 // 5  # two modules never fit on one page


def module(number: int) -> str:
    """A module raising PER_MODULE distinct errors, one function each (as modules are written; the static site
    writes every error's page, and one function of hundreds of raises is a different test's load)."""
    return "".join(
        f"def check_{i}(x):\n    if x == {i}:\n        raise ValueError('error {i} of module m{number}')\n\n\n"
        for i in range(PER_MODULE)
    )


@pytest.fixture(scope="module")
def long_db(tmp_path_factory: pytest.TempPathFactory, backend: str) -> str:
    """`big` 1.0: three modules of PER_MODULE errors each, so its list has three pages."""
    root = tmp_path_factory.mktemp("paging")
    files = {"pyproject.toml": '[project]\nname = "big"\nversion = "1.0"\n', "big/__init__.py": ""}
    files.update({f"big/m{n}.py": module(n) for n in range(3)})
    path = new_index(backend, root, "long.db")
    with Store(path) as store:
        index(str(write_tree(root / "big", files)), store)
    return path


@pytest.fixture
async def client(long_db: str) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=create_app(long_db)), base_url="http://errdex.test"
    ) as c:
        yield c


async def test_the_first_page_holds_the_first_module_and_links_the_others(client: httpx.AsyncClient) -> None:
    html = (await client.get("/p/big")).text
    assert "Page 1 of 3" in html
    assert "error 0 of module m0" in html and "module m1" not in html
    assert 'href="/p/big?version=1.0&amp;page=2"' in html and 'href="/p/big?version=1.0&amp;page=3"' in html
    assert f"<strong>{3 * PER_MODULE}</strong> in this list" in html


async def test_later_pages_and_their_json_twins(client: httpx.AsyncClient) -> None:
    html = (await client.get("/p/big", params={"page": "2"})).text
    assert "Page 2 of 3" in html and "error 7 of module m1" in html and "module m0" not in html
    data = (await client.get("/api/packages/big", params={"page": "3"})).json()
    assert data["page"] == {"number": 3, "count": 3}
    assert [m["module"] for m in data["modules"]] == ["big.m2"]
    assert data["count"] == 3 * PER_MODULE


@pytest.mark.parametrize("url", ["/p/big?page=4", "/api/packages/big?page=4"])
async def test_a_page_past_the_end_is_a_404_that_says_how_many(client: httpx.AsyncClient, url: str) -> None:
    response = await client.get(url)
    assert response.status_code == 404
    assert "big 1.0 has 3 pages of errors with these filters, not 4" in response.text


@pytest.mark.parametrize("url", ["/p/big?page=x", "/p/big?page=0", "/p/big?page=9999999"])
async def test_page_numbers_are_checked(client: httpx.AsyncClient, url: str) -> None:
    response = await client.get(url)
    assert response.status_code == 400 and "page must be a number" in response.text


async def test_the_api_checks_page_numbers_too(client: httpx.AsyncClient) -> None:
    assert "page" in assert_problem(await client.get("/api/packages/big", params={"page": "0"}), 400)


def test_the_static_site_writes_every_page(long_db: str, tmp_path: Path) -> None:
    with Store(long_db) as store:
        export(store, tmp_path / "site")
    site = tmp_path / "site"
    for name in ("p/big/1.0.html", "p/big/1.0~page2.html", "p/big/1.0~page3.html", "api/packages/big/1.0~page3.json"):
        assert (site / name).is_file(), name
    assert "error 3 of module m2" in (site / "p/big/1.0~page3.html").read_text()
    assert 'href="../../p/big/1.0~page2.html"' in (site / "p/big/1.0.html").read_text()
    assert_links_resolve(site)
