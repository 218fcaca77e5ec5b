"""Checks of where the code runs (interpreter flags, Python version, platform, variables, installed packages,
module flags) are explained as conditions of the environment, never as "make sure that X is ..." advice."""

from __future__ import annotations

import ast
from typing import Any

import pytest

from errdex.pages.environment import kind_of, phrase
from tests.pages.conftest import Indexer, pages_of, said

PROBES = """
    import importlib.util


    def is_torch_available():
        return importlib.util.find_spec("torch") is not None


    def is_torchdynamo_compiling():
        return False


    def is_kernels_available():
        spec = importlib.util.find_spec("kernels")
        return spec is not None and kernels_version() < (0, 17)
"""
SETUP = """
    import os
    import sys
    import warnings

    from .probes import is_kernels_available, is_torch_available, is_torchdynamo_compiling

    WIN = sys.platform.startswith("win")


    def configure(option, strict=False):
        if __debug__:
            warnings.warn(f"option {option} is checked in debug runs only")
        if __debug__ and option in ("a", "b"):
            raise ValueError(f"option {option} is reserved")
        if sys.version_info < (3, 9):
            raise RuntimeError("configure needs Python 3.9 or newer")
        if not is_torch_available():
            raise ImportError("configure needs torch")
        if option == "fd" and sys.platform == "win32":
            raise ValueError("fd capture is not supported on Windows")
        if os.environ.get("ENVPKG_STRICT") == "1" and strict:
            raise ValueError(f"strict {option} is refused when ENVPKG_STRICT is set")
        if not WIN and option == "eof":
            raise EOFError("eof only exists on Windows")
        if is_torchdynamo_compiling() and option:
            raise RuntimeError("cannot configure while compiling")
        if not is_kernels_available():
            raise ImportError("configure needs a compatible kernels")
"""
ENVIRONMENT_CODE = ("__debug__", "sys.", "os.environ", "WIN", "is_torch", "is_kernels", "ENVPKG_STRICT")


@pytest.fixture
def page_of(indexed: Indexer) -> Any:
    return pages_of(
        indexed({"envpkg/__init__.py": "", "envpkg/probes.py": PROBES, "envpkg/setup.py": SETUP}, name="envpkg"),
        "envpkg",
    )


def advice(page: dict[str, Any]) -> list[str]:
    """What the page says about the inputs: the negated clauses that test no environment (never a solution)."""
    return [c["negated"] for c in page["what_it_means"]["clauses"] if c["kind"] != "environment"]


def kinds(page: dict[str, Any]) -> list[str]:
    return [s["kind"] for s in page["solutions"]]


def assert_no_environment_in_inputs_or_advice(page: dict[str, Any]) -> None:
    assert not any(word in text for text in advice(page) for word in ENVIRONMENT_CODE), advice(page)
    assert not any(word in i["code"] for i in page["when_it_happens"]["inputs"] for word in ENVIRONMENT_CODE)
    assert not page["triggers"]  # the environment is unknown, so nothing certainly raises


def test_debug_only_warning_is_an_interpreter_condition_with_no_advice(page_of: Any) -> None:
    page = page_of("option {} is checked in debug runs only")
    assert (
        page["what_it_means"]["summary"]
        == "`configure` warns (UserWarning) when Python runs without `-O` (the default)."
    )
    assert page["what_it_means"]["clauses"][0]["kind"] == "environment"
    assert page["what_it_means"]["environment"] == [
        {"code": "__debug__", "text": "Python runs without `-O` (the default)", "kind": "interpreter"}
    ]
    assert kinds(page) == ["statement_advice"]  # no "make sure that `__debug__` is empty", no "run with -O"
    assert_no_environment_in_inputs_or_advice(page)


def test_debug_and_an_input_advises_on_the_input_only(page_of: Any) -> None:
    page = page_of("option {} is reserved")
    assert advice(page) == ["`option` is not one of `('a', 'b')`"]
    assert "environment" not in kinds(page)
    assert [i["code"] for i in page["when_it_happens"]["inputs"]] == ["option"]
    assert_no_environment_in_inputs_or_advice(page)


def test_python_version(page_of: Any) -> None:
    page = page_of("configure needs Python 3.9 or newer")
    assert page["what_it_means"]["summary"].startswith(
        "`configure` raises RuntimeError when running on Python older than 3.9,"
        " once the `raise` statements before it in this function do not fire (line 13)"
    )
    (where,) = [s for s in page["solutions"] if s["kind"] == "environment"]
    assert where["text"] == (
        "This check depends on where the code runs: it fires only when running on Python older than 3.9,"
        " and not when running on Python 3.9 or newer."
    )
    assert page["when_it_happens"]["inputs"] == []
    assert_no_environment_in_inputs_or_advice(page)


def test_missing_package_probe(page_of: Any) -> None:
    page = page_of("configure needs torch")
    assert said(
        page["what_it_means"]["summary"],
        "raises ImportError when `is_torch_available()` returns false (it asks about the installed packages)",
    )
    assert kinds(page) == ["environment"]  # no `pip install torch`: a probe's name is no distribution's
    assert_no_environment_in_inputs_or_advice(page)


def test_platform_and_an_input(page_of: Any) -> None:
    page = page_of("fd capture is not supported on Windows")
    assert said(
        page["what_it_means"]["summary"], "when `option` equals 'fd' and running where `sys.platform` equals 'win32'"
    )
    assert [c["kind"] for c in page["what_it_means"]["clauses"]] == ["comparison", "environment"]
    assert advice(page) == ["`option` does not equal 'fd'"]
    assert_no_environment_in_inputs_or_advice(page)


def test_environment_variable(page_of: Any) -> None:
    page = page_of("strict {} is refused when ENVPKG_STRICT is set")
    assert "the environment variable `ENVPKG_STRICT` equals '1'" in page["what_it_means"]["summary"]
    assert advice(page) == ["`strict` is empty, zero, False or None"]
    assert_no_environment_in_inputs_or_advice(page)


def test_a_module_flag_no_user_sets(page_of: Any) -> None:
    page = page_of("eof only exists on Windows")
    assert (
        "`WIN` is false (a value the module sets when it is imported, not an input)" in page["what_it_means"]["summary"]
    )
    assert page["what_it_means"]["environment"][0]["kind"] == "module"
    assert advice(page) == ["`option` does not equal 'eof'"]
    assert "environment" not in kinds(page)  # nothing a user can do about a module's own flag
    assert_no_environment_in_inputs_or_advice(page)


def test_an_imported_probe_of_the_process(page_of: Any) -> None:
    page = page_of("cannot configure while compiling")
    assert page["what_it_means"]["environment"][0]["kind"] == "probe"
    assert advice(page) == ["`option` is empty, zero, False or None"]
    assert_no_environment_in_inputs_or_advice(page)


@pytest.mark.parametrize(
    ("code", "kind", "true", "false"),
    [
        (
            "TYPE_CHECKING",
            "interpreter",
            "a static type checker reads the code (never when it runs)",
            "the code runs (always: `TYPE_CHECKING` is true only for a type checker)",
        ),
        (
            "t.TYPE_CHECKING",
            "interpreter",
            "a static type checker reads the code (never when it runs)",
            "the code runs (always: `TYPE_CHECKING` is true only for a type checker)",
        ),
        (
            "sys.version_info[:2] >= (3, 10)",
            "version",
            "running on Python 3.10 or newer",
            "running on Python older than 3.10",
        ),
        ("(3, 8) > sys.version_info", "version", "running on Python older than 3.8", "running on Python 3.8 or newer"),
        (
            "'HOME' in os.environ",
            "variable",
            "the environment variable `HOME` is set",
            "the environment variable `HOME` is not set",
        ),
        (
            "os.getenv('X')",
            "variable",
            "the environment variable `X` is set (not empty)",
            "the environment variable `X` is unset or empty",
        ),
        ("torch.cuda.is_available()", "installed", "`torch.cuda` is available", "`torch.cuda` is not available"),
        ("find_spec('numpy')", "installed", "`numpy` is installed", "`numpy` is not installed"),
        (  # the probe may test a version range too: only its result is said
            "is_kernels_available()",
            "installed",
            "`is_kernels_available()` returns true (it asks about the installed packages)",
            "`is_kernels_available()` returns false (it asks about the installed packages)",
        ),
        (
            "platform.system() == 'Windows'",
            "platform",
            "running where `platform.system()` equals 'Windows'",
            "running where `platform.system()` does not equal 'Windows'",
        ),
    ],
)
def test_phrases(code: str, kind: str, true: str, false: str) -> None:
    node = ast.parse(code, mode="eval").body
    assert kind_of(node, frozenset()) == kind
    assert (phrase(node, False, frozenset()), phrase(node, True, frozenset())) == (true, false)


@pytest.mark.parametrize(
    "code",
    [
        "x in y",
        "is_valid(x)",
        "self.debug",
        "len(items) > LIMIT",
        "isinstance(x, np.ndarray)",
        "np.array_equal(classes, labels)",  # a function of an imported module, about its arguments
        "lib.is_np_dtype(dtype, 'm')",
    ],
)
def test_inputs_are_not_environment(code: str) -> None:
    assert kind_of(ast.parse(code, mode="eval").body, frozenset({"LIMIT", "np", "lib"})) is None


def test_a_method_of_a_module_value_with_literal_arguments_is_environment() -> None:
    assert kind_of(ast.parse("sys.platform.startswith('win')", mode="eval").body, frozenset({"sys"})) == "platform"


def test_a_probe_that_also_tests_a_version_is_not_said_as_not_installed(page_of: Any) -> None:
    """`is_kernels_available()` is false also with kernels installed at a version it rejects: neither the
    condition nor the advice may say "kernels is not installed"."""
    page = page_of("configure needs a compatible kernels")
    assert said(
        page["what_it_means"]["summary"],
        "when `is_kernels_available()` returns false (it asks about the installed packages)",
    )
    (where,) = [s for s in page["solutions"] if s["kind"] == "environment"]
    assert where["text"] == (
        "This check depends on where the code runs: it fires only when `is_kernels_available()` returns false"
        " (it asks about the installed packages), and not when `is_kernels_available()` returns true"
        " (it asks about the installed packages)."
    )
    assert "installed`" not in str(page) and "kernels` is not installed" not in str(page)
