"""Warnings the parser gives about a package's code (an invalid escape in its regex) are the package's
business: indexing and pages never pass them on to the user (Python 3.12+ shows them by default)."""

from __future__ import annotations

import warnings
from pathlib import Path

from errdex.indexing import index
from errdex.pages import build_page
from errdex.store import Store
from tests.fixtures import write_tree

FILES = {
    "pyproject.toml": '[project]\nname = "escapes"\nversion = "1.0"\n',
    "escapes/__init__.py": "",
    # an invalid escape in a module whose names another module imports: read again when linking
    "escapes/patterns.py": (
        "try:\n"
        "    import regex as re\n"
        "except ImportError:\n"
        '    import re\nDOT = re.compile("\\.")\n'
        "if DOT:\n"
        '    import re; SPLIT = re.compile("\\s+\\.")\n'
        'MODES = ("fast", "slow")\n'
    ),
    "escapes/run.py": (
        "from escapes.patterns import MODES\n\n\n"
        "def run(mode):\n"
        "    if mode not in MODES:\n"
        '        raise ValueError(f"unknown mode {mode!r}")\n'
    ),
}


def test_indexing_and_pages_pass_on_no_parser_warning(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "src", FILES)
    with Store(tmp_path / "index.db") as store, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        index(str(root), store)
        (found,) = [e for e in store.errors("escapes") if e.site.template == "unknown mode {}"]
        page = build_page(store, found.error_id)
    assert found.site.resolved == {"MODES": ["fast", "slow"]}
    assert page["id"] == found.error_id
    assert [str(w.message) for w in caught if issubclass(w.category, (SyntaxWarning, DeprecationWarning))] == []
