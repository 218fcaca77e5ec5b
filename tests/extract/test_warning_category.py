"""The category of a warning: UserWarning only for the standard library's `warn` given none, else what is passed."""

from __future__ import annotations

import textwrap

import pytest

from errdex.extract import analyse_file, link
from errdex.model import Site

PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/util.py": textwrap.dedent(
        """
        import warnings


        class PkgWarning(RuntimeWarning):
            pass


        def _emit(message, category=None):
            warnings.warn(message, category, stacklevel=3)


        def warn(msg, code=None):
            _emit(msg, PkgWarning)
        """
    ),
    "pkg/use.py": textwrap.dedent(
        """
        import warnings
        import warnings as w
        from warnings import warn

        from pkg import util


        def connect(driver, code):
            if driver is None:
                util.warn("no driver name given")
            if driver == "old":
                util.warn("old driver", code)
            if driver == "odd":
                util.warn("odd driver", category=util.PkgWarning)
            if driver == "plain":
                warnings.warn("plain driver")
            if driver == "alias":
                w.warn("aliased driver", DeprecationWarning)
            if driver == "bare":
                warn("bare driver")
        """
    ),
}


@pytest.fixture(scope="module", params=[True, False], ids=["fast", "full"])
def sites(request: pytest.FixtureRequest) -> dict[str, Site]:
    analyses = {path: analyse_file(path, text.encode(), fast=request.param) for path, text in PACKAGE.items()}
    linked, _ = link(analyses, lambda path: PACKAGE.get(path))
    return {s.template: s for s in linked if s.template}


@pytest.mark.parametrize(
    ("template", "category"),
    [
        ("no driver name given", None),  # the package's helper chooses it (PkgWarning here): not UserWarning
        ("old driver", None),  # a second argument that names no warning class is no category
        ("odd driver", "util.PkgWarning"),  # a `category=` the call gives
        ("plain driver", "UserWarning"),  # the standard library's `warn` given no category
        ("aliased driver", "DeprecationWarning"),
        ("bare driver", "UserWarning"),  # `from warnings import warn`
    ],
)
def test_the_category_is_userwarning_only_when_python_makes_it_so(
    sites: dict[str, Site], template: str, category: str | None
) -> None:
    site = sites[template]
    assert (site.kind, site.file, site.exception) == ("warning", "pkg/use.py", category)
