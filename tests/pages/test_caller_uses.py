"""What counts as a use of the function on its page: every call site, decorator factories called in decorator
position, self-calls in a base class's methods; never its own decorators nor an attribute read on it."""

from __future__ import annotations

from errdex.pages import build_page
from errdex.pages.callers import CalledFunction, callers
from errdex.pages.model import CallerSearch
from errdex.store import Store
from tests.pages.conftest import Indexer, error_id_of

USES = {
    "uses/__init__.py": "",
    "uses/deco.py": """
        import functools

        REGISTRY = []


        def register(func):
            REGISTRY.append(func)
            return func


        def check_kind(kind, extra=None):
            if extra is not None and not isinstance(extra, list):
                raise ValueError("extra must be a list")

            def wrap(func):
                return func

            return wrap


        @register
        @functools.cache
        def lookup(name):
            if not isinstance(name, str):
                raise TypeError("name must be a str")
            return name


        def clear():
            lookup.cache_clear()
            return lookup.__name__


        def twice(a, b):
            first = lookup(a)
            second = lookup(b)
            return first + second


        CHUNK = 10 * 1024
        LABEL = "x"
        SIZE = 1


        def read(chunk_size=None):
            if chunk_size is not None and not isinstance(chunk_size, int):
                raise TypeError("chunk_size must be an int")
            return chunk_size


        def whole():
            return read(CHUNK)


        def labelled():
            return read(chunk_size=LABEL)


        def grow():
            global SIZE
            SIZE = "big"


        def sized():
            return read(SIZE)
    """,
    "uses/ops.py": """
        from uses.deco import check_kind


        class Ops:
            def zero(self):
                return 0

            @check_kind("a")
            def one(self):
                return 1

            @check_kind("b", extra=["x"])
            def two(self):
                return 2
    """,
    "uses/merge.py": """
        class Base:
            def __init__(self, left=None, right=None):
                self.left = left
                self.right = right
                self.validate()

            def validate(self):
                return None


        class Middle(Base):
            def __init__(self, left=None, right=None):
                Base.__init__(self, left=left, right=right)


        class AsOf(Middle):
            def __init__(self, left=None, right=None, left_by=None, right_by=None):
                self.left_by = left_by
                self.right_by = right_by
                Middle.__init__(self, left=left, right=right)

            def validate(self):
                if self.left_by is not None and self.right_by is None:
                    raise ValueError("missing right_by")


        class Detached(Base):
            def __init__(self, by=None):
                self.by = by

            def validate(self):
                if self.by is None:
                    raise ValueError("missing by")
    """,
}


def _search(store: Store, file: str, function: str) -> CallerSearch:
    return callers(store, store.release("uses"), CalledFunction(file, function))


def _page(store: Store, template: str) -> dict:
    return dict(build_page(store, error_id_of(store, "uses", template)))


def test_own_decorators_and_attribute_reads_are_no_uses_and_every_call_is_listed(indexed: Indexer) -> None:
    store = indexed(USES, name="uses")
    search = _search(store, "uses/deco.py", "lookup")
    # both calls in `twice`, each with its line; `lookup.cache_clear()` and `lookup.__name__` in `clear` neither
    # run it nor hand it on; `@register` and `@functools.cache` are its own decorators, not uses
    assert [(c["function"], c["line"], c["use"]) for c in search["callers"]] == [
        ("twice", 35, "call"),
        ("twice", 36, "call"),
    ]
    assert [c["call"] for c in search["decorated_by"]] == ["@register", "@functools.cache"]
    page = _page(store, "name must be a str")
    assert [c["line"] for c in page["callers"]] == [35, 36]
    summary = page["when_it_happens"]["summary"]
    assert "`lookup` is called from `twice`;" in summary
    assert "referenced" not in summary and "clear" not in summary


def test_a_decorator_factory_called_in_decorator_position_is_called(indexed: Indexer) -> None:
    store = indexed(USES, name="uses")
    search = _search(store, "uses/deco.py", "check_kind")
    got = [(c["file"], c["function"], c["line"], c["use"], c["call"]) for c in search["callers"]]
    assert got == [
        ("uses/ops.py", "Ops", 8, "call", "@check_kind('a')"),
        ("uses/ops.py", "Ops", 12, "call", "@check_kind('b', extra=['x'])"),
    ]
    assert search["callers"][1]["arguments"] == {
        "positional": ["'b'"],
        "keywords": {"extra": "['x']"},
        "unpacked": False,
        "constants": {},
    }
    summary = _page(store, "extra must be a list")["when_it_happens"]["summary"]
    assert "No caller" not in summary
    assert "`Ops`" in summary


def test_a_self_call_in_a_base_class_method_reaches_the_override(indexed: Indexer) -> None:
    store = indexed(USES, name="uses")
    search = _search(store, "uses/merge.py", "AsOf.validate")
    # `Base.__init__` runs on an `AsOf` through `AsOf.__init__` -> `Middle.__init__(self)` -> `Base.__init__(self)`
    assert [(c["function"], c["line"], c["match"]) for c in search["callers"]] == [("Base.__init__", 5, "override")]
    page = _page(store, "missing right_by")
    summary = page["when_it_happens"]["summary"]
    assert "called from `Base.__init__` (through `self` in a base class's method" in summary
    assert "stores `left_by` in `self.left_by` (line 18) and then reaches the check by calling `Middle.__init__()`" in (
        summary
    )
    assert [w["reaches_check"] for i in page["when_it_happens"]["inputs"] for w in i["ways_in"]] == [True, True]
    # `Detached.__init__` overrides `Base.__init__` without calling it: nothing runs `Detached.validate`
    assert _search(store, "uses/merge.py", "Detached.validate")["callers"] == []
    detached = _page(store, "missing by")
    assert "No caller of `Detached.validate` was found" in detached["when_it_happens"]["summary"]
    assert [w["reaches_check"] for i in detached["when_it_happens"]["inputs"] for w in i["ways_in"]] == [False]


def test_a_module_constant_passed_by_name_is_its_value(indexed: Indexer) -> None:
    store = indexed(USES, name="uses")
    search = _search(store, "uses/deco.py", "read")
    constants = {c["function"]: c["arguments"]["constants"] for c in search["callers"] if c["arguments"]}
    # `SIZE` is rebound by `grow` (`global SIZE`): no constant
    assert constants == {"whole": {"CHUNK": "10240"}, "labelled": {"LABEL": "'x'"}, "sized": {}}
    summary = _page(store, "chunk_size must be an int")["when_it_happens"]["summary"]
    assert "`read` is called from `labelled`, `sized`;" in summary
    assert (
        "`whole` calls it with values that make the check false (the literals as written, the values the module binds"
        " to the constants passed, the defaults of what is left out)" in summary
    )
