"""What the code says about itself: a checked input's docstring entry in each of the three styles (reST, Google,
NumPy), an attribute documented by its class, the comments at the check and the raising function's summary, each
quoted with its place and nothing else taken for documentation."""

from __future__ import annotations

from typing import Any

import pytest

from errdex.pages.documented import parameter_entry
from tests.pages.conftest import Indexer, pages_of

MODULE = '''
    def fetch(url, timeout=None):
        """Fetch a page.

        Longer text that is not the summary.

        :param url: the address to fetch; it must name
            its scheme (``https://``).
        :param timeout: seconds to wait.
        """
        # A URL without a scheme cannot be routed:
        # the adapters are keyed by scheme.
        if "://" not in url:  # noqa: E501
            # GH 12345
            raise ValueError("no scheme supplied")


    def resize(width, height=1):
        """Resize.

        Args:
            width (`int`, *optional*, defaults to (1, 2)): the new width in pixels.
                Must be positive.
            height: the new height.
        """
        if width <= 0:
            raise ValueError("width must be positive")


    def shift(periods):
        """
        Shift the data.

        Parameters
        ----------
        periods : int
            Number of periods to shift.
            Can be negative.

        Returns
        -------
        periods : the same
        """
        if not isinstance(periods, int):
            raise TypeError("periods must be an integer")


    class Config:
        """Settings.

        Args:
            mode (`str`):
                How to run: `"fast"` or `"safe"`.
        """

        def __init__(self, mode="fast"):
            self.mode = mode

        def validate(self):
            if self.mode not in ("fast", "safe"):
                raise ValueError("unknown mode")


    def pick(mode):
        # 1. Modes
        # "auto" is accepted too, but kept out of MODES:
        # the tests loop over MODES.
        valid = MODES + ("auto",)
        if mode not in valid:
            raise ValueError("mode not supported")


    def undocumented(size):
        if size < 0:
            raise ValueError("size must not be negative")


    def clamp(level):
        """Keep the level inside the range the device supports."""
        if level > 10:
            raise ValueError("level too high")


    def matched(kind):
        # TODO - a matching error for every kind
        kind = kind.lower()
        # Kinds are matched by name: a class of its own would be one too many.
        if kind != "exact":
            raise ValueError("only exact matching")
'''


@pytest.fixture
def page_of(indexed: Indexer) -> Any:
    return pages_of(indexed({"pkg/__init__.py": "", "pkg/tools.py": MODULE}), "pkg")


def test_rest_entry_comments_and_summary(page_of: Any) -> None:
    said = page_of("no scheme supplied")["documented"]
    (url,) = [p for p in said["parameters"] if p["name"] == "url"]
    assert url["text"] == "the address to fetch; it must name its scheme (``https://``)."  # one paragraph
    assert (url["documented_in"], url["file"], url["line"]) == ("fetch", "pkg/tools.py", 2)
    assert [(c["line"], c["text"]) for c in said["comments"]] == [
        (10, "A URL without a scheme cannot be routed: the adapters are keyed by scheme."),
    ]  # one comment of two lines; the directive and the bare issue number are left out
    assert said["docstring"] == {"text": "Fetch a page.", "line": 2}


def test_google_entry_with_nested_parentheses(page_of: Any) -> None:
    (width,) = page_of("width must be positive")["documented"]["parameters"]
    assert width["text"] == "the new width in pixels. Must be positive."


def test_numpy_entry_stops_at_the_next_section(page_of: Any) -> None:
    (periods,) = page_of("periods must be an integer")["documented"]["parameters"]
    assert periods["text"] == "int\n\nNumber of periods to shift. Can be negative."  # the type, then the text


def test_attribute_documented_by_its_class(page_of: Any) -> None:
    docs = page_of("unknown mode")["documented"]["parameters"]
    assert [(d["name"], d["documented_in"]) for d in docs] == [("mode", "Config")]
    assert docs[0]["text"] == 'How to run: `"fast"` or `"safe"`.'


def test_comments_above_the_bindings_the_check_reads(page_of: Any) -> None:
    said = page_of("mode not supported")["documented"]["comments"]
    assert [(c["line"], c["text"]) for c in said] == [
        (64, "1. Modes"),  # a heading stays apart from the comment below it
        (65, '"auto" is accepted too, but kept out of MODES: the tests loop over MODES.'),
    ]


def test_nothing_documented_is_said_as_nothing(page_of: Any) -> None:
    assert page_of("size must not be negative")["documented"] == {"parameters": [], "comments": [], "docstring": None}


@pytest.mark.parametrize(
    "docstring",
    [
        "Use mode_name: not a parameter entry.",
        "Example::\n\n    mode:: literal",
        "mode_other (int): another parameter.",
    ],
)
def test_other_lines_are_not_entries(docstring: str) -> None:
    assert parameter_entry(docstring, "mode") is None


def test_what_it_means_quotes_the_first_sentence_of_each_with_its_place(page_of: Any) -> None:
    assert page_of("no scheme supplied")["what_it_means"]["in_their_words"] == (
        "In the code's own words, `url` is, as the docstring of `fetch` describes it (pkg/tools.py:2), “the address to"
        " fetch; it must name its scheme (``https://``).”; the comment at line 10 says “A URL without a scheme cannot"
        " be routed: the adapters are keyed by scheme.”."
    )
    shifted = page_of("periods must be an integer")["what_it_means"]["in_their_words"]
    assert shifted == (
        "In the code's own words, `periods` (of type “int”) is, as the docstring of `shift` describes it"
        " (pkg/tools.py:30), “Number of periods to shift.”."
    )
    picked = page_of("mode not supported")["what_it_means"]["in_their_words"]
    assert picked == (
        'In the code\'s own words, the comment at line 65 says “"auto" is accepted too, but kept out of MODES: the'
        " tests loop over MODES.”."
    )
    assert page_of("size must not be negative")["what_it_means"]["in_their_words"] is None
    # without a docstring entry or a comment, the raising function's docstring says what it is for
    said = page_of("level too high")["what_it_means"]["in_their_words"]
    assert said.startswith("In the code's own words, the docstring of `clamp` (line ")
    assert said.endswith(" says “Keep the level inside the range the device supports.”.")
    # a note on work left is no reason for the check: the next comment is quoted
    assert page_of("only exact matching")["what_it_means"]["in_their_words"] == (
        "In the code's own words, the comment at line 86 says “Kinds are matched by name: a class of its own would be"
        " one too many.”."
    )
