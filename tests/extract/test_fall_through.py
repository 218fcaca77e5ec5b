"""A site after an `if` that leaves on one branch is guarded by the other: the clauses each shape gives."""

from __future__ import annotations

import textwrap

import pytest

from errdex.extract import analyse_file
from errdex.model import Site

SOURCE = """
def chain(a, b):
    if a:
        return 1
    elif b:
        return 2
    raise ValueError("after an if/elif chain")


def with_else(a):
    if a:
        return 1
    else:
        raise ValueError("in the else branch")


def early(path):
    if path is None:
        return None
    if not path.endswith(".txt"):
        raise ValueError("not a text file")


def loop(items):
    for item in items:
        if not item.ok:
            continue
        if item.last:
            break
        raise ValueError("in the loop")
    raise KeyError("after the loop")


def nested_or(a, b, c):
    if a:
        if b or c:
            raise ValueError("nested or")


def after_nested(a, b, c):
    if a:
        if b or c:
            return
    raise ValueError("after a nested if")


def negation(x):
    if not x:
        return
    raise ValueError("after not")


def walrus(text):
    if (found := text.find(":")) < 0:
        return None
    raise ValueError("after a walrus")


def raises_first(x, y):
    if x is None:
        raise TypeError("another check")
    if y > 3:
        raise ValueError("own check only")


def handled(x):
    try:
        if x:
            return 1
    except KeyError:
        return 2
    raise ValueError("after a try whose handlers leave")


def swallowed(x):
    try:
        if x:
            return 1
    except KeyError:
        pass
    raise ValueError("after a try whose handler goes on")
"""

EXPECTED = {
    "after an if/elif chain": ("not a", "not b"),
    "in the else branch": ("not a",),
    "not a text file": ("not (path is None)", "not (path.endswith('.txt'))"),
    "in the loop": ("item.ok", "not (item.last)"),
    "after the loop": (),
    "nested or": ("a", "b or c"),
    "after a nested if": ("not a or not (b or c)",),
    "after not": ("x",),
    "after a walrus": ("not ((found := text.find(':')) < 0)",),
    "own check only": ("y > 3",),  # the TypeError before it is another error's check
    "after a try whose handlers leave": ("not x",),
    "after a try whose handler goes on": (),
}


@pytest.mark.parametrize("fast", [True, False])
def test_clauses_of_each_shape(fast: bool) -> None:
    result = analyse_file("pkg/shapes.py", textwrap.dedent(SOURCE).encode(), fast=fast)
    found = {site.templates[0].text: site.clauses for site in result.sites}
    assert {text: found.get(text) for text in EXPECTED} == EXPECTED


def test_a_grouped_clause_keeps_its_brackets_in_the_joined_condition() -> None:
    site = Site("error", "ValueError", (), "nested or", None, "m.py", 1, 1, "f", ("a", "b or c"))
    assert site.condition == "a and (b or c)"
    assert Site("error", None, (), None, None, "m.py", 1, 1, "f", ("b or c",)).condition == "b or c"
