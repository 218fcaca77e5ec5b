"""The HTML pages in-process: each renders its JSON twin's data, escapes everything, fails as a page."""

from __future__ import annotations

from html.parser import HTMLParser

import httpx
import pytest

from errdex.web import create_app
from tests.web.conftest import EVIL_ID, SHOP_ID

pytestmark = pytest.mark.anyio

TURBO = "ValueError: mode must be one of ('fast', 'slow', 'eco'), got 'turbo'"
SCRIPT = "<script>alert(1)</script>"


class Tags(HTMLParser):
    """Every start tag of a page with its attributes, and whether a <script> element appears."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def tags_of(html: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = Tags()
    parser.feed(html)
    return parser.tags


def own_scripts_only(html: str) -> bool:
    """Whether every script of a page is a file of the site's own (the content policy refuses anything else)."""
    scripts = [a for t, a in tags_of(html) if t == "script"]
    return all((a.get("src") or "").startswith("/static/") for a in scripts) and "<script>" not in html


def unbroken(html: str) -> str:
    """The page without the break opportunities paths get after each `/`."""
    return html.replace("<wbr>", "")


def alternate(html: str) -> str:
    (href,) = [
        a["href"]
        for t, a in tags_of(html)
        if t == "link" and a.get("rel") == "alternate" and a.get("type") == "application/json"
    ]
    assert href
    return href


PAGES = [
    "/",
    "/p/shop",
    "/p/shop?version=1.0&kind=error",
    f"/errors/{SHOP_ID}",
    f"/errors/{SHOP_ID}?version=1.0",
    "/search?q=" + TURBO.replace(" ", "+"),
]


@pytest.mark.parametrize("url", PAGES)
async def test_every_page_links_to_its_json_twin(client: httpx.AsyncClient, url: str) -> None:
    page = await client.get(url)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    twin = await client.get(alternate(page.text))
    assert twin.status_code == 200 and twin.headers["content-type"].startswith("application/json")
    assert own_scripts_only(page.text)


async def test_home_has_the_paste_box_and_what_is_indexed(client: httpx.AsyncClient) -> None:
    html = (await client.get("/")).text
    forms = [a for t, a in tags_of(html) if t == "form"]
    assert {"method": "post", "action": "/search", "class": "paste paste-form"}.items() <= forms[-1].items()
    assert '<textarea id="q" name="q"' in html
    assert 'href="/p/shop"' in html and 'href="/p/shop?version=1.0"' in html


async def test_pasting_into_the_form_shows_the_match_linked_with_its_values(client: httpx.AsyncClient) -> None:
    posted = await client.post("/search", data={"q": TURBO})
    assert posted.status_code == 303  # sent on to its own address, which can be reloaded and shared
    html = (await client.get(posted.headers["location"])).text
    assert "mode must be one of" in html and "shop/cart.py:11" in unbroken(html) and "(score " not in html
    links = [a["href"] for t, a in tags_of(html) if t == "a" and (a.get("href") or "").startswith(f"/errors/{SHOP_ID}")]
    assert links and "value=%27turbo%27" in links[0] and "version=2.0" in links[0]
    assert "file=shop%2Fcart.py&line=11" in links[0]  # the place the matcher chose
    assert '<mark class="value"' in html


async def test_search_page_says_when_it_abstains(client: httpx.AsyncClient) -> None:
    html = (await client.get("/search", params={"q": "KeyError: something nobody raises"})).text
    assert "No confident match" in html and 'id="abstain"' in html


async def test_a_match_found_by_its_exception_class_alone_says_so(client: httpx.AsyncClient) -> None:
    html = (await client.get("/search", params={"q": "evil.core.GateError: closed for the night"})).text
    assert "evil/core.py:" in unbroken(html) and "by its exception class alone" in html and ">approximate<" not in html


async def test_empty_search_goes_back_home(client: httpx.AsyncClient) -> None:
    response = await client.get("/search?q=++")
    assert response.status_code == 303 and response.headers["location"] == "/"


async def test_error_page_shows_facts_source_and_links(client: httpx.AsyncClient) -> None:
    html = (
        await client.get(f"/errors/{SHOP_ID}", params=[("value", "('fast', 'slow', 'eco')"), ("value", "'fsat'")])
    ).text
    assert "shop/cart.py:11" in unbroken(html) and "Cart.validate" in html
    assert 'class="hll"' in html  # the raise line is marked in the excerpt
    assert "https://github.com/example/shop/blob/v2.0/shop/cart.py#L11-L11" in html
    assert "What it means" in html and "Resolved names" in html and "MODES" in html
    assert f'href="/errors/{SHOP_ID}?version=1.0"' in html  # versions are linked
    assert "Your values" in html and "fsat" in html
    assert f'href="/api/errors/{SHOP_ID}?value=' in html  # its data, with the same values


async def test_related_errors_are_linked(client: httpx.AsyncClient) -> None:
    html = (await client.get(f"/errors/{SHOP_ID}")).text
    related = (await client.get(f"/api/errors/{SHOP_ID}")).json()["related"]
    assert related
    for r in related:
        assert f'href="/errors/{r["id"]}?version=2.0"' in html


async def test_package_page_groups_and_filters(client: httpx.AsyncClient) -> None:
    html = (await client.get("/p/shop", params={"version": "1.0"})).text
    assert "shop.cart" in html and "NotImplementedError" in html and "ValueError" in html
    assert '<option value="1.0" selected>' in html
    assert f'href="/errors/{SHOP_ID}?version=1.0"' in html


async def test_indexed_markup_is_shown_as_text(client: httpx.AsyncClient) -> None:
    for url in (f"/errors/{EVIL_ID}", "/p/evil", f"/errors/{EVIL_ID}?value=" + SCRIPT):
        html = (await client.get(url)).text
        assert "<script>alert" not in html and "<b>bold" not in html and "</textarea><script>" not in html
        assert "&lt;script&gt;alert(" in unbroken(html)
        assert own_scripts_only(html) and not [t for t, _ in tags_of(html) if t == "b"]


async def test_pasted_markup_is_shown_as_text(client: httpx.AsyncClient) -> None:
    paste = f"ValueError: {SCRIPT} is not a valid </textarea><script>alert(2)</script>"
    posted = await client.post("/search", data={"q": paste}, follow_redirects=True)
    for response in (posted, await client.get("/search", params={"q": paste})):
        assert "<script>alert" not in response.text and "</textarea><script>" not in response.text
        assert own_scripts_only(response.text)
        assert "&lt;/textarea&gt;&lt;script&gt;alert(2)" in response.text


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/errors/0123456789abcdef", 404),
        ("/errors/..%2F..%2Fetc%2Fpasswd", 404),
        ("/p/nope", 404),
        ("/nope", 404),
        ("/static/..%2F..%2Fapp.py", 404),
        ("/static/../../app.py", 404),
        ("/p/shop?kind=<b>", 400),
    ],
)
async def test_problems_are_pages(client: httpx.AsyncClient, url: str, status: int) -> None:
    response = await client.get(url)
    assert response.status_code == status and response.headers["content-type"].startswith("text/html")
    assert "Back to the start page" in response.text and "<b>" not in response.text.split('<main id="main"')[1]


async def test_a_10_mb_paste_into_the_form_is_a_413_page(client: httpx.AsyncClient) -> None:
    response = await client.post("/search", data={"q": "a" * (10 * 1024 * 1024)})
    assert response.status_code == 413 and response.headers["content-type"].startswith("text/html")
    assert "KiB" in response.text


async def test_stylesheets_are_served_locally(client: httpx.AsyncClient) -> None:
    html = (await client.get("/")).text
    hrefs = [a["href"] for t, a in tags_of(html) if t == "link" and a.get("rel") == "stylesheet"]
    assert hrefs == ["/static/style.css", "/static/highlight.css"]
    for href in hrefs:
        response = await client.get(href)
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/css")
        assert "http://" not in response.text and "https://" not in response.text and "@import" not in response.text


@pytest.mark.parametrize("url", ["/", f"/errors/{SHOP_ID}", "/api", "/nope", "/static/style.css"])
async def test_every_answer_forbids_scripts_and_foreign_content(client: httpx.AsyncClient, url: str) -> None:
    response = await client.get(url)
    policy = response.headers["content-security-policy"]
    assert "default-src 'none'" in policy and "script-src 'self';" in policy and "unsafe" not in policy
    assert response.headers["x-content-type-options"] == "nosniff"


async def test_refusals_carry_the_headers_too(client: httpx.AsyncClient) -> None:
    response = await client.get("/search", params={"q": "a" * 10_000})
    assert response.status_code == 414 and "content-security-policy" in response.headers


async def test_search_page_offers_did_you_mean(client: httpx.AsyncClient) -> None:
    html = (await client.get("/search", params={"q": TURBO.replace("turbo", "fsat")})).text
    assert "Did you mean <code>fast</code>?" in html


@pytest.mark.parametrize(
    "url",
    [
        f"/errors/{SHOP_ID}?version=" + "9" * 101,
        f"/errors/{SHOP_ID}?file=x.py",
        f"/errors/{SHOP_ID}?file=x.py&line=-3",
        f"/errors/{SHOP_ID}?file=" + "x" * 501 + "&line=1",
        f"/errors/{SHOP_ID}?" + "&".join(["value=x"] * 17),
        "/p/shop?version=" + "9" * 101,
        "/p/shop?exception=" + "E" * 201,
    ],
)
async def test_page_parameters_are_bounded(client: httpx.AsyncClient, url: str) -> None:
    response = await client.get(url)
    assert response.status_code == 400 and "Back to the start page" in response.text


async def test_an_empty_index_says_what_to_do(db_url: str) -> None:
    transport = httpx.ASGITransport(app=create_app(db_url))
    async with httpx.AsyncClient(transport=transport, base_url="http://errdex.test") as empty:
        assert "Nothing is indexed yet" in (await empty.get("/")).text
        assert (await empty.get("/api")).json()["packages"] == []
        answer = (await empty.get("/api/search", params={"q": TURBO})).json()
        assert answer["abstain"] is True and "errdex index" in answer["hint"]


async def test_the_icon_browsers_ask_for_is_the_sites_svg(client: httpx.AsyncClient) -> None:
    response = await client.get("/favicon.ico")
    assert response.status_code == 301 and response.headers["location"] == "/static/favicon.svg"
    icon = await client.get(response.headers["location"])
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")


async def test_an_error_page_names_its_one_address_and_describes_itself(client: httpx.AsyncClient) -> None:
    html = (await client.get(f"/errors/{SHOP_ID}", params={"version": "1.0", "value": "'turbo'"})).text
    links = [a for t, a in tags_of(html) if t == "link" and a.get("rel") == "canonical"]
    assert [a["href"] for a in links] == [f"/errors/{SHOP_ID}?version=1.0"]  # without the values a link carried
    (description,) = [a["content"] for t, a in tags_of(html) if t == "meta" and a.get("name") == "description"]
    assert description is not None and description.startswith("ValueError raised by shop 1.0 at shop/cart.py:")


async def test_an_interpreter_error_about_an_api_is_answered_from_the_releases(client: httpx.AsyncClient) -> None:
    """`Cart(speed=...)`: no indexed release of shop takes `speed`, and the page says so with the closest names."""
    paste = "TypeError: Cart.__init__() got an unexpected keyword argument 'mdoe'"
    html = (await client.get("/search", params={"q": paste})).text
    assert 'id="api-change"' in html and "What changed in shop" in html
    assert "is not in any indexed release of shop" in unbroken(html) and "<code>mode</code>" in unbroken(html)
    assert 'id="abstain"' not in html
    answer = (await client.get("/api/search", params={"q": paste})).json()
    assert answer["api"]["closest"] == ["mode"] and answer["api_words"]["headline"].startswith("`Cart(..., mdoe=...)`")


async def test_an_interpreter_error_inside_the_library_shows_the_statement(client: httpx.AsyncClient) -> None:
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.11/site-packages/shop/cart.py", line 10, in validate\n'
        "    if self.mode not in MODES:\n"
        "TypeError: argument of type 'NoneType' is not iterable"
    )
    answer = (await client.get("/api/search", params={"q": paste})).json()
    statement = answer["statement"]
    assert statement is not None and statement["file"] == "shop/cart.py"
    html = (await client.get("/search", params={"q": paste})).text
    assert 'id="statement"' in html and "Where the interpreter failed" in html
