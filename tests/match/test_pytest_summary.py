"""pytest's summary line names the test that failed, not the raise site: it must not count against the library's
error (xarray-p3 of benchmarks/pastes/ is such a paste)."""

from __future__ import annotations

from pathlib import Path

from errdex.indexing import index
from errdex.match import explain
from errdex.store import Store
from tests.backends import new_index
from tests.fixtures import write_tree

CODE = (
    "def expand(new, old):\n"
    "    if not set(old) <= set(new):\n"
    '        raise ValueError(f"new dimensions {new!r} must be a superset of existing dimensions {old!r}")\n'
)
PASTE = (
    "FAILED starfish/test/full_pipelines/api/test_merfish.py::test_merfish_pipeline_cropped_data - ValueError: "
    "new dimensions ('y', 'x') must be a superset of existing dimensions ('dim_0', 'dim_1')"
)


def test_the_failed_tests_path_does_not_count_against_the_librarys_error(tmp_path: Path, backend: str) -> None:
    folder = write_tree(
        tmp_path / "grids-1.0",
        {
            "pyproject.toml": '[project]\nname = "grids"\nversion = "1.0"\n',
            "grids/__init__.py": "",
            "grids/dims.py": CODE,
        },
    )
    with Store(new_index(backend, tmp_path, "grids.db")) as store:
        index(str(folder), store)
        best = explain(PASTE, store=store).best
    assert best is not None and (best.file, best.line) == ("grids/dims.py", 3) and best.confidence >= 0.9
