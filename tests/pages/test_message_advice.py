"""The message's own advice is a solution, quoted, with the user's values in its holes; a message that only
states what went wrong gives none."""

from __future__ import annotations

from errdex.pages import build_page
from errdex.pages.advice import message_advice
from tests.pages.conftest import Indexer, error_id_of

PACKAGE = {
    "web/__init__.py": "",
    "web/urls.py": """
        def prepare(url):
            if "://" not in url:
                raise ValueError(f"Invalid URL {url!r}: No scheme supplied. Perhaps you meant https://{url}?")
            if url.startswith("ftp"):
                raise ValueError(f"Got {url} instead of an http URL")
    """,
}


def test_the_message_says_what_to_do_and_the_page_quotes_it_with_the_users_values(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="web")
    error = error_id_of(store, "web", "Invalid URL {}: No scheme supplied. Perhaps you meant https://{}?")
    static = [s for s in build_page(store, error)["solutions"] if s["kind"] == "message_advice"]
    assert [s["text"] for s in static] == ["The message itself says what to do: “Perhaps you meant https://{}?”"]
    filled = build_page(store, error, values=["'localhost:8000/api'", "localhost:8000/api"])
    advice = [s["text"] for s in filled["solutions"] if s["kind"] == "message_advice"]
    assert advice == [
        "The message itself says what to do, with your values: “Perhaps you meant https://localhost:8000/api?”"
    ]


def test_a_message_that_only_states_what_went_wrong_advises_nothing(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="web")
    page = build_page(store, error_id_of(store, "web", "Got {} instead of an http URL"))
    assert not [s for s in page["solutions"] if s["kind"] == "message_advice"]


def test_what_counts_as_advice() -> None:
    advised = ["Use `foo` instead.", "Please pass `bar`.", "You must first set the image array", "Did you mean `x`?"]
    stated = ["Use of {} is deprecated", "Got {} instead.", "Invalid mode {}", "{} {} {}"]
    assert all(message_advice(t, None) for t in advised)
    assert not any(message_advice(t, None) for t in stated)
    assert message_advice("Run with {}. Please install torch: pip install torch", None) == {
        "kind": "message_advice",
        "text": "The message itself says what to do: “Run with {}.”",
    }
    # a value with braces is put in as text, never read as a format
    filled = message_advice("Please pass {} here.", ["{0}{}"])
    assert filled is not None and "“Please pass {0}{} here.”" in filled["text"]
