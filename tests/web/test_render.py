"""Rendering pieces on their own: escaping filters, template holes, link builders, partial pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.pages import build_page
from errdex.pages.record import record_json
from errdex.store import Store
from errdex.web.links import ServerLinks, StaticLinks
from errdex.web.memo import Memo
from errdex.web.render import CODE_CLASS, Renderer, holes, lead, ticks
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
    assert "mode must be one of" in html and "shop/cart.py:11" in html and "What it means" not in html


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


def test_the_summary_is_cut_after_its_first_sentence_or_before_the_raises_that_fire_first() -> None:
    assert lead("`f` raises E when `a. b` is set. More.") == ("`f` raises E when `a. b` is set.", "More.")
    earlier = "`f` raises E when `a` is set, once the `raise` statements before it in this function do not fire."
    assert lead(earlier + " More.") == (
        "`f` raises E when `a` is set…",
        "…once the `raise` statements before it in this function do not fire. More.",
    )
    assert lead("one sentence") == ("one sentence", "")


def _means(html: str) -> str:
    means = html[html.index('<section id="means">') :]
    return means[: means.index("</section>")]


def test_what_it_means_leads_with_the_plain_sentence_and_keeps_the_check_behind_it(web_db: Path) -> None:
    """The lead is the one paragraph outside the `<details>`: the plain sentence when there is one, else the
    summary's first sentence; the rest of the summary and the code's own words are inside, each once."""
    with Store(web_db) as store:
        page = build_page(store, SHOP_ID)
    means = page["what_it_means"]
    means["summary"] = "`checkout` raises ValueError when `mode` is not one of `MODES`. It is the only check."
    means["in_their_words"] = "In the code's own words, `mode` is “the way to pay”."
    html = _means(Renderer().page("error.html", page, ServerLinks(), alternate=None))
    first, more = html.split('<details class="more">')
    assert "is not one of <code>MODES</code>." in first and "the only check" not in first and "the way to pay" in more
    assert html.count("the only check") == 1

    means["plain"] = "Pass a `mode` the shop accepts."
    html = _means(Renderer().page("error.html", page, ServerLinks(), alternate=None))
    first, more = html.split('<details class="more">')
    assert '<p class="lead">Pass a <code>mode</code> the shop accepts.</p>' in first and "MODES" not in first
    assert "is not one of <code>MODES</code>. It is the only check." in more and "the way to pay" in more
