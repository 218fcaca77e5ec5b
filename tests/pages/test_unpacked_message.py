"""A raise that passes its arguments unpacked (`raise InvalidURL(*e.args)`) carries a message the code alone does
not tell: the page says so rather than that no message is given."""

from __future__ import annotations

from errdex.pages import build_page
from errdex.web.links import ServerLinks
from errdex.web.render import Renderer
from tests.pages.conftest import Indexer

SOURCE = """
class InvalidURL(ValueError):
    pass


def prepare(url, parse):
    try:
        return parse(url)
    except LookupError as e:
        raise InvalidURL(*e.args)


def bare(url):
    if not url:
        raise KeyError()
"""


def _page(store, function: str) -> dict:  # type: ignore[no-untyped-def]
    (error,) = [e for e in store.errors("net", None) if e.site.function == function]
    return dict(build_page(store, error.error_id))


def test_a_starred_argument_is_a_message_not_known_statically_not_none(indexed: Indexer) -> None:
    store = indexed({"net/__init__.py": SOURCE}, name="net")
    unpacked = _page(store, "prepare")
    assert unpacked["template"] is None
    assert unpacked["reason"].startswith("message not known statically")
    html = Renderer().page("error.html", unpacked, ServerLinks(), alternate=None)
    assert "message not known statically" in html and "<code></code>" not in html
    assert _page(store, "bare")["reason"] == "no message argument"
