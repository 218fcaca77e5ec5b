"""A local's binding in force at the raise, and resolved values the check does not see (a container
changed in place, a class-level default)."""

from __future__ import annotations

import ast
import textwrap

from errdex.pages import build_page
from errdex.pages.inputs import trace
from errdex.pages.model import Page, WhenItHappens
from tests.pages.conftest import Indexer, error_id_of

SOURCE = """
import re
from dataclasses import dataclass


def parse(value):
    m = re.fullmatch("a+", value)
    if m:
        return 1
    m = re.fullmatch("b+", value)
    if m:
        return 2
    if not m:
        raise ValueError("not a color")


def build(namespace, bases):
    fields = {}
    for base in bases:
        fields.update(base.fields)
    for var_name, value in namespace.items():
        if var_name in fields:
            raise TypeError("field differs")


def send(conn):
    try:
        conn.open()
    except (OSError, KeyError) as e:
        if isinstance(e, KeyError):
            raise RuntimeError("bad header")


def either(flag):
    if flag:
        x = 1
    else:
        x = 2
    if x:
        raise LookupError("either way")


class Widget:
    multiple = False

    def __init__(self, attrs):
        if attrs and not self.multiple:
            raise ValueError("no multiple")


@dataclass
class Collator:
    prob: float = 0.1

    def __post_init__(self):
        if self.prob > 1:
            raise ValueError("prob too large")


class Builder:
    def prepare(self, reuse):
        if reuse:
            self.info = self.load()
            return
        if not self.info:
            raise OSError("no space")
"""


def _page(indexed: Indexer, template: str):
    store = indexed({"pkg/__init__.py": SOURCE})
    return build_page(store, error_id_of(store, "pkg", template))


def _summary(indexed: Indexer, template: str) -> str:
    return _page(indexed, template)["when_it_happens"]["summary"]


def test_the_last_binding_before_the_raise_is_in_force(indexed: Indexer) -> None:
    summary = _summary(indexed, "not a color")
    assert "`m` is computed in `parse` from `re.fullmatch('b+', value)` (line 9)" in summary
    assert "a+" not in summary


def test_bindings_in_both_branches_are_listed_unresolved(indexed: Indexer) -> None:
    summary = _summary(indexed, "either way")
    assert "`x` is bound 2 ways in `either` before the check: `x = 1` (line 35); `x = 2` (line 37)" in summary
    assert "not resolved" in summary


def test_loop_and_except_targets_are_named(indexed: Indexer) -> None:
    assert "`var_name` is the loop variable of `for var_name, value in namespace.items()` at line 20" in _summary(
        indexed, "field differs"
    )
    assert "`e` is the exception caught by `except (OSError, KeyError) as e` at line 28" in _summary(
        indexed, "bad header"
    )


def test_a_container_filled_before_the_raise_is_not_its_literal(indexed: Indexer) -> None:
    page = _page(indexed, "field differs")
    assert "fields" not in page["resolved"]
    value = next(v for v in page["what_it_means"]["values"] if v["name"] == "fields")
    assert not value["known"]
    assert "changed in place at line 19" in (value["choice"] or "")
    assert "0 keys" not in page["what_it_means"]["summary"]


def test_a_class_default_is_not_the_checked_value(indexed: Indexer) -> None:
    for template, replaced in (
        ("no multiple", "an instance or a subclass"),
        ("prob too large", "the constructor's argument `Collator(prob=...)`"),
    ):
        page = _page(indexed, template)
        assert not any(name.startswith("self.") for name in page["resolved"])
        value = next(v for v in page["what_it_means"]["values"] if v["name"].startswith("self."))
        assert not value["known"] and replaced in (value["choice"] or "")
        assert "the check sees it unless" in (value["choice"] or "")  # nothing in the module assigns it


def test_a_store_in_a_branch_that_returns_first_does_not_reach_the_check(indexed: Indexer) -> None:
    summary = _summary(indexed, "no space")
    assert "stores `self.load()` in `self.info`" not in summary


NAMES = {
    "names/__init__.py": "",
    "names/index.py": """
        class Base:
            pass


        class Index:
            def __init__(self, levels):
                self._levels = levels

            @property
            def nlevels(self):
                return len(self._levels)

            def set_codes(self, codes):
                if len(codes) != self.nlevels:
                    raise ValueError("codes and levels differ in length")

            def check(self, **kw):
                if kw:
                    raise TypeError(f"unexpected arguments {kw}")

            def same(self, other):
                if type(other) is Base:
                    raise TypeError("a Base is not an index")
    """,
}


def test_a_property_a_catch_all_parameter_and_a_module_class_are_traced(indexed: Indexer) -> None:
    store = indexed(NAMES, name="names")

    def summary(template: str) -> str:
        return build_page(store, error_id_of(store, "names", template))["when_it_happens"]["summary"]

    said = summary("codes and levels differ in length")
    assert "`self.nlevels` is the property `Index.nlevels` (line 10), computed when it is read" in said
    assert "`kw` is the `**kw` parameter of `Index.check`" in summary("unexpected arguments {}")
    assert "`Base` is the class the module defines at line 1" in summary("a Base is not an index")
    for template in ("codes and levels differ in length", "unexpected arguments {}", "a Base is not an index"):
        assert "could not be traced" not in summary(template)


FORMS = {
    "forms/__init__.py": "",
    "forms/core.py": """
        import os

        LIMIT = int(os.environ.get("LIMIT", "10"))
        load_engines = dict


        def make_validator(type_):
            def validate(v):
                if not isinstance(v, type_):
                    raise TypeError("instance expected")
                return v

            return validate


        class Reader:
            _engines = load_engines()

            def __init__(self, engine, raw=None):
                self.raw = None
                if engine not in self._engines:
                    raise ValueError(f"unknown engine {engine}")

            def chunks(self):
                def generate():
                    if self.raw is None:
                        raise OSError("no raw stream")
                    yield 1

                return generate()

            def __mul__(self, other):
                if self.__class__ is not type(other):
                    raise TypeError("cannot multiply")
                return self

            def limited(self, n):
                if n > LIMIT:
                    raise ValueError("over the limit")
    """,
}


def test_free_variables_class_attributes_dunders_and_module_constants_are_traced(indexed: Indexer) -> None:
    """A nested function's free variable is the enclosing function's parameter (its way in is a call of that
    function); `self._engines` is a class attribute; `self.__class__` is set by Python; a module constant is bound
    at the top level: none of them 'could not be traced'."""
    store = indexed(FORMS, name="forms")

    def happens(template: str) -> WhenItHappens:
        return build_page(store, error_id_of(store, "forms", template))["when_it_happens"]

    validator = happens("instance expected")
    type_ = next(i for i in validator["inputs"] if i["code"] == "type_")
    assert [w["call"] for w in type_["ways_in"]] == ["make_validator(type_=...)"]
    assert "read by `validate`, the function defined inside `make_validator` at line 8" in type_["ways_in"][0]["how"]
    engines = happens("unknown engine {}")
    assert "`self._engines` is the class attribute `Reader._engines` = `load_engines()` (line 17)" in engines["summary"]
    assert "`Reader.__init__` stores `None` in `self.raw` (line 20)" in happens("no raw stream")["summary"]
    assert "`self.__class__` is set by Python itself" in happens("cannot multiply")["summary"]
    limit = trace(ast.parse(textwrap.dedent(FORMS["forms/core.py"]).lstrip()), "Reader.limited", "LIMIT", 39)
    assert limit.kind == "other" and not limit.ways
    assert limit.bound[0].how == "`LIMIT` is bound at the module's top level (line 3)"
    for template in ("instance expected", "unknown engine {}", "no raw stream", "cannot multiply"):
        assert "could not be traced" not in happens(template)["summary"]


def test_ways_in_are_only_calls_and_properties(indexed: Indexer) -> None:
    """A local, a loop or comprehension variable, a class of the module, a store without an argument and a class
    attribute are where a name is bound, not ways in: none of them is listed (or marked) as one."""
    store = indexed({"pkg/__init__.py": SOURCE})
    for template in ("not a color", "field differs", "bad header", "either way", "no space"):
        page = build_page(store, error_id_of(store, "pkg", template))
        for item in page["when_it_happens"]["inputs"]:
            for way in item["ways_in"]:
                assert way["call"] or "parameter" in way["how"] or "property" in way["how"], (template, way)
    build = build_page(store, error_id_of(store, "pkg", "field differs"))["when_it_happens"]
    var_name = next(i for i in build["inputs"] if i["code"] == "var_name")
    assert not var_name["ways_in"] and var_name["bound"][0]["line"] == 20
    forms = indexed(FORMS, name="forms")
    multiply = build_page(forms, error_id_of(forms, "forms", "cannot multiply"))["when_it_happens"]
    assert all(not item["ways_in"] for item in multiply["inputs"] if item["code"] == "self.__class__")


ABSTRACT = {
    "ens/__init__.py": "",
    "ens/base.py": """
        from abc import ABCMeta, abstractmethod


        class BaseEnsemble(metaclass=ABCMeta):
            @abstractmethod
            def __init__(self, estimators):
                self.estimators = estimators

            def validate(self):
                if not self.estimators:
                    raise ValueError("no estimators")


        class Voting(BaseEnsemble):
            def __init__(self, estimators, weights=None):
                super().__init__(estimators=estimators)
                self.weights = weights
    """,
}


def test_an_abstract_class_constructor_is_no_way_in(indexed: Indexer) -> None:
    """`BaseEnsemble(estimators=...)` cannot be called (ABCMeta with an @abstractmethod): the page says its
    subclasses pass the argument on, and offers the subclass's constructor as the way in."""
    store = indexed(ABSTRACT, name="ens")
    (item,) = build_page(store, error_id_of(store, "ens", "no estimators"))["when_it_happens"]["inputs"]
    calls = [w["call"] for w in item["ways_in"]]
    assert "BaseEnsemble(estimators=...)" not in calls and "Voting(estimators=...)" in calls
    assert any("`BaseEnsemble` is abstract" in b["how"] for b in item["bound"])


INHERITED_ABSTRACT = {
    "sgd/__init__.py": """
        from abc import ABCMeta, abstractmethod


        class Base(metaclass=ABCMeta):
            def __init__(self, early_stopping=False):
                self.early_stopping = early_stopping

            @abstractmethod
            def fit(self):
                pass

            def split(self):
                if self.early_stopping and not self.shuffle:
                    raise ValueError("early stopping needs shuffling")


        class BaseClassifier(Base):
            @abstractmethod
            def __init__(self, early_stopping=False):
                super().__init__(early_stopping=early_stopping)


        class Classifier(BaseClassifier):
            def __init__(self, early_stopping=False):
                super().__init__(early_stopping=early_stopping)

            def fit(self):
                return self
    """,
}


def test_a_class_abstract_through_the_metaclass_of_its_base_is_no_way_in(indexed: Indexer) -> None:
    """`BaseClassifier.__init__` is an @abstractmethod and `ABCMeta` comes from its base `Base`: it cannot be
    constructed (nor can `Base`, whose `fit` is abstract), so only `Classifier(early_stopping=...)`, which
    overrides both abstract methods, is a way in."""
    store = indexed(INHERITED_ABSTRACT, name="sgd")
    inputs = build_page(store, error_id_of(store, "sgd", "early stopping needs shuffling"))["when_it_happens"]["inputs"]
    item = next(i for i in inputs if i["code"] == "self.early_stopping")
    calls = [w["call"] for w in item["ways_in"]]
    assert "BaseClassifier(early_stopping=...)" not in calls
    assert "Classifier(early_stopping=...)" in calls and "Base(early_stopping=...)" not in calls
    assert any("`BaseClassifier` is abstract" in b["how"] for b in item["bound"])


PROMPT = {
    "ask/__init__.py": """
        import os


        def squash(path, interactive):
            answer = None
            while not answer or answer not in "yn":
                answer = input("squash? ")
                answer = answer[:1].lower()
            if interactive and answer == "y" and os.path.exists(path):
                raise FileExistsError("already squashed")


        def maybe(path, ready):
            answer = None
            while ready and not answer:
                answer = input("go? ")
            if answer != "y" and os.path.exists(path):
                raise OSError("not confirmed")
    """,
}


def test_a_constant_a_loop_always_enters_and_rebinds_is_not_in_force(indexed: Indexer) -> None:
    """`answer = None` before a `while not answer ...` loop that binds `answer` first: None never gets past the
    loop. A loop that may not run (`while ready and ...`) keeps it."""
    store = indexed(PROMPT, name="ask")

    def summary(template: str) -> str:
        return build_page(store, error_id_of(store, "ask", template))["when_it_happens"]["summary"]

    squashed = summary("already squashed")
    assert "`answer = None`" not in squashed
    assert "`answer` is computed in `squash` from `answer[:1].lower()`" in squashed
    assert "`answer = None` (line 14)" in summary("not confirmed")


LOOPS = {
    "loops/__init__.py": """
        import os


        def squash(path, interactive):
            if interactive:
                answer = None
                while not answer or answer not in "yn":
                    answer = input("squash? ")
                    if not answer:
                        answer = "n"
                        break
                    else:
                        answer = answer[0].lower()
                if answer != "y":
                    return
            if os.path.exists(path) and (not interactive or answer == "y"):
                raise FileExistsError("already squashed")


        def poll(source, limit):
            reply = None
            while True:
                reply = source.read()
                if reply:
                    break
            if len(reply) > limit:
                raise OverflowError("reply too long")


        def first(items, wanted):
            status = "missing"
            for item in items:
                if item.name == wanted:
                    status = "found"
                    break
            else:
                status = "exhausted"
            if status and wanted:
                raise KeyError("no such item")


        def stored(cache, name, passes):
            cached = cache.get(name)
            if cached:
                return cached
            for _ in range(passes):
                cached = name.upper()
                if cached == name:
                    return cached
            raise ValueError("could not be hashed")
    """,
}


def test_what_leaves_a_loop_by_break_or_by_its_test_is_in_force(indexed: Indexer) -> None:
    """A `while` the first binding certainly enters and a `while True:` hand on only what their passes bind (by
    `break` or by the test failing); a constant excluded by a later `if ...: return` does not reach the raise; a
    `for` may leave by `break` or through its `else`, never with what was bound before it."""
    store = indexed(LOOPS, name="loops")

    def summary(template: str) -> str:
        return build_page(store, error_id_of(store, "loops", template))["when_it_happens"]["summary"]

    squashed = summary("already squashed")
    assert "`answer` is computed in `squash` from `answer[0].lower()` (line 13)" in squashed
    assert "`answer = None`" not in squashed and "'n'" not in squashed
    polled = summary("reply too long")
    assert "`reply` is computed in `poll` from `source.read()` (line 23)" in polled and "None" not in polled
    found = summary("no such item")
    assert "`status = 'found'` (line 34)" in found and "`status = 'exhausted'` (line 37)" in found
    in_force, _, excluded = found.partition("its other bindings before the check")
    assert "missing" not in in_force and "`status = 'missing'` (line 31)" in excluded and "not resolved" in found


FIELDS = {
    "fields/__init__.py": """
        from dataclasses import dataclass


        @dataclass
        class Collator:
            tokenizer: object
            probability: float = 0.15


        @dataclass
        class SentenceCollator(Collator):
            def mask(self, inputs):
                if self.tokenizer is None:
                    raise ValueError("a tokenizer is needed")
                return inputs


        def apply(constraints, handler):
            for constraint in constraints:
                if constraint:

                    def check(value):
                        try:
                            return handler(value)
                        except KeyError as ve:
                            if ve.args:
                                raise TypeError("constraint does not apply")

                    handler = check
            return handler


        def generate(kwargs, config):
            if config and (model := kwargs.get("assistant")):
                if model.config is not config:
                    raise ValueError("assistant has another config")
    """,
}


def test_a_dataclass_field_and_a_function_defined_in_a_loop_are_traced(indexed: Indexer) -> None:
    """A dataclass field of a base is set by the subclass's constructor (a way in); a function defined inside a
    loop's `if` is still found, and its `except ... as ve` name traced; `model := ...` in a test binds `model`."""
    store = indexed(FIELDS, name="fields")

    def happens(template: str) -> WhenItHappens:
        return build_page(store, error_id_of(store, "fields", template))["when_it_happens"]

    (tokenizer,) = happens("a tokenizer is needed")["inputs"]
    assert [w["call"] for w in tokenizer["ways_in"]] == ["SentenceCollator(tokenizer=...)"]
    assert "the dataclass field `Collator.tokenizer` (line 6)" in tokenizer["ways_in"][0]["how"]
    said = happens("constraint does not apply")["summary"]
    assert "`ve` is the exception caught by `except KeyError as ve`" in said and "could not be traced" not in said
    walrus = happens("assistant has another config")["summary"]
    assert (
        "`model` is bound in `generate` by the assignment expression `(model := kwargs.get('assistant'))` (line 34)"
        in walrus
    )


PATTERNS = {
    "files/__init__.py": """
        def resolve(pattern, matched, allowed_extensions=None):
            if allowed_extensions is not None:
                out = [path for path in matched if path.endswith(tuple(allowed_extensions))]
            else:
                out = matched
            if not out:
                error_msg = f"Unable to find '{pattern}'"
                if allowed_extensions is not None:
                    error_msg += f" with any supported extension {list(allowed_extensions)}"
                raise FileNotFoundError(error_msg)
            return out
    """,
}


def test_a_binding_in_the_else_of_a_test_the_message_needs_is_not_in_force(indexed: Indexer) -> None:
    """The message with " with any supported extension" is built only when `allowed_extensions is not None`: the
    binding in the `else` of that very test cannot come with it."""
    store = indexed(PATTERNS, name="files")
    page = build_page(store, error_id_of(store, "files", "Unable to find '{}' with any supported extension {}"))
    said = page["when_it_happens"]["summary"]
    assert "`out` is computed in `resolve` from `[path for path in matched" in said
    assert "out = matched" not in said and "not resolved" not in said


def test_a_condition_from_an_early_return_names_the_value_it_tested(indexed: Indexer) -> None:
    """`if cached: return cached` then a loop binding `cached` again: the raise's `not cached` is about the value the
    early test saw, and the summary says so rather than speaking of the value in force at the raise."""
    store = indexed(LOOPS, name="loops")
    meaning = build_page(store, error_id_of(store, "loops", "could not be hashed"))["what_it_means"]
    assert meaning["condition"] == "not cached"
    assert "In `not cached`, `cached` is its value when line 44 tests it" in meaning["summary"]
    assert "binds it again before the raise (line 47)" in meaning["summary"]


CARRIED = {
    "carried/__init__.py": """
        def merge(sizes, kernel, rounds):
            for size in sizes:
                height = size[0]
                for i in range(1, rounds):
                    if height % kernel != 0:
                        raise ValueError("grid not divisible")
                    height = height // kernel


        def halve(count):
            count = int(count)
            while count > 1:
                if count % 2:
                    raise ArithmeticError("odd count")
                count = count // 2


        def accumulate(values, limit):
            total = 0
            for value in values:
                if total > limit:
                    raise OverflowError("total over limit")
                total += value


        def unique(items):
            seen = []
            for item in items:
                if item in seen:
                    raise KeyError("repeated item")
                seen.append(item)


        def batches(groups):
            for group in groups:
                batch = []
                for item in group:
                    if len(batch) > 3:
                        raise IndexError("batch too large")
                    batch.append(item)


        def fresh(groups):
            for group in groups:
                names = []
                if names:
                    raise LookupError("names left over")
                names.append(group)


        def register(registry, names):
            for name in names:
                if name in registry:
                    raise NameError("already registered")
                registry.append(name)
    """,
}


def test_a_binding_later_in_a_loop_body_is_in_force_on_the_next_pass(indexed: Indexer) -> None:
    """A check in a loop sees, from the second pass on, what the body binds after it (`height = height // kernel`,
    `count = count // 2`): the binding before the loop is not its only value, and a `+=` or `.append` after the
    check changes the value the next pass checks (of a local: its first value is not the value; of a parameter: it
    is the argument only on the first pass). A value bound again at the top of each pass before the check is a new
    one: changing it after the check does not reach the next pass."""
    store = indexed(CARRIED, name="carried")

    def page(template: str) -> Page:
        return build_page(store, error_id_of(store, "carried", template))

    merged = page("grid not divisible")["when_it_happens"]["summary"]
    assert "`height` is bound 2 ways in `merge` before the check: `height = size[0]` (line 3)" in merged
    assert "`height = height // kernel` (line 7, on an earlier pass of the loop); which one" in merged
    halved = page("odd count")["what_it_means"]["summary"]
    assert (
        "`count` here is its value after line 11 (`count = int(count)`) or line 15 (`count = count // 2`, on an"
        " earlier pass of the loop)"
    ) in halved
    for template, name, start, change in (
        ("total over limit", "total", "from `0` (line 19)", 23),
        ("repeated item", "seen", "from `[]` (line 27)", 31),
        ("batch too large", "batch", "from `[]` (line 36)", 40),
    ):
        built = page(template)
        (value,) = built["what_it_means"]["values"]
        assert value["name"] == name and not value["known"] and built["triggers"] == []
        assert f"{start}, then changed in place at line {change}: its value at the check is not resolved" in str(
            value["choice"]
        )
    (kept,) = page("names left over")["what_it_means"]["values"]
    assert kept["known"] and kept["value"] == [] and kept["choice"] is None
    registered = page("already registered")
    assert (
        "`registry` here is the argument as passed on the loop's first pass, and its value after the function changes"
        " it in place (line 55: `registry.append(name)`) on the later ones."
    ) in registered["what_it_means"]["summary"]
    assert registered["triggers"] == []
