"""Rendering pieces on their own: escaping filters, template holes, link builders, partial pages."""

from __future__ import annotations

from pathlib import Path

import pytest
from markupsafe import escape

from errdex.pages import build_page
from errdex.pages.record import record_json
from errdex.store import Store
from errdex.web.links import ServerLinks, StaticLinks
from errdex.web.memo import Memo
from errdex.web.render import CODE_CLASS, Renderer, holes, ticks
from tests.web.conftest import SHOP_ID


def test_ticks_escapes_before_marking_code() -> None:
    assert str(ticks("use `a<b>` or <i>x</i>")) == "use <code>a&lt;b&gt;</code> or &lt;i&gt;x&lt;/i&gt;"
    assert str(ticks("unclosed ` tick")) == "unclosed ` tick"
    assert str(ticks(None)) == ""


def test_holes_pair_each_gap_with_its_value() -> None:
    assert holes("a {} b {}", ["1"]) == [("a ", "1", True), (" b ", None, True), ("", None, False)]
    assert holes("plain") == [("plain", None, False)]


def test_error_page_renders_from_the_core_facts_alone(web_db: Path) -> None:
    """The page model may leave out any section beyond the site's facts: the page still renders."""
    with Store(web_db) as store:
        record = store.error(SHOP_ID)
        page = record_json(record, store.source(record.release, record.site.file))
    html = Renderer().page("error.html", page, ServerLinks(), alternate=None)
    assert "mode must be one of" in html and "What it means" not in html
    assert "shop/cart.py:11" in html.replace("<wbr>", "")  # a path may break after each `/`


def test_server_links_quote_what_they_carry() -> None:
    links = ServerLinks()
    assert links.error("abc", "1.0", ["a b", None, "&"]) == "/errors/abc?version=1.0&value=a+b&value=%26"
    assert links.error("abc", values=["x" * 3000]) == "/errors/abc"  # too long to carry: the page is shown without it
    assert links.package("../x", kind="log") == "/p/..%2Fx?kind=log"


def test_static_links_are_relative_to_the_page() -> None:
    assert StaticLinks(2).error("abc", "1.0") == "../../errors/abc/1.0.html"
    assert StaticLinks(0).package("shop") == "p/shop.html"
    assert StaticLinks(1).package("shop", kind="error") is None and StaticLinks(1).search("q") is None


def test_memo_keeps_the_most_recently_used() -> None:
    memo = Memo(2)
    built: list[str] = []
    for key in ("a", "b", "a", "c", "b"):
        memo.get(key, lambda key=key: built.append(key) or key)
    assert built == ["a", "b", "c", "b"] and len(memo) == 2


def test_only_web_links_are_linked() -> None:
    from errdex.web.render import http_url

    assert http_url("https://github.com/x/y") == "https://github.com/x/y"
    assert http_url("javascript:alert(1)") is None and http_url("JaVaScRiPt:x") is None and http_url(None) is None


def test_outside_tests_a_missing_key_renders_as_nothing(monkeypatch: pytest.MonkeyPatch, web_db: Path) -> None:
    monkeypatch.delenv("ERRDEX_STRICT_TEMPLATES")
    with Store(web_db) as store:
        record = store.error(SHOP_ID)
        page = record_json(record, store.source(record.release, record.site.file))
    del page["snippet"]
    html = Renderer().page("error.html", page, ServerLinks(), alternate=None)
    assert "mode must be one of" in html


def test_a_trigger_without_code_has_no_empty_code_box(web_db: Path) -> None:
    with Store(web_db) as store:
        page = build_page(store, SHOP_ID)
    page["triggers"] = [{"code": None, "values": {"mode": "'x'"}, "from_user": False, "text": "It fires when ..."}]
    html = Renderer().page("error.html", page, ServerLinks(), alternate=None)
    triggers = html[html.index('<section id="triggers">') :]
    triggers = triggers[: triggers.index("</section>")]
    assert "It fires when" in triggers and f'class="{CODE_CLASS}"' not in triggers


def _section(html: str, name: str) -> str:
    part = html[html.index(f'<section id="{name}">') :]
    return part[: part.index("</section>")]


def test_what_it_means_is_the_short_form_and_the_whole_reading_is_in_the_check_in_detail(web_db: Path) -> None:
    """The short form (`plain`) leads the page; the summary and the condition as code are said once, further down."""
    with Store(web_db) as store:
        page = build_page(store, SHOP_ID)
    means = page["what_it_means"]
    html = Renderer().page("error.html", page, ServerLinks(), alternate=None)
    assert (
        f'<p class="lead">{ticks(means["plain"])}</p>' in _section(html, "means")
        and "cannot fire when" in means["plain"]
    )
    summary = str(ticks(means["summary"]))
    assert summary in _section(html, "check") and html.count(summary) == 1
    assert html.count(f"<code>{escape(page['condition'] or '')}</code>") == 1
