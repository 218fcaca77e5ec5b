"""The panel of an error raised by compiled code: no frame shows the C or Rust that raised it, so the site is
accepted when the innermost frame is a call made by its distribution, by one that requires it, or by the user's
own code; a `raise` in the user's code is never taken for it."""

from __future__ import annotations

import importlib.metadata
import sys
from pathlib import Path

import pytest

from errdex.indexing.pipeline import index
from errdex.store import Store
from tests.hooks.conftest import PANEL_TOP, environment, run_command

pytestmark = pytest.mark.network

VALIDATES = """
import errdex.hooks; errdex.hooks.install()
import pydantic

class Model(pydantic.BaseModel):
    x: int

Model(x="abc")
"""

RAISES_ITS_OWN = """
import errdex.hooks; errdex.hooks.install()
import pydantic_core  # (installed: its sites are indexed)
raise ValueError("Input should be a valid integer, unable to parse string as an integer")
"""


@pytest.fixture(scope="module")
def pydantic_core_index(tmp_path_factory: pytest.TempPathFactory, release_cache: Path) -> Path:
    """The installed pydantic-core release, indexed from the package index: its wheel and its sdist's Rust."""
    db = tmp_path_factory.mktemp("compiled-hooks") / "index.db"
    with Store(db) as store:
        index(f"pydantic-core=={importlib.metadata.version('pydantic-core')}", store, cache_dir=release_cache)
    return db


def test_a_validation_error_from_pydantic_core_s_rust_gets_its_panel(tmp_path: Path, pydantic_core_index: Path) -> None:
    (tmp_path / "prog.py").write_text(VALIDATES, encoding="utf-8")
    shown = run_command([sys.executable, "prog.py"], tmp_path, environment(pydantic_core_index))
    assert "ValidationError" in shown.stderr
    panel = shown.stderr[shown.stderr.index(PANEL_TOP) :]
    assert "src/errors/types.rs" in panel and "message_template_python" in panel


def test_the_user_s_own_raise_of_the_same_words_is_not_taken_for_the_rust_site(
    tmp_path: Path, pydantic_core_index: Path
) -> None:
    (tmp_path / "prog.py").write_text(RAISES_ITS_OWN, encoding="utf-8")
    shown = run_command([sys.executable, "prog.py"], tmp_path, environment(pydantic_core_index))
    assert PANEL_TOP not in shown.stderr
    assert "src/errors/types.rs, which this error did not run through, so it is not the answer" in " ".join(
        shown.stderr.split()
    )
