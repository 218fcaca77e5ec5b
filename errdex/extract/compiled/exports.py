"""The compiled functions a module exports to Python, and the names Python calls them by: CPython's method
tables (`PyMethodDef`, `PyGetSetDef`), pybind11's and nanobind's `.def("name", &function)`, and PyO3's
`#[pyfunction]` functions and `#[pymethods]` blocks."""

from __future__ import annotations

import re
from dataclasses import dataclass

from errdex.extract.compiled.grammar import Node, end_line, line, literal, matches, parser, text
from errdex.extract.compiled.sites import enclosing
from errdex.model import NATIVE_LANGUAGES, Language

_TABLES = ("PyMethodDef", "PyGetSetDef")
_TABLE_ROWS = (
    "(initializer_list . (string_literal) @name"
    " . [(cast_expression value: (identifier) @function) (identifier) @function])"
)
_DEFS = (
    "((call_expression function: (field_expression argument: (_) @receiver field: (field_identifier) @method)"
    " arguments: (argument_list . (string_literal) @name . (_) @target)) @call"
    ' (#any-of? @method "def" "def_static" "def_property_readonly" "def_property"))'
)
_MENTIONS = re.compile(r"PyMethodDef|PyGetSetDef|\.def(?:_static|_property\w*)?\s*\(|#\[py(?:function|methods)")


@dataclass(frozen=True, slots=True)
class Exported:
    """A compiled function Python can call: the name Python calls it by and the function it runs (as the binding
    names it: `array_reshape`, `Builder::build`); a lambda bound in place has no name but its lines."""

    python_name: str
    function: str | None
    line: int  # where the binding is written
    how: str  # "method table" | "pybind11" | "PyO3"
    lines: tuple[int, int] | None = None  # a lambda's: the sites in these lines are reached from Python directly


def exports_of(source: str, language: Language) -> list[Exported]:
    """What one compiled source exports to Python (none for a file that names no binding)."""
    if language not in NATIVE_LANGUAGES or not _MENTIONS.search(source):
        return []
    root = parser(language).parse(source.encode("utf-8", "surrogatepass")).root_node
    if language == "rust":
        return _pyo3(root)
    found = [_table_row(captured) for captured in matches(language, _TABLE_ROWS, root)]
    if language == "cpp":
        found += [_pybind(captured) for captured in matches(language, _DEFS, root)]
    return [e for e in found if e is not None]


def _table_row(captured: dict[str, list[Node]]) -> Exported | None:
    row = captured["name"][0].parent
    if row is None:
        return None
    declaration = enclosing(row, ("declaration",))
    head = text(declaration).split("=", 1)[0] if declaration is not None else ""
    if not any(re.search(rf"\b{table}\b", head) for table in _TABLES):  # (`NPY_NO_EXPORT PyMethodDef x[]`)
        return None
    name = literal(captured["name"][0])
    return Exported(name, text(captured["function"][0]), line(row), "method table") if name else None


def _pybind(captured: dict[str, list[Node]]) -> Exported | None:
    name = literal(captured["name"][0])
    if not name:
        return None
    python_name = f"{owner}.{name}" if (owner := _bound_class(captured["receiver"][0])) else name
    target = captured["target"][0]
    if target.type == "lambda_expression":
        return Exported(python_name, None, line(target), "pybind11", (line(target), end_line(target)))
    if target.type == "pointer_expression":
        target = target.child_by_field_name("argument") or target
    function = text(target)  # `&Builder::build` keeps its class: another class's `build` is another function
    if not function.rsplit("::", 1)[-1].isidentifier():
        return None
    return Exported(python_name, function, line(captured["call"][0]), "pybind11")


def _bound_class(receiver: Node) -> str | None:
    """The Python name of the class a chain of `.def(...)` calls binds into: `py::class_<A>(m, "A")`."""
    node: Node | None = receiver
    while node is not None and node.type == "call_expression":
        called = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if called is not None and called.type == "field_expression":
            node = called.child_by_field_name("argument")
            continue
        if called is not None and "class_" in text(called) and arguments is not None:
            names = [literal(a) for a in arguments.named_children if literal(a)]
            return names[0] if names else None
        return None
    return None


def _pyo3(root: Node) -> list[Exported]:
    found: list[Exported] = []
    for captured in matches("rust", "(function_item name: (identifier) @name) @function", root):
        function = captured["function"][0]
        attributes = _attributes(function)
        owner = function.parent.parent if function.parent is not None else None
        own_name = text(captured["name"][0])
        renamed = re.search(r'name\s*=\s*"(\w+)"', attributes)
        if "pyfunction" in attributes:
            found.append(Exported(renamed.group(1) if renamed else own_name, own_name, line(function), "PyO3"))
        elif owner is not None and owner.type == "impl_item" and "pymethods" in _attributes(owner):
            typed = owner.child_by_field_name("type")
            python_name = renamed.group(1) if renamed else own_name
            owner_name = text(typed).split("<", 1)[0] if typed is not None else "?"
            found.append(Exported(f"{owner_name}.{python_name}", f"{owner_name}::{own_name}", line(function), "PyO3"))
    return found


def _attributes(node: Node) -> str:
    """The text of the attributes written just before an item (`#[pyfunction]`, `#[pyo3(name = "x")]`)."""
    out: list[str] = []
    sibling = node.prev_named_sibling
    while sibling is not None and sibling.type in ("attribute_item", "line_comment", "block_comment"):
        out.append(text(sibling))
        sibling = sibling.prev_named_sibling
    return " ".join(out)
