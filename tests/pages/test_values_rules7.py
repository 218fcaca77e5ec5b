"""Claims of kinds of code graded false in seed 2033 and the scout sample of seed 2041: a dataclass constructor
call whose fields (and `InitVar`s) make `__post_init__`'s check false is no way to the error, one that leaves out a
field `__post_init__` binds again is undecided; a local bound to a constant the check's own test turns away says
so with its test; a name a test reads before the function binds it again is traced where the test reads it; a
function that calls itself lists that call; a store after the check is not one the check sees."""

from __future__ import annotations

from typing import Any

import pytest

from tests.pages.conftest import Indexer, pages_of

RECORDS = """
    from dataclasses import InitVar, dataclass, field


    @dataclass
    class Result:
        task: str
        value: float = 0.0
        source_name: str = None
        source_url: str = None

        def __post_init__(self):
            if self.source_name is not None and self.source_url is None:
                raise ValueError("source_url is needed with source_name")


    def from_index(task, name, url):
        return Result(task, source_name=name, source_url=url)


    def plain(task):
        return Result(task=task, value=1.0)


    def positional(task):
        return Result(task, 2.0)


    @dataclass
    class Label:
        num: InitVar[int] = None
        names: list = None
        names_file: InitVar[str] = None
        kind: str = field(default="label", init=False)

        def __post_init__(self, num, names_file):
            self.names_file = names_file
            if self.names_file is not None and self.names is not None:
                raise ValueError("names or names_file, not both")
            if self.names is None:
                self.names = ["a"]


    def encode(column):
        return Label(names=column)


    def from_file(path, names):
        return Label(names=names, names_file=path)


    @dataclass
    class Args:
        shard: str = ""

        def __post_init__(self):
            if isinstance(self.shard, str):
                self.shard = self.shard.split()
            if "full" in self.shard and "grad" in self.shard:
                raise ValueError("full and grad together")


    def trainer():
        return Args()
"""


@pytest.fixture
def page(indexed: Indexer) -> Any:
    return pages_of(indexed({"records/__init__.py": RECORDS}, name="records"), "records")


def test_a_constructor_leaving_a_checked_field_at_a_default_that_makes_it_false_is_no_way_in(page: Any) -> None:
    summary = page("source_url is needed with source_name")["when_it_happens"]["summary"]
    assert "`Result.__post_init__` is called from `from_index`; whether that call can reach the check is not" in summary
    assert "`plain`, `positional` call it with values that make the check false" in summary


def test_an_initvar_copied_to_the_attribute_the_check_reads_is_the_constructor_argument(page: Any) -> None:
    """`self.names_file = names_file` before the check: `Label(names=...)` leaves the InitVar at None."""
    built = page("names or names_file, not both")
    summary = built["when_it_happens"]["summary"]
    assert "`encode` calls it with values that make the check false" in summary
    assert "`Label.__post_init__` is called from `from_file`; whether that call" in summary
    values = {v["name"]: v for v in built["what_it_means"]["values"]}
    note = values["self.names"]["choice"]
    assert "no code of the module assigns it before the check; `Label.__post_init__` does, after it" in note


def test_a_field_post_init_binds_again_leaves_the_call_undecided(page: Any) -> None:
    summary = page("full and grad together")["when_it_happens"]["summary"]
    assert "`trainer` leaves out `shard`, which `Args.__post_init__` binds again before the check" in summary
    assert "whether this call reaches it is not decided" in summary
    assert "make the check false" not in summary


FLOWS = """
    def source_call(table, query):
        valid = False
        if query is None or isinstance(query, str):
            valid = True
        elif isinstance(query, (list, tuple)):
            if len(query) == 0 or isinstance(query[0], str):
                valid = True
        if not valid:
            raise ValueError("query must be a str or a list of str")
        return table


    def select(url, proxies):
        return proxies.get(url)


    def connect(url, proxies):
        proxy = select(url, proxies)
        if proxy:
            proxy = "http://" + proxy
            host = proxy.partition("//")[2]
            if not host:
                raise ValueError("proxy has no host")
        return proxy


    def assert_value(val):
        if isinstance(val, str):
            return val
        elif isinstance(val, (list, tuple)):
            return tuple(assert_value(v) for v in val)
        else:
            raise TypeError("values must be str or sequences of str")


    def walk(node):
        if node is None:
            raise ValueError("no node")
        return [walk(child) for child in node]
"""


@pytest.fixture
def flows(indexed: Indexer) -> Any:
    return pages_of(indexed({"flows/__init__.py": FLOWS}, name="flows"), "flows")


def test_a_constant_the_checks_own_test_turns_away_is_said_with_its_test(flows: Any) -> None:
    summary = flows("query must be a str or a list of str")["when_it_happens"]["summary"]
    assert "`valid` is computed in `source_call` from `False` (line 2)" in summary
    assert (
        "the check does not fire when `valid` was last bound by `valid = True` (line 4, under `if query is None or"
        " isinstance(query, str)`) or `valid = True` (line 7, under `if len(query) == 0 or isinstance(query[0],"
        " str)`)"
    ) in summary


def test_a_name_a_test_reads_before_it_is_bound_again_is_traced_at_that_test(flows: Any) -> None:
    summary = flows("proxy has no host")["when_it_happens"]["summary"]
    assert (
        "`proxy` is computed in `connect` from `select(url, proxies)` (line 18), as the test at line 19 reads it"
        " (line 20 binds it again after that test)"
    ) in summary


def test_a_function_that_calls_itself_lists_that_call(flows: Any) -> None:
    built = flows("values must be str or sequences of str")
    assert [(c["function"], c["match"], c["line"]) for c in built["callers"]] == [("assert_value", "recursive", 31)]
    summary = built["when_it_happens"]["summary"]
    assert "`assert_value` also calls itself (line 31)" in summary
    assert "No caller of `assert_value` other than itself was found" in summary
    assert "is called from" not in summary


REDIRECTS = """
    LIMIT = 30


    class RedirectMixin:
        def resolve(self, resp):
            hist = []
            while resp.location:
                hist.append(resp)
                resp.history = hist[1:]
                if len(resp.history) >= self.max_redirects:
                    raise RuntimeError("too many redirects")
                resp = resp.next


    class Session(RedirectMixin):
        def __init__(self):
            self.max_redirects = LIMIT
"""


def test_a_mixins_attribute_is_traced_to_the_subclass_that_stores_it(indexed: Indexer) -> None:
    page = pages_of(indexed({"redirects/__init__.py": REDIRECTS}, name="redirects"), "redirects")
    built = page("too many redirects")
    assert "`Session.__init__` stores `LIMIT` in `self.max_redirects` (line 17)" in built["when_it_happens"]["summary"]
    assert "could not be traced" not in built["when_it_happens"]["summary"]


def test_filling_a_list_the_function_built_is_no_call_that_may_reject(indexed: Indexer) -> None:
    page = pages_of(indexed({"redirects/__init__.py": REDIRECTS}, name="redirects"), "redirects")
    meaning = page("too many redirects")["what_it_means"]
    assert all("append" not in c["call"] for c in meaning["calls_before"])


MIXED = """
    class TensorMixin:
        def to_tensors(self, batch_size=None, workers=0):
            if workers > 0 and batch_size is None:
                raise ValueError("batch_size is needed with workers")


    class Table(TensorMixin):
        pass
"""


def test_a_mixins_method_is_called_on_an_object_of_the_class_built_on_it(indexed: Indexer) -> None:
    page = pages_of(indexed({"mixed/__init__.py": MIXED}, name="mixed"), "mixed")
    calls = {
        w["call"]
        for item in page("batch_size is needed with workers")["when_it_happens"]["inputs"]
        for w in item["ways_in"]
    }
    assert calls == {"table.to_tensors(batch_size=...)", "table.to_tensors(workers=...)"}


STYLES = """
    class Style:
        class _Curve:
            arrow = "-"

            def __init__(self):
                if "-" not in self.arrow:
                    raise ValueError("arrow must have a dash")

        class Curve(_Curve):
            pass

        class CurveA(_Curve):
            arrow = "<-"

        class CurveB(CurveA):
            arrow = "->"
"""


def test_a_class_default_subclasses_set_in_their_body_is_not_resolved(indexed: Indexer) -> None:
    page = pages_of(indexed({"styles/__init__.py": STYLES}, name="styles"), "styles")
    values = {v["name"]: v for v in page("arrow must have a dash")["what_it_means"]["values"]}
    assert values["self.arrow"]["known"] is False
    assert values["self.arrow"]["choice"] == (
        "`arrow = '-'` (line 3) is only `_Curve`'s class default: 2 subclasses of the module set `arrow` in their"
        " class body (`CurveA` (line 13), `CurveB` (line 16)), and objects of those see their own: its value at the"
        " check is not resolved."
    )


COMPOSITE = """
    class Composite:
        def __init__(self, accessor=None):
            self._accessor = accessor
            self._create_descriptor()

        def _create_descriptor(self):
            def fset(instance, value):
                return self._values_of(value)

            self.descriptor = fset

        def _values_of(self, value):
            if self._accessor is None and not hasattr(value, "__values__"):
                raise TypeError("no accessor and no __values__")
            return value
"""


def test_a_method_defining_a_closure_that_calls_the_check_does_not_reach_it_itself(indexed: Indexer) -> None:
    page = pages_of(indexed({"composite/__init__.py": COMPOSITE}, name="composite"), "composite")
    summary = page("no accessor and no __values__")["when_it_happens"]["summary"]
    assert "then reaches the check by calling" not in summary
    assert "`Composite._values_of` is called from `Composite._create_descriptor.<locals>.fset`; whether" in summary


# Kinds graded false in seed 2034.
TWINS = """
    class Axes:
        def _make_twin(self, *args, **kwargs):
            if "sharex" in kwargs and "sharey" in kwargs:
                raise ValueError("Twinned Axes may share only one axis")
            return self

        def twinx(self):
            return self._make_twin(sharex=self)

        def both(self):
            return self._make_twin(sharex=self, sharey=self)


    class Compiler:
        def __init__(self):
            self.binds = {}

        def visit(self, name, bind):
            if name in self.binds:
                raise KeyError("bind name already used")
            self.binds[name] = bind


    class Table:
        def read_column(self, column):
            if not self.axes:
                return None
            for a in self.axes:
                if column == a.name:
                    return a
            raise KeyError("column not found in the table")


    def chunks(f):
        batch = f.read(10)
        while True:
            if batch.endswith("\\n"):
                batch += f.readline()
            if f.strict:
                batch = batch.strip()
            if not batch:
                raise ValueError("empty batch")
"""


@pytest.fixture
def twins(indexed: Indexer) -> Any:
    return pages_of(indexed({"twins/__init__.py": TWINS}, name="twins"), "twins")


def test_the_keywords_kwargs_collects_decide_a_check_of_their_names(twins: Any) -> None:
    summary = twins("Twinned Axes may share only one axis")["when_it_happens"]["summary"]
    assert "`Axes.twinx` calls it with values that make the check false" in summary
    assert "the keywords `**kwargs` collects (their names)" in summary
    assert (
        "`Axes._make_twin` is called from `Axes.both`; whether that call can reach the check is not decided" in summary
    )


def test_an_attribute_methods_fill_in_place_is_said_with_its_first_store(twins: Any) -> None:
    summary = twins("bind name already used")["when_it_happens"]["summary"]
    assert (
        "`Compiler.__init__` stores `{}` in `self.binds` (line 16); `self.binds` is changed in place by"
        " `Compiler.visit` (line 21), so the check sees what those put in it"
    ) in summary


def test_a_return_in_a_loop_before_the_raise_is_said_with_its_loop_and_test(twins: Any) -> None:
    summary = twins("column not found in the table")["what_it_means"]["summary"]
    assert "at line 30 (in the `for` loop at line 28, when `column == a.name` holds)" in summary


def test_a_name_changed_by_an_augmented_assignment_says_so(twins: Any) -> None:
    summary = twins("empty batch")["when_it_happens"]["summary"]
    assert "and changed at line 38 (`+=` or in place)" in summary


def test_calls_from_the_packages_own_tests_are_counted_not_named_as_ways_in(indexed: Indexer) -> None:
    store = indexed(
        {
            "dummies/__init__.py": """
                def from_dummies(data, sep=None):
                    if sep is not None and not isinstance(sep, str):
                        raise TypeError("sep must be a str")
                    return data
            """,
            "dummies/tests/test_dummies.py": """
                from dummies import from_dummies


                def test_sep():
                    from_dummies([], sep=1)


                def test_plain():
                    from_dummies([])
            """,
        },
        name="dummies",
    )
    summary = pages_of(store, "dummies")("sep must be a str")["when_it_happens"]["summary"]
    assert "The package's own tests call it 2 times (in 1 file; listed below, not as ways in)." in summary
    assert "No caller of `from_dummies` outside the package's tests was found" in summary
    assert "test_sep" not in summary and "test_plain" not in summary


# Kinds graded false in seed 2035.
SHADES = """
    def check_in_list(values, **kwargs):
        for k, v in kwargs.items():
            if v not in values:
                raise ValueError(f"{v!r} is not a valid value for {k}")


    def pcolor(shading, flat):
        try:
            check_in_list(["flat", "auto", "nearest"], shading=shading)
        except ValueError:
            shading = "auto"
        if shading == "nearest" and flat:
            raise TypeError("nearest shading needs matching sizes")


    def to_rgba(c, alpha, n):
        if len(alpha) != n and c in (3, 4):
            raise ValueError("alpha must match the number of colors")


    def from_pairs(value):
        if value is None:
            return None
        if isinstance(value, (str, bytes, bool, int)):
            raise ValueError("cannot encode objects that are not 2-tuples")
        return dict(value)
"""


@pytest.fixture
def shades(indexed: Indexer) -> Any:
    return pages_of(indexed({"shades/__init__.py": SHADES}, name="shades"), "shades")


def test_a_call_inside_a_try_whose_handler_goes_on_is_not_said_to_reject_first(shades: Any) -> None:
    meaning = shades("nearest shading needs matching sizes")["what_it_means"]
    assert meaning["calls_before"] == []
    assert "may reject" not in meaning["summary"]


def test_a_forbidden_list_beside_another_clause_is_not_advised(shades: Any) -> None:
    page = shades("alpha must match the number of colors")
    assert all(s["kind"] != "avoid_value" for s in page["solutions"])


def test_an_example_fix_never_makes_the_function_return_before_the_check(shades: Any) -> None:
    page = shades("cannot encode objects that are not 2-tuples")
    fix = page["example_fix"]
    assert fix is None or fix["value_after"] != "None"
    assert {"line": 23, "when": ["value is None"]} in page["what_it_means"]["exits"]


def test_a_message_written_only_under_a_test_names_that_test(indexed: Indexer) -> None:
    store = indexed(
        {
            "hubfs/__init__.py": """
                class NotFound(Exception):
                    pass


                def raise_not_found(path, err):
                    msg = path
                    if isinstance(err, NotFound):
                        msg = f"{path} (repository not found)"
                    raise FileNotFoundError(msg) from err
            """
        },
        name="hubfs",
    )
    summary = pages_of(store, "hubfs")("{} (repository not found)")["what_it_means"]["summary"]
    assert (
        "This message's own text is written only at line 8 (`msg = f'{path} (repository not found)'`, under"
        " `isinstance(err, NotFound)`)."
    ) in summary


def test_tests_reading_different_bindings_of_a_name_say_each(indexed: Indexer) -> None:
    store = indexed(
        {
            "grouping/__init__.py": """
                def convert(index, grouper):
                    return grouper


                def group(index, grouper, level):
                    vector = convert(index, grouper)
                    if level is not None:
                        vector = index
                    elif not isinstance(vector, (list, tuple)):
                        vector = index.map(vector)
                        if len(vector) != len(index):
                            raise AssertionError("Grouper result violates len(labels) == len(data)")
                    return vector
            """
        },
        name="grouping",
    )
    summary = pages_of(store, "grouping")("Grouper result violates len(labels) == len(data)")["when_it_happens"]
    assert (
        "`vector` is computed in `group` from `convert(index, grouper)` (line 6), as the test at line 9 reads it;"
        " `vector` is computed in `group` from `index.map(vector)` (line 10), as the test at line 11 reads it."
    ) in summary["summary"]


# Kinds graded false in seed 2036.
COOKIES = """
    import datetime


    class Response:
        def set_cookie(self, expires=None, max_age=None):
            if expires is not None:
                if isinstance(expires, datetime.datetime):
                    delta = expires - datetime.datetime.now()
                    expires = None
                    if max_age is not None:
                        raise ValueError("'expires' and 'max_age' can't be used together.")
                    max_age = delta.days


    def clone(repo_url, prefix=None):
        if prefix:
            repo_url += prefix
        if "//" not in repo_url:
            raise ValueError("not a url")


    def wait(commands):
        failed = [c for c in commands if c.status > 0]
        for command in failed:
            print(command)
            raise OSError("a command failed")


    def validate(config):
        if config.bad:
            raise ValueError("invalid config")


    def save(config):
        try:
            validate(config)
        except ValueError as exc:
            raise ValueError(str(exc) + " Fix these issues to save.")
"""


@pytest.fixture
def cookies(indexed: Indexer) -> Any:
    return pages_of(indexed({"cookies/__init__.py": COOKIES}, name="cookies"), "cookies")


def test_a_parameter_bound_again_after_every_test_that_reads_it_is_not_said_rebound(cookies: Any) -> None:
    meaning = cookies("'expires' and 'max_age' can't be used together.")["what_it_means"]
    assert [r["name"] for r in meaning["rebound"]] == []
    assert "here is its value after" not in meaning["summary"]


def test_an_augmented_assignment_of_a_parameter_is_among_its_rebindings(cookies: Any) -> None:
    meaning = cookies("not a url")["what_it_means"]
    assert [(r["name"], r["line"], r["code"]) for r in meaning["rebound"]] == [("repo_url", 17, "repo_url += prefix")]


def test_an_unguarded_raise_in_a_loop_says_it_runs_for_each_item(cookies: Any) -> None:
    summary = cookies("a command failed")["what_it_means"]["summary"]
    assert "it is in the body of the `for` loop at line 24 (over `failed`): it runs once for each item" in summary


def test_a_caller_whose_handler_raises_another_error_is_not_said_to_catch_it(cookies: Any) -> None:
    page = cookies("invalid config")
    assert [c["caught"] for c in page["callers"]] == [None]
    assert "does not reach the user" not in page["when_it_happens"]["summary"]


def test_a_module_alias_of_the_function_is_followed_to_its_calls_in_that_module(indexed: Indexer) -> None:
    store = indexed(
        {
            "valid/_decorators.py": """
                def inspect_validator(validator, mode):
                    if mode not in ("before", "after"):
                        raise ValueError("unknown mode")
                    return validator
            """,
            "valid/functional.py": """
                from valid import _decorators

                _inspect = _decorators.inspect_validator


                class AfterValidator:
                    def schema(self, func):
                        return _inspect(func, "after")
            """,
        },
        name="valid",
    )
    page = pages_of(store, "valid")("unknown mode")
    assert [(c["function"], c["match"], c["through"]) for c in page["callers"] if c["use"] == "call"] == [
        ("AfterValidator.schema", "alias", "_inspect")
    ]


# Kinds graded false in seed 2037.
def test_a_pip_install_whose_version_is_filled_in_at_run_time_names_only_the_distribution() -> None:
    from errdex.pages.advice import distributions

    found = distributions("requires `accelerate>={}`: Please run `pip install 'accelerate>={}'`")
    assert found == [
        {"name": "accelerate", "source": "named by `pip install` in the message, at a version it fills in at run time"}
    ]


def test_a_handler_that_hands_the_caught_error_on_says_so(indexed: Indexer) -> None:
    store = indexed(
        {
            "meta/__init__.py": """
                class MetadataError(Exception):
                    pass


                def get_metadata(url, offline):
                    try:
                        if offline:
                            raise MetadataError("cannot fetch metadata offline")
                        return url
                    except MetadataError as error:
                        head_error = error
                    return head_error
            """
        },
        name="meta",
    )
    meaning = pages_of(store, "meta")("cannot fetch metadata offline")["what_it_means"]
    assert meaning["caught_by"] is not None and meaning["caught_by"]["kept"] == [11]
    assert "though code handed that object may raise it, or another error from it, later" in meaning["summary"]


def test_a_name_bound_only_in_a_block_that_leaves_first_is_said_unbound_at_the_raise(indexed: Indexer) -> None:
    store = indexed(
        {
            "dtypes/__init__.py": """
                import re


                def to_arrow(dtype):
                    stamp = re.search("^timestamp\\\\[(.*)\\\\]$", dtype)
                    if stamp:
                        inner = stamp.group(1)
                        if inner in ["s", "ms"]:
                            return inner
                        raise ValueError("bad timestamp")
                    duration = re.search("^duration\\\\[(.*)\\\\]$", dtype)
                    if duration:
                        raise ValueError("bad duration")
            """
        },
        name="dtypes",
    )
    summary = pages_of(store, "dtypes")("bad duration")["when_it_happens"]["summary"]
    assert (
        "`inner` is bound in `to_arrow` only at line 7, on paths that leave the function before line 13: a run that"
        " reaches line 13 did not bind it."
    ) in summary


def test_a_subclass_made_with_type_may_set_the_class_default(indexed: Indexer) -> None:
    store = indexed(
        {
            "constr/__init__.py": """
                class ConstrainedDecimal:
                    decimal_places = None

                    @classmethod
                    def validate(cls, decimals):
                        if cls.decimal_places is not None and decimals > cls.decimal_places:
                            raise ValueError("too many decimal places")


                def condecimal(decimal_places=None):
                    namespace = dict(decimal_places=decimal_places)
                    return type("ConstrainedDecimalValue", (ConstrainedDecimal,), namespace)
            """
        },
        name="constr",
    )
    values = {v["name"]: v for v in pages_of(store, "constr")("too many decimal places")["what_it_means"]["values"]}
    assert "`condecimal` makes a subclass of it with `type(...)` (line 12)" in values["cls.decimal_places"]["choice"]
    assert "no code of the module assigns it" not in values["cls.decimal_places"]["choice"]


def test_a_mixin_built_on_by_several_classes_keeps_its_own_name(indexed: Indexer) -> None:
    two = MIXED + "\n\n    class Frame(TensorMixin):\n        pass\n"
    page = pages_of(indexed({"mixed/__init__.py": two}, name="mixed"), "mixed")
    inputs = page("batch_size is needed with workers")["when_it_happens"]["inputs"]
    assert {w["call"] for item in inputs for w in item["ways_in"]} == {
        "tensor_mixin.to_tensors(batch_size=...)",
        "tensor_mixin.to_tensors(workers=...)",
    }
