"""Pages of checks against names bound under conditions: each value said with when it holds, compared across
releases only on the same basis."""

from __future__ import annotations

from errdex.pages import build_page
from tests.pages.conftest import Indexer, error_id_of

TEMPLATE = "bad mode {}, one of {}"
CHECK = """
def run(mode):
    if mode not in MODES:
        raise ValueError(f"bad mode {mode}, one of {MODES}")
"""


def test_the_value_with_the_dependency_installed_is_used_and_said(indexed: Indexer) -> None:
    store = indexed(
        {"pkg/__init__.py": "", "pkg/run.py": "MODES = []\nif is_torch_available():\n    MODES = ['a', 'b']\n" + CHECK}
    )
    page = build_page(store, error_id_of(store, "pkg", TEMPLATE))
    (value,) = page["what_it_means"]["values"]
    assert value["value"] == ["a", "b"] and value["known"]
    assert value["choice"] == (
        "`MODES` depends on how the package is used: when `is_torch_available()` returns true: `['a', 'b']`;"
        " otherwise: `[]`. This page uses the value when `is_torch_available()` returns true, the package's"
        " normal import path."
    )
    assert page["solutions"][0]["values"] == ["a", "b"]
    assert "when `is_torch_available()` returns true" in page["solutions"][0]["text"]
    assert "installed" not in page["solutions"][0]["text"]  # the probe may test a version too


def test_a_value_that_cannot_be_chosen_is_not_resolved_never_empty(indexed: Indexer) -> None:
    code = "import sys\nMODES = []\nif sys.platform == 'win32':\n    MODES = ['nt']\n" + CHECK
    store = indexed({"pkg/__init__.py": "", "pkg/run.py": code})
    page = build_page(store, error_id_of(store, "pkg", TEMPLATE))
    (value,) = page["what_it_means"]["values"]
    assert not value["known"] and value["value"] is None
    assert [(a["when"], a["value"]) for a in value["alternatives"]] == [
        ("when `sys.platform == 'win32'`", ["nt"]),
        ("when not `sys.platform == 'win32'`", []),
    ]
    assert "does not take one of them" in (value["choice"] or "")
    assert page["what_it_means"]["lists"] == [] and all(s["kind"] != "use_allowed_value" for s in page["solutions"])


def test_values_are_compared_across_releases_only_on_the_same_basis(indexed: Indexer) -> None:
    conditional = "MODES = []\nif is_torch_available():\n    MODES = ['a', 'b']\n" + CHECK
    indexed({"pkg/__init__.py": "", "pkg/run.py": conditional}, version="1.0")
    indexed({"pkg/__init__.py": "", "pkg/run.py": conditional.replace("'b'", "'b', 'c'")}, version="1.1")
    store = indexed({"pkg/__init__.py": "", "pkg/run.py": "MODES = ['a', 'b', 'c', 'd']\n" + CHECK}, version="2.0")
    page = build_page(store, error_id_of(store, "pkg", TEMPLATE, "2.0"))
    changes = [(c["from_version"], c["to_version"], c["added"]) for c in page["versions"]["value_changes"]]
    assert changes == [("1.0", "1.1", ["c"])]  # 1.1 -> 2.0: one holds with torch installed, the other always
