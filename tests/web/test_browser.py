"""End to end in a real browser: Debian's chromium, driven by Playwright, against `errdex serve`.

JavaScript is off in the browser: every step must work with plain HTML forms and links. The
screenshots are written to test-output/web/ (not committed) for a person to look at.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx
import pytest

from tests.backends import copy_index
from tests.conftest import TEST_CACHE

playwright = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

pytestmark = pytest.mark.network

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "web"
FLAGSHIP_ID = "44c51e6e70d45f6a"
PASTE = (
    "ValueError: Invalid `cache_implementation` (flash). Choose one of: ('static', 'offloaded_static', "
    "'sliding_window', 'hybrid', 'hybrid_chunked', 'offloaded_hybrid', 'offloaded_hybrid_chunked', 'dynamic', "
    "'offloaded', 'quantized', 'paged')"
)
TEMPLATE = "Invalid `cache_implementation` ({}). Choose one of: {}"
# Elements that stick out of the screen, except inside a box that scrolls sideways (the excerpts).
TOO_WIDE = """() => {
  const width = document.documentElement.clientWidth;
  const scrolls = el => ["auto", "scroll", "hidden"].includes(getComputedStyle(el).overflowX);
  const inScroller = el => {
    for (let p = el.parentElement; p; p = p.parentElement) if (scrolls(p)) return true;
    return false;
  };
  return [...document.querySelectorAll("body *")]
    .filter(el => el.getBoundingClientRect().right > width + 1 && !inScroller(el))
    .map(el => `${el.tagName}.${el.className}: ${(el.textContent || "").slice(0, 60)}`);
}"""
# Words that a line break cuts between two of their letters or digits ("Packag|e", "configuration_util|s.py"),
# outside the excerpts (which scroll sideways). A break beside punctuation is where a reader would break.
BROKEN_WORDS = """() => {
  const scrolls = el => ["auto", "scroll"].includes(getComputedStyle(el).overflowX);
  const inScroller = el => {
    for (let p = el; p; p = p.parentElement) if (scrolls(p)) return true;
    return false;
  };
  const letter = /[\\p{L}\\p{N}_]/u;
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node; (node = walker.nextNode()); ) {
    if (inScroller(node.parentElement)) continue;
    const text = node.textContent;
    for (const word of text.matchAll(/\\S{2,}/g)) {
      let top = null;
      for (let i = word.index; i < word.index + word[0].length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getBoundingClientRect();
        if (!rect.width && !rect.height) continue;
        if (top !== null && rect.top > top + 2 && letter.test(text[i - 1]) && letter.test(text[i])) {
          out.push(`${node.parentElement.tagName}: ${word[0].slice(0, 60)}`);
          break;
        }
        top = rect.top;
      }
    }
  }
  return out;
}"""
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
TRACEBACK = f"""Traceback (most recent call last):
  File "/home/me/train.py", line 12, in <module>
    config = GenerationConfig(cache_implementation="flash")
  File "/opt/env/lib/python3.11/site-packages/transformers/generation/configuration_utils.py", line 687, in validate
    raise ValueError(
{PASTE}"""
AXE = TEST_CACHE / "axe"
AXE_SCRIPT = AXE / "node_modules" / "axe-core" / "axe.min.js"
AXE_VERSION = "4"  # the engine Lighthouse's accessibility audits run
AXE_RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
MISSING = "/p/nope"  # a page not found
SLOW = 180_000  # ms: an error page is built from the code the first time it is asked for


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(transformers_db: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`errdex serve` (uvicorn) on a free loopback port, over a copy of the transformers index."""
    db = copy_index(transformers_db, tmp_path_factory.mktemp("serve"), "errdex.db")
    port = free_port()
    command = [sys.executable, "-m", "errdex", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db)]
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ, "NO_COLOR": "1"}
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, proc)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _wait_until_up(url: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"errdex serve exited: {proc.stdout.read().decode() if proc.stdout else ''}")
        try:
            if httpx.get(url + "/", timeout=5).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.2)
    raise AssertionError(f"errdex serve did not answer at {url} within 120 s")


@pytest.fixture(scope="module")
def browser() -> Iterator[playwright.Browser]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: .ci/system-packages installs Debian's chromium")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: playwright.Browser) -> Iterator[playwright.Page]:
    """A desktop tab with JavaScript off; the test fails if the browser reports an error (a refused stylesheet, ...)."""
    with tab(browser, java_script_enabled=False, **DESKTOP) as page:
        yield page


@pytest.fixture(params=["desktop", "phone"])
def any_tab(browser: playwright.Browser, request: pytest.FixtureRequest) -> Iterator[playwright.Page]:
    """A tab with JavaScript off on a desktop screen, then on a phone's."""
    with tab(browser, java_script_enabled=False, **(DESKTOP if request.param == "desktop" else PHONE)) as page:
        yield page


@contextmanager
def tab(browser: playwright.Browser, *, visits_missing: bool = False, **options: Any) -> Iterator[playwright.Page]:
    """A tab in a new browser context; it fails if the browser reports an error (a refused stylesheet, ...), but
    for the status of a page the test asks for knowing it is missing (`visits_missing`)."""
    context = browser.new_context(**options)
    page = context.new_page()
    page.set_default_timeout(SLOW)
    problems: list[str] = []

    def report(message: playwright.ConsoleMessage) -> None:
        missing = visits_missing and message.location.get("url", "").endswith(MISSING)
        if message.type == "error" and not missing:
            problems.append(message.text)

    page.on("console", report)
    try:
        yield page
    finally:
        context.close()
    assert problems == []


def shot(page: playwright.Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_paste_the_flagship_error_and_follow_it_to_a_related_one(server: str, page: playwright.Page) -> None:
    page.goto(server + "/")
    playwright.expect(page.get_by_role("heading", level=1)).to_contain_text("Where does this error come from?")
    shot(page, "home")

    playwright.expect(page.locator(".paste .keys")).to_be_hidden()  # no script: no Ctrl+Enter to speak of
    page.get_by_label("Paste an error message, a log line or a whole traceback").fill(PASTE)
    page.get_by_role("button", name="Find where it comes from").click()
    page.wait_for_url(server + "/search?q=*")
    best = page.locator(".best .match")
    playwright.expect(best).to_contain_text("transformers/generation/configuration_utils.py:687")
    playwright.expect(best.locator("mark.value").first).to_have_text("flash")
    shot(page, "search")

    best.locator("a.go").click()
    page.wait_for_url(f"{server}/errors/{FLAGSHIP_ID}?*")
    head = page.locator("header.head")
    playwright.expect(head.locator("h1")).to_have_text(TEMPLATE)
    playwright.expect(head.locator("code.place")).to_have_text("transformers/generation/configuration_utils.py:687")
    resolved = page.locator("dl.resolved")
    playwright.expect(resolved).to_contain_text("valid_cache_implementations")
    playwright.expect(resolved).to_contain_text("listed under Solutions")  # the values are printed once
    for name in ("offloaded_hybrid_chunked", "sliding_window", "paged"):
        playwright.expect(page.locator("#solutions")).to_contain_text(name)
    playwright.expect(page.locator(".excerpt .hll").first).to_contain_text("raise ValueError(")
    shot(page, "error")

    first_related = page.locator("#related a").first
    related_text = first_related.inner_text()
    href = first_related.get_attribute("href") or ""
    assert href.startswith("/errors/") and FLAGSHIP_ID not in href
    first_related.click()
    page.wait_for_url(server + href)
    playwright.expect(page.locator("header.head h1")).to_have_text(related_text)
    playwright.expect(page.locator("#related")).to_contain_text("Invalid `cache_implementation`")


def test_pages_fit_a_phone_screen_and_break_no_word(server: str, browser: playwright.Browser) -> None:
    """At 390 px nothing sticks out and no word is cut in two ("Packag/e", "configuration_util/s.py"): the
    screenshots are test-output/web/phone-*.png."""
    with tab(browser, visits_missing=True, java_script_enabled=False, **PHONE) as page:
        for name, path in (
            ("home", "/"),
            ("search", "/search?" + urlencode({"q": TRACEBACK})),
            ("error", f"/errors/{FLAGSHIP_ID}"),
            ("package", "/p/transformers?exception=ValueError"),
            ("missing", MISSING),
            ("api-docs", "/docs"),
        ):
            page.goto(server + path, timeout=SLOW)
            shot(page, f"phone-{name}")
            assert page.evaluate(TOO_WIDE) == [], f"{name} is wider than a phone screen"
            assert page.evaluate(BROKEN_WORDS) == [], f"{name} breaks words"


def test_a_traceback_pasted_into_the_header_box_lands_on_its_error(server: str, any_tab: playwright.Page) -> None:
    """The box in every page's header keeps a traceback's lines, and its answer has an address of its own."""
    page = any_tab
    page.goto(f"{server}/p/transformers")
    page.get_by_label("Paste an error message, a log line or a traceback").fill(TRACEBACK)
    page.locator("form.quick").get_by_role("button", name="Search").click()
    page.wait_for_url(server + "/search?q=*")
    assert parse_qs(urlsplit(page.url).query)["q"] == [TRACEBACK]  # the line breaks too
    best = page.locator(".best .match")
    playwright.expect(best).to_contain_text("transformers/generation/configuration_utils.py:687")
    playwright.expect(best.locator("mark.value").first).to_have_text("flash")
    best.locator("a.go").click()
    page.wait_for_url(f"{server}/errors/{FLAGSHIP_ID}?*")
    playwright.expect(page.locator("header.head code.place")).to_have_text(
        "transformers/generation/configuration_utils.py:687"
    )


def test_a_search_address_can_be_reloaded_and_shared(server: str, browser: playwright.Browser) -> None:
    """A pasted message leads to /search?q=...: reloading it asks nothing again, and another browser opening it
    sees the same answer."""
    first, url = "", ""
    with tab(browser, java_script_enabled=False, **DESKTOP) as page:
        page.goto(server + "/")
        page.get_by_label("Paste an error message, a log line or a whole traceback").fill(PASTE)
        page.get_by_role("button", name="Find where it comes from").click()
        page.wait_for_url(server + "/search?q=*")
        url, first = page.url, page.locator(".best").inner_text()
        page.reload()  # a GET: no "resubmit the form?" question
        assert page.url == url and page.locator(".best").inner_text() == first
    with tab(browser, java_script_enabled=False, **PHONE) as other:
        other.goto(url)
        assert other.locator(".best").inner_text() == first


def test_ctrl_enter_sends_a_paste(server: str, browser: playwright.Browser) -> None:
    with tab(browser, **DESKTOP) as page:
        page.goto(server + "/")
        playwright.expect(page.locator(".paste .keys")).to_be_visible()  # said only where the script runs
        box = page.get_by_label("Paste an error message, a log line or a whole traceback")
        box.fill(PASTE)
        box.press("Control+Enter")
        page.wait_for_url(server + "/search?q=*")
        playwright.expect(page.locator(".best")).to_contain_text("configuration_utils.py:687")


def test_the_keyboard_reaches_the_content_first_and_skips_the_line_numbers(server: str, page: playwright.Page) -> None:
    """The first Tab stop skips to the content; the excerpt is one Tab stop (to scroll it), its 40 line numbers none."""
    page.goto(f"{server}/errors/{FLAGSHIP_ID}")
    page.keyboard.press("Tab")
    skip = page.evaluate("() => [document.activeElement.textContent, document.activeElement.getAttribute('href')]")
    assert skip == ["Skip to the content", "#main"]
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "main"
    focusable = "a[href], button, input, textarea, select, [tabindex]:not([tabindex='-1'])"
    assert page.locator(".excerpt").locator(focusable).count() == 1
    assert page.locator(".excerpt pre[tabindex='0']").count() == 1


@pytest.fixture(scope="module")
def axe_script() -> Path:
    """axe-core, the accessibility engine of Lighthouse's audits, from the npm registry (cached)."""
    if not AXE_SCRIPT.exists():
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(AXE), f"axe-core@{AXE_VERSION}"],
            check=True,
            capture_output=True,
        )
    return AXE_SCRIPT


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_pages_pass_the_accessibility_audit(
    server: str, browser: playwright.Browser, axe_script: Path, screen: str, scheme: str
) -> None:
    """axe-core's WCAG 2.2 AA and best-practice rules find nothing on any kind of page, light and dark, desktop and
    phone (the audit's script is added past the content policy, which would refuse it)."""
    options = {**(DESKTOP if screen == "desktop" else PHONE), "color_scheme": scheme, "bypass_csp": True}
    with tab(browser, visits_missing=True, **options) as page:
        for path in (
            "/",
            "/search?" + urlencode({"q": TRACEBACK}),
            f"/errors/{FLAGSHIP_ID}",
            "/p/transformers?exception=ValueError",
            MISSING,
            "/docs",
        ):
            page.goto(server + path, timeout=SLOW)
            page.add_script_tag(path=str(axe_script))
            found = page.evaluate(
                "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})"
                ".then(r => r.violations.map(v => `${v.id}: ${v.nodes.length} ${v.nodes[0].target}`))",
                AXE_RULES,
            )
            assert found == [], f"{path} ({screen}, {scheme})"


def test_the_answer_comes_first_and_is_on_a_desktop_first_screen(server: str, page: playwright.Page) -> None:
    """What went wrong and the fix before how it is reached and the source; the solutions start on the first
    1280x900 screen of the flagship's page (the first screen is written to test-output/web/first-screen.png).
    The phone's first screen is `test_the_answer_is_on_a_phone_first_screen`."""
    page.goto(f"{server}/errors/{FLAGSHIP_ID}")
    order = page.evaluate("() => [...document.querySelectorAll('article section')].map(s => s.id)")
    assert order.index("means") < order.index("solutions") < order.index("fix") < order.index("when")
    assert order.index("fix") < order.index("source") < order.index("callers")
    solutions = page.locator("#solutions").bounding_box()
    assert solutions is not None and solutions["y"] + 60 < 900, solutions  # its heading and first solution
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "first-screen.png"))


def test_the_answer_is_on_a_phone_first_screen(server: str, browser: playwright.Browser) -> None:
    """On a 390x844 phone the header is compact and "What it means" shows only its lead (the rest is behind a
    `<details>`): the solutions' heading and first lines are on the first screen, the example fix starts on the
    first or second (the first screen is written to test-output/web/phone-first-screen.png)."""
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(SLOW)
    try:
        page.goto(f"{server}/errors/{FLAGSHIP_ID}", timeout=SLOW)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "phone-first-screen.png"))
        solutions, fix = page.locator("#solutions").bounding_box(), page.locator("#fix").bounding_box()
        assert solutions is not None and solutions["y"] + 60 < 844, solutions
        assert fix is not None and fix["y"] < 2 * 844, fix
    finally:
        context.close()


def test_an_error_page_is_sent_gzipped_within_12_kb_and_revalidated_for_nothing(server: str) -> None:
    url = f"{server}/errors/{FLAGSHIP_ID}"
    with httpx.Client(timeout=SLOW / 1000) as client:
        first = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert first.headers["content-encoding"] == "gzip" and first.num_bytes_downloaded <= 12 * 1024
        assert len(first.content) > 3 * first.num_bytes_downloaded  # the page itself, decompressed
        again = client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
