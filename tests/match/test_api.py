"""The public API: `errdex.explain` and its result types, importable without loading the matcher."""

from __future__ import annotations

import subprocess
import sys

import pytest

import errdex
from errdex.match import Candidate, MatchResult, explain


def test_public_names() -> None:
    hooks = {"install", "uninstall", "fingerprint", "load_ipython_extension", "unload_ipython_extension"}
    assert set(errdex.__all__) == {"explain", "MatchResult", "Candidate"} | hooks
    for name, obj in (("explain", explain), ("MatchResult", MatchResult), ("Candidate", Candidate)):
        found = getattr(errdex, name)
        assert (found.__module__, found.__qualname__) == (obj.__module__, obj.__qualname__)
    with pytest.raises(AttributeError):
        errdex.nothing_here  # noqa: B018


def test_explain_is_the_function_and_the_pages_are_their_own_package() -> None:
    import errdex.pages.page  # noqa: F401
    from errdex.pages import build_page

    assert callable(errdex.explain) and errdex.explain.__name__ == "explain"
    assert errdex.pages.build_page is build_page


def test_import_is_cheap() -> None:
    code = "import errdex, sys; print(sorted(m for m in sys.modules if m.startswith('errdex')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['errdex']"


def test_limit_is_checked() -> None:
    from errdex.errors import InputError

    with pytest.raises(InputError):
        explain("ValueError: x", limit=0)
