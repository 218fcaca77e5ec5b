"""Advice read from the statement that raises: never from the exception class alone."""

from __future__ import annotations

from errdex.hooks.panel import to_text
from errdex.model import NO_FIX
from errdex.pages import build_page
from errdex.pages.advice import distributions
from errdex.terminal import page_panel
from errdex.web.links import ServerLinks
from errdex.web.render import Renderer
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
            if name.startswith("odd-"):
                warnings.warn(f"{name} is odd", LibWarning)


        class LibWarning(UserWarning):
            pass


        def lookup(table, key):
            if key not in table:
                raise LibError(f"no entry {key!r}")


        def checked(size):
            assert size > 0, f"size must be positive, not {size}"
            if size > 10:
                raise AssertionError(f"size {size} is too large")
            if size == 5:
                raise RuntimeError("five is not allowed")
            if size == 6:
                assert False, "six is unreachable"


        class Reader:
            def read(self, n):
                \"\"\"Read n bytes.\"\"\"
                raise NotImplementedError("subclasses read")

            def __iter__(self):
                raise TypeError("readers are not iterable")

            def seek(self, n):
                if n < 0:
                    raise NotImplementedError("no backwards seek")
                return n

            def rewind(self):
                raise NotImplementedError("no rewind")


        class FileReader(Reader):
            pass


        class BufferedReader(FileReader):
            def read(self, n):
                return b""
    """,
    "lib/shapes.py": """
        import abc


        class Shape(abc.ABC):
            def area(self):
                raise NotImplementedError("shapes have no area")
    """,
}


def kinds(page: dict) -> list[str]:  # type: ignore[type-arg]
    return [s["kind"] for s in page["solutions"]]


def test_import_error_says_what_to_install_from_the_code(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    page = build_page(store, error_id_of(store, "lib", "load_model needs PyTorch: pip install 'torch>=2.1'"))
    install = next(s for s in page["solutions"] if s["kind"] == "install")
    assert install["code"] == "python -m pip install torch>=2.1"  # the probe's name is no distribution's
    assert install["text"] == "Install what the code asks for: `torch>=2.1` (named by `pip install` in the message)."
    assert page["what_it_means"]["summary"].endswith(
        "when `is_torch_available()` returns false (it asks about the installed packages)."
    )


def test_no_advice_by_exception_class(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    lookup = build_page(store, error_id_of(store, "lib", "no entry {}"))
    assert lookup["exception_bases"] == ["KeyError"]
    assert kinds(lookup) == []  # nothing about "a key looked up in a mapping"
    runtime = build_page(store, error_id_of(store, "lib", "five is not allowed"))
    assert runtime["what_it_means"]["statement"] == "raise"
    assert kinds(runtime) == []  # no "check the order of the calls"
    assert not any("order of the calls" in s["text"] for s in runtime["solutions"])


def test_only_an_assert_statement_is_said_to_be_skipped_by_python_o(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    statement = build_page(store, error_id_of(store, "lib", "size must be positive, not {}"))
    assert statement["what_it_means"]["statement"] == "assert"
    advice = statement["solutions"][-1]
    assert advice["kind"] == "statement_advice" and advice["statement"] == "assert"
    assert advice["text"].startswith("Line 29 is an `assert` statement: `python -O` skips it")
    explicit = build_page(store, error_id_of(store, "lib", "size {} is too large"))
    assert explicit["exception"] == "AssertionError"
    assert explicit["what_it_means"]["statement"] == "raise"
    assert not any("-O" in s["text"] for s in explicit["solutions"])


def test_a_method_that_only_raises_is_a_placeholder_for_subclasses(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    stub = build_page(store, error_id_of(store, "lib", "subclasses read"))
    assert stub["what_it_means"]["statement"] == "placeholder"
    assert stub["solutions"][-1]["text"].startswith(
        "`Reader.read` does nothing but raise NotImplementedError: `Reader` leaves `read` to its subclasses."
    )
    refusal = build_page(store, error_id_of(store, "lib", "readers are not iterable"))
    assert refusal["what_it_means"]["statement"] == "raise"  # a method refusing an operation is no placeholder
    shape = build_page(store, error_id_of(store, "lib", "shapes have no area"))
    assert shape["what_it_means"]["statement"] == "placeholder"  # an abstract class: left to its subclasses
    guarded = build_page(store, error_id_of(store, "lib", "no backwards seek"))
    assert guarded["what_it_means"]["statement"] == "raise"
    assert "subclass" not in " ".join(s["text"] for s in guarded["solutions"])


def test_a_stub_no_derived_class_overrides_is_not_left_to_subclasses(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    page = build_page(store, error_id_of(store, "lib", "no rewind"))
    assert page["what_it_means"]["statement"] == "unimplemented"
    text = page["solutions"][-1]["text"]
    assert text.startswith("`Reader.rewind` does nothing but raise NotImplementedError: `Reader` does not implement")
    assert "always raises" in text and "subclass of your own" not in text


def test_a_warning_is_turned_into_an_exception_with_its_own_category(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    page = build_page(store, error_id_of(store, "lib", "{} is deprecated"))
    assert page["kind"] == "warning" and page["what_it_means"]["statement"] == "warn"
    assert page["what_it_means"]["summary"].startswith("`load_model` warns (DeprecationWarning) when")
    assert "`python -W error::DeprecationWarning`" in page["solutions"][-1]["text"]
    own = build_page(store, error_id_of(store, "lib", "{} is odd"))
    assert "`python -W error`:" in own["solutions"][-1]["text"]  # -W cannot name a package's class by its short name


def test_distribution_names() -> None:
    assert distributions("run `pip install -U accelerate` first") == [
        {"name": "accelerate", "source": "named by `pip install` in the message"},
    ]
    assert distributions("pip install {}") == []  # the name is filled at run time
    assert distributions("needs the vision extras") == []
    # a location is no distribution's name: not `git` from `git+https://...`, not `https`
    assert distributions("`pip install git+https://github.com/jiaweizzhao/GaLore`") == []
    assert distributions("pip install https://example.org/pkg.whl or pip install ./local") == []


def test_a_constant_clause_is_nothing_to_make_sure_of(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    page = build_page(store, error_id_of(store, "lib", "six is unreachable"))
    assert kinds(page) == ["statement_advice"]  # and no "make sure that `False` is true"


def test_an_empty_list_is_no_value_to_set(indexed: Indexer) -> None:
    files = {
        "box/__init__.py": "",
        "box/kinds.py": """
            KINDS = []


            def pick(kind):
                if kind not in KINDS:
                    raise ValueError(f"unknown kind {kind}")
        """,
    }
    store = indexed(files, name="box")
    page = build_page(store, error_id_of(store, "box", "unknown kind {}"))
    assert page["what_it_means"]["lists"][0]["values"] == []
    assert "use_allowed_value" not in kinds(page)  # no "set `kind` to one of the 0 values: ."


def test_the_negation_of_a_check_is_never_advised(indexed: Indexer) -> None:
    """'Make sure that <negated condition>' is true as logic, not as a fix: negating these checks abandons the task
    (answer no, pass nothing), leads to the next raise (both n and frac), or names a local no user sets."""
    files = {
        "colors/__init__.py": "",
        "colors/parse.py": """
            import re

            HEX = re.compile("#[0-9a-f]{6}")


            def parse(value, strict=False):
                m = HEX.fullmatch(value.lower())
                if not m:
                    raise ValueError(f"not a color: {value}")
                if strict and value != value.lower():
                    raise ValueError(f"not lower case: {value}")
                return m.group(0)


            def sample(n=None, frac=None, replace=False):
                if n is not None and frac is not None:
                    raise ValueError("give n or frac, not both")
                if frac is not None and frac > 1 and not replace:
                    raise ValueError("frac above 1 needs replace")


            def squash(path, interactive=True):
                if interactive:
                    answer = input("overwrite? ")
                    if answer != "y":
                        raise RuntimeError(f"{path} exists")
        """,
    }
    store = indexed(files, name="colors")
    for template in ("frac above 1 needs replace", "{} exists", "not lower case: {}", "not a color: {}"):
        page = build_page(store, error_id_of(store, "colors", template))
        assert page["what_it_means"]["clauses"], template  # the condition is stated where it belongs
        assert page["solutions"] == [], template
    # the renderers say in one line that no fix is derived (the color's page has no example fix either: the match
    # object is no input), rather than leave the section out or pad it
    assert page["example_fix"] is None
    assert " ".join(NO_FIX.split()) in " ".join(to_text(page_panel(page), width=200).split())
    assert NO_FIX in Renderer().page("error.html", page, ServerLinks(), alternate=None)


def test_a_list_is_a_value_to_use_only_for_an_input_a_user_sets(indexed: Indexer) -> None:
    files = {
        "box/__init__.py": "",
        "box/kinds.py": """
            KINDS = ["round", "square"]


            def pick(kind):
                if kind not in KINDS:
                    raise ValueError(f"unknown kind {kind}")


            def parse(text):
                head = text.split(":")[0]
                if head not in KINDS:
                    raise ValueError(f"bad head in {text}")
        """,
    }
    store = indexed(files, name="box")
    pick = build_page(store, error_id_of(store, "box", "unknown kind {}"))
    (allowed,) = pick["solutions"]
    assert allowed["kind"] == "use_allowed_value" and allowed["list"] == "KINDS"
    assert allowed["text"].startswith("Set `kind` to one of the 2 values `KINDS` accepts")
    parse = build_page(store, error_id_of(store, "box", "bad head in {}"))
    assert parse["what_it_means"]["lists"][0]["subject"] == "head"
    assert parse["solutions"] == []  # no "set `head` to one of ...": `head` is a local no user sets
    shown = " ".join(to_text(page_panel(parse), width=200).split())
    assert "KINDS = ['round', 'square']" in shown and "listed under Solutions" not in shown  # its values stay shown


def test_a_warning_through_a_package_helper_names_no_category_it_cannot_follow(indexed: Indexer) -> None:
    files = {
        "dial/__init__.py": "",
        "dial/util.py": """
            import warnings


            class DialWarning(RuntimeWarning):
                pass


            def warn(msg):
                warnings.warn(msg, DialWarning)
        """,
        "dial/connect.py": """
            from dial import util


            def connect(driver):
                if driver is None:
                    util.warn("no driver name given")
        """,
    }
    store = indexed(files, name="dial")
    page = build_page(store, error_id_of(store, "dial", "no driver name given"))
    assert page["kind"] == "warning" and page["exception"] is None
    assert page["what_it_means"]["summary"].startswith("`connect` warns (its category is not resolved) when")
    (advice,) = [s for s in page["solutions"] if s["kind"] == "statement_advice"]
    assert "`python -W error`:" in advice["text"] and "UserWarning" not in advice["text"]
    shown = " ".join(to_text(page_panel(page), width=200).split())
    assert "· warning · category not resolved" in shown and "UserWarning" not in shown
    assert "category not resolved" in Renderer().page("error.html", page, ServerLinks(), alternate=None)


def test_a_collection_written_in_the_check_is_a_list_of_values_to_use(indexed: Indexer) -> None:
    files = {
        "box/__init__.py": "",
        "box/align.py": """
            def place(position=None, origin="top"):
                if position and position not in ["left", "right", "centre"]:
                    raise ValueError(f"bad position {position}")
                if origin not in ("top", ("bottom", 1)):
                    raise ValueError(f"bad origin {origin}")
        """,
    }
    store = indexed(files, name="box")
    place = build_page(store, error_id_of(store, "box", "bad position {}"))
    (allowed,) = place["solutions"]
    assert allowed["kind"] == "use_allowed_value" and allowed["values"] == ["left", "right", "centre"]
    assert allowed["text"].startswith("Set `position` to one of the 3 values the check lists in box 1.0: 'left',")
    assert "`position` = None also passes this check" in allowed["text"]
    origin = build_page(store, error_id_of(store, "box", "bad origin {}"))
    assert origin["what_it_means"]["lists"] == []  # a tuple among its items: not a list of plain values
    # a page with an example fix never says that no fix is derived, whatever its solutions
    assert place["example_fix"] is not None
    bare = {**place, "solutions": []}
    assert " ".join(NO_FIX.split()) not in " ".join(to_text(page_panel(bare), width=200).split())  # type: ignore[arg-type]
    assert NO_FIX not in Renderer().page("error.html", bare, ServerLinks(), alternate=None)
