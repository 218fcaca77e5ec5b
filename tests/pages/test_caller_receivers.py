"""Receivers whose class the code states: attributes bound to a constructor, locals bound to what a function is
annotated (or documented) to return, parameters annotated with a base class (its subclasses' overrides reached
through it), and names a class body or module binds to a function."""

from __future__ import annotations

from errdex.pages import build_page
from errdex.pages.callers import CalledFunction, callers
from tests.pages.conftest import Indexer, error_id_of

FILES = {
    "lib/__init__.py": "",
    "lib/stack.py": """
        class Stack:
            def __init__(self):
                self._items = {}

            def bubble(self, item):
                if item not in self._items:
                    raise ValueError("the item is not in the stack")


        class Base:
            def sca(self, item):
                self._stack.bubble(item)

            def pop(self, item):
                self._other.bubble(item)


        class Figure(Base):
            def __init__(self):
                self._stack = Stack()
                self._other = make_other()


        def make_other():
            return object()
    """,
    "lib/adapters.py": """
        class BaseAdapter:
            def send(self, request):
                raise NotImplementedError


        class HTTPAdapter(BaseAdapter):
            def send(self, request):
                if request is None:
                    raise ValueError("no request to send")
                return request
    """,
    "lib/sessions.py": """
        from lib.adapters import BaseAdapter, HTTPAdapter


        def default_adapter() -> BaseAdapter:
            return HTTPAdapter()


        class Session:
            def get_adapter(self, url):
                \"\"\"The adapter for the url.

                :rtype: lib.adapters.BaseAdapter
                \"\"\"
                return HTTPAdapter()

            def send(self, request):
                adapter = self.get_adapter(url=request)
                return adapter.send(request)


        def direct(request):
            adapter = default_adapter()
            return adapter.send(request)


        def annotated(adapter: BaseAdapter, request):
            return adapter.send(request)


        def built(request):
            adapter = BaseAdapter()
            return adapter.send(request)
    """,
    "lib/grid.py": """
        class GridFinder:
            def __init__(self, transform):
                self.set_transform(transform)

            def set_transform(self, transform):
                if not callable(transform):
                    raise TypeError("the transform is not callable")

            update_transform = set_transform


        class Helper:
            def __init__(self):
                self.grid_finder = GridFinder(len)

            def update(self, transform):
                self.grid_finder.update_transform(transform)


        def check_name(name):
            if not name:
                raise ValueError("the name is empty")


        check = check_name


        def run(name):
            check(name)
    """,
}


def _callers(store, file, function):  # type: ignore[no-untyped-def]
    found = callers(store, store.release("lib"), CalledFunction(file, function))
    return {(c["function"], c["match"], c["through"]) for c in found["callers"]}, found["unresolved"]


def test_an_attribute_bound_to_a_constructor_in_a_subclass_is_of_that_class(indexed: Indexer) -> None:
    store = indexed(FILES, name="lib")
    got, unresolved = _callers(store, "lib/stack.py", "Stack.bubble")
    assert got == {("Base.sca", "typed", None)}  # Figure runs Base.sca and binds self._stack = Stack()
    assert unresolved == 1  # self._other comes from a function with no annotation: only counted


def test_a_call_through_a_base_class_reaches_the_subclass_override(indexed: Indexer) -> None:
    store = indexed(FILES, name="lib")
    got, _ = _callers(store, "lib/adapters.py", "HTTPAdapter.send")
    assert got == {
        ("Session.send", "typed", "BaseAdapter.send"),  # `:rtype:` of get_adapter
        ("direct", "typed", "BaseAdapter.send"),  # `-> BaseAdapter`
        ("annotated", "typed", "BaseAdapter.send"),  # a parameter annotated with the base
    }  # `built` constructs a BaseAdapter itself: never an HTTPAdapter
    summary = build_page(store, error_id_of(store, "lib", "no request to send"))["when_it_happens"]["summary"]
    assert "called from `Session.send` (through `BaseAdapter.send`)" in summary
    base, _ = _callers(store, "lib/adapters.py", "BaseAdapter.send")
    assert ("built", "typed", None) in base and ("Session.send", "typed", None) in base


def test_a_name_bound_to_a_function_is_a_use_of_it(indexed: Indexer) -> None:
    store = indexed(FILES, name="lib")
    got, _ = _callers(store, "lib/grid.py", "GridFinder.set_transform")
    assert got == {("GridFinder.__init__", "self", None), ("Helper.update", "typed", None)}
    module, _ = _callers(store, "lib/grid.py", "check_name")
    assert ("run", "module", None) in module


CHECKS = {
    "chk/__init__.py": "",
    "chk/checks.py": """
        def check_data(name, obj_type):
            if obj_type not in ("NotAnArray", "PandasDataframe", "list"):
                raise ValueError(f"data type {obj_type} not supported")


        def check_classifier(name):
            for obj_type in ["NotAnArray", "PandasDataframe"]:
                check_data(name, obj_type)


        def check_regressor(name):
            for obj_type in ["NotAnArray", "tuple"]:
                check_data(name, obj_type)


        def check_rebound(name):
            for obj_type in ["NotAnArray"]:
                obj_type = name
                check_data(name, obj_type)
    """,
    "chk/shapes.py": """
        class Shape:
            def area(self):
                if isinstance(self, Square) and len(str(self)):
                    return self.side()
                return 0

            def round_area(self):
                if isinstance(self, (Circle, Triangle)):
                    return self.side()
                return 0


        class Square(Shape):
            def side(self):
                raise ValueError("a square has no side here")


        class Circle(Shape):
            def side(self):
                return 1


        class Triangle(Shape):
            pass
    """,
}


def test_a_loop_over_literals_passes_each_in_turn(indexed: Indexer) -> None:
    store = indexed(CHECKS, name="chk")
    summary = build_page(store, error_id_of(store, "chk", "data type {} not supported"))["when_it_happens"]["summary"]
    assert "`check_data` is called from `check_regressor`, `check_rebound`;" in summary  # "tuple"; rebound
    assert (
        "`check_classifier` calls it with values that make the check false (the literals as written, each value of"
        " the `for` loop over literals around the call," in summary
    )


def test_an_isinstance_test_of_self_for_an_unrelated_class_rules_the_call_out(indexed: Indexer) -> None:
    store = indexed(CHECKS, name="chk")
    found = callers(store, store.release("chk"), CalledFunction("chk/shapes.py", "Square.side"))
    assert [(c["function"], c["line"], c["match"]) for c in found["callers"]] == [
        ("Shape.area", 4, "override")
    ]  # not round_area


INDEXES = {
    "idx/__init__.py": "",
    "idx/search.py": """
        import faiss


        class FaissIndex:
            def __init__(self, custom_index=None):
                self.faiss_index = custom_index
                if custom_index is None:
                    self.faiss_index = faiss.index_factory(4)

            def search(self, query, k=10):
                if len(query.shape) != 1:
                    raise ValueError("Shape of query is incorrect")
                return self.faiss_index.search(query, k)

            def search_batch(self, queries, k=10):
                return self.faiss_index.search(queries, k)


        def nearest(faiss_index, query):
            return faiss_index.search(query)
    """,
}


def test_an_attribute_the_class_binds_to_a_library_object_is_no_instance_named_like_it(indexed: Indexer) -> None:
    store = indexed(INDEXES, name="idx")
    found = callers(store, store.release("idx"), CalledFunction("idx/search.py", "FaissIndex.search"))
    got = {(c["function"], c["match"]) for c in found["callers"]}
    assert got == {("nearest", "receiver")}  # a parameter named like the class: nothing says what it holds
    assert found["unresolved"] == 1  # `self.faiss_index` in search_batch holds what __init__ binds: not resolved


def test_a_name_bound_by_with_is_the_class_built_when_its_enter_returns_self(indexed: Indexer) -> None:
    files = {
        "web/__init__.py": "",
        "web/session.py": """
            class Session:
                def __enter__(self):
                    return self

                def __exit__(self, *args):
                    return None

                def request(self, url):
                    if not url:
                        raise ValueError("no url")


            class Pool:
                def __enter__(self):
                    return Session()

                def __exit__(self, *args):
                    return None

                def request(self, url):
                    if not url:
                        raise ValueError("no pool url")


            def get(url):
                with Session() as session:
                    return session.request(url)


            def fetch(url):
                with Pool() as pool:
                    return pool.request(url)
        """,
    }
    store = indexed(files, name="web")
    (release,) = store.releases("web")
    session = callers(store, release, CalledFunction("web/session.py", "Session.request"))["callers"]
    assert [(c["function"], c["match"]) for c in session] == [("get", "typed")]
    # `Pool.__enter__` returns a `Session`, not the pool: `pool` is not known to be a `Pool`
    pool = callers(store, release, CalledFunction("web/session.py", "Pool.request"))["callers"]
    assert all(c["match"] != "typed" for c in pool)
