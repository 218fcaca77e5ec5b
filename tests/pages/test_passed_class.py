"""A raise or warning whose class is a parameter of its function, or a function of its module: the page names the
argument or the function's return value, not a class."""

from __future__ import annotations

from rich.console import Console

from errdex.pages import build_page
from errdex.pages.model import Page
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


        UNAVAILABLE = {"torch": ImportError("torch needs to be installed")}


        def load(kind):
            if kind in UNAVAILABLE:
                raise UNAVAILABLE[kind]


        def fail_kept(payload):
            err = _error_for(payload)
            raise err


        def fail_chosen(payload):
            cls = KeyError if payload else ValueError
            raise cls(f"chosen: {payload}")
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


def _page_in(indexed: Indexer, function: str) -> Page:
    store: Store = indexed(PACKAGE, name="helpers")
    found = next(e for e in store.errors("helpers", None) if e.site.function == function)
    return build_page(store, found.error_id)


def test_a_looked_up_exception_object_is_not_resolved_not_without_message(indexed: Indexer) -> None:
    page = _page_in(indexed, "load")
    assert page["what_it_means"]["class_held_by"] == "UNAVAILABLE[kind]"
    assert page["what_it_means"]["summary"].startswith(
        "`load` raises the exception object `UNAVAILABLE[kind]` (not resolved: its class and message are what"
    )
    console = Console(width=200, record=True)
    console.print(page_panel(page))
    text = console.export_text()
    assert "error · the exception object `UNAVAILABLE[kind]`" in text
    assert "class and message not resolved: the exception object `UNAVAILABLE[kind]` holds them" in text
    assert "no message argument" not in text


def test_a_local_holding_an_exception_object_is_that_object(indexed: Indexer) -> None:
    assert _page_in(indexed, "fail_kept")["what_it_means"]["class_held_by"] == "err"


def test_a_local_class_called_at_the_raise_is_no_held_object(indexed: Indexer) -> None:
    assert _page_in(indexed, "fail_chosen")["what_it_means"]["class_held_by"] is None


HELPER_PACKAGE = {
    "knobs/__init__.py": "",
    "knobs/_api.py": """
        ERRORS = {}


        def kwarg_error(name, kw):
            if not isinstance(kw, str):
                kw = next(iter(kw))
            return TypeError(f"{name}() got an unexpected keyword argument '{kw}'")


        def looked_up(code):
            return ERRORS[code]
    """,
    "knobs/locator.py": """
        from knobs import _api


        class Locator:
            def set_params(self, **kwargs):
                if "nbins" in kwargs:
                    self.nbins = kwargs.pop("nbins")
                if kwargs:
                    raise _api.kwarg_error("set_params", kwargs)


        def lookup(code):
            if code:
                raise _api.looked_up("lookup failed")


        def check_size(size, limit):
            def too_big(n):
                return ValueError(f"size {n} is too big")

            if size > limit:
                raise too_big(size)
    """,
}


def test_a_function_of_another_module_raised_is_its_return_class_and_message_not_its_first_argument(
    indexed: Indexer,
) -> None:
    """`raise _api.kwarg_error("set_params", kwargs)`: a TypeError whose message the function builds; "set_params" is
    only its argument. A function whose return is not resolved leaves the message unsaid, not its argument."""
    store: Store = indexed(HELPER_PACKAGE, name="knobs")
    page = build_page(store, error_id_of(store, "knobs", "set_params"))
    assert page["exception"] == "TypeError"
    assert page["template"] == "set_params() got an unexpected keyword argument '{}'"
    assert page["what_it_means"]["summary"].startswith(
        "`Locator.set_params` raises the exception that the function `_api.kwarg_error` (defined at"
        " knobs/_api.py:4) returns, a `TypeError` when"
    )
    console = Console(width=200, record=True)
    console.print(page_panel(page))
    assert "error · what `_api.kwarg_error(...)` returns: TypeError" in console.export_text()
    opaque = build_page(store, error_id_of(store, "knobs", "lookup failed"))
    assert opaque["template"] is None and opaque["exception"] == "_api.looked_up"
    assert opaque["reason"] == "message not resolved: it is what `_api.looked_up(...)` builds from its arguments"
    console = Console(width=200, record=True)
    console.print(page_panel(opaque))
    text = console.export_text()
    assert "error · what `_api.looked_up(...)` returns" in text and "(message not resolved: it is what" in text


def test_a_function_defined_in_the_raising_function_is_followed_too(indexed: Indexer) -> None:
    store: Store = indexed(HELPER_PACKAGE, name="knobs")
    found = next(e for e in store.errors("knobs", None) if e.site.function == "check_size")
    page = build_page(store, found.error_id)
    assert (page["exception"], page["template"]) == ("ValueError", "size {} is too big")
    assert page["what_it_means"]["class_returned_by"] == "too_big"
