"""Where a site is, what guards it, and what the names it uses resolve to — across a package."""

from __future__ import annotations

import textwrap

import pytest

from errdex.extract import analyse_file, link
from tests.extract.raw import texts

PACKAGE = {
    "shop/__init__.py": "from .errors import ShopError\n",
    "shop/constants.py": textwrap.dedent(
        """
        BASIC = ("apple", "pear")
        EXOTIC = ["mango"] + ["kiwi"]
        ALL_FRUIT = BASIC + tuple(EXOTIC)
        LIMITS = {"min": 1, "max": 10}
        """
    ),
    "shop/errors.py": textwrap.dedent(
        """
        class ShopError(Exception):
            pass

        class OutOfStock(ShopError, LookupError):
            def __init__(self, item):
                super().__init__(f"{item} is out of stock")
        """
    ),
    "shop/cart.py": textwrap.dedent(
        '''
        """Module docstring.
        This line starts at column 0 and must not confuse the fast path: raise Nothing
        """
        from . import constants
        from .constants import ALL_FRUIT, LIMITS
        from .errors import OutOfStock, ShopError

        LOCAL_KINDS = {"box", "bag"}


        class Cart:
            MODES = ("fast", "slow")

            def __init__(self, mode="fast", kind="box"):
                self.mode = mode
                self.kind = kind
                self.validate()

            @property
            def size(self):
                return 1

            def validate(self):
                if self.mode not in self.MODES:
                    raise ValueError(f"mode must be one of {self.MODES}, got {self.mode!r}")
                if self.kind not in LOCAL_KINDS:
                    raise ValueError(f"unknown kind {self.kind}")

            def add(self, item, count):
                allowed = ALL_FRUIT + ("nut",)
                if item not in allowed:
                    raise ShopError(f"{item} is not sold here; choose one of {allowed}")
                elif count > LIMITS["max"]:
                    raise ValueError("too many")
                if not isinstance(count, int) or count < 1:
                    raise TypeError("count must be a positive int")
                if item == "mango":
                    raise OutOfStock(item)
                if item in constants.BASIC:
                    raise LookupError("basic fruit is sold elsewhere")
                def later():
                    raise RuntimeError("inner")


        def top(x):
            """Docstring with a line at column 0:
        raise NotAnError
            """
            if x is None:
                raise ValueError("x is required")
        '''
    ),
}


def analyse_all(fast: bool = True) -> dict[str, dict]:
    return {path: analyse_file(path, text.encode(), fast=fast) for path, text in PACKAGE.items()}


@pytest.fixture(scope="module")
def sites() -> dict[str, object]:
    linked, _ = link(analyse_all(), lambda path: PACKAGE.get(path))
    return {s.template: s for s in linked}


def test_qualified_function_names(sites) -> None:
    assert sites["x is required"].function == "top"
    assert sites["too many"].function == "Cart.add"
    assert sites["inner"].function == "Cart.add.<locals>.later"


def test_guarding_conditions_in_order(sites) -> None:
    assert sites["too many"].condition == "not (item not in allowed) and count > LIMITS['max']"
    assert sites["count must be a positive int"].condition == "not isinstance(count, int) or count < 1"
    assert sites["x is required"].condition == "x is None"


def test_class_constants_resolve_through_self(sites) -> None:
    site = sites["mode must be one of {}, got {}"]
    assert site.resolved == {"self.MODES": ["fast", "slow"]}
    assert site.resolved_from == {"self.MODES": "shop/cart.py:13"}
    assert site.checks == ("mode",)


def test_module_set_resolves_sorted(sites) -> None:
    assert sites["unknown kind {}"].resolved == {"LOCAL_KINDS": ["bag", "box"]}


def test_local_built_from_imported_constants(sites) -> None:
    site = sites["{} is not sold here; choose one of {}"]
    assert site.resolved["allowed"] == ["apple", "pear", "mango", "kiwi", "nut"]
    assert site.exception == "ShopError"
    assert site.exception_bases == ("Exception",)


def test_attribute_of_an_imported_module(sites) -> None:
    site = sites["basic fruit is sold elsewhere"]
    assert site.resolved["constants.BASIC"] == ["apple", "pear"]
    assert site.resolved_from["constants.BASIC"] == "shop/constants.py:2"


def test_exception_bases_and_own_message_across_modules(sites) -> None:
    site = sites["{} is out of stock"]
    assert site.exception == "OutOfStock"
    assert site.exception_bases == ("ShopError", "LookupError", "Exception")


def test_docstring_lines_at_column_zero_are_not_statements(sites) -> None:
    assert "NotAnError" not in {s.exception for s in sites.values()}
    assert "Nothing" not in {s.exception for s in sites.values()}


def test_fast_path_equals_full_parse() -> None:
    assert analyse_all(fast=True) == analyse_all(fast=False)


def test_file_that_does_not_parse_is_a_skip_with_reason() -> None:
    result = analyse_file("pkg/py2.py", b"print 'hello'\nraise ValueError, 'old'\n")
    assert result.skip.startswith("does not parse")
    assert result.sites == ()


def test_deep_expression_is_analysed_or_skipped_never_a_crash() -> None:
    result = analyse_file("pkg/deep.py", b"raise ValueError(" + b"1+" * 100_000 + b"1)\n")
    assert result.skip in (None, "too deeply nested to analyse")


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"x = 1\x00\n", "contains NUL bytes"),
        (b"# -*- coding: latin-1 -*-\nraise ValueError('caf\xe9')\n", None),
        (b"\xff\xfe\x00garbage", "cannot be decoded"),
        (b"raise ValueError" + b"(" * 300 + b")" * 300 + b"\n", "too many nested parentheses"),
    ],
)
def test_hostile_files(data: bytes, reason: str | None) -> None:
    result = analyse_file("pkg/bad.py", data)
    if reason is None:
        assert result.skip is None
        assert texts(result.sites[0]) == ["café"]
    else:
        assert result.skip is not None and reason in result.skip
