"""Caller claims the code supports: a caller that catches the error, a base method its subclass overrides, a
function re-exported by a package, calls whose literals rule the check out, and uses of unknown objects counted."""

from __future__ import annotations

from errdex.pages import build_page
from errdex.pages.callers import CalledFunction, callers
from tests.pages.conftest import Indexer, error_id_of

FILES = {
    "app/__init__.py": "",
    "app/errors.py": """
        class AppError(Exception):
            pass


        class NotFound(AppError):
            pass
    """,
    "app/scan.py": """
        from app.errors import NotFound


        def scan(path):
            if not path:
                raise NotFound(f"nothing at {path}")
            return path


        def strict(path):
            return scan(path)


        def lenient(path):
            try:
                return scan(path)
            except AppError:
                return None


        def relaying(path):
            try:
                return scan(path)
            except NotFound:
                raise


        def unrelated(path):
            try:
                return scan(path)
            except KeyError:
                return None


        def later(path):
            try:
                return lambda: scan(path)
            except Exception:
                return None
    """,
    "app/ops/__init__.py": "from app.ops.mask import combine\n",
    "app/ops/mask.py": """
        def combine(left, mode="or"):
            if mode == "xor" and left is None:
                raise ValueError(f"cannot combine {left}")
            return left
    """,
    "app/arrays.py": """
        from app import ops


        class Base:
            def shift(self, n):
                return self.concat(n)

            def grow(self, n):
                return self.concat(n)

            def concat(self, n):
                return n


        class Interval(Base):
            def shift(self, n):
                return n

            def concat(self, n):
                if n < 0:
                    raise ValueError(f"negative {n}")
                return n

            def logic(self, left):
                return ops.combine(left, "or")

            def logic_xor(self, left):
                return ops.combine(left, mode="xor")

            def other(self, thing):
                return thing.concat(1)
    """,
    "app/dev.py": """
        def deviance(y, power=0):
            if power < 0:
                raise ValueError(f"bad power {power}")
            elif 1 <= power < 2:
                if y < 0:
                    raise ValueError(f"negative y {y} for power {power}")
            return y


        def gamma(y):
            return deviance(y, power=2)


        def poisson(y):
            return deviance(y, 1)
    """,
}


def _page(store, template):  # type: ignore[no-untyped-def]
    return build_page(store, error_id_of(store, "app", template))


def test_a_caller_that_catches_the_error_is_shown_apart(indexed: Indexer) -> None:
    store = indexed(FILES, name="app")
    page = _page(store, "nothing at {}")
    caught = {c["function"]: c["caught"] for c in page["callers"]}
    assert caught["lenient"] == {"try_line": 15, "catches": "AppError"}  # a base of NotFound
    assert caught["strict"] is None and caught["relaying"] is None  # `except NotFound: raise` lets it through
    assert caught["unrelated"] is None  # KeyError is no base of NotFound
    assert caught["later"] is None  # the lambda runs after the `try` has ended
    summary = page["when_it_happens"]["summary"]
    assert "`scan` is called from `strict`, `relaying`, `unrelated`, `later`;" in summary
    assert "`lenient` calls it inside `try` and catches `AppError` (app/scan.py:15)" in summary
    assert "reached from" not in summary


def test_a_base_method_its_class_overrides_is_no_way_in(indexed: Indexer) -> None:
    store = indexed(FILES, name="app")
    found = callers(store, store.release("app"), CalledFunction("app/arrays.py", "Interval.concat"))
    got = {(c["function"], c["match"]) for c in found["callers"]}
    assert ("Base.grow", "override") in got  # Interval inherits grow: it runs self.concat on an Interval
    assert not any(f == "Base.shift" for f, _ in got)  # Interval overrides shift: Base.shift never runs on one


def test_a_function_re_exported_by_its_package_is_found_through_it(indexed: Indexer) -> None:
    store = indexed(FILES, name="app")
    found = callers(store, store.release("app"), CalledFunction("app/ops/mask.py", "combine"))
    assert [(c["function"], c["match"]) for c in found["callers"]] == [
        ("Interval.logic", "import"),
        ("Interval.logic_xor", "import"),
    ]
    summary = _page(store, "cannot combine {}")["when_it_happens"]["summary"]
    assert "`combine` is called from `Interval.logic_xor`;" in summary
    assert "`Interval.logic` calls it with values that make the check false" in summary  # mode "or", positional
    assert "No caller" not in summary


def test_literal_arguments_outside_an_elif_branch_are_no_way_in(indexed: Indexer) -> None:
    store = indexed(FILES, name="app")
    summary = _page(store, "negative y {} for power {}")["when_it_happens"]["summary"]
    assert "`deviance` is called from `poisson`;" in summary  # power=1 passed positionally
    assert "`gamma` calls it with values that make the check false" in summary  # power=2: `1 <= power < 2` false
    assert "whether that call can reach the check is not decided from what it passes." in summary


def test_uses_on_objects_of_unknown_class_are_only_counted(indexed: Indexer) -> None:
    store = indexed(FILES, name="app")
    page = _page(store, "negative {}")
    summary = page["when_it_happens"]["summary"]
    assert "Not examined: 1 use of the name `concat` on objects whose class was not resolved; a call of" in summary
    assert "thing.concat" not in summary and "may reach" not in summary


def test_no_caller_sentence_only_when_none_was_found(indexed: Indexer) -> None:
    dev = FILES["app/dev.py"].replace("deviance(y, 1)", "deviance(y, power=3)")
    store = indexed({**FILES, "app/dev.py": dev}, name="app")
    summary = _page(store, "negative y {} for power {}")["when_it_happens"]["summary"]
    assert "`gamma`, `poisson` call it with values that make the check false" in summary
    assert "No caller" not in summary and "is called from" not in summary


ONLY_UNKNOWN = {
    "reg/__init__.py": "",
    "reg/serial.py": """
        class FunctionSerializer:
            def __init__(self, value):
                self.value = value

            def serialize(self):
                if self.value.__name__ == "<lambda>":
                    raise ValueError(f"cannot serialize lambda: {self.value}")
                return self.value.__name__


        REGISTRY = {type(len): FunctionSerializer}


        def factory(value):
            return REGISTRY[type(value)](value)


        def dump(value):
            return factory(value).serialize()
    """,
}


def test_no_caller_is_claimed_absent_when_uses_were_not_examined(indexed: Indexer) -> None:
    store = indexed(ONLY_UNKNOWN, name="reg")
    page = build_page(store, error_id_of(store, "reg", "cannot serialize lambda: {}"))
    summary = page["when_it_happens"]["summary"]
    assert "No call of `FunctionSerializer.serialize` was resolved among the 2 files of the package;" in summary
    assert "No caller of" not in summary
    assert "not followed: getattr() by string, calls from outside the package, uses of the name on objects" in summary
