"""The calls and macros through which compiled code raises or warns into Python, by ecosystem, and the
Python class each raises. One table, read by the C/C++ and Rust walkers alike."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from errdex.model import Kind

# How a raiser's arguments make its message:
#   printf: a printf format and its arguments; literal: one string (or literals joined);
#   joined: every argument streamed together (c10's `str(...)`); cv_assert: OpenCV's assertion text;
#   torch_assert: c10's internal assertion text, the condition and where it failed before the arguments.
MessageForm = Literal["printf", "literal", "joined", "cv_assert", "cv_error", "cv_check", "torch_assert"]


@dataclass(frozen=True, slots=True)
class Raiser:
    """A call or macro that raises (or warns): where its class, message and condition are among its arguments."""

    name: str
    form: MessageForm
    message_arg: int  # where the message (or the format) is
    exception: str | None = None  # the Python class, when the raiser fixes it
    exception_arg: int | None = None  # else the argument naming it
    condition_arg: int | None = None  # the argument that raises when false (`TORCH_CHECK(cond, ...)`)
    kind: Kind = "error"
    unchecked: str | None = None  # the message written when a checking macro is given none, `{}` for its condition
    buffer_arg: int | None = None  # a message written into a buffer: the argument naming it (an error's, by its name)


_TORCH_UNCHECKED = (
    "Expected {} to be true, but got false.  (Could this error message be improved?  If so, please report an"
    " enhancement request to PyTorch.)"
)
_OPENCV = "cv2.error"


def _torch(name: str, exception: str, kind: Kind = "error", checks: bool = True) -> Raiser:
    if not checks:
        return Raiser(name, "joined", 0, exception, kind=kind)
    return Raiser(name, "joined", 1, exception, condition_arg=0, kind=kind, unchecked=_TORCH_UNCHECKED)


C_RAISERS: dict[str, Raiser] = {
    r.name: r
    for r in (
        # CPython's C API (also what Cython's generated code and numpy, pandas, scipy call)
        Raiser("PyErr_SetString", "literal", 1, exception_arg=0),
        Raiser("PyErr_Format", "printf", 1, exception_arg=0),
        Raiser("PyErr_FormatV", "printf", 1, exception_arg=0),
        Raiser("PyErr_WarnEx", "literal", 1, exception_arg=0, kind="warning"),
        Raiser("PyErr_WarnFormat", "printf", 2, exception_arg=0, kind="warning"),
        Raiser("PyErr_WarnExplicit", "literal", 1, exception_arg=0, kind="warning"),
        Raiser("PyErr_ResourceWarning", "printf", 2, "ResourceWarning", kind="warning"),
        # numpy's warning macros
        Raiser("DEPRECATE", "literal", 0, "DeprecationWarning", kind="warning"),
        Raiser("DEPRECATE_FUTUREWARNING", "literal", 0, "FutureWarning", kind="warning"),
        # torch's c10 and ATen
        _torch("TORCH_CHECK", "RuntimeError"),
        _torch("TORCH_CHECK_VALUE", "ValueError"),
        _torch("TORCH_CHECK_TYPE", "TypeError"),
        _torch("TORCH_CHECK_INDEX", "IndexError"),
        _torch("TORCH_CHECK_NOT_IMPLEMENTED", "NotImplementedError"),
        _torch("TORCH_CHECK_LINALG", "torch.linalg.LinAlgError"),
        _torch("TORCH_CHECK_ALWAYS_SHOW_CPP_STACKTRACE", "RuntimeError"),
        Raiser("TORCH_INTERNAL_ASSERT", "torch_assert", 1, "RuntimeError", condition_arg=0),
        _torch("AT_ERROR", "RuntimeError", checks=False),
        _torch("TORCH_WARN", "UserWarning", "warning", checks=False),
        _torch("TORCH_WARN_ONCE", "UserWarning", "warning", checks=False),
        _torch("TORCH_WARN_DEPRECATION", "DeprecationWarning", "warning", checks=False),
        # OpenCV's core
        Raiser("CV_Assert", "cv_assert", 0, _OPENCV, condition_arg=0),
        Raiser("CV_Error", "cv_error", 1, _OPENCV),
        Raiser("CV_Error_", "cv_error", 1, _OPENCV),
        *(Raiser(f"CV_Check{test}", "cv_check", 2, _OPENCV) for test in ("EQ", "NE", "LT", "LE", "GT", "GE")),
        *(Raiser(f"CV_Check{what}", "cv_check", 2, _OPENCV) for what in ("Type", "Depth", "Channels", "Flag")),
        # messages written into an error buffer that Python code raises later (pandas' CSV tokenizer)
        Raiser("snprintf", "printf", 2, buffer_arg=0),
        Raiser("sprintf", "printf", 1, buffer_arg=0),
        # pybind11
        Raiser("pybind11_fail", "literal", 0, "RuntimeError"),
    )
}

# What a C++ exception becomes in Python, by its class's last name: pybind11's and nanobind's translations
# (their own classes and std::'s), and c10's. A class not listed keeps its own name.
CPP_EXCEPTIONS = {
    "runtime_error": "RuntimeError",
    "exception": "RuntimeError",
    "logic_error": "RuntimeError",
    "invalid_argument": "ValueError",
    "domain_error": "ValueError",
    "length_error": "ValueError",
    "range_error": "ValueError",
    "out_of_range": "IndexError",
    "overflow_error": "OverflowError",
    "bad_alloc": "MemoryError",
    "value_error": "ValueError",
    "type_error": "TypeError",
    "index_error": "IndexError",
    "key_error": "KeyError",
    "attribute_error": "AttributeError",
    "buffer_error": "BufferError",
    "import_error": "ImportError",
    "stop_iteration": "StopIteration",
    "cast_error": "RuntimeError",
    "reference_cast_error": "RuntimeError",
    "next_overload": "TypeError",
    "Error": "RuntimeError",  # c10::Error
    "system_error": "RuntimeError",
    "ValueError": "ValueError",
    "TypeError": "TypeError",
    "IndexError": "IndexError",
    "NotImplementedError": "NotImplementedError",
}

# C++ classes thrown to hand Python the error already set (by a `PyErr_*` call before): no raise of their own.
RETHROWN = frozenset({"python_error", "error_already_set"})

# polars' error kinds (`polars_bail!(ColumnNotFound: ...)`) and the classes py-polars raises for them.
POLARS_KINDS = {
    "ColumnNotFound": "polars.exceptions.ColumnNotFoundError",
    "ComputeError": "polars.exceptions.ComputeError",
    "Duplicate": "polars.exceptions.DuplicateError",
    "InvalidOperation": "polars.exceptions.InvalidOperationError",
    "IO": "OSError",
    "NoData": "polars.exceptions.NoDataError",
    "OutOfBounds": "polars.exceptions.OutOfBoundsError",
    "SchemaFieldNotFound": "polars.exceptions.SchemaFieldNotFoundError",
    "SchemaMismatch": "polars.exceptions.SchemaError",
    "ShapeMismatch": "polars.exceptions.ShapeError",
    "SQLInterface": "polars.exceptions.SQLInterfaceError",
    "SQLSyntax": "polars.exceptions.SQLSyntaxError",
    "StringCacheMismatch": "polars.exceptions.StringCacheMismatchError",
    "StructFieldNotFound": "polars.exceptions.StructFieldNotFoundError",
}
POLARS_MACROS = ("polars_bail", "polars_ensure", "polars_err")


def python_exception(written: str) -> str:
    """The Python class a C or C++ expression naming an exception raises: `PyExc_ValueError` -> `ValueError`,
    `py::value_error` -> `ValueError`, `npy_static_pydata.AxisError` -> `AxisError`."""
    last = written.replace("->", ".").replace("::", ".").rsplit(".", 1)[-1].strip("&*() ")
    if last.startswith("PyExc_"):
        return last.removeprefix("PyExc_")
    return CPP_EXCEPTIONS.get(last, last)


def pyo3_exception(written: str) -> str:
    """The Python class of a PyO3 exception type: `PyValueError` -> `ValueError`, `exceptions::PyKeyError` ->
    `KeyError`; a type made by `create_exception!` keeps its name."""
    last = written.rsplit("::", 1)[-1]
    if last.startswith("Py") and last[2:3].isupper() and last.endswith(("Error", "Exception", "Warning", "Iteration")):
        return last[2:]
    return last
