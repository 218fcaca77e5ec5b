"""Which bindings of a checked name a page takes as in force, kind of code by kind of code: a parameter bound
again only under a test, a name read through an attribute, several places, a `try` body whose handler raises,
a message name bound several ways, an attribute stored in each branch, a `NamedTuple` field."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from errdex.pages import build_page
from errdex.pages.model import CheckedInput, Page
from errdex.store import Store
from tests.pages.conftest import Indexer, error_id_of

PACKAGE = {
    "vals/__init__.py": "",
    "vals/forms.py": """
        from typing import NamedTuple

        LIMIT = 1000


        def factory(limit=None, ceiling=None):
            if limit is None:
                limit = LIMIT
            if ceiling is None:
                ceiling = limit + LIMIT
            if limit > ceiling:
                raise ValueError("ceiling must be at least limit")
            return limit


        def normalize(a):
            a = list(a)
            if len(a) == 1:
                a = a[0]
            if not (a.ndim == 2):
                raise TypeError(f"bad shape {a.shape}")
            return a


        def split(workers, shards):
            if workers and workers > 1:
                if shards <= 1:
                    workers = 1
            if workers is None or workers == 1:
                result = None
                assert result is not None, "no result from split"
            return shards


        def merge(workers, shards):
            if workers and workers > 1:
                workers = shards
            if workers is None or workers == 1:
                result = None
                assert result is not None, "no result from split"
            return shards


        def join(others, parse):
            if others is None:
                return ""
            try:
                others = parse(others)
            except ValueError as err:
                raise ValueError(f"cannot join {others!r}") from err
            return others


        class Response:
            def check(self, code, reason):
                msg = ""
                if 400 <= code < 500:
                    msg = f"{code} Client Error: {reason}"
                elif 500 <= code < 600:
                    msg = f"{code} Server Error: {reason}"
                if msg:
                    raise OSError(msg)


        class Wrapper:
            def __init__(self, inner=None, func=None):
                self.inner = inner
                self.func = func

            def fit(self, y):
                if self.inner is not None:
                    self.inner_ = clone(self.inner)
                else:
                    self.inner_ = Default(self.func)
                if not self.inner_.ok(y):
                    raise RuntimeError("the inner transform does not invert")


        class State(NamedTuple):
            names: list
            order: tuple

            @property
            def positional(self):
                if self.order is None:
                    raise ValueError("the state is not positional")
                return self.order
    """,
}


class _Pages(NamedTuple):
    store: Store

    def page(self, template: str) -> Page:
        return build_page(self.store, error_id_of(self.store, "vals", template))


@pytest.fixture
def pages(indexed: Indexer) -> _Pages:
    return _Pages(indexed(PACKAGE, name="vals"))


def _input(page: Page, code: str) -> CheckedInput:
    return next(i for i in page["when_it_happens"]["inputs"] if i["code"] == code)


def _said(page: Page, code: str) -> str:
    found = _input(page, code)
    return " ".join(w["how"] for w in [*found["ways_in"], *found["bound"]])


def test_a_parameter_bound_again_only_under_a_test_is_not_shown_as_that_value(pages: _Pages) -> None:
    page = pages.page("ceiling must be at least limit")
    values = {v["name"]: v for v in page["what_it_means"]["values"]}
    assert values["limit"]["known"] is False
    assert values["limit"]["choice"] == (
        "`limit` is bound again by `limit = LIMIT` (line 8) when `limit is None`, and is otherwise the argument"
        " passed to `factory`: its value at the check is not resolved."
    )
    assert "limit" not in page["resolved"]


def test_a_name_read_through_an_attribute_is_said_rebound(pages: _Pages) -> None:
    meaning = pages.page("bad shape {}")["what_it_means"]
    assert [(r["name"], r["line"], r["when"]) for r in meaning["rebound"]] == [
        ("a", 17, None),
        ("a", 19, "len(a) == 1"),
    ]
    assert " `a` here is its value after line 17 (`a = list(a)`) or line 19" in meaning["summary"]


def test_a_page_for_several_places_says_the_rebinding_at_each(pages: _Pages) -> None:
    meaning = pages.page("no result from split")["what_it_means"]
    assert [(r["at"], r["line"]) for r in meaning["rebound"]] == [(31, 28), (40, 37)]
    assert (
        " At line 31, `workers` there is its value after line 28 (`workers = 1` when `shards <= 1` is true),"
        " not necessarily the argument as passed." in meaning["summary"]
    )


def test_the_assignment_a_handler_catches_from_did_not_bind(pages: _Pages) -> None:
    page = pages.page("cannot join {}")
    assert page["what_it_means"]["rebound"] == []
    assert "value after line" not in page["what_it_means"]["summary"]


def test_only_the_message_bindings_that_can_make_the_template_are_in_force(pages: _Pages) -> None:
    page = pages.page("{} Server Error: {}")
    said = _said(page, "msg")
    assert "Server Error" in said
    assert "Client Error" not in said
    assert "not resolved" not in said
    client = _said(pages.page("{} Client Error: {}"), "msg")
    assert "Client Error" in client and "Server Error" not in client


def test_each_store_of_an_attribute_in_the_checking_method_is_said(pages: _Pages) -> None:
    said = _said(pages.page("the inner transform does not invert"), "self.inner_")
    assert "`clone(self.inner)` (line 72) or `Default(self.func)` (line 74) in `self.inner_`" in said


def test_a_namedtuple_field_is_traced_to_its_constructor(pages: _Pages) -> None:
    page = pages.page("the state is not positional")
    found = _input(page, "self.order")
    assert [w["call"] for w in found["ways_in"]] == ["State(order=...)"]
    assert "`self.order` is the NamedTuple field `State.order` (line 81)" in found["ways_in"][0]["how"]
    assert "could not be traced" not in page["when_it_happens"]["summary"]
