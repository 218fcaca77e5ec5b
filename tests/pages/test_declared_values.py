"""What the code declares an input takes, as triggers and fixes: an example fix for a value outside a list leaves
the keyword to what the call gives it when left out, when that is written as one literal and makes the check false
(never a default the code does not write as one); an annotated type gives a trigger a value of that type."""

from __future__ import annotations

from errdex.pages import build_page
from errdex.store import Store
from tests.pages.conftest import Indexer, error_id_of

PACKAGE = {
    "lib/__init__.py": "from lib.plot import Brush, Plot, draw\n",
    "lib/plot.py": """
        STYLES = ("solid", "dashed")
        KINDS = ("line", "bar")


        def draw(style="solid"):
            if style not in STYLES:
                raise ValueError(f"unknown style {style}")


        class Plot:
            def __init__(self, **kwargs):
                self.kind = kwargs.pop("kind", None)
                self.check()

            def check(self):
                if self.kind is not None and self.kind not in KINDS:
                    raise ValueError(f"unknown kind {self.kind}")


        def paint(color=STYLES[0]):
            if color not in KINDS:
                raise ValueError(f"unknown color {color}")


        def skip(defaults: bool | None = None):
            if defaults is not None:
                raise DeprecationWarning("defaults is deprecated")


        def pick(*names, strict: bool | None = None):
            if not names:
                raise ValueError("no names")
            if strict is not None:
                raise ValueError("strict is gone")


        class Brush:
            def __init__(self, fine=False, **kwargs):
                if fine:
                    self.pattern = kwargs.pop("pattern", "dots")
                else:
                    self.pattern = kwargs.pop("pattern", "lines")
                self.check()

            def check(self):
                if self.pattern not in KINDS:
                    raise ValueError(f"unknown pattern {self.pattern}")
    """,
}


def _fix(store: Store, template: str) -> tuple[str, str, str] | None:
    """The page's example fix as (after, value_after, value_source)."""
    fix = build_page(store, error_id_of(store, "lib", template))["example_fix"]
    return None if fix is None else (fix["after"], fix["value_after"], fix["value_source"])


def test_a_parameter_default_that_passes_is_the_fix(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    assert _fix(store, "unknown style {}") == ("from lib import draw\n\ndraw(style='solid')", "'solid'", "default")


def test_a_keyword_popped_with_a_default_is_left_to_it(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    assert _fix(store, "unknown kind {}") == ("from lib import Plot\n\nPlot(kind=None)", "None", "default")


def test_no_default_when_it_is_no_literal_or_two_are_written(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    for template in ("unknown color {}", "unknown pattern {}"):
        page = build_page(store, error_id_of(store, "lib", template))
        ways = [w for i in page["when_it_happens"]["inputs"] for w in i["ways_in"]]
        assert ways and all(w["default"] is None for w in ways), template
        fix = page["example_fix"]
        assert fix is None or fix["value_source"] != "default", template


def test_an_annotated_type_gives_the_trigger_a_value(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    page = build_page(store, error_id_of(store, "lib", "defaults is deprecated"))
    assert page["triggers"][0]["code"] == "from lib.plot import skip\n\nskip(defaults=True)"
    assert _fix(store, "defaults is deprecated") == (
        "from lib.plot import skip\n\nskip(defaults=None)",
        "None",
        "default",
    )


def test_a_function_taking_positional_arguments_gets_them_in_the_snippet(indexed: Indexer) -> None:
    # `pick(strict=True)` would stop at `if not names` first: the snippet leaves a place for what the user passes
    store = indexed(PACKAGE, name="lib")
    page = build_page(store, error_id_of(store, "lib", "strict is gone"))
    assert page["triggers"][0]["code"] == "from lib.plot import pick\n\npick(..., strict=True)"
