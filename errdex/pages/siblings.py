"""The function's other raises whose tests read what the check reads: a value that passes this check may fail those.

`from_dummies(sep=1)` fails the type test of `sep`; `sep="text"` passes it, and then meets `if len(prefix) ==
len(col): raise ValueError(...)` in the branch for strings. An example fix is a change that passes the page's
check, so the page says which other raises of the function test the same input (by line and test, as written),
rather than let the fix read as a call that succeeds.
"""

from __future__ import annotations

import ast
from collections.abc import Collection

from errdex.extract.resolve import dotted_name
from errdex.pages.inforce import short, walk_scope
from errdex.pages.model import OtherRaiseJson
from errdex.pages.prior import read_names
from errdex.pages.source import FunctionNode

MAX_OTHER = 4  # other raises listed; the rest are left out


def other_raises(func: FunctionNode, line: int, codes: Collection[str]) -> list[OtherRaiseJson]:
    """The raise statements of `func` other than the one on `line` whose innermost `if` reading one of `codes`
    (a test of an `else` branch negated) guards them, in line order: each with the exception as written, that test
    and the inputs it reads."""
    wanted = frozenset(codes)
    nodes = walk_scope(func)
    parents = {id(child): node for node in nodes for child in ast.iter_child_nodes(node)}
    out: list[OtherRaiseJson] = []
    raises = sorted((n for n in nodes if isinstance(n, ast.Raise)), key=lambda n: n.lineno)
    for node in raises:
        if len(out) == MAX_OTHER:
            break
        if node.lineno <= line <= (node.end_lineno or node.lineno):
            continue
        guard = _guard(node, parents, wanted)  # the innermost `if` around it whose test reads an input
        if guard is None:
            continue
        test, holds = guard
        raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        out.append(
            {
                "line": node.lineno,
                "raised": (dotted_name(raised) or None) if raised is not None else None,
                "test": short(test.test) if holds else f"not ({short(test.test)})",
                "reads": sorted(read_names(test.test) & wanted),
            }
        )
    return out


def _guard(node: ast.AST, parents: dict[int, ast.AST], wanted: frozenset[str]) -> tuple[ast.If, bool] | None:
    """The innermost `if` above `node` whose test reads one of `wanted`, and whether `node` is in its body."""
    child, parent = node, parents.get(id(node))
    while parent is not None:
        if isinstance(parent, ast.If) and any(child is s for s in parent.body + parent.orelse):
            if read_names(parent.test) & wanted:
                return parent, any(child is s for s in parent.body)
        child, parent = parent, parents.get(id(parent))
    return None
