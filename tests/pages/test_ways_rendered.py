"""A way in that only sets an input (a call of it does not run the check) is labelled so wherever the page
is rendered, so that it never reads as a way to the error."""

from __future__ import annotations

from rich.console import Console

from errdex import terminal
from errdex.pages import build_page
from errdex.web.links import ServerLinks
from errdex.web.render import Renderer
from tests.pages.conftest import Indexer, error_id_of

SETTER = """
class Args:
    def __init__(self, warmup=0):
        self.warmup = warmup
        self.validate()

    def validate(self):
        if self.warmup < 0:
            raise ValueError("warmup must be positive")

    def set_schedule(self, warmup=0):
        self.warmup = warmup
        return self
"""


def test_a_way_that_only_stores_the_input_is_labelled_in_the_cli_the_web_and_provenance(indexed: Indexer) -> None:
    store = indexed({"sched/__init__.py": SETTER}, name="sched")
    page = build_page(store, error_id_of(store, "sched", "warmup must be positive"))
    ways = {w["via"]: w for item in page["when_it_happens"]["inputs"] for w in item["ways_in"]}
    assert ways["Args.__init__"]["reaches_check"] and not ways["Args.set_schedule"]["reaches_check"]
    console = Console(width=250, record=True)
    console.print(terminal.page_panel(page))
    text = console.export_text()
    assert "args.set_schedule(warmup=...)  (sched/__init__.py:11): sets warmup without running the check" in text
    assert "→ Args(warmup=...)  (sched/__init__.py:3)  " in text
    html = Renderer().page("error.html", page, ServerLinks(), alternate=None)
    assert "<strong>sets <code>warmup</code> without running the check</strong>" in html
    assert html.count("without running the check</strong>") == 1
    facts = [f["fact"] for f in page["provenance"]]
    assert "where `warmup` is set without running the check (Args.set_schedule)" in facts
    assert "way in for `warmup` (Args.__init__)" in facts
