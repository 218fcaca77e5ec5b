"""What it means in short: the user's call that sets what the check reads (or a local computed from it), then what
lets the check pass (without a condition read, the summary's first sentence); no call through a property's setter."""

from __future__ import annotations

from errdex.pages.model import Page
from tests.pages.conftest import Indexer, pages_of

FILES = {
    "scaler/__init__.py": "from .core import Scaler, Window, clip\n",
    "scaler/core.py": """
        class Scaler:
            def __init__(self, quantile_range=(25.0, 75.0), low=0, high=1):
                self.quantile_range = quantile_range
                self.low = low
                self.high = high

            def fit(self, X):
                q_min, q_max = self.quantile_range
                if not 0 <= q_min <= q_max <= 100:
                    raise ValueError("Invalid quantile range")
                if self.low > self.high:
                    raise ValueError("low is above high")
                return self

            @property
            def scale(self):
                return self._scale

            @scale.setter
            def scale(self, value):
                if value <= 0:
                    raise ValueError("scale must be positive")
                self._scale = value


        class Window:
            def pick(self, items=None, like=None, regex=None):
                given = sum(x is not None for x in (items, like, regex))
                if given > 1:
                    raise TypeError("items, like and regex are mutually exclusive")


        def clip(values, limit=None):
            if limit is not None and limit < 0:
                raise ValueError("limit must not be negative")
            return values


        def unguarded():
            raise RuntimeError("always")
    """,
}


def _plain(page: Page) -> str | None:
    return page["what_it_means"]["plain"]


# only the calls are found, not whether a call's arguments get past what comes first
UNDECIDED = "whether a given call gets to the check is not decided"


def test_the_users_call_comes_first_then_what_passes(indexed: Indexer) -> None:
    page_of = pages_of(indexed(FILES, name="scaler"), "scaler")
    assert _plain(page_of("limit must not be negative")) == (
        "You pass `limit` to `scaler.clip(...)`."
        " The check (`clip`, line 35) cannot fire when either `limit` is None or `limit` is at least 0."
    )
    # two attributes stored from the same constructor are said together
    assert _plain(page_of("low is above high")).startswith(
        f"`scaler.Scaler.fit` leads here (a public way in; {UNDECIDED}); `self.low` and `self.high` are set from"
        " the `low` and `high` you pass to `scaler.Scaler(...)`."
    )


def test_a_local_is_computed_from_what_the_user_passes(indexed: Indexer) -> None:
    page_of = pages_of(indexed(FILES, name="scaler"), "scaler")
    said = _plain(page_of("Invalid quantile range"))
    assert said is not None and said.startswith(
        f"`scaler.Scaler.fit` leads here (a public way in; {UNDECIDED}); `q_min` and `q_max` are computed (line 8)"
        " from `self.quantile_range`, set from the `quantile_range` you pass to `scaler.Scaler(...)`."
    )
    sources = page_of("Invalid quantile range")["when_it_happens"]["inputs"][0]["computed_from"]
    assert [s["code"] for s in sources] == ["self.quantile_range"] and sources[0]["line"] == 8
    picked = page_of("items, like and regex are mutually exclusive")
    assert _plain(picked) == (
        "`given` is computed (line 28) from the `items`, `like` and `regex` you pass to"
        " `window.pick(...)`. The check (`Window.pick`, line 30) cannot fire when `given`"
        " is at most 1."
    )
    # the local is no way in itself: no trigger sets `given` through `items`
    assert picked["when_it_happens"]["inputs"][0]["ways_in"] == []


def test_a_setter_is_assigned_not_called_and_an_unguarded_raise_is_said_as_the_summary_says_it(
    indexed: Indexer,
) -> None:
    page_of = pages_of(indexed(FILES, name="scaler"), "scaler")
    setter = page_of("scale must be positive")
    assert all(w["call"] is None for i in setter["when_it_happens"]["inputs"] for w in i["ways_in"])
    assert "scale(value=" not in (_plain(setter) or "") and "scale(value=" not in str(setter["triggers"])
    (entry,) = setter["when_it_happens"]["entries"]
    assert entry["kind"] == "setter" and _plain(setter).startswith("`scaler.scale = ...` leads here (a public way in")
    assert _plain(page_of("always")) == (  # no condition: the summary's first sentence
        "`unguarded` raises RuntimeError whenever line 40 runs (no `if` in `unguarded` guards line 40)."
    )
