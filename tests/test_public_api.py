"""The public API is stated once, in `errdex.__all__`: each name is the object of its home module, loaded lazily."""

from __future__ import annotations

import subprocess
import sys

import pytest

import errdex
from errdex.errors import ErrdexError
from errdex.hooks import before_send, fingerprint, install, load_ipython_extension, uninstall, unload_ipython_extension
from errdex.indexing import IndexResult, index
from errdex.match import Candidate, MatchResult, explain
from errdex.pages import Page, build_page
from errdex.store import Store

PUBLIC = {
    "explain": explain,
    "MatchResult": MatchResult,
    "Candidate": Candidate,
    "index": index,
    "IndexResult": IndexResult,
    "Store": Store,
    "build_page": build_page,
    "Page": Page,
    "ErrdexError": ErrdexError,
    "install": install,
    "uninstall": uninstall,
    "fingerprint": fingerprint,
    "before_send": before_send,
    "load_ipython_extension": load_ipython_extension,
    "unload_ipython_extension": unload_ipython_extension,
}


def test_all_names_the_public_api_and_nothing_else() -> None:
    assert errdex.__all__ == sorted(PUBLIC)
    for name, obj in PUBLIC.items():
        assert getattr(errdex, name) is obj, name
    assert set(PUBLIC) <= set(dir(errdex))
    with pytest.raises(AttributeError):
        errdex.nothing_here  # noqa: B018


def test_index_is_the_function_and_explain_the_matcher() -> None:
    assert callable(errdex.index) and errdex.index.__module__ == "errdex.indexing.pipeline"
    assert callable(errdex.explain) and errdex.explain.__module__ == "errdex.match.matcher"
    assert errdex.pages.build_page is errdex.build_page  # the pages are their own package


def test_star_import_gives_every_public_name() -> None:
    names: dict[str, object] = {}
    exec("from errdex import *", names)
    assert {n for n in names if not n.startswith("__")} == set(PUBLIC)


def test_import_is_cheap() -> None:
    code = "import errdex, sys; print(sorted(m for m in sys.modules if m.startswith('errdex')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['errdex']"
