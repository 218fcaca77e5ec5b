"""Calls that cannot reach a check: what they pass makes the function leave first (an earlier `return`, an earlier
`raise`), or is of a type the check refuses (a display: `(x,)` is a tuple whatever `x` is), or is a name an `if`
around the call tests (`elif reset: f(reset=reset)` passes a true value)."""

from __future__ import annotations

from errdex.pages.model import Page
from tests.pages.conftest import Indexer, pages_of

FILES = {
    "lang/__init__.py": "",
    "lang/gen.py": """
        LANGS = ["en", "fr"]


        def generate(ids, lang=None, fast=False):
            if fast:
                return ids
            if lang is None:
                raise ValueError("You must give a lang")
            else:
                lang = lang.strip()
                if lang not in LANGS:
                    raise ValueError("lang not supported")
            return ids


        def leaves_lang_out(ids):
            return generate(ids)


        def passes_lang(ids, lang):
            return generate(ids, lang=lang)


        def goes_fast(ids):
            return generate(ids, lang="en", fast=True)


        def scan(ids, lang=None):
            for i in ids:
                if i:
                    return i
            if lang is None:
                raise ValueError("no lang to scan")
            else:
                lang = lang.strip()
                if lang not in LANGS:
                    raise ValueError("lang not scanned")


        def scans(ids):
            return scan(ids)


        def set_poly(wp):
            if wp == "*":
                return "all"
            elif isinstance(wp, (tuple, list)):
                return wp
            elif wp is not None:
                raise ValueError("Invalid setting for wp")
            return None


        def adds_tuple(sub):
            set_poly((sub,))


        def adds_list(subs):
            set_poly([s for s in subs])


        def adds_name(wp):
            set_poly(wp)


        def check_names(x, reset):
            if reset:
                x.names = None
                return
            if x.names is None and x.data:
                raise ValueError("names do not match")


        def check_input(x, reset, validate):
            if validate:
                pass
            elif reset:
                check_names(x, reset=reset)


        def check_again(x, reset):
            check_names(x, reset=reset)


        def weigh(n, w=None):
            if w is None:
                w = [1] * n
            else:
                w = list(w)
                if len(w) != n:
                    raise ValueError("weights do not match")
            return w


        def weighs_none(n):
            return weigh(n, None)


        def weighs(n, w):
            return weigh(n, w)


        import dataclasses


        @dataclasses.dataclass
        class Config:
            size: int = 0
            scale: dataclasses.InitVar[int | None] = None

            def __post_init__(self, scale):
                if scale is None:
                    raise ValueError("no scale")


        def configures():
            return Config(3)


        def resets(x, reset):
            if reset:
                reset = False
                check_names(x, reset=reset)
    """,
}


def _summary(page: Page) -> str:
    return page["when_it_happens"]["summary"]


def test_a_call_whose_defaults_take_an_earlier_raise_cannot_reach_the_check(indexed: Indexer) -> None:
    page = pages_of(indexed(FILES, name="lang"), "lang")
    summary = _summary(page("lang not supported"))
    assert (
        "`leaves_lang_out` calls it with values (the literals as written, the defaults of what is left out) with"
        " which `generate` raises `ValueError` at line 8 first: no way to this error." in summary
    )
    assert "`generate` is called from `passes_lang`;" in summary
    assert "`goes_fast` calls it with values that make the check false" in summary
    assert "leaves out" not in summary  # `lang` is bound again, but only after the raise its default takes
    # a `return` in a loop before the check may come first: what the call passes decides nothing
    scanned = _summary(page("lang not scanned"))
    assert "`scans` leaves out `lang`, which `scan` binds again before the check" in scanned
    assert "no way to this error" not in scanned


def test_a_display_passed_has_its_type_and_a_type_test_decides_it(indexed: Indexer) -> None:
    summary = _summary(pages_of(indexed(FILES, name="lang"), "lang")("Invalid setting for wp"))
    assert "`set_poly` is called from `adds_name`;" in summary
    assert (
        "`adds_tuple`, `adds_list` call it with values that make the check false (the literals as written, the type"
        " of a display, f-string or comparison passed, the defaults of what is left out): no way to this error."
        in summary
    )


def test_a_name_an_if_around_the_call_tests_is_true_there(indexed: Indexer) -> None:
    summary = _summary(pages_of(indexed(FILES, name="lang"), "lang")("names do not match"))
    assert "`check_names` is called from `check_again`, `resets`;" in summary  # no test; a name bound again
    assert "`check_input` calls it with values" in summary
    assert "a name an `if` around the call tests taken as true (or false) there" in summary


def test_a_constructor_call_passes_fields_not_the_parameters_of_post_init(indexed: Indexer) -> None:
    summary = _summary(pages_of(indexed(FILES, name="lang"), "lang")("no scale"))
    assert "no way to this error" not in summary  # `3` is `size`; `scale` keeps its field's default, None


def test_a_call_taking_the_branch_without_the_check_cannot_reach_it(indexed: Indexer) -> None:
    summary = _summary(pages_of(indexed(FILES, name="lang"), "lang")("weights do not match"))
    assert "`weigh` is called from `weighs`;" in summary
    assert (
        "`weighs_none` calls it with values (the literals as written, the defaults of what is left out) with which"
        " `weigh` takes a branch of the `if` at line 86 that does not hold the check: no way to this error." in summary
    )
