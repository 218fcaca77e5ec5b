"""Value claims of kinds of code: bindings pruned from the in-force list, stores of other methods, starred
unpacking, the check's own comprehension, module collections filled in place, a local read from a class default
through `self`, and a read the function assigns before its check."""

from __future__ import annotations

import ast
import textwrap

from errdex.pages.checked import held_back
from errdex.pages.inputs import trace

SOURCE = textwrap.dedent(
    """
    REGISTRY = {}


    def register(name, value):
        REGISTRY[name] = value


    register("a", 1)


    def lookup(name):
        if name not in REGISTRY:
            raise KeyError(name)


    def split(files, drop, analyze):
        if files:
            meta = not drop
        else:
            meta = False
        if not analyze:
            meta = drop
        if meta and "x" not in files:
            raise ValueError("no x")


    def unpack(t):
        first, second, *_ = t
        if second is None:
            raise ValueError("second")


    def comp(items):
        if any(c > 0 for c in items):
            raise ValueError("positive")
        return [c for c in items]


    def verify(conn, cert):
        if cert:
            if isinstance(cert, str):
                conn.cert_file = cert
            else:
                conn.cert_file = cert[0]
            if conn.cert_file and not exists(conn.cert_file):
                raise OSError("no cert")


    class Mixin:
        week = None

        def get_week(self):
            week = self.week
            if week is None:
                raise LookupError("no week")


    class Command:
        def __init__(self, args):
            if args.a:
                self.path = args.a
            else:
                self.path = args.b

        def run(self):
            if not self.path:
                raise ValueError("no path")
    """
).lstrip("\n")
TREE = ast.parse(SOURCE)


def _line(text: str) -> int:
    return next(i for i, line in enumerate(SOURCE.splitlines(), 1) if text in line)


def _bound(function: str, code: str, raise_text: str) -> str:
    traced = trace(TREE, function, code, _line(raise_text))
    return " | ".join(w.how for w in traced.ways + traced.bound)


def test_pruned_bindings_are_not_said_to_be_all_before_the_check() -> None:
    how = _bound("split", "meta", 'raise ValueError("no x")')
    assert "can be in force at the check" in how and "bound 2 ways" not in how
    assert "`meta = False` (line" in how and "do not reach it" in how


def test_starred_unpacking_has_no_fixed_count() -> None:
    how = _bound("unpack", "second", 'raise ValueError("second")')
    assert "(item 2, line" in how and "of 3" not in how


def test_the_checks_own_comprehension_binds_its_variable() -> None:
    how = _bound("comp", "c", 'raise ValueError("positive")')
    assert f"at line {_line('if any(c > 0')}" in how


def test_a_read_assigned_before_the_check_is_its_value_not_the_parameter() -> None:
    traced = trace(TREE, "verify", "conn", _line('raise OSError("no cert")'))
    assert traced.ways == [] and traced.kind == "local"
    assert "conn.cert_file = cert" in traced.bound[0].how and "cert[0]" in traced.bound[0].how


def test_every_store_of_another_method_is_listed() -> None:
    how = _bound("Command.run", "self.path", 'raise ValueError("no path")')
    assert "`args.a` (line" in how and "`args.b` (line" in how and "not resolved" in how


def test_module_collection_filled_by_a_function_is_held_back() -> None:
    file = "m.py"
    at = f"{file}:{_line('REGISTRY = {}')}"
    held = held_back({"REGISTRY": {}}, {"REGISTRY": at}, TREE, "lookup", file, _line("raise KeyError"))
    assert [h.name for h in held] == ["REGISTRY"] and "filled in place by `register`" in held[0].note


def test_local_read_from_a_class_default_through_self_is_held_back() -> None:
    file = "m.py"
    at = f"{file}:{_line('week = self.week')}"
    held = held_back({"week": None}, {"week": at}, TREE, "Mixin.get_week", file, _line("raise LookupError"))
    assert [h.name for h in held] == ["week"] and "class default" in held[0].note
