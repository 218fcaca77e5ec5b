"""A parameter changed in place before the check (`kwargs.pop(...)`): the check reads what is left, not the argument."""

from __future__ import annotations

from errdex.pages import build_page
from tests.pages.conftest import Indexer, error_id_of

PACKAGE = {
    "lib/__init__.py": "",
    "lib/locator.py": """
        class Locator:
            def set_params(self, **kwargs):
                if "nbins" in kwargs:
                    self.nbins = kwargs.pop("nbins")
                if "steps" in kwargs:
                    self.steps = kwargs.pop("steps")
                if kwargs:
                    raise TypeError(f"unexpected keyword arguments {kwargs}")


        def plain(count):
            if count < 0:
                raise TypeError(f"negative count {count}")


        def drop(names):
            names.remove("self")
            if names == ["x"]:
                return None
            del names[0]
            if names:
                raise TypeError(f"left over: {names}")
    """,
}


def test_a_popped_kwargs_is_what_is_left_and_gives_no_trigger(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    page = build_page(store, error_id_of(store, "lib", "unexpected keyword arguments {}"))
    meaning = page["what_it_means"]
    assert meaning["changed"] == [{"name": "kwargs", "lines": [4, 6], "code": "kwargs.pop('nbins')", "at": 8}]
    assert meaning["summary"].endswith(
        " `kwargs` here is its value after the function changes it in place (lines 4, 6: `kwargs.pop('nbins')`,"
        " ...), not the argument as passed."
    )
    assert page["triggers"] == [] and page["example_fix"] is None  # set_params(nbins=5) does not raise


def test_other_changes_in_place_count_and_an_unchanged_parameter_keeps_its_trigger(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    dropped = build_page(store, error_id_of(store, "lib", "left over: {}"))["what_it_means"]
    assert dropped["changed"] == [{"name": "names", "lines": [17, 20], "code": "names.remove('self')", "at": 22}]
    plain = build_page(store, error_id_of(store, "lib", "negative count {}"))
    assert plain["what_it_means"]["changed"] == []
    assert "changes it in place" not in plain["what_it_means"]["summary"]
    assert plain["triggers"]


def test_a_parameter_bound_again_is_said_once(indexed: Indexer) -> None:
    """`fresh = list(fresh)` then `fresh.append(...)`: the rebinding already says the check sees another value."""
    store = indexed({**PACKAGE, "lib/again.py": REBOUND}, name="lib")
    meaning = build_page(store, error_id_of(store, "lib", "too many {}"))["what_it_means"]
    assert [r["name"] for r in meaning["rebound"]] == ["fresh"]
    assert meaning["changed"] == []


REBOUND = """
def extend(fresh):
    fresh = list(fresh)
    fresh.append(0)
    if len(fresh) > 3:
        raise ValueError(f"too many {fresh}")
"""


def test_an_item_set_on_self_does_not_change_an_attribute_the_check_reads(indexed: Indexer) -> None:
    """`self['Location'] = ...` changes the object's items; the check reads `self.allowed`, a class default nothing
    in the module assigns: it is what the check sees unless a subclass or an instance sets another."""
    files = {
        "web/__init__.py": "",
        "web/response.py": """
            class Redirect(dict):
                allowed = ["http", "https"]

                def __init__(self, to, scheme):
                    self["Location"] = to
                    if scheme and scheme not in self.allowed:
                        raise ValueError(f"unsafe scheme {scheme}")
        """,
    }
    store = indexed(files, name="web")
    meaning = build_page(store, error_id_of(store, "web", "unsafe scheme {}"))["what_it_means"]
    assert meaning["changed"] == [] and "changes it in place" not in meaning["summary"]
    (allowed,) = [v for v in meaning["values"] if v["name"] == "self.allowed"]
    assert allowed["choice"] == (
        "`allowed = ['http', 'https']` (line 2) is `Redirect`'s class default: the check sees it unless an instance"
        " or a subclass sets another (no code of the module assigns it)."
    )
