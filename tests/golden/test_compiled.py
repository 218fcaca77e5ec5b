"""Golden tests on real releases: errors raised by compiled code, found at the C, C++, Cython or Rust line that
wrote them, with their pages.

The releases are the compiled corpus's (benchmarks/compiled/releases.txt: each wheel with its sdist's compiled
sources), so this shares its index with tests/test_compiled_pastes.py. torch publishes no sdist: its example runs
where ERRDEX_TORCH_SOURCE names a folder or git checkout of its source (and is skipped elsewhere).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.real_pastes import COMPILED
from errdex.indexing.pipeline import index
from errdex.match import Candidate, explain
from errdex.pages.page import build_page
from errdex.store import Store
from tests.indexes import cached_index

pytestmark = pytest.mark.network

PYDANTIC = """\
Traceback (most recent call last):
  File "/app/main.py", line 12, in <module>
    Model(x="abc")
  File "/usr/lib/python3.12/site-packages/pydantic/main.py", line 214, in __init__
    validated_self = self.__pydantic_validator__.validate_python(data, self_instance=self)
pydantic_core._pydantic_core.ValidationError: 1 validation error for Model
x
  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='abc', \
input_type=str]
    For further information visit https://errors.pydantic.dev/2.10/v/int_parsing
"""


@pytest.fixture(scope="module")
def store(release_cache: Path) -> Iterator[Store]:
    with Store(cached_index(release_cache, "compiled", COMPILED.releases.read_text(encoding="utf-8"))) as opened:
        yield opened


def answer(store: Store, paste: str) -> Candidate:
    result = explain(paste, store=store, auto_index=False)
    assert result.best is not None and not result.abstain, paste
    return result.best


def test_numpy_reshape_is_found_in_shape_c_with_the_python_method_that_reaches_it(store: Store) -> None:
    got = answer(store, "ValueError: cannot reshape array of size 6 into shape (4,)")
    assert (got.package, got.version, got.file, got.line) == (
        "numpy",
        "2.1.3",
        "numpy/_core/src/multiarray/shape.c",
        447,
    )
    assert (got.function, got.exception, got.values) == ("raise_reshape_size_mismatch", "ValueError", ("6", "(4,)"))
    page = build_page(store, got.id, got.version, got.values, site=(got.file, got.line))
    assert page["snippet"]["language"] == "c" and "PyErr_Format" in page["snippet"]["text"]
    callers = [(c["function"], c["file"], c["when"]) for c in page["callers"]]
    assert (
        "_fix_unknown_dimension",
        "numpy/_core/src/multiarray/shape.c",
        ["!(i_unknown >= 0)", "s_original != s_known"],
    ) in callers
    entries = page["when_it_happens"]["entries"]
    assert entries[0]["function"] == "reshape" and entries[0]["kind"] == "binding"
    assert entries[0]["file"].startswith("numpy/_core/src/multiarray/methods.c:")


def test_pandas_tokenizer_message_is_raised_as_parser_error_by_the_cython_that_reads_it(store: Store) -> None:
    got = answer(store, "pandas.errors.ParserError: Error tokenizing data. C error: Expected 3 fields in line 5, saw 4")
    assert (got.package, got.file, got.line, got.function) == (
        "pandas",
        "pandas/_libs/src/parser/tokenizer.c",
        432,
        "end_line",
    )
    assert got.exception == "ParserError" and got.values == ("Error tokenizing data", "3", "5", "4")
    page = build_page(store, got.id, got.version, got.values, site=(got.file, got.line))
    assert page["template"] == "{}. C error: Expected {} fields in line {}, saw {}\n"
    assert "self->on_bad_lines == ERROR" in page["condition"]


def test_pydantic_core_error_type_messages_are_read_from_its_rust_table(store: Store) -> None:
    got = answer(store, PYDANTIC)
    assert (got.package, got.file, got.line, got.function) == (
        "pydantic_core",
        "src/errors/types.rs",
        519,
        "ErrorType::message_template_python",
    )
    page = build_page(store, got.id, got.version, got.values, site=(got.file, got.line))
    assert page["snippet"]["language"] == "rust"
    assert page["condition"] == "matches!(self, Self::IntParsing {..})"


def test_polars_column_not_found_is_its_rust_bail_with_the_python_class_it_becomes(store: Store) -> None:
    got = answer(store, 'polars.exceptions.ColumnNotFoundError: unable to find column "foo"; valid columns: ["a", "b"]')
    assert (got.package, got.file, got.line, got.function) == (
        "polars",
        "crates/polars-schema/src/schema.rs",
        279,
        "Schema::try_index_of",
    )
    assert got.exception == "polars.exceptions.ColumnNotFoundError" and got.values == ('"foo"', '["a", "b"]')


def test_opencv_assertion_is_found_at_its_cv_assert_in_resize(store: Store) -> None:
    got = answer(
        store,
        "cv2.error: OpenCV(4.10.0) /io/opencv/modules/imgproc/src/resize.cpp:4152: error: (-215:Assertion failed)"
        " !ssize.empty() in function 'resize'",
    )
    assert (got.package, got.file, got.line, got.function, got.exception) == (
        "opencv-python",
        "opencv/modules/imgproc/src/resize.cpp",
        4152,
        "cv::resize",
        "cv2.error",
    )
    page = build_page(store, got.id, got.version, got.values, site=(got.file, got.line))
    assert page["snippet"]["language"] == "cpp" and page["condition"] == "ssize.empty()"


@pytest.mark.skipif(not os.environ.get("ERRDEX_TORCH_SOURCE"), reason="ERRDEX_TORCH_SOURCE names no torch source")
def test_torch_device_check_is_found_at_its_torch_check(tmp_path: Path) -> None:
    with Store(tmp_path / "torch.db") as torch:
        index(os.environ["ERRDEX_TORCH_SOURCE"], torch, name="torch")
        got = answer(
            torch,
            "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0"
            " and cpu!",
        )
        assert got.file == "aten/src/ATen/TensorIterator.cpp" and got.function == "TensorIteratorBase::compute_types"
        assert got.exception == "RuntimeError" and got.values == ("cuda:0", "cpu")
