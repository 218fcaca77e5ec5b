"""An example fix never proposes an empty container for a type check: an empty list is falsy and often turns off
what the argument asks for (`if use_kwargs:` later); the trigger's value in a list keeps the intent."""

from __future__ import annotations

from errdex.pages import build_page
from tests.pages.conftest import Indexer, error_id_of

PACKAGE = {
    "lib/__init__.py": "",
    "lib/fingerprint.py": """
        def transform(inplace, use_kwargs=None, options=None):
            if use_kwargs is not None and not isinstance(use_kwargs, list):
                raise ValueError(f"use_kwargs is supposed to be a list, not {type(use_kwargs)}")
            if options is not None and not isinstance(options, dict):
                raise ValueError(f"options is supposed to be a dict, not {type(options)}")
            if use_kwargs:
                return [k for k in use_kwargs if k != inplace]
            return options
    """,
}


def test_a_list_check_is_fixed_with_the_value_in_a_list(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    page = build_page(store, error_id_of(store, "lib", "use_kwargs is supposed to be a list, not {}"))
    fix = page["example_fix"]
    assert fix is not None
    assert fix["value_before"] == "'text'" and fix["value_after"] == "['text']"
    assert "use_kwargs=[]" not in fix["after"]


def test_an_empty_dict_is_no_fix(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    page = build_page(store, error_id_of(store, "lib", "options is supposed to be a dict, not {}"))
    fix = page["example_fix"]
    assert fix is not None and fix["value_before"] == "'text'"
    assert fix["value_after"] == "None"  # not `{}`: no value of the trigger's fills a dict
