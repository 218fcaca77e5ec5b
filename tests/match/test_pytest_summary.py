"""pytest's summary line names the test that failed, not the raise site: it must not count against the library's
error (xarray-p3 of benchmarks/pastes/ is such a paste)."""

from __future__ import annotations

from pathlib import Path

from errdex.match import explain
from errdex.store import Store
from tests.match.packages import module_index

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
    with Store(module_index(tmp_path, backend, "grids", "dims", CODE)) as store:
        best = explain(PASTE, store=store).best
    assert best is not None and (best.file, best.line) == ("grids/dims.py", 3) and best.confidence >= 0.9
