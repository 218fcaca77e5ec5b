"""Code that made static resolution explode: each case is now bounded, and what can be found still is.

Every fixture here took from seconds to forever before (sympy's integrals/prde.py never finished);
the tests assert results, not times.
"""

from __future__ import annotations

import ast
from itertools import pairwise
from typing import Any

import pytest

from errdex.extract import analyse_file, link
from errdex.extract.budget import Budget, TooMuchWork
from errdex.extract.file import register_chunks
from errdex.extract.resolve import Unresolved, evaluate
from errdex.extract.scope import ModuleScope
from errdex.extract.templates import render, templates
from tests.extract.raw import texts

# sympy/integrals/prde.py: `terms` is rebound to an expression of itself, then inlined twice
SELF_REBOUND = """
from .core import S

def f(terms, n):
    n = S.One * len([i for _, i in terms])
    common = S.One * len([j for _, j in terms] + [n])
    terms = [(i, j * common) for i, j in terms]
    if common != n:
        raise ValueError("Inexact division")
    raise ValueError(f"{len(terms)} terms left")
"""


def nested(width: int, indent: str = "") -> str:
    """A = ('a', 'b'); B = (A, A, ...); C = (B, ...); D = (C, ...): D holds 2 * width**3 strings."""
    lines = [f"{indent}A = ('a', 'b')"]
    for inner, outer in pairwise("ABCD"):
        lines.append(f"{indent}{outer} = ({(inner + ', ') * width})")
    return "\n".join(lines) + "\n"


def wide_condition(terms: int, sites: int) -> bytes:
    """Many sites under one `if` of more nodes than an expression may have."""
    test = " or ".join(f"x == {i}" for i in range(terms))
    body = "".join(f"        if y > {i}:\n            raise ValueError('site {i}')\n" for i in range(sites))
    return f"def f(x, y):\n    if {test}:\n{body}".encode()


def test_a_local_rebound_to_an_expression_of_itself_is_inlined_without_a_cycle() -> None:
    first, second = analyse_file("pkg/prde.py", SELF_REBOUND.encode()).sites
    assert (texts(first), first.clauses) == (["Inexact division"], ("common != n",))
    assert texts(second) == ["{} terms left"]


def test_module_constants_that_multiply_past_the_size_bound_stay_open() -> None:
    code = nested(150) + "def f(x):\n    if x not in D:\n        raise ValueError('not in D')\n"
    (site,) = analyse_file("pkg/table.py", code.encode()).sites
    assert site.values.resolved == {} and texts(site) == ["not in D"]


def test_module_constants_nested_within_the_bound_still_resolve() -> None:
    code = nested(3) + "def f(x):\n    if x not in D:\n        raise ValueError('not in D')\n"
    (site,) = analyse_file("pkg/table.py", code.encode()).sites
    assert site.values.resolved["D"] == [[[["a", "b"]] * 3] * 3] * 3


def test_locals_that_multiply_past_the_size_bound_stay_open() -> None:
    code = "def f(x):\n" + nested(150, "    ") + "    if x not in D:\n        raise ValueError('not in D')\n"
    (site,) = analyse_file("pkg/local.py", code.encode()).sites
    assert site.values.resolved == {} and texts(site) == ["not in D"]


def test_linking_bounds_constants_imported_from_another_module() -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/tables.py": nested(150) + "SMALL = ('x', 'y')\n",
        "pkg/use.py": "from .tables import D, SMALL\n\ndef f(x):\n"
        "    if x not in D or x not in SMALL:\n        raise ValueError('bad')\n",
    }
    analyses = {path: analyse_file(path, text.encode()) for path, text in files.items()}
    (site,), _ = link(analyses, files.get)
    assert site.resolved == {"SMALL": ["x", "y"]}


def module_scope(code: str) -> ModuleScope:
    scope = ModuleScope("pkg/chain.py")
    register_chunks(code, scope)
    return scope


def test_remembered_lookups_keep_the_depth_bound_answer() -> None:
    scope = module_scope("A0 = 'v'\n" + "".join(f"A{i} = A{i - 1}\n" for i in range(1, 10)))
    with pytest.raises(Unresolved):
        scope.lookup("A9")  # too long a chain; on the way A3 was looked up too deep to succeed
    assert scope.lookup("A3") == "v"
    with pytest.raises(Unresolved):
        scope.lookup("A9")


def test_a_site_over_its_allowance_leaves_names_open_and_the_next_site_resolves() -> None:
    code = (
        f"MANY = {tuple(f'v{i}' for i in range(60))}\nFEW = ('a', 'b')\n\n"
        "def f(x):\n    if x not in MANY:\n        raise ValueError('many')\n"
        "def g(x):\n    if x not in FEW:\n        raise ValueError('few')\n"
    )
    many, few = analyse_file("pkg/limits.py", code.encode(), budget=Budget(per_site=40)).sites
    assert many.values.resolved == {} and few.values.resolved == {"FEW": ["a", "b"]}
    many, _ = analyse_file("pkg/limits.py", code.encode()).sites
    assert len(many.values.resolved["MANY"]) == 60


def test_sites_under_a_condition_too_large_to_walk_are_all_found() -> None:
    result = analyse_file("pkg/wide.py", wide_condition(20_000, 40))
    assert result.skip is None and len(result.sites) == 40
    assert result.sites[-1].clauses == ("<expression too large>", "y > 39")


def test_a_file_over_its_budget_is_a_skip_that_keeps_the_sites_found_first() -> None:
    result = analyse_file("pkg/wide.py", wide_condition(20_000, 40), budget=Budget(steps=50_000))
    kept = [texts(site) for site in result.sites]
    assert result.skip == f"analysis took too long (more than 50,000 steps); partly analysed, {len(kept)} sites kept"
    assert 0 < len(kept) < 40 and kept[:2] == [["site 0"], ["site 1"]]


def test_a_long_function_with_many_locals_and_branches_stops_at_its_budget() -> None:
    # every branch copies and merges the bindings of all locals: 4,000 of each took minutes
    names = "".join(f"    v{i} = {i}\n" for i in range(300))
    branches = "".join(f"    if x == {i}:\n        raise ValueError('branch {i}')\n" for i in range(300))
    result = analyse_file("pkg/generated.py", f"def f(x):\n{names}{branches}".encode(), budget=Budget(steps=100_000))
    assert result.skip.startswith("analysis took too long (more than 100,000 steps); partly analysed")
    assert 0 < len(result.sites) < 300 and texts(result.sites[0]) == ["branch 0"]


def _deep_rebinding(depth: int) -> bytes:
    return b"def f(x):\n    x = 'a'\n    x = x + " + b"-" * depth + b"1\n    raise ValueError(x)\n"


@pytest.mark.parametrize("fast", [True, False])
def test_a_deep_rebinding_keeps_its_site_and_a_deeper_one_is_a_skip_on_both_paths(fast: bool) -> None:
    kept = analyse_file("pkg/deep.py", _deep_rebinding(900), fast=fast)
    assert kept.skip is None and [texts(s) for s in kept.sites] == [["a{}"]]
    assert analyse_file("pkg/deep.py", _deep_rebinding(2000), fast=fast).skip == "too deeply nested to analyse"


def test_a_message_too_large_to_walk_keeps_its_template() -> None:
    data = b"def f(x):\n    raise ValueError(" + b"f'{x}a' " * 5_000 + b")\n"
    (site,) = analyse_file("pkg/fstrings.py", data).sites
    assert texts(site) == ["{}a" * 5_000]
    assert site.message_source == "<expression too large>"


class _NoNames:
    def alternatives(self, name: str) -> None:
        return None

    def constant(self, name: str) -> Any:
        raise Unresolved(name)


def test_templates_out_of_budget_end_in_a_hole() -> None:
    node = ast.parse("'one ' + 'two ' + 'three'", mode="eval").body
    assert [render(t) for t in templates(node, _NoNames(), Budget())] == ["one two three"]
    assert [render(t) for t in templates(node, _NoNames(), Budget(per_site=3))] == [None]


def test_evaluation_out_of_budget_is_too_much_work() -> None:
    node = ast.parse(repr(tuple(range(50))), mode="eval").body
    assert evaluate(node, _NoNames().constant, budget=Budget()) == tuple(range(50))
    with pytest.raises(TooMuchWork):
        evaluate(node, _NoNames().constant, budget=Budget(per_site=20))
