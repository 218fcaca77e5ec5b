"""A raise or warning whose class is a parameter of its function, or a function of its module: the page names the
argument or the function's return value, not a class."""

from __future__ import annotations

from rich.console import Console

from errdex.pages import build_page
from errdex.store import Store
from errdex.terminal import page_panel
from tests.pages.conftest import Indexer, error_id_of

PACKAGE = {
    "helpers/__init__.py": "",
    "helpers/util.py": """
        import warnings


        def warn_as(detail, category):
            warnings.warn(f"deprecated: {detail}", category)


        def fail_as(exc, detail):
            raise exc(f"failed: {detail}")


        def fail_default(detail, exc=KeyError):
            raise exc(f"missing: {detail}")


        class Overloaded(Exception):
            pass


        def _error_for(payload):
            return Overloaded(payload) if payload.get("busy") else ValueError(payload)


        def read(payload):
            if payload.get("error"):
                raise _error_for(f"server said: {payload}")
    """,
}


def _summary(indexed: Indexer, template: str) -> str:
    store: Store = indexed(PACKAGE, name="helpers")
    return build_page(store, error_id_of(store, "helpers", template))["what_it_means"]["summary"]


def test_a_category_parameter_is_what_the_caller_passes(indexed: Indexer) -> None:
    summary = _summary(indexed, "deprecated: {}")
    assert summary.startswith("`warn_as` warns (with the category its caller passes as `category`)")


def test_an_exception_class_parameter_is_what_the_caller_passes(indexed: Indexer) -> None:
    assert _summary(indexed, "failed: {}").startswith("`fail_as` raises the exception class its caller passes as `exc`")


def test_a_class_parameter_with_a_class_default_names_the_default(indexed: Indexer) -> None:
    assert _summary(indexed, "missing: {}").startswith("`fail_default` raises KeyError")


def test_the_header_names_the_argument_not_a_class(indexed: Indexer) -> None:
    store: Store = indexed(PACKAGE, name="helpers")
    page = build_page(store, error_id_of(store, "helpers", "deprecated: {}"))
    assert page["what_it_means"]["class_parameter"] == "category"
    console = Console(width=200, record=True)
    console.print(page_panel(page))
    assert "warning · the class passed as `category`" in console.export_text()


def test_a_function_of_the_module_raised_is_what_it_returns(indexed: Indexer) -> None:
    store: Store = indexed(PACKAGE, name="helpers")
    page = build_page(store, error_id_of(store, "helpers", "server said: {}"))
    assert page["what_it_means"]["class_returned_by"] == "_error_for"
    assert page["what_it_means"]["summary"].startswith(
        "`read` raises the exception that the function `_error_for` (in this module) returns when"
    )
    console = Console(width=200, record=True)
    console.print(page_panel(page))
    assert "error · what `_error_for(...)` returns" in console.export_text()
