"""Names bound more than once at module level: every binding kept as an alternative with its condition."""

from __future__ import annotations

import textwrap

import pytest

from errdex.extract.file import analyse_file
from errdex.extract.package import link
from errdex.extract.scope import Block, Definition, ModuleScope
from errdex.model import Binding, Condition, Site

CHECK = """
def check(value):
    if value not in NAMES:
        raise ValueError(f"bad {value}, one of {NAMES}")
"""


def site_values(source: str, fast: bool) -> tuple[dict, dict[str, tuple[Binding, ...]]]:
    """The resolved values and alternatives of the one site of a module (`CHECK` appended)."""
    analysis = analyse_file("pkg/mod.py", (textwrap.dedent(source).lstrip("\n") + CHECK).encode(), fast=fast)
    (site,) = analysis.sites
    return site.values.resolved, site.values.bindings


def conditions(binding: Binding) -> list[tuple[str, bool, str]]:
    return [(c.test, c.holds, c.kind) for c in binding.conditions]


@pytest.mark.parametrize("fast", [True, False])
def test_a_default_then_a_richer_value_when_a_dependency_is_installed(fast: bool) -> None:
    source = """
    MAPPING = {}
    NAMES = []
    if is_torch_available():
        MAPPING = {"static": StaticCache, "dynamic": DynamicCache}
        NAMES = list(MAPPING.keys()) + ["offloaded"]
    """
    resolved, bindings = site_values(source, fast)
    assert resolved["NAMES"] == ["static", "dynamic", "offloaded"]  # the normal import path, keys known alone
    installed, otherwise = bindings["NAMES"]
    assert conditions(installed) == [("is_torch_available()", True, "available")]
    assert conditions(otherwise) == [("is_torch_available()", False, "available")]
    assert otherwise.value == [] and otherwise.known and otherwise.line == 2


@pytest.mark.parametrize("fast", [True, False])
def test_if_else(fast: bool) -> None:
    source = """
    if not is_yaml_available():
        NAMES = ("json",)
    else:
        NAMES = ("json", "yaml")
    """
    resolved, bindings = site_values(source, fast)
    assert resolved["NAMES"] == ["json", "yaml"]
    assert [(conditions(b), b.value) for b in bindings["NAMES"]] == [
        ([("is_yaml_available()", False, "available")], ["json"]),
        ([("is_yaml_available()", True, "available")], ["json", "yaml"]),
    ]


@pytest.mark.parametrize("fast", [True, False])
def test_try_except_import_error(fast: bool) -> None:
    source = """
    try:
        import numpy
        NAMES = ("float", "array")
    except (ImportError, ModuleNotFoundError):
        NAMES = ("float",)
    """
    resolved, bindings = site_values(source, fast)
    assert resolved["NAMES"] == ["float", "array"]
    body, handler = bindings["NAMES"]
    assert body.conditions == (Condition("(ImportError, ModuleNotFoundError)", False, "except", "available"),)
    assert handler.conditions[0].holds and handler.value == ["float"]


@pytest.mark.parametrize("fast", [True, False])
def test_type_checking_never_holds_at_run_time(fast: bool) -> None:
    source = """
    if TYPE_CHECKING:
        NAMES = ("a", "b", "c")
    else:
        NAMES = ("a",)
    """
    resolved, bindings = site_values(source, fast)
    assert resolved["NAMES"] == ["a"]
    assert [c.kind for b in bindings["NAMES"] for c in b.conditions] == ["type_checking", "type_checking"]


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize(
    ("test", "kind"), [("sys.platform == 'win32'", "platform"), ("sys.version_info >= (3, 11)", "version")]
)
def test_platform_and_version_tests_leave_the_value_unknown_but_keep_both(fast: bool, test: str, kind: str) -> None:
    source = f"""
    NAMES = ("posix",)
    if {test}:
        NAMES = ("posix", "nt")
    """
    resolved, bindings = site_values(source, fast)
    assert "NAMES" not in resolved  # which one holds depends on where the code runs: not one value
    assert [(conditions(b), b.value) for b in bindings["NAMES"]] == [
        ([(test, True, kind)], ["posix", "nt"]),
        ([(test, False, kind)], ["posix"]),
    ]


@pytest.mark.parametrize("fast", [True, False])
def test_a_later_unconditional_binding_replaces_the_earlier_ones(fast: bool) -> None:
    source = """
    if is_torch_available():
        NAMES = ("a", "b")
    NAMES = ("c",)
    """
    resolved, bindings = site_values(source, fast)
    assert resolved["NAMES"] == ["c"] and "NAMES" not in bindings


@pytest.mark.parametrize("fast", [True, False])
def test_augmented_assignments_under_a_condition(fast: bool) -> None:
    source = """
    NAMES = ["a"]
    NAMES += ["b"]
    if is_torch_available():
        NAMES += ["torch"]
    """
    resolved, bindings = site_values(source, fast)
    assert resolved["NAMES"] == ["a", "b", "torch"]
    assert [b.value for b in bindings["NAMES"]] == [["a", "b", "torch"], ["a", "b"]]


@pytest.mark.parametrize("fast", [True, False])
def test_an_alternative_that_cannot_be_resolved_is_unknown_not_empty(fast: bool) -> None:
    source = """
    NAMES = []
    if is_torch_available():
        NAMES = load_names()
    """
    resolved, bindings = site_values(source, fast)
    assert "NAMES" not in resolved
    installed, otherwise = bindings["NAMES"]
    assert not installed.known and installed.value is None
    assert otherwise.known and otherwise.value == []


def test_a_keyword_argument_on_its_own_line_is_no_binding() -> None:
    source = """
    NAMES = ("a",)
    if DEBUG:
        configure(
            NAMES=("b",),
        )
    """
    resolved, bindings = site_values(source, fast=True)
    assert resolved["NAMES"] == ["a"] and not bindings


def test_alternatives_of_a_name_imported_from_another_module() -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/names.py": "NAMES = []\nif is_torch_available():\n    NAMES = ['static', 'dynamic']\n",
        "pkg/mod.py": "from .names import NAMES\n" + CHECK,
    }
    analyses = {path: analyse_file(path, text.encode()) for path, text in files.items()}
    sites, _ = link(analyses, files.get)
    (site,) = [s for s in sites if isinstance(s, Site) and s.file == "pkg/mod.py"]
    assert site.resolved["NAMES"] == ["static", "dynamic"]
    assert [b.value for b in site.bindings["NAMES"]] == [["static", "dynamic"], []]
    assert site.resolved_from["NAMES"] == "pkg/names.py:3"


@pytest.mark.parametrize("fast", [True, False])
def test_a_flag_set_when_a_dependency_is_installed_has_no_one_value(fast: bool) -> None:
    source = """
    LOADED = False
    if is_tesseract_available():
        LOADED = True
    NAMES = ("a",)
    def run():
        if not LOADED:
            raise ValueError("tesseract is not available")
    """
    analysis = analyse_file("pkg/mod.py", textwrap.dedent(source).lstrip("\n").encode(), fast=fast)
    (site,) = analysis.sites
    assert "LOADED" not in site.values.resolved  # True for some users, False for others
    assert [b.value for b in site.values.bindings["LOADED"]] == [True, False]


def test_a_block_whose_text_does_not_parse_leaves_the_value_unknown() -> None:
    scope = ModuleScope("pkg/mod.py")
    scope.add_constant("NAMES", Definition(1, "NAMES = []"))
    scope.add_block("NAMES", Block(3, "if ready:\n    NAMES = ("))  # a block as read back, cut short
    (binding,) = scope.bindings("NAMES") or ()
    assert not binding.known and binding.line == 3
