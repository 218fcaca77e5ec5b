"""The failing statement of an error the interpreter raised inside a library's line: the operation, its value's origin,
the checks near it (fixture packages written and indexed by the tests)."""

from __future__ import annotations

import importlib
import json
import sys
import textwrap
import traceback as traceback_module
from pathlib import Path

import pytest

from errdex.match.parse import parse
from errdex.model import Frame, ParsedError
from errdex.pages.statement import FailingStatement, failing_statement, statement_for
from errdex.pages.statement_model import Operation, Parameter
from errdex.pages.statement_ops import read_message
from errdex.pages.statement_render import statement_lines
from errdex.store import Store
from tests.pages.conftest import Indexer

OPS = textwrap.dedent(
    r"""
    import re

    LIMIT = 3
    SETTINGS = {"a": 1}
    VALUE = SETTINGS["missing"]


    class Model:
        default_mode = None

        def __init__(self, config=None, mode="fast"):
            self.config = config
            self.mode = mode

        def reset(self):
            self.config = None

        def save(self, options=None):
            if self.config is None:
                raise ValueError("no config")
            quant = self.config.quantization_config.to_dict()
            return quant


    def load(path, extra=None, names=None):
        m = re.match(r"(\d+)", path)
        size = m.group(1)
        table = {"a": 1}
        device = table.get("device")
        kind = "x" if path else None
        total = LIMIT + extra
        for name in names:
            pass
        first, second = extra
        return device.index, kind.upper(), table["b"], table[path]


    def checked(options=None):
        if options is None:
            options = {}
        assert options is not None
        if options:
            value = options["key"]
        return value


    def run(fn=None):
        return fn(
            1,
            flag=True,
        )


    def build():
        helper = getattr(Model, "helper", None)
        helper(strict=True)
        return load("1", extra=2) + load("2", 3, names=[1]) + checked()


    def first_items(items):
        return items[0] + items[1:]


    def names_of(rows):
        return [row.name for row in rows], sorted(rows, key=lambda row: row.size), SETTINGS.copy()


    def pick(mode=None, table=None):
        if mode == "a":
            return 1
        elif table is None:
            raise KeyError("no table")
        return table[mode]
    """
).lstrip("\n")
FILE = "pkg/ops.py"


def line_of(text: str, source: str = OPS) -> int:
    """The (first) line of the fixture that holds `text`."""
    return next(i for i, line in enumerate(source.splitlines(), 1) if text in line)


@pytest.fixture
def ops(indexed: Indexer) -> Store:
    return indexed({"pkg/__init__.py": "", FILE: OPS})


def at(store: Store, text: str, exception: str, message: str, code: str | None = None) -> FailingStatement:
    found = failing_statement(store, store.release("pkg"), FILE, line_of(text), exception, message, code)
    assert found is not None
    return found


def only(statement: FailingStatement) -> Operation:
    (operation,) = statement.operations
    return operation


def test_attribute_of_a_self_attribute(ops: Store) -> None:
    found = at(ops, ".to_dict()", "AttributeError", "'NoneType' object has no attribute 'to_dict'")
    assert found.matches_release and found.understood
    assert found.text == "quant = self.config.quantization_config.to_dict()"
    assert found.function is not None
    assert (found.function.qualname, found.function.line) == ("Model.save", line_of("def save"))
    op = only(found)
    assert (op.kind, op.expression, op.name, op.value_type) == (
        "attribute",
        "self.config.quantization_config",
        "to_dict",
        "NoneType",
    )
    assert op.operation == "self.config.quantization_config.to_dict"
    assert op.origin is not None and op.origin.root == "self.config"
    assert op.origin.parameter is None and op.origin.callers is None
    assigned = [(a.owner, a.line, a.source, a.may_be_none) for a in op.origin.attribute_assignments]
    assert assigned == [
        ("Model.__init__", line_of("self.config = config"), "config", "parameter default"),
        ("Model.reset", line_of("self.config = None"), "None", "none literal"),
    ]
    checks = [(c.line, c.form, c.test, c.branch, c.mentions) for c in op.checks]
    assert checks == [(line_of("if self.config is None"), "if", "self.config is None", None, "self.config")]


def test_bindings_that_may_be_none(ops: Store) -> None:
    regex = only(at(ops, "m.group(1)", "AttributeError", "'NoneType' object has no attribute 'group'"))
    assert regex.origin is not None
    assert [(b.line, b.source, b.may_be_none) for b in regex.origin.bindings] == [
        (line_of("m = re.match"), "re.match('(\\\\d+)', path)", "regex match")
    ]
    got = only(at(ops, "device.index", "AttributeError", "'NoneType' object has no attribute 'index'"))
    assert got.expression == "device" and got.origin is not None
    assert [(b.source, b.may_be_none) for b in got.origin.bindings] == [("table.get('device')", "get call")]
    conditional = only(at(ops, "device.index", "AttributeError", "'NoneType' object has no attribute 'upper'"))
    assert conditional.origin is not None
    assert [(b.source, b.may_be_none) for b in conditional.origin.bindings] == [
        ("'x' if path else None", "conditional")
    ]


def test_operator_on_a_parameter_with_callers(ops: Store) -> None:
    op = only(at(ops, "LIMIT + extra", "TypeError", "unsupported operand type(s) for +: 'int' and 'NoneType'"))
    assert (op.kind, op.expression, op.operation, op.name) == ("operator", "extra", "LIMIT + extra", "+")
    assert op.origin is not None and op.origin.parameter is not None
    parameter = op.origin.parameter
    assert (parameter.name, parameter.default, parameter.may_be_none) == ("extra", "None", "parameter default")
    assert op.origin.callers is not None
    passed = [(c.function, c.line, c.passes) for c in op.origin.callers.found]
    assert passed == [("build", line_of('load("1", extra=2)'), "2"), ("build", line_of('load("1", extra=2)'), "3")]


def test_iteration_of_a_for_header_and_callers_that_leave_the_default(ops: Store) -> None:
    found = at(ops, "for name in names:", "TypeError", "'NoneType' object is not iterable")
    assert found.text == "for name in names:"
    op = only(found)
    assert (op.kind, op.expression) == ("iterate", "names")
    assert op.origin is not None and op.origin.callers is not None
    assert [c.passes for c in op.origin.callers.found] == ["not passed (the default applies)", "[1]"]


def test_unpacking(ops: Store) -> None:
    op = only(at(ops, "first, second = extra", "TypeError", "cannot unpack non-iterable NoneType object"))
    assert (op.kind, op.expression, op.operation) == ("unpack", "extra", "(first, second)")
    counted = at(ops, "first, second = extra", "ValueError", "not enough values to unpack (expected 3, got 1)")
    assert counted.operations == ()  # a two-name target never expects 3


def test_key_error_keeps_every_subscript_that_fits(ops: Store) -> None:
    both = at(ops, "device.index", "KeyError", "'b'")
    assert [(o.kind, o.operation) for o in both.operations] == [
        ("subscript", "table['b']"),
        ("subscript", "table[path]"),
    ]
    other = at(ops, "device.index", "KeyError", "'zzz'")
    assert [o.operation for o in other.operations] == ["table[path]"]
    key = only(other).key
    assert key is not None and key.source == "path" and key.origin is not None
    assert key.origin.parameter is not None and key.origin.parameter.default is None
    assert key.origin.callers is not None and [c.passes for c in key.origin.callers.found] == ["'1'", "'2'"]
    assert "   The key `path`:" in statement_lines(other)
    assert both.operations[0].key is not None and both.operations[0].key.origin is None  # a literal key
    text = "\n".join(statement_lines(both))
    assert "2 parts of the statement fit the message; none is picked" in text


def test_nearby_checks(ops: Store) -> None:
    op = only(at(ops, 'options["key"]', "TypeError", "'NoneType' object is not subscriptable"))
    assert (op.kind, op.expression) == ("subscript", "options")
    checks = [(c.line, c.form, c.test, c.branch, c.mentions) for c in op.checks]
    assert checks == [
        (line_of("if options is None"), "if", "options is None", None, "options"),
        (line_of("assert options"), "assert", "options is not None", None, "options"),
        (line_of("if options:"), "if", "options", "body", "options"),
    ]
    assert op.origin is not None
    assert [(b.line, b.source) for b in op.origin.bindings] == [(line_of("options = {}"), "{}")]


def test_elif_checks_and_a_raise_of_the_code_itself(ops: Store) -> None:
    op = only(at(ops, "return table[mode]", "KeyError", "'b'"))
    assert [(c.form, c.test, c.branch) for c in op.checks] == [("elif", "table is None", None)]
    raised = at(ops, 'raise KeyError("no table")', "KeyError", "'no table'")
    assert raised.explicit and raised.operations == ()
    assert "raises the error itself" in "\n".join(statement_lines(raised))
    assert not at(ops, "return table[mode]", "KeyError", "'b'").explicit


def test_call_of_a_value_that_may_be_none(ops: Store) -> None:
    op = only(at(ops, "helper(strict=True)", "TypeError", "'NoneType' object is not callable"))
    assert (op.kind, op.expression) == ("call", "helper")
    assert op.origin is not None
    assert [b.may_be_none for b in op.origin.bindings] == ["getattr default"]


def test_multi_line_statement_and_an_unexpected_keyword(ops: Store) -> None:
    found = at(ops, "flag=True", "TypeError", "f() got an unexpected keyword argument 'flag'")
    assert (found.start, found.end) == (line_of("return fn("), line_of("flag=True") + 1)
    assert found.text == "return fn(\n    1,\n    flag=True,\n)"
    op = only(found)
    assert (op.kind, op.expression, op.name) == ("call", "fn", "flag")
    assert op.origin is not None and op.origin.parameter is not None and op.origin.parameter.default == "None"
    assert op.origin.callers is not None and op.origin.callers.found == ()
    assert "No caller of `run` is found in pkg 1.0 (not followed: getattr() by string;" in statement_lines(found)[-2]


def test_index_error_reads_indexes_not_slices(ops: Store) -> None:
    op = only(at(ops, "items[0] + items[1:]", "IndexError", "list index out of range"))
    assert (op.kind, op.operation) == ("subscript", "items[0]")


def test_names_bound_by_the_statement_or_the_module(ops: Store) -> None:
    line = "[row.name for row in rows]"
    comprehension = only(at(ops, line, "AttributeError", "'NoneType' object has no attribute 'name'"))
    assert comprehension.origin is not None and comprehension.origin.parameter is None  # not the parameter `rows`
    assert [(b.form, b.source) for b in comprehension.origin.bindings] == [("comprehension", "for row in rows")]
    held = only(at(ops, line, "AttributeError", "'NoneType' object has no attribute 'size'"))
    assert held.origin is not None and [b.form for b in held.origin.bindings] == ["lambda"]
    found = at(ops, line, "AttributeError", "'dict' object has no attribute 'copy'")
    origin = only(found).origin
    assert origin is not None and origin.bindings == () and origin.parameter is None
    assert [(b.line, b.source) for b in origin.module_bindings] == [(line_of("SETTINGS = {"), "{'a': 1}")]
    assert "`SETTINGS` is neither a parameter nor bound in `names_of`" in "\n".join(statement_lines(found))


NEST = textwrap.dedent(
    """
    REGISTRY = None


    class Holder:
        size = REGISTRY["size"]

        @REGISTRY.register
        def method(self):
            pass


    def outer(value=None):
        def inner(item=None):
            return item.name

        return inner(value)
    """
).lstrip("\n")


def test_class_body_decorator_and_nested_function(indexed: Indexer) -> None:
    store = indexed({"pkg/__init__.py": "", "pkg/nest.py": NEST})
    release = store.release("pkg")

    def at_nest(text: str, message: str, exception: str = "AttributeError") -> FailingStatement:
        found = failing_statement(store, release, "pkg/nest.py", line_of(text, NEST), exception, message, None)
        assert found is not None
        return found

    body = at_nest('size = REGISTRY["size"]', "'NoneType' object is not subscriptable", "TypeError")
    assert (body.function, body.in_class) == (None, "Holder")
    origin = only(body).origin
    assert origin is not None and [(b.line, b.may_be_none) for b in origin.module_bindings] == [(1, "none literal")]
    decorated = at_nest("@REGISTRY.register", "'NoneType' object has no attribute 'register'")
    assert (decorated.start, decorated.end, decorated.in_class) == (7, 8, "Holder")
    assert only(decorated).expression == "REGISTRY"
    nested = at_nest("return item.name", "'NoneType' object has no attribute 'name'")
    assert nested.function is not None and nested.function.qualname == "outer.<locals>.inner"
    callers = only(nested).origin.callers  # type: ignore[union-attr]
    assert callers is not None and [(c.function, c.passes) for c in callers.found] == [("outer", "value")]
    assert "1 caller of `outer.<locals>.inner`" in "\n".join(statement_lines(nested))


def test_module_level_line(ops: Store) -> None:
    found = at(ops, 'VALUE = SETTINGS["missing"]', "KeyError", "'missing'")
    assert found.function is None and found.in_class is None
    op = only(found)
    assert op.origin is not None
    assert [(b.line, b.source) for b in op.origin.bindings] == [(line_of("SETTINGS = {"), "{'a': 1}")]
    assert f"{FILE}:{line_of('VALUE =')}, at module level:" in statement_lines(found)[1]


def test_printed_line_that_differs_is_no_frame_of_this_release(ops: Store) -> None:
    same = at(ops, "m.group(1)", "AttributeError", "'NoneType' object has no attribute 'group'", "size = m.group(1)")
    assert same.matches_release and same.operations
    other = at(ops, "m.group(1)", "AttributeError", "'NoneType' object has no attribute 'group'", "size = m.end()")
    assert not other.matches_release and other.operations == ()
    assert other.printed == "size = m.end()" and other.text == "size = m.group(1)"
    assert "this frame did not run this release's code" in statement_lines(other)[-1]


def test_what_is_not_read_is_said(ops: Store) -> None:
    found = at(ops, "m.group(1)", "RuntimeError", "something else")
    assert not found.understood and found.operations == ()
    assert "not resolved" in statement_lines(found)[-1]
    release = ops.release("pkg")
    assert failing_statement(ops, release, "pkg/absent.py", 1, "KeyError", "'a'", None) is None
    assert failing_statement(ops, release, FILE, line_of("import re") + 1, "KeyError", "'a'", None) is None  # blank


def test_json_and_lines_say_where(ops: Store) -> None:
    found = at(ops, "LIMIT + extra", "TypeError", "unsupported operand type(s) for +: 'int' and 'NoneType'")
    data = found.to_json()
    assert json.loads(json.dumps(data)) == data
    assert data["operations"][0]["origin"]["parameter"] == {  # type: ignore[index]
        "name": "extra",
        "default": "None",
        "line": line_of("def load"),
        "may_be_none": "parameter default",
    }
    text = "\n".join(statement_lines(found))
    assert f"{FILE}:{line_of('LIMIT + extra')}" in text
    assert "`extra` is a parameter of `load`" in text and "`extra`: 2" in text
    assert "\n\n" not in text and "``" not in text


def traceback(file: str, line: int, code: str | None) -> ParsedError:
    frames = (Frame("/home/me/app.py", 3, "<module>", "pkg.ops.load('x')"), Frame(file, line, "load", code))
    return ParsedError("AttributeError", "'NoneType' object has no attribute 'group'", frames)


def test_statement_for_a_traceback(indexed: Indexer) -> None:
    indexed({"pkg/__init__.py": "", FILE: OPS}, version="1.0")
    moved = OPS.replace("import re\n", "import re\nimport os\n")
    store = indexed({"pkg/__init__.py": "", FILE: moved}, version="2.0")
    line = line_of("m.group(1)")
    site = "/venv/lib/python3.11/site-packages/pkg/ops.py"
    old = statement_for(store, traceback(site, line, "size = m.group(1)"))
    assert old is not None and (old.version, old.file, old.same_line_in) == ("1.0", FILE, ())
    new = statement_for(store, traceback(site, line + 1, "size = m.group(1)"))
    assert new is not None and new.version == "2.0" and only(new).expression == "m"
    named = statement_for(store, traceback(f"/x/pkg-2.0.egg/{FILE}", line, None))
    assert named is not None and named.version == "2.0" and named.text == 'm = re.match(r"(\\d+)", path)'
    assert statement_for(store, traceback(site, line, None)) is None  # the releases' lines differ: not told apart
    assert statement_for(store, traceback("/home/me/other.py", 3, "x")) is None


def test_statement_for_the_same_line_in_several_releases(indexed: Indexer) -> None:
    indexed({"pkg/__init__.py": "", FILE: OPS}, version="1.0")
    store = indexed({"pkg/__init__.py": "", FILE: OPS}, version="1.1")
    found = statement_for(store, traceback("C:\\py\\Lib\\site-packages\\pkg\\ops.py", line_of("m.group(1)"), None))
    assert found is not None and (found.version, found.same_line_in) == ("1.1", ("1.0",))


TRAINER_CALLBACK = "transformers/trainer_callback.py"
PROGRESS_LINE = 650  # ProgressCallback.on_step_end: `self.training_bar.update(...)`, the bar made by on_train_begin


@pytest.mark.network
def test_golden_transformers_self_attribute_set_to_none(transformers_store: Store) -> None:
    release = transformers_store.release("transformers", "5.16.0")
    code = "self.training_bar.update(state.global_step - self.current_step)"
    message = "'NoneType' object has no attribute 'update'"
    found = failing_statement(
        transformers_store, release, TRAINER_CALLBACK, PROGRESS_LINE, "AttributeError", message, code
    )
    assert found is not None and found.matches_release
    assert found.text == code and (found.start, found.end) == (PROGRESS_LINE, PROGRESS_LINE)
    assert found.function is not None
    assert (found.function.qualname, found.function.line) == ("ProgressCallback.on_step_end", 648)
    op = only(found)
    assert (op.kind, op.expression, op.operation, op.name) == (
        "attribute",
        "self.training_bar",
        "self.training_bar.update",
        "update",
    )
    assert op.origin is not None and op.origin.root == "self.training_bar" and op.origin.bindings == ()
    assert [(a.owner, a.line, a.source, a.may_be_none) for a in op.origin.attribute_assignments] == [
        ("ProgressCallback.__init__", 639, "None", "none literal"),
        ("ProgressCallback.on_train_begin", 645, "tqdm(total=state.max_steps, dynamic_ncols=True)", None),
        ("ProgressCallback.on_train_end", 695, "None", "none literal"),
    ]
    assert op.checks == ()  # `if state.is_world_process_zero:` around it tests something else
    text = "\n".join(statement_lines(found))
    assert f"{TRAINER_CALLBACK}:{PROGRESS_LINE}, in `ProgressCallback.on_step_end` (def at line 648)" in text
    assert "line 639 in `ProgressCallback.__init__`: `self.training_bar = None`" in text
    pasted = textwrap.dedent(
        f"""\
        Traceback (most recent call last):
          File "/home/me/train.py", line 40, in <module>
            trainer.train()
          File "/opt/venv/lib/python3.11/site-packages/{TRAINER_CALLBACK}", line {PROGRESS_LINE}, in on_step_end
            {code}
            ^^^^^^^^^^^^^^^^^^^^^^^^
        AttributeError: {message}
        """
    )
    assert statement_for(transformers_store, parse(pasted)) == found


@pytest.mark.network
def test_golden_transformers_parameter_and_get(transformers_store: Store) -> None:
    release = transformers_store.release("transformers", "5.16.0")
    message = "'NoneType' object has no attribute 'pop'"
    found = failing_statement(transformers_store, release, TRAINER_CALLBACK, 704, "AttributeError", message, None)
    assert found is not None and found.function is not None
    assert found.function.qualname == "PrinterCallback.on_log"
    op = only(found)
    assert (op.expression, op.origin and op.origin.parameter) == (
        "logs",
        Parameter("logs", "None", 703, "parameter default"),
    )
    assert op.checks == ()  # its `if logs is not None:` comes after the line
    assert op.origin is not None and op.origin.callers is not None
    assert "getattr() by string" in op.origin.callers.not_followed  # CallbackHandler calls `getattr(callback, event)`
    generation = "transformers/generation/utils.py"
    message = "'NoneType' object has no attribute 'activate_past_recording'"
    found = failing_statement(transformers_store, release, generation, 3632, "AttributeError", message, None)
    assert found is not None and found.function is not None
    assert found.function.qualname == "GenerationMixin._assisted_decoding"
    op = only(found)
    assert op.origin is not None
    assert [(b.line, b.source, b.may_be_none) for b in op.origin.bindings] == [
        (3629, "model_kwargs.get('past_key_values')", "get call")
    ]
    assert [(c.line, c.form, c.test, c.branch) for c in op.checks] == [(3630, "if", "cache is None", None)]


def test_statement_for_a_package_imported_by_another_name(indexed: Indexer) -> None:
    store = indexed({"opslib/__init__.py": "", "opslib/ops.py": OPS}, name="ops-dist", version="3.0")
    site = "/srv/app-1.0/venv/lib/python3.12/site-packages/opslib/ops.py"
    found = statement_for(store, traceback(site, line_of("m.group(1)"), "size = m.group(1)"))
    assert found is not None and (found.package, found.version, found.file) == ("ops-dist", "3.0", "opslib/ops.py")
    assert only(found).origin is not None


RUN = textwrap.dedent(
    r"""
    import re


    class Box:
        def __init__(self, inner=None):
            self.inner = inner

        def size(self):
            return self.inner.size


    def attribute(text="x"):
        m = re.match(r"\d+", text)
        return m.group(0)


    def key(table=None, name="b"):
        table = table or {"a": 1}
        return table[name]


    def subscript(value=None):
        return value[0]


    def operator(extra=None):
        return 1 + extra


    def index(items=()):
        items = list(items)
        return items[0]


    def iterate(names=None):
        for name in names:
            pass


    def call(fn=None):
        return fn()


    def keyword():
        def f(a):
            return a

        return f(
            a=1,
            flag=True,
        )


    def unpack(pair=None):
        first, second = pair
        return first


    def spread(rows=None):
        return [row for row in rows]


    def divide(count=0):
        return 10 / count


    def assign(pair=(1, 2)):
        pair[0] = 3


    def compare(limit=None):
        return 1 < limit


    def negate(value=None):
        return -value


    def member(keys=None):
        return "a" in keys


    def length(items=None):
        return len(items)


    def spread_kwargs(options=None):
        return dict(**options)


    def unbound(flag=False):
        if flag:
            result = 1
        return result


    def undefined():
        return missing_name


    def concat(suffix=None):
        return "a" + suffix


    def pop(items=()):
        items = list(items)
        return items.pop()


    def two_lines(a="x", b=None):
        return (a.upper(),
                b.upper())


    def chained(box=None):
        return (
            box
            .inner
            .size
        )
    """
).lstrip("\n")
RAISED = {  # function -> (kind, expression) of the operation that fails when it is called with no argument
    "attribute": ("attribute", "m"),
    "key": ("subscript", "table"),
    "subscript": ("subscript", "value"),
    "operator": ("operator", "extra"),
    "index": ("subscript", "items"),
    "iterate": ("iterate", "names"),
    "call": ("call", "fn"),
    "keyword": ("call", "f"),
    "unpack": ("unpack", "pair"),
    "spread": ("iterate", "rows"),
    "divide": ("operator", "count"),
    "assign": ("subscript", "pair"),
    "compare": ("operator", "limit"),
    "negate": ("operator", "value"),
    "member": ("iterate", "keys"),
    "length": ("call", "items"),
    "spread_kwargs": ("call", "options"),
    "unbound": ("other", "result"),
    "undefined": ("other", "missing_name"),
    "concat": ("operator", "suffix"),
    "pop": ("call", "items"),
    "two_lines": ("attribute", "b"),  # `a.upper` fits the message too, on the statement's other line
    "chained": ("attribute", "box"),
    "size": ("attribute", "self.inner"),
}


@pytest.mark.parametrize("function", sorted(RAISED))
def test_real_tracebacks_of_the_interpreter(
    indexed: Indexer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, function: str
) -> None:
    """Each fixture function run for real: its traceback, as Python prints it, read back to its failing operation."""
    store = indexed({"runpkg/__init__.py": "", "runpkg/run.py": RUN}, name="runpkg")
    monkeypatch.syspath_prepend(str(tmp_path / "runpkg-1.0"))
    module = importlib.import_module("runpkg.run")
    monkeypatch.delitem(sys.modules, "runpkg.run")
    monkeypatch.delitem(sys.modules, "runpkg")
    call = module.Box().size if function == "size" else getattr(module, function)
    with pytest.raises(Exception) as raised:
        call()
    parsed = parse("".join(traceback_module.format_exception(raised.value)))
    found = statement_for(store, parsed)
    assert found is not None and found.matches_release and found.understood, parsed
    assert [(o.kind, o.expression) for o in found.operations] == [RAISED[function]], found
    assert found.function is not None and found.function.qualname.split(".")[-1] in (function, "f", "size")


MESSAGES = [  # (exception, message as CPython words it, kind, form, name, value_type)
    (
        "AttributeError",
        "'NoneType' object has no attribute 'to_dict'",
        "attribute",
        "no attribute",
        "to_dict",
        "NoneType",
    ),
    ("AttributeError", "module 'torch' has no attribute 'compiler'", "attribute", "no attribute", "compiler", "module"),
    ("AttributeError", "type object 'Foo' has no attribute 'bar'", "attribute", "no attribute", "bar", "type"),
    ("AttributeError", "property 'x' of 'Foo' object has no setter", "attribute", "no setter", "x", "Foo"),
    ("KeyError", "'k'", "subscript", "key", "'k'", None),
    ("TypeError", "'NoneType' object is not subscriptable", "subscript", "not subscriptable", None, "NoneType"),
    ("TypeError", "'tuple' object does not support item assignment", "subscript", "item assignment", None, "tuple"),
    ("TypeError", "'str' object doesn't support item deletion", "subscript", "item deletion", None, "str"),
    ("TypeError", "list indices must be integers or slices, not str", "subscript", "indices", None, "list"),
    ("TypeError", "unsupported operand type(s) for +: 'int' and 'NoneType'", "operator", "operands", "+", "int"),
    ("TypeError", "unsupported operand type(s) for +=: 'int' and 'NoneType'", "operator", "operands", "+=", "int"),
    (
        "TypeError",
        "'<' not supported between instances of 'NoneType' and 'int'",
        "operator",
        "comparison",
        "<",
        "NoneType",
    ),
    ("TypeError", "bad operand type for unary -: 'NoneType'", "operator", "unary", "-", "NoneType"),
    ("TypeError", 'can only concatenate str (not "NoneType") to str', "operator", "concatenate", None, "str"),
    ("IndexError", "list index out of range", "subscript", "index", None, "list"),
    ("IndexError", "list assignment index out of range", "subscript", "index assignment", None, "list"),
    ("IndexError", "pop from empty list", "call", "pop", None, "list"),
    ("TypeError", "'NoneType' object is not iterable", "iterate", "not iterable", None, "NoneType"),
    ("TypeError", "argument of type 'NoneType' is not iterable", "iterate", "in", None, "NoneType"),
    ("TypeError", "cannot unpack non-iterable NoneType object", "unpack", "non-iterable", None, "NoneType"),
    ("ValueError", "not enough values to unpack (expected 2, got 1)", "unpack", "unpack count", None, None),
    ("ValueError", "too many values to unpack (expected 2)", "unpack", "unpack count", None, None),
    ("TypeError", "'NoneType' object is not callable", "call", "not callable", None, "NoneType"),
    ("TypeError", "object of type 'NoneType' has no len()", "call", "len", None, "NoneType"),
    ("TypeError", "f() got an unexpected keyword argument 'flag'", "call", "keyword", "flag", None),
    ("TypeError", "Model.__init__() got an unexpected keyword argument 'x'", "call", "keyword", "x", None),
    ("TypeError", "f() missing 1 required positional argument: 'a'", "call", "arguments", None, None),
    ("TypeError", "f() takes 1 positional argument but 2 were given", "call", "arguments", None, None),
    (
        "TypeError",
        "Model.f() argument after ** must be a mapping, not NoneType",
        "call",
        "double star",
        None,
        "NoneType",
    ),
    ("ZeroDivisionError", "division by zero", "operator", "division", None, None),
    (
        "UnboundLocalError",
        "cannot access local variable 'x' where it is not associated with a value",
        "other",
        "unbound",
        "x",
        None,
    ),
    ("NameError", "name 'x' is not defined", "other", "undefined", "x", None),
]


@pytest.mark.parametrize(("exception", "message", "kind", "form", "name", "value_type"), MESSAGES)
def test_interpreter_messages_read(
    exception: str, message: str, kind: str, form: str, name: str | None, value_type: str | None
) -> None:
    wanted = read_message(exception, message)
    assert wanted is not None
    assert (wanted.kind, wanted.form, wanted.name, wanted.value_type) == (kind, form, name, value_type)


def test_messages_not_read() -> None:
    assert read_message("ValueError", "'NoneType' object has no attribute 'x'") is None  # not the class it comes with
    assert read_message("RuntimeError", "something went wrong") is None
    assert read_message("KeyError", "") is None
