"""Every JSON route, called in-process through httpx: data, filters, the one error shape, limits."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from errdex.indexing import index
from errdex.store import Store
from errdex.web import create_app
from errdex.web.limits import MAX_BODY, MAX_QUERY
from tests.backends import copy_index
from tests.fixtures import write_tree
from tests.web.conftest import EVIL_ID, SHOP_ID, SHOP_TEMPLATE, assert_problem

pytestmark = pytest.mark.anyio

TURBO = "ValueError: mode must be one of ('fast', 'slow', 'eco'), got 'turbo'"


async def test_index_lists_packages_releases_and_totals(client: httpx.AsyncClient) -> None:
    data = (await client.get("/api")).json()
    by_name = {p["name"]: p for p in data["packages"]}
    assert by_name["shop"]["versions"] == ["1.0", "2.0"]
    assert by_name["shop"]["errors"] == 2
    assert data["stats"]["releases"] == 3


async def test_search_finds_the_raise_site_and_captures_values(client: httpx.AsyncClient) -> None:
    data = (await client.get("/api/search", params={"q": TURBO})).json()
    assert data["abstain"] is False
    best = data["matches"][0]
    assert (best["id"], best["package"], best["template"]) == (SHOP_ID, "shop", SHOP_TEMPLATE)
    assert best["file"] == "shop/cart.py" and best["function"] == "Cart.validate"
    assert best["values"] == ["('fast', 'slow', 'eco')", "'turbo'"]
    assert data["parsed"]["exception"] == "ValueError"
    assert data["q"] == TURBO


@pytest.mark.parametrize(
    "kwargs",
    [
        {"json": {"q": TURBO}},
        {"data": {"q": TURBO}},
        {"content": TURBO.encode(), "headers": {"content-type": "text/plain"}},
    ],
    ids=["json", "form", "text"],
)
async def test_search_by_post_takes_json_form_or_text(client: httpx.AsyncClient, kwargs: dict) -> None:
    posted = (await client.post("/api/search", **kwargs)).json()
    got = (await client.get("/api/search", params={"q": TURBO})).json()
    assert posted == got


async def test_search_limit_is_bounded(client: httpx.AsyncClient) -> None:
    assert len((await client.get("/api/search", params={"q": TURBO, "limit": 1})).json()["matches"]) == 1
    assert_problem(await client.get("/api/search", params={"q": TURBO, "limit": 1000}), 400)


async def test_search_abstains_honestly_with_a_hint(client: httpx.AsyncClient) -> None:
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.11/site-packages/numpy/core/x.py", line 3, in f\n'
        "KeyError: nothing"
    )
    data = (await client.post("/api/search", json={"q": paste})).json()
    assert data["abstain"] is True
    assert "numpy" in data["hint"] and "errdex index" in data["hint"]


@pytest.mark.parametrize("url", ["/api/search?q=", "/api/search?q=%20%0A", "/api/search"])
async def test_search_without_a_paste_is_a_400(client: httpx.AsyncClient, url: str) -> None:
    assert_problem(await client.get(url), 400)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"content": b"{not json", "headers": {"content-type": "application/json"}},
        {"json": {"text": "no q"}},
        {"json": ["q"]},
        {"content": b"[" * 100_000, "headers": {"content-type": "application/json"}},
        {"data": {"other": "x"}},
    ],
    ids=["bad-json", "json-without-q", "json-list", "deep-json", "form-without-q"],
)
async def test_malformed_posts_are_400_with_what_to_send(client: httpx.AsyncClient, kwargs: dict) -> None:
    assert "q" in assert_problem(await client.post("/api/search", **kwargs), 400)


async def test_a_10_mb_paste_is_refused_with_413(client: httpx.AsyncClient) -> None:
    body = b"ValueError: x" + b"a" * (10 * 1024 * 1024)
    message = assert_problem(
        await client.post("/api/search", content=body, headers={"content-type": "text/plain"}), 413
    )
    assert "KiB" in message


async def test_a_streamed_body_without_length_is_cut_at_the_limit(client: httpx.AsyncClient) -> None:
    async def chunks():  # no Content-Length: the limit applies while the body is read
        for _ in range(64):
            yield b"a" * 65_536

    assert_problem(await client.post("/api/search", content=chunks()), 413)


async def test_a_paste_just_under_the_limit_is_read(client: httpx.AsyncClient) -> None:
    body = ("x\n" * ((MAX_BODY - len(TURBO) - 10) // 2) + TURBO).encode()
    data = (await client.post("/api/search", content=body, headers={"content-type": "text/plain"})).json()
    assert data["matches"][0]["id"] == SHOP_ID


async def test_an_overlong_query_string_is_414(client: httpx.AsyncClient) -> None:
    assert "POST" in assert_problem(await client.get("/api/search", params={"q": "a" * (MAX_QUERY + 1)}), 414)


async def test_package_groups_errors_by_module_and_exception(client: httpx.AsyncClient) -> None:
    data = (await client.get("/api/packages/shop")).json()
    assert data["release"]["version"] == "2.0" and data["versions"] == ["1.0", "2.0"]
    assert data["count"] == 2
    assert data["counts"] == {
        "kind": {"error": 2},
        "exception": {"NotImplementedError": 1, "ValueError": 1},
        "log_level": {},
    }
    (module,) = data["modules"]
    assert (module["module"], module["file"], module["count"]) == ("shop.cart", "shop/cart.py", 2)
    groups = {g["exception"]: [e["id"] for e in g["errors"]] for g in module["exceptions"]}
    assert groups["ValueError"] == [SHOP_ID]


async def test_package_filters_by_version_kind_and_exception(client: httpx.AsyncClient) -> None:
    old = (await client.get("/api/packages/shop", params={"version": "1.0", "exception": "ValueError"})).json()
    assert old["release"]["version"] == "1.0" and old["count"] == 1
    assert old["filters"] == {"version": "1.0", "kind": None, "exception": "ValueError"}
    assert (await client.get("/api/packages/shop", params={"kind": "warning"})).json()["count"] == 0
    assert (await client.get("/api/packages/shop", params={"exception": "%"})).json()["count"] == 0


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/api/packages/nope", 404),
        ("/api/packages/shop?version=9.9", 404),
        ("/api/packages/shop?kind=bogus", 400),
        ("/api/packages/shop?exception=" + "E" * 300, 400),
        ("/api/packages/shop'%20OR%201=1--", 404),
        ("/api/packages/..%2F..%2Fetc%2Fpasswd", 404),
    ],
)
async def test_package_problems(client: httpx.AsyncClient, url: str, status: int) -> None:
    assert_problem(await client.get(url), status)


async def test_error_page_data(client: httpx.AsyncClient) -> None:
    page = (await client.get(f"/api/errors/{SHOP_ID}")).json()
    assert (page["id"], page["version"], page["template"], page["line"]) == (SHOP_ID, "2.0", SHOP_TEMPLATE, 11)
    for key in (
        "what_it_means",
        "when_it_happens",
        "solutions",
        "related",
        "versions",
        "provenance",
        "snippet",
        "source_url",
    ):
        assert key in page
    assert page["resolved"]["MODES"] == ["fast", "slow", "eco"]
    assert [r["version"] for r in page["versions"]["releases"]] == ["1.0", "2.0"]


async def test_error_page_of_an_older_release_and_with_captured_values(client: httpx.AsyncClient) -> None:
    old = (await client.get(f"/api/errors/{SHOP_ID}", params={"version": "1.0"})).json()
    assert old["version"] == "1.0" and old["resolved"]["MODES"] == ["fast", "slow"]
    filled = (
        await client.get(f"/api/errors/{SHOP_ID}", params=[("value", "('fast', 'slow', 'eco')"), ("value", "'fsat'")])
    ).json()
    assert filled["user_input"]["values"] == ["('fast', 'slow', 'eco')", "'fsat'"]
    assert (await client.get(f"/api/errors/{SHOP_ID}")).json()["user_input"] is None


@pytest.mark.parametrize(
    "url",
    [
        "/api/errors/0123456789abcdef",
        "/api/errors/not-an-id",
        "/api/errors/..%2F..%2Fetc%2Fpasswd",
        f"/api/errors/{SHOP_ID}?version=0.1",
        "/api/errors/" + "a" * 5000,
        "/api/nothing-here",
        f"/api/errors/{SHOP_ID}?file=../../etc/passwd&line=1",
    ],
)
async def test_unknown_errors_are_404_in_the_one_shape(client: httpx.AsyncClient, url: str) -> None:
    assert_problem(await client.get(url), 404)


async def test_the_place_that_raised_can_be_named(client: httpx.AsyncClient) -> None:
    page = (await client.get(f"/api/errors/{SHOP_ID}", params={"file": "shop/cart.py", "line": 11})).json()
    assert (page["file"], page["line"]) == ("shop/cart.py", 11)
    assert_problem(await client.get(f"/api/errors/{SHOP_ID}", params={"file": "shop/cart.py"}), 400)
    assert_problem(await client.get(f"/api/errors/{SHOP_ID}", params={"file": "shop/cart.py", "line": 0}), 400)


async def test_too_many_captured_values_are_a_400(client: httpx.AsyncClient) -> None:
    assert_problem(await client.get(f"/api/errors/{SHOP_ID}", params=[("value", "x")] * 17), 400)


async def test_wrong_method_is_405_in_the_one_shape(client: httpx.AsyncClient) -> None:
    assert_problem(await client.delete("/api/search"), 405)


async def test_json_keeps_markup_as_data(client: httpx.AsyncClient) -> None:
    response = await client.get(f"/api/errors/{EVIL_ID}")
    assert response.headers["content-type"].startswith("application/json")
    assert response.json()["template"] == "<script>alert('x')</script> is not a valid {}"


async def test_openapi_describes_every_json_route_and_no_page(client: httpx.AsyncClient) -> None:
    spec = (await client.get("/api/openapi.json")).json()
    assert spec["openapi"].startswith("3.")
    paths = spec["paths"]
    assert set(paths) == {"/api", "/api/search", "/api/packages/{package}", "/api/errors/{error_id}"}
    assert set(paths["/api/search"]) == {"get", "post"}
    assert "requestBody" in paths["/api/search"]["post"]
    error_schema = paths["/api/errors/{error_id}"]["get"]["responses"]["404"]["content"]["application/json"]["schema"]
    assert error_schema["required"] == ["error"]
    assert json.dumps(spec)  # serialisable as it is served


async def test_a_release_indexed_while_serving_is_found_at_once(web_db: str, tmp_path: Path) -> None:
    db = copy_index(web_db, tmp_path, "live.db")
    transport = httpx.ASGITransport(app=create_app(db))
    async with httpx.AsyncClient(transport=transport, base_url="http://errdex.test") as live:
        assert (await live.get("/api/search", params={"q": TURBO})).json()["abstain"] is False
        folder = write_tree(
            tmp_path / "late",
            {
                "pyproject.toml": '[project]\nname = "late"\nversion = "1.0"\n',
                "late/__init__.py": "def f(x):\n    raise KeyError(f'late arrival {x} is unknown')\n",
            },
        )
        with Store(db) as store:
            index(str(folder), store)
        found = (await live.get("/api/search", params={"q": "KeyError: 'late arrival 7 is unknown'"})).json()
        assert found["abstain"] is False and found["matches"][0]["package"] == "late"
        assert "late" in [p["name"] for p in (await live.get("/api")).json()["packages"]]
