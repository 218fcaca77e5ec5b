"""Solutions by exception class: what to install for an ImportError, the advice table, a package's own classes."""

from __future__ import annotations

from errdex.pages import build_page
from errdex.pages.advice import ADVICE, advice_for, distributions
from tests.pages.conftest import Indexer, error_id_of

PACKAGE = {
    "lib/__init__.py": "",
    "lib/errors.py": """
        class LibError(KeyError):
            pass
    """,
    "lib/io.py": """
        import warnings

        from lib.errors import LibError


        def is_torch_available():
            return False


        def load_model(name):
            if not is_torch_available():
                raise ImportError("load_model needs PyTorch: pip install 'torch>=2.1'")
            if name.startswith("old-"):
                warnings.warn(f"{name} is deprecated", DeprecationWarning)


        def lookup(table, key):
            if key not in table:
                raise LibError(f"no entry {key!r}")
    """,
}


def test_import_error_says_what_to_install_from_the_code(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    page = build_page(store, error_id_of(store, "lib", "load_model needs PyTorch: pip install 'torch>=2.1'"))
    install = next(s for s in page["solutions"] if s["kind"] == "install")
    assert install["code"] == "python -m pip install torch>=2.1 torch"
    assert "`torch>=2.1` (named by `pip install` in the message)" in install["text"]
    assert "`torch` (tested by `is_torch_available()` in the condition)" in install["text"]
    assert page["solutions"][-1]["exception"] == "ImportError"
    assert page["what_it_means"]["summary"].endswith("when `torch` is not installed.")


def test_a_package_exception_gets_the_advice_of_its_builtin_base(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    page = build_page(store, error_id_of(store, "lib", "no entry {}"))
    assert page["exception_bases"] == ["KeyError"]
    assert page["solutions"][-1] == {
        "rank": len(page["solutions"]),
        "kind": "exception_advice",
        "text": ADVICE["KeyError"],
        "exception": "KeyError",
    }
    assert page["when_it_happens"]["inputs"][0]["kind"] == "parameter"
    assert page["triggers"] == [] and page["example_fix"] is None  # what `table` holds is unknown: nothing is certain


def test_warnings_are_explained_as_warnings(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    page = build_page(store, error_id_of(store, "lib", "{} is deprecated"))
    assert page["kind"] == "warning"
    assert page["what_it_means"]["summary"].startswith("`load_model` warns (DeprecationWarning) when")
    assert page["solutions"][-1]["exception"] == "DeprecationWarning"


def test_advice_table_and_distribution_names() -> None:
    assert advice_for("errors.ConfigError", ("ValueError",)) == ("ValueError", ADVICE["ValueError"])
    assert advice_for("ConfigError", ()) is None
    assert distributions("run `pip install -U accelerate` first", None) == [
        {"name": "accelerate", "source": "named by `pip install` in the message"},
    ]
    assert distributions("pip install {}", "not is_vision_available()") == [
        {"name": "vision", "source": "tested by `is_vision_available()` in the condition"},
    ]
