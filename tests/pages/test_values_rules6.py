"""Value claims of kinds of code: a class-level default (a dataclass field's too) that the code assigns at run
time (`self._fn = fn` in a method or a function nested in one, `cls.count += 1`, `Settings.debug = True`) is not
the value a check sees, read directly or through a local; a module name a function binds again, read through a
local, neither."""

from __future__ import annotations

from typing import Any

import pytest

from tests.pages.conftest import Indexer, pages_of, strings

MACHINE = """
    import enum
    from dataclasses import dataclass


    class States(enum.Enum):
        ANY = 1
        BUSY = 2


    class Machine:
        _next = States.ANY
        _fn = None

        @classmethod
        def declare(cls):
            def go(self, fn):
                nxt = self._next
                existing = self._fn
                if nxt is not States.ANY and existing:
                    raise RuntimeError("busy")
                if self._fn is not None:
                    raise ValueError("already")
                self._fn = fn
                self._next = States.BUSY

            return go


    class Settings:
        debug = False


    class Frozen:
        flag = True


    def enable():
        Settings.debug = True


    def check():
        d = Settings.debug
        if d:
            raise OSError("debugging")


    def fixed():
        f = Frozen.flag
        if f:
            raise EOFError("flagged")


    class Counter:
        count = 0

        @classmethod
        def bump(cls):
            cls.count += 1

        @classmethod
        def over(cls):
            c = cls.count
            if c > 3:
                raise ZeroDivisionError("over")


    @dataclass
    class Options:
        mode: str = "plain"

        def switch(self):
            self.mode = "fancy"

        def run(self):
            if self.mode == "plain":
                raise NotImplementedError("plain")


    LIMIT = 3


    def raise_limit():
        global LIMIT
        LIMIT = 9


    def limited():
        lv = LIMIT
        if lv > 2:
            raise IndexError("limit")
"""


def _line(text: str) -> int:
    return next(i for i, line in enumerate(MACHINE.strip("\n").splitlines(), 1) if text in line)


@pytest.fixture
def page_of(indexed: Indexer) -> Any:
    return pages_of(indexed({"pkg/__init__.py": "", "pkg/machine.py": MACHINE}), "pkg")


def _held(page: Any) -> dict[str, str]:
    return {v["name"]: v["choice"] for v in page["what_it_means"]["values"] if v["known"] is False}


def test_locals_read_from_defaults_a_nested_function_assigns_are_not_resolved(page_of: Any) -> None:
    """`nxt = self._next` in a function nested in a classmethod: `self` is a `Machine`, whose `_next` the same
    function assigns after its check; the class default `States.ANY` is not what the check sees."""
    page = page_of("busy")
    assert "nxt" not in page["resolved"] and "existing" not in page["resolved"]
    held = _held(page)
    assert held["nxt"] == (
        f"`nxt = self._next` (line {_line('nxt = self._next')}) reads `self._next`: `_next = States.ANY`"
        f" (line {_line('_next = States.ANY')}) is only `Machine`'s class default: an instance or a subclass can"
        " replace it, and `Machine.declare.<locals>.go` assigns `self._next`"
        f" (line {_line('self._next = States.BUSY')}) at run time: its value at the check is not resolved."
    )
    assert f"assigns `self._fn` (line {_line('self._fn = fn')})" in held["existing"]
    assert not any("existing = None" in text or "`existing` is None" in text for text in strings(page))


def test_a_default_read_directly_names_what_assigns_it(page_of: Any) -> None:
    held = _held(page_of("already"))
    assert "can replace it, and `Machine.declare.<locals>.go` assigns `self._fn`" in held["self._fn"]


def test_a_class_attribute_a_function_assigns_by_the_class_name_is_not_resolved(page_of: Any) -> None:
    page = page_of("debugging")
    assert "d" not in page["resolved"]
    assert _held(page)["d"] == (
        f"`d = Settings.debug` (line {_line('d = Settings.debug')}) reads `Settings.debug`: `debug = False`"
        f" (line {_line('debug = False')}) is only `Settings`'s class default, and `enable` assigns `Settings.debug`"
        f" (line {_line('Settings.debug = True')}) at run time: its value at the check is not resolved."
    )


def test_a_class_attribute_nothing_assigns_keeps_its_value(page_of: Any) -> None:
    page = page_of("flagged")
    assert page["resolved"] == {"f": True} and _held(page) == {}


def test_a_class_attribute_a_classmethod_changes_through_cls_is_not_resolved(page_of: Any) -> None:
    page = page_of("over")
    assert "c" not in page["resolved"]
    assert f"`Counter.bump` assigns `cls.count` (line {_line('cls.count += 1')})" in _held(page)["c"]


def test_a_local_read_from_a_global_bound_again_is_not_resolved(page_of: Any) -> None:
    page = page_of("limit")
    assert "lv" not in page["resolved"]
    assert _held(page)["lv"] == (
        f"`lv = LIMIT` (line {_line('lv = LIMIT')}) reads `LIMIT`: `LIMIT` is bound at line {_line('LIMIT = 3')}"
        f" and then bound again by `raise_limit` (line {_line('LIMIT = 9')}): what it holds at the check is not"
        " resolved."
    )


def test_a_dataclass_field_default_a_method_assigns_names_both(page_of: Any) -> None:
    page = page_of("plain")
    assert "self.mode" not in page["resolved"]
    note = _held(page)["self.mode"]
    assert "the constructor's argument `Options(mode=...)`, an instance or a subclass can replace it" in note
    assert f"`Options.switch` assigns `self.mode` (line {_line('self.mode = ')}) at run time" in note
