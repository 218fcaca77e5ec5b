"""`if isinstance(self, C):` around a call of `self.name()`: the call runs only on instances of `C`, so it reaches
the function only when an instance of `C` can also be one of the function's class.

That is ruled out only when `C` is a class of the release that is neither a base nor a subclass of the
function's class, and no class of the release is named as deriving from both (a filter by name, so a
class that could derive from both is never missed). Any other test, or a class not resolved, rules out nothing.
"""

from __future__ import annotations

import ast

from errdex.pages.hierarchy import Classes, Symbol, dotted


def ruled_out(path: list[ast.AST], file: str, owner: Symbol, classes: Classes) -> bool:
    """Whether an `if isinstance(self, ...)` whose body holds the use (`path` leads to it) tests only classes
    that no instance of `owner` can be."""
    for node, child in zip(path, path[1:], strict=False):
        if isinstance(node, ast.If) and any(child is stmt for stmt in node.body):
            tested = _tested(node.test)
            if tested and all(_unrelated(classes, classes.resolve(file, name), owner) for name in tested):
                return True
    return False


def _tested(test: ast.expr) -> list[str]:
    """The classes `isinstance(self, C)` (or `(C, D)`) tests, alone or as a part of an `and`."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return next((found for found in map(_tested, test.values) if found), [])
    if not (
        isinstance(test, ast.Call)
        and isinstance(test.func, ast.Name)
        and test.func.id == "isinstance"
        and len(test.args) == 2
        and isinstance(test.args[0], ast.Name)
        and test.args[0].id == "self"
    ):
        return []
    written = test.args[1].elts if isinstance(test.args[1], ast.Tuple) else [test.args[1]]
    names = [dotted(w) for w in written]
    return names if all(names) else []


def _unrelated(classes: Classes, tested: Symbol | None, owner: Symbol) -> bool:
    if tested is None or classes.class_info(tested) is None:
        return False
    if tested in classes.mro(owner)[0] or owner in classes.mro(tested)[0]:
        return False
    name, owner_name = (s.qualname.rsplit(".", 1)[-1] for s in (tested, owner))
    below = classes.subclass_names(name)
    return owner_name not in below and below.isdisjoint(classes.subclass_names(owner_name))
