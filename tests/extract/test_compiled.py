"""The raises of compiled sources: each ecosystem's raising calls and macros, the Python class each raises,
templates from printf, joined arguments and Rust format strings, and the checks that guard them."""

from __future__ import annotations

import textwrap

from errdex.extract import analyse_file, link
from errdex.extract.records import RawSite


def sites(path: str, source: str) -> list[RawSite]:
    analysis = analyse_file(path, textwrap.dedent(source).encode())
    assert analysis.skip is None, analysis.skip
    return list(analysis.sites)


def summary(site: RawSite) -> tuple[int, str, str | None, str | None, str]:
    return (site.line, site.kind, site.exception, site.templates[0].text if site.templates else None, site.function)


def test_cpython_c_api_with_printf_formats_and_the_if_that_guards_them() -> None:
    found = sites(
        "pkg/src/shape.c",
        r"""
        static int
        check_size(PyArrayObject *arr, npy_intp size, PyObject *shape)
        {
            if (PyArray_SIZE(arr) != size) {
                PyErr_Format(PyExc_ValueError,
                        "cannot fit array of size %zd into shape %S", PyArray_SIZE(arr), shape);
                return -1;
            }
            else {
                PyErr_SetString(PyExc_TypeError, "not " "joined\n");
            }
            PyErr_WarnEx(PyExc_DeprecationWarning, "old way", 1);
            snprintf(self->error_msg, 100, "Expected %" PRId64 " fields, saw %d", want, got);
            snprintf(path, 100, "%s/%s", a, b);
            return 0;
        }
        """,
    )
    assert [summary(s) for s in found] == [
        (6, "error", "ValueError", "cannot fit array of size {} into shape {}", "check_size"),
        (11, "error", "TypeError", "not joined\n", "check_size"),
        (13, "warning", "DeprecationWarning", "old way", "check_size"),
        (14, "error", None, "Expected {} fields, saw {}", "check_size"),  # an error buffer, raised later
    ]
    assert found[0].clauses == ("PyArray_SIZE(arr) != size",)
    assert found[0].templates[0].holes == (("PyArray_SIZE(arr)",), ("shape",))
    assert found[1].clauses == ("!(PyArray_SIZE(arr) != size)",)


def test_torch_checks_join_their_arguments_and_state_the_condition() -> None:
    found = sites(
        "aten/src/ATen/native/Devices.cpp",
        """
        namespace at::native {
        void check_same_device(const Tensor& a, const Tensor& b) {
          TORCH_CHECK(a.device() == b.device(),
              "Expected all tensors to be on the same device, but found at least two devices, ",
              a.device(), " and ", b.device(), "!");
          TORCH_CHECK_VALUE(a.dim() > 0);
          TORCH_WARN("slow path for ", a.dim(), " dims");
          if (a.is_cpu()) {
            TORCH_CHECK(false, "cpu is not supported");
          }
          TORCH_INTERNAL_ASSERT(a.defined(), "undefined tensor ", a.name());
        }
        }
        """,
    )
    assert [summary(s) for s in found] == [
        (
            4,
            "error",
            "RuntimeError",
            "Expected all tensors to be on the same device, but found at least two devices, {} and {}!",
            "check_same_device",
        ),
        (
            7,
            "error",
            "ValueError",
            "Expected a.dim() > 0 to be true, but got false.  (Could this error message be improved?  If so, please"
            " report an enhancement request to PyTorch.)",
            "check_same_device",
        ),
        (8, "warning", "UserWarning", "slow path for {} dims", "check_same_device"),
        (10, "error", "RuntimeError", "cpu is not supported", "check_same_device"),
        (
            12,
            "error",
            "RuntimeError",
            "a.defined(){}INTERNAL ASSERT FAILED at {}, please report a bug to PyTorch. undefined tensor {}",
            "check_same_device",
        ),
    ]
    assert found[0].clauses == ("!(a.device() == b.device())",)
    assert found[3].clauses == ("a.is_cpu()",)  # `TORCH_CHECK(false, ...)` is guarded by its `if` alone


def test_opencv_assertions_and_cpp_throws_map_to_their_python_classes() -> None:
    found = sites(
        "opencv/modules/imgproc/src/resize.cpp",
        """
        void cv::resize(InputArray _src, OutputArray _dst, Size dsize)
        {
            Size ssize = _src.size();
            CV_Assert( !ssize.empty() );
            CV_Error(Error::StsBadArg, "Unknown interpolation method");
        }
        struct Binder {
            void bind(int n) {
                if (n < 0)
                    throw py::value_error("negative: " + std::to_string(n));
                throw std::out_of_range(fmt::format("index {} out of range", n));
            }
        };
        """,
    )
    assert [summary(s) for s in found] == [
        (
            5,
            "error",
            "cv2.error",
            "{}error: (-215:Assertion failed) !ssize.empty() in function '{}resize'",
            "cv::resize",
        ),
        (6, "error", "cv2.error", "{}error: ({}) Unknown interpolation method in function '{}resize'", "cv::resize"),
        (11, "error", "ValueError", "negative: {}", "Binder::bind"),
        (12, "error", "IndexError", "index {} out of range", "Binder::bind"),
    ]
    assert found[2].clauses == ("n < 0",)


def test_rust_pyo3_polars_and_message_tables() -> None:
    found = sites(
        "crates/core/src/frame.rs",
        """
        impl DataFrame {
            fn column(&self, name: &str) -> PolarsResult<&Column> {
                polars_ensure!(self.width() > 0, ShapeMismatch: "frame has {} columns", self.width());
                polars_bail!(ColumnNotFound: "unable to find column {:?}; valid columns: {:?}", name, self.names())
            }
        }
        fn convert(v: i64) -> PyResult<u8> {
            if v > 255 {
                return Err(PyValueError::new_err(format!("{v} is too big for {{u8}}")));
            }
            Err(PyErr::new::<PyTypeError, _>("not a number"))
        }
        impl ErrorType {
            fn message_template(&self) -> &'static str {
                match self {
                    Self::IntParsing {..} => "Input should be a valid integer, unable to parse string as an integer",
                    Self::TooLong {..} => "{field_type} should have at most {max_length} items",
                }
            }
        }
        impl fmt::Display for TokenError {
            fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "Token {} is unknown", self.0)
            }
        }
        """,
    )
    assert [summary(s) for s in found] == [
        (4, "error", "polars.exceptions.ShapeError", "frame has {} columns", "DataFrame::column"),
        (
            5,
            "error",
            "polars.exceptions.ColumnNotFoundError",
            "unable to find column {}; valid columns: {}",
            "DataFrame::column",
        ),
        (24, "error", None, "Token {} is unknown", "TokenError::fmt"),
        (10, "error", "ValueError", "{} is too big for {u8}", "convert"),
        (12, "error", "TypeError", "not a number", "convert"),
        (
            17,
            "error",
            None,
            "Input should be a valid integer, unable to parse string as an integer",
            "ErrorType::message_template",
        ),
        (18, "error", None, "{} should have at most {} items", "ErrorType::message_template"),
    ]
    assert found[0].clauses == ("!(self.width() > 0)",)
    assert found[3].clauses == ("v > 255",)
    assert found[5].clauses == ("matches!(self, Self::IntParsing {..})",)


def test_cython_raises_and_warnings_with_their_function_and_tests() -> None:
    found = sites(
        "pkg/_libs/lib.pyx",
        """
        cdef class Reader:
            cdef int64_t n

            cpdef ndarray[object] read(self, int64_t rows):
                cdef:
                    Py_ssize_t i
                if rows < 0:
                    raise ValueError(
                        f"rows must be >= 0, got {rows}"
                    )
                warnings.warn("read is slow", FutureWarning)

        def fast_zip(list ndarrays) -> ndarray[object]:
            raise TypeError("all arrays must be "
                            "same length")
        """,
    )
    assert [summary(s) for s in found] == [
        (9, "error", "ValueError", "rows must be >= 0, got {}", "Reader.read"),
        (12, "warning", "FutureWarning", "read is slow", "Reader.read"),
        (15, "error", "TypeError", "all arrays must be same length", "fast_zip"),
    ]
    assert found[0].clauses == ("rows < 0",)
    assert found[0].end_line == 11


def test_code_generated_by_cython_and_files_naming_no_raiser_give_no_sites() -> None:
    generated = analyse_file("pkg/_libs/lib.c", b'/* Generated by Cython 3.0.11 */\nPyErr_SetString(a, "x");\n')
    assert generated.skip is not None and "generated by Cython" in generated.skip
    assert sites("pkg/src/util.c", "int add(int a, int b) { return a + b; }\n") == []


def test_rust_guards_read_from_let_else_match_arms_and_closures() -> None:
    found = sites(
        "crates/io/src/read.rs",
        """
        fn project(schema: &Schema, names: &[String], kind: Kind) -> PolarsResult<()> {
            for name in names {
                let Some(index) = schema.index_of(name) else {
                    polars_bail!(ColumnNotFound: "did not find column in file: {}", name)
                };
            }
            match kind {
                Kind::Csv if names.is_empty() => polars_bail!(NoData: "empty CSV"),
                _ => {}
            }
            let first = names.first().ok_or_else(|| polars_err!(ComputeError: "no names"))?;
            Ok(())
        }
        """,
    )
    assert [s.clauses for s in found] == [
        ("!matches!(schema.index_of(name), Some(index))",),
        ("matches!(kind, Kind::Csv if names.is_empty())",),
        ("matches!(names.first(), None)",),
    ]


def test_c_switch_cases_guard_what_they_hold() -> None:
    found = sites(
        "pkg/src/conv.c",
        """
        static int conv(int kind) {
            switch (kind) {
                case KIND_DATE:
                    PyErr_SetString(PyExc_ValueError, "dates are not supported");
                    return -1;
                default:
                    return 0;
            }
        }
        """,
    )
    assert [s.clauses for s in found] == [("kind == KIND_DATE",)]


def test_a_cpp_throw_that_hands_python_the_error_already_set_is_no_site_of_its_own() -> None:
    found = sites(
        "torch/csrc/utils/args.cpp",
        """
        void parse(PyObject* args) {
          if (!PyTuple_Check(args)) {
            PyErr_SetString(PyExc_TypeError, "expected a tuple");
            throw python_error();
          }
          if (PyErr_Occurred()) throw py::error_already_set();
        }
        """,
    )
    assert [summary(s) for s in found] == [(4, "error", "TypeError", "expected a tuple", "parse")]


def test_a_c_helper_that_passes_its_message_on_makes_each_literal_its_callers_give_a_site() -> None:
    found = sites(
        "pkg/src/decode.c",
        r"""
        static JSOBJ SetError(struct DecoderState *ds, int offset, const char *message) {
            ds->dec->errorStr = (char *)message;
            return NULL;
        }
        static void fail(const char *why) { PyErr_SetString(PyExc_ValueError, why); }
        JSOBJ decode(struct DecoderState *ds) {
            if (ds->start == ds->end) {
                return SetError(ds, -1, "Trailing data");
            }
            fail("Unexpected " "character");
            return NULL;
        }
        """,
    )
    assert [summary(s) for s in found] == [
        (6, "error", "ValueError", None, "fail"),  # the helper's own raise: its message is its caller's
        (9, "error", None, "Trailing data", "decode"),
        (11, "error", "ValueError", "Unexpected character", "decode"),
    ]
    assert found[1].clauses == ("ds->start == ds->end",)


def test_a_rust_line_continuation_skips_the_next_line_s_indent() -> None:
    found = sites(
        "crates/io/src/parse.rs",
        """
        fn parse(v: &str) -> PolarsResult<()> {
            polars_bail!(ComputeError: "could not parse `{}`\\n\\
                the offset is {} bytes", v, 3)
        }
        """,
    )
    assert [s.templates[0].text for s in found] == ["could not parse `{}`\nthe offset is {} bytes"]


def test_a_cython_raise_shows_the_message_its_function_builds_in_a_local() -> None:
    found = sites(
        "pkg/_libs/parsers.pyx",
        """
        cdef raise_parser_error(object base, parser_t *parser):
            cdef:
                object old_exc
            message = f"{base}. C error: "
            if parser.error_msg != NULL:
                message += parser.error_msg.decode("utf-8")
            else:
                message += "no error message set"
            raise ParserError(message)
        """,
    )
    assert [(t.text, t.holes) for t in found[0].templates] == [
        ("{}. C error: {}", (("base",), ("parser.error_msg.decode('utf-8')",))),
        ("{}. C error: no error message set", (("base",),)),
    ]


def test_a_message_compiled_code_writes_into_an_error_field_is_raised_as_the_code_reading_it_shows_it() -> None:
    files = {
        "pkg/src/tokenizer.c": r"""
            int end_line(parser_t *self) {
                if (fields > ex_fields) {
                    snprintf(self->error_msg, 100, "Expected %d fields in line %d, saw %d\n", ex, line, fields);
                    return -1;
                }
                return 0;
            }
            """,
        "pkg/parsers.pyx": """
            cdef raise_parser_error(object base, parser_t *parser):
                message = f"{base}. C error: "
                message += parser.error_msg.decode("utf-8")
                raise ParserError(message)
            """,
    }
    analyses = {path: analyse_file(path, textwrap.dedent(source).encode()) for path, source in files.items()}
    linked, _ = link(analyses, lambda path: None)
    written = next(s for s in linked if s.file == "pkg/src/tokenizer.c")
    assert (written.exception, written.template) == (
        "ParserError",
        "{}. C error: Expected {} fields in line {}, saw {}\n",
    )
    assert written.holes == (("base",), ("ex",), ("line",), ("fields",))


def test_guards_from_the_build_configuration_earlier_match_arms_and_multi_line_cython_headers() -> None:
    built = sites(
        "opencv/modules/highgui/src/window.cpp",
        """
        void cv::displayStatusBar(const String& text, int delayms)
        {
        #ifndef HAVE_QT
            CV_Error(cv::Error::StsNotImplemented, "The library is compiled without QT support");
        #else
            if (delayms /* in ms */ < 0)
                CV_Error(cv::Error::StsBadArg, "negative delay");
        #endif
        }
        """,
    )
    assert [s.clauses for s in built] == [("!defined(HAVE_QT)",), ("defined(HAVE_QT)", "delayms < 0")]
    arms = sites(
        "crates/core/src/frame.rs",
        """
        fn check(len: usize, height: usize) -> PolarsResult<()> {
            match len {
                l if l == height => Ok(()),
                0 => polars_bail!(NoData: "empty"),
                other => polars_bail!(ShapeMismatch: "length {} differs from {}", other, height),
            }
        }
        """,
    )
    assert [s.clauses for s in arms] == [
        ("!matches!(len, l if l == height) && matches!(len, 0)",),
        ("!matches!(len, l if l == height) && !matches!(len, 0)",),
    ]
    cython = sites(
        "pkg/_libs/interval.pyx",
        """
        cdef class Interval:
            def _validate_endpoint(self, endpoint):
                if not (is_integer_object(endpoint) or
                        is_float_object(endpoint)):
                    raise ValueError("Only numeric endpoints are allowed")

            def readline(self):
                if self.kind == 1:
                    pass
                elif self.kind in (2, 3):
                    pass
                else:
                    raise ValueError(f"unknown page type: {self.kind}")
        """,
    )
    assert [s.clauses for s in cython] == [
        ("not (is_integer_object(endpoint) or is_float_object(endpoint))",),
        ("not (self.kind == 1)", "not (self.kind in (2, 3))"),
    ]


def test_a_function_compiled_only_in_some_builds_says_which_and_its_string_constants_are_its_words() -> None:
    found = sites(
        "opencv/modules/highgui/src/window.cpp",
        """
        #define HINT "rebuild the library"
        #ifdef HAVE_QT
        void cv::displayOverlay(const String& text) { show(text); }
        #else
        static const char* NO_QT_ERR_MSG = "The library is compiled without QT support";
        void cv::displayOverlay(const String&)
        {
            CV_Error(cv::Error::StsNotImplemented, NO_QT_ERR_MSG);
            CV_Error(cv::Error::StsNotImplemented, HINT);
        }
        #endif
        """,
    )
    assert [(s.clauses, s.templates[0].text) for s in found] == [
        (
            ("!defined(HAVE_QT)",),
            "{}error: ({}) The library is compiled without QT support in function '{}displayOverlay'",
        ),
        (("!defined(HAVE_QT)",), "{}error: ({}) rebuild the library in function '{}displayOverlay'"),
    ]


def test_a_package_s_own_cpp_exception_class_raises_what_its_base_becomes_in_python() -> None:
    files = {
        "torch/csrc/jit/tensorexpr/exceptions.h": """
            namespace torch::jit::tensorexpr {
            class unsupported_dtype : public std::runtime_error {
             public:
              explicit unsupported_dtype(const std::string& err) : std::runtime_error("UNSUPPORTED DTYPE: " + err) {}
            };
            class unsupported_dtype_in_loop : public unsupported_dtype {};
            }
            """,
        "torch/csrc/jit/tensorexpr/eval.cpp": """
            void check(int dtype) {
              if (dtype < 0) throw unsupported_dtype_in_loop("negative dtype");
              throw my_own_thing("not derived from anything known");
            }
            """,
    }
    analyses = {path: analyse_file(path, textwrap.dedent(source).encode()) for path, source in files.items()}
    linked, _ = link(analyses, lambda path: None)
    assert [(s.exception, s.template) for s in linked if s.file.endswith("eval.cpp")] == [
        ("RuntimeError", "negative dtype"),
        ("my_own_thing", "not derived from anything known"),
    ]
