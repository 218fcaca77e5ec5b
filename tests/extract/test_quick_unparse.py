"""quick_unparse writes exactly what ast.unparse writes, whenever it writes anything."""

from __future__ import annotations

import argparse
import ast
import inspect
import typing

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errdex.extract.quick_unparse import quick_unparse

NAME = st.sampled_from(["x", "self.mode", "cls.KINDS", "a.b.c", "VALID", "len", "isinstance"])
TEXT = st.text(alphabet=st.sampled_from(list("ab Zé{}'\"\\\n\t:%-_0İ€")), max_size=12)
ATOM = st.one_of(
    NAME,
    TEXT.map(repr),
    st.integers(-5, 10**6).map(str),
    st.sampled_from(["True", "None", "u'x'", "b'x'", "1.5", "...", "(1, 2)", "x[0]", "-x"]),
)


def calls(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    keyword = st.tuples(st.sampled_from(["k", "flag"]), inner).map(lambda kv: f"{kv[0]}={kv[1]}")
    argument = st.one_of(inner, keyword, inner.map(lambda a: f"*{a}"))
    return st.tuples(NAME, st.lists(argument, max_size=3)).map(lambda fa: f"{fa[0]}({', '.join(fa[1])})")


OPERAND = st.recursive(ATOM, calls, max_leaves=4)
COMPARISON = st.tuples(
    OPERAND,
    st.lists(
        st.tuples(st.sampled_from(["==", "!=", "<", ">=", "is", "is not", "in", "not in"]), OPERAND),
        min_size=1,
        max_size=3,
    ),
).map(lambda c: c[0] + "".join(f" {op} {right}" for op, right in c[1]))
PLACEHOLDER = st.tuples(NAME, st.sampled_from(["", "!r", "!s", "!a"]), st.sampled_from(["", ":>10", ":{w}"])).map(
    lambda p: "{" + "".join(p) + "}"
)
FSTRING = st.lists(
    st.one_of(
        st.text(alphabet=st.sampled_from(list("ab {}é'\"%:")), max_size=6).map(
            lambda t: t.replace("{", "{{").replace("}", "}}")
        ),
        PLACEHOLDER,
    ),
    max_size=4,
).map(lambda parts: "f" + repr("".join(parts)))


def conditions(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    joined = st.tuples(st.sampled_from([" and ", " or "]), st.lists(inner, min_size=2, max_size=5)).map(
        lambda j: j[0].join(j[1])
    )
    return st.one_of(joined, inner.map(lambda c: f"not {c}"), inner.map(lambda c: f"({c})"))


EXPRESSION = st.recursive(st.one_of(OPERAND, COMPARISON, FSTRING), conditions, max_leaves=8)


def agrees(tree: ast.AST) -> int:
    """Assert agreement on every expression node of a tree; how many nodes quick_unparse wrote."""
    written = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.expr):
            quick = quick_unparse(node)
            if quick is not None:
                assert quick == ast.unparse(node), ast.dump(node)
                written += 1
    return written


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(EXPRESSION)
def test_generated_expressions(source: str) -> None:
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        return
    agrees(tree)


def test_real_code_of_the_standard_library() -> None:
    """Most expressions of real code take the quick way, and every one agrees."""
    total = written = 0
    for module in (argparse, ast, inspect, typing):
        tree = ast.parse(inspect.getsource(module))
        total += sum(isinstance(n, ast.expr) for n in ast.walk(tree))
        written += agrees(tree)
    assert written > total * 0.6


def test_the_shapes_of_conditions_and_messages() -> None:
    cases = {
        "self.cache_implementation not in ALL_CACHE_IMPLEMENTATIONS": (
            "self.cache_implementation not in ALL_CACHE_IMPLEMENTATIONS"
        ),
        'a == 1 and b == "x" and c is None': "a == 1 and b == 'x' and (c is None)",
        "a or b and not c": "a or (b and (not c))",
        "not isinstance(x, (int, str))": None,  # a tuple argument: left to ast.unparse
        'f"Invalid `cache_implementation` ({self.cache_implementation!r}). Choose one of: {x}"': (
            "f'Invalid `cache_implementation` ({self.cache_implementation!r}). Choose one of: {x}'"
        ),
        'f"it\'s {x}"': None,  # a quote inside: ast.unparse picks the quotes
        "f'{x:>10}'": None,
    }
    for source, expected in cases.items():
        node = ast.parse(source, mode="eval").body
        assert quick_unparse(node) == expected, source
        if expected is not None:
            assert expected == ast.unparse(node)
