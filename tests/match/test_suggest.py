"""Did you mean: reading which hole shows the tested value, and the closest allowed values."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from errdex.indexing import index
from errdex.match import explain
from errdex.match.suggest import closest, did_you_mean, membership_checks
from errdex.store import Store
from tests.backends import new_index
from tests.fixtures import write_tree

FLAGSHIP_HOLES = (("self.cache_implementation",), ("valid_cache_implementations",))
CONDITION = "self.cache_implementation is not None and self.cache_implementation not in valid_cache_implementations"
NAMES = ["static", "offloaded_static", "sliding_window", "hybrid", "dynamic", "offloaded", "quantized", "paged"]


def test_membership_checks_with_resolved_names_and_literals() -> None:
    resolved = {"valid_cache_implementations": NAMES}
    assert list(membership_checks(CONDITION, resolved)) == [("self.cache_implementation", NAMES)]
    assert list(membership_checks("mode not in ('a', 'b')", {})) == [("mode", ["a", "b"])]
    assert list(membership_checks("mode not in OTHER", {})) == []


def test_typo_gets_the_closest_name() -> None:
    suggestions, allowed = did_you_mean(
        CONDITION, {"valid_cache_implementations": NAMES}, FLAGSHIP_HOLES, ("statc", "(...)")
    )
    assert suggestions == {"cache_implementation": ["static"]}
    assert allowed == {"cache_implementation": NAMES}


def test_quoted_values_are_compared_unquoted() -> None:
    suggestions, _ = did_you_mean(
        "mode not in MODES",
        {"MODES": ["fast", "slow"]},
        (("mode",), ("MODES",)),
        ("'fsat'", "('fast', 'slow')"),
    )
    assert suggestions == {"mode": ["fast"]}


def test_no_suggestion_for_an_allowed_or_faraway_value() -> None:
    assert closest("static", NAMES) == []
    assert closest("zzzzzzzzzz", NAMES) == []


def test_a_literal_set_lists_its_values_in_one_order_in_every_process() -> None:
    # a set iterates in hash order, which changes with each process: the values are sorted as stored sets are
    checks = list(membership_checks("mode not in {'slow', 'eco', 'fast', 'turbo'}", {}))
    assert checks == [("mode", ["eco", "fast", "slow", "turbo"])]


def test_holes_not_known_one_by_one_take_the_one_value_that_looks_like_an_option() -> None:
    suggestions, _ = did_you_mean("mode not in MODES", {"MODES": ["fast", "slow"]}, (), ("fsat",))
    assert suggestions == {"mode": ["fast"]}
    suggestions, _ = did_you_mean("mode not in MODES", {"MODES": ["fast", "slow"]}, (("other",),), ("fsat",))
    assert suggestions == {}  # the hole shows something else


BACKENDS_MODULE = """
MODES = ("fast", "slow")
BACKENDS = {"sqlite": 1, "postgres": 2}


def open_store(mode, backend):
    if mode not in MODES:
        raise KeyError("wrong mode %r for %r" % (mode, backend))
    if backend not in BACKENDS:
        raise ValueError("unknown backend %(backend)s (mode %(mode)s)" % {"mode": mode, "backend": backend})
"""


@pytest.fixture(scope="module")
def printf_store(tmp_path_factory: pytest.TempPathFactory, backend: str) -> Store:
    root = tmp_path_factory.mktemp("printf")
    folder = write_tree(
        root / "store-1.0",
        {
            "pyproject.toml": '[project]\nname = "printfpkg"\nversion = "1.0"\n',
            "printfpkg/__init__.py": "",
            "printfpkg/stores.py": textwrap.dedent(BACKENDS_MODULE),
        },
    )
    store = Store(new_index(backend, Path(root), "printf.db"))
    index(str(folder), store)
    return store


def test_did_you_mean_for_positional_percent_formatting(printf_store: Store) -> None:
    best = explain("KeyError: \"wrong mode 'fsat' for 'sqlite'\"", store=printf_store, auto_index=False).best
    assert best is not None and best.file == "printfpkg/stores.py"
    assert best.suggestions == {"mode": ["fast"]}


def test_did_you_mean_for_named_percent_formatting(printf_store: Store) -> None:
    best = explain("ValueError: unknown backend postgre (mode fast)", store=printf_store, auto_index=False).best
    assert best is not None and best.file == "printfpkg/stores.py"
    assert best.suggestions == {"backend": ["postgres"]}
