"""Tests of where the code runs, not of what a user passes: interpreter flags, the Python version,
the platform, environment variables, installed packages, and values a module fixes when imported.

`if __debug__:` or `if sys.version_info < (3, 9):` is not a check a user satisfies by setting a
value, so it is said as a condition of the environment ("raised when running on Python older than
3.9", "when `torch` is not installed") and never turned into "make sure `__debug__` is ..." advice.
Nothing here runs code: the tests are recognised by their shape in the condition's tree.
"""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass

from errdex.extract.resolve import dotted_name as dotted  # one implementation for both stages
from errdex.pages.inforce import global_stores, walk_scope
from errdex.pages.model import EnvironmentTest
from errdex.pages.source import find, parameters
from errdex.pages.syntax import MIRRORED_OP, NEGATED_OP, OP_WORDS, container_kind, membership, unparse

# kinds of test a user can act on (run elsewhere, set a variable, install something); the others are left out of advice
ACTIONABLE = frozenset({"version", "platform", "variable", "installed"})
_PLATFORM = frozenset({"sys.platform", "os.name", "sys.implementation.name", "sys.byteorder", "sys.maxsize", "os.sep"})
_PLATFORM_CALLS = frozenset(
    {"platform.system", "platform.machine", "platform.python_implementation", "platform.release"}
)
_VARIABLE_CALLS = frozenset({"os.environ.get", "os.getenv", "environ.get", "getenv"})
_AVAILABLE = re.compile(r"_?is_[A-Za-z0-9_]{1,60}?_(?:available|installed)")
_VERSION_PROBE = re.compile(r"_?is_[A-Za-z0-9_]{1,60}_(?:greater|less|older|newer|version)[A-Za-z0-9_]{0,40}")
_PROBE = re.compile(r"_?is_[A-Za-z0-9_]{1,60}")


@dataclass(frozen=True)
class Test:
    """One test of the environment in a condition: its code, what it means in words, and its kind."""

    code: str
    text: str
    kind: str  # interpreter | version | platform | variable | installed | probe | module

    def json(self) -> EnvironmentTest:
        return {"code": self.code, "text": self.text, "kind": self.kind}


def module_values(tree: ast.Module | None, function: str) -> frozenset[str]:
    """Names the module binds at its top level (assigned or imported) that the function neither takes nor assigns.

    Such a name (`WIN = sys.platform.startswith("win")`, `_torch_ok = ...`) is fixed when the module is
    imported; no user passes it. One a function binds again under `global` is not.
    """
    if tree is None:
        return frozenset()
    bound = {name for stmt in tree.body for name in _bound_names(stmt)}
    bound -= _rebound_globals(tree)
    located = find(tree, function) if function != "<module>" else None
    if located is not None and not isinstance(located.node, ast.ClassDef):
        own = {p.arg for p in parameters(located.node)} | _assigned(located.node)
        bound -= own
    return frozenset(bound)


@functools.lru_cache(maxsize=2)  # one per module tree: each of its errors' pages asks again
def _rebound_globals(tree: ast.Module) -> frozenset[str]:
    """Module names a function binds again under `global` (`_KERNEL = load()`): not fixed at import."""
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    declared = {name for f in functions for n in walk_scope(f) if isinstance(n, ast.Global) for name in n.names}
    return frozenset(name for name in declared if any(global_stores(f, name) for f in functions))


def _bound_names(stmt: ast.stmt) -> list[str]:
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".", 1)[0] for a in stmt.names if a.name != "*"]
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    if isinstance(stmt, (ast.If, ast.Try)):
        inner = [
            *stmt.body,
            *stmt.orelse,
            *getattr(stmt, "finalbody", []),
            *[s for h in getattr(stmt, "handlers", []) for s in h.body],
        ]
        return [name for s in inner for name in _bound_names(s)]
    return []


def _assigned(func: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(func) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def tests(node: ast.expr | None, names: frozenset[str]) -> list[Test]:
    """Each test of the environment in a condition, outermost first, in words as it is true."""
    found: list[Test] = []
    stack = [node] if node is not None else []
    while stack:
        sub = stack.pop(0)
        kind = kind_of(sub, names)
        if kind is not None:
            found.append(Test(unparse(sub), phrase(sub, False, names) or unparse(sub), kind))
        elif isinstance(sub, ast.BoolOp):
            stack.extend(sub.values)
        elif isinstance(sub, ast.UnaryOp) and isinstance(sub.op, ast.Not):
            stack.append(sub.operand)
    return found


def inside(node: ast.expr | None, names: frozenset[str]) -> set[int]:
    """The ids of every node that belongs to a test of the environment (none of them is a user's input)."""
    out: set[int] = set()
    for sub in ast.walk(node) if node is not None else ():
        if id(sub) not in out and kind_of(sub, names) is not None:
            out.update(id(n) for n in ast.walk(sub))
    return out


def only_environment(node: ast.expr, names: frozenset[str]) -> bool:
    """Whether every part of an expression tests the environment (`not __debug__ or sys.platform == 'win32'`)."""
    if isinstance(node, ast.BoolOp):
        return all(only_environment(v, names) for v in node.values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return only_environment(node.operand, names)
    return kind_of(node, names) is not None


def kind_of(node: ast.AST, names: frozenset[str]) -> str | None:
    """The kind of environment test `node` is (a value tested for truth, or compared with literals), or None."""
    if isinstance(node, ast.Compare):
        operands = [node.left, *node.comparators]
        kinds = [_value_kind(o, names) for o in operands if not _is_literal(o)]
        return kinds[0] if kinds and all(kinds) else None
    return _value_kind(node, names) if isinstance(node, ast.expr) else None


def _value_kind(node: ast.expr, names: frozenset[str]) -> str | None:
    """The kind of environment value an expression reads, or None when it may be a user's input."""
    if isinstance(node, ast.Name):
        if node.id in ("__debug__", "TYPE_CHECKING"):
            return "interpreter"
        return "module" if node.id in names else None
    if isinstance(node, ast.Attribute):
        return _attribute_kind(node)
    if isinstance(node, ast.Subscript):
        return _value_kind(node.value, names)
    if isinstance(node, ast.Call):
        return _call_kind(node, names)
    return None


def _attribute_kind(node: ast.Attribute) -> str | None:
    path = dotted(node) or ""
    if path.endswith(".TYPE_CHECKING") or path.startswith("sys.flags."):
        return "interpreter"
    if path in _PLATFORM:
        return "platform"
    if path == "os.environ":
        return "variable"
    return "version" if path.startswith("sys.version_info") else None  # sys.version_info, sys.version_info.major


def _call_kind(node: ast.Call, names: frozenset[str]) -> str | None:
    func = dotted(node.func)
    if func is None:
        return None
    last = func.rsplit(".", 1)[-1]
    if func in _VARIABLE_CALLS:
        return "variable"
    if func in _PLATFORM_CALLS or func in ("shutil.which", "which"):
        return "platform"
    if last == "find_spec" or _AVAILABLE.fullmatch(last) or last == "is_available":
        return "installed"
    if _VERSION_PROBE.fullmatch(last):
        return "installed"
    if isinstance(node.func, ast.Attribute):  # a method of an environment value: sys.platform.startswith("win")
        # and of nothing else: `np.array_equal(classes, labels)` is about its arguments, not about `np`
        arguments = [*node.args, *(k.value for k in node.keywords)]
        if all(_is_literal(a) or _value_kind(a, names) is not None for a in arguments):
            return _value_kind(node.func.value, names)
        return None
    if not node.args and not node.keywords and _PROBE.fullmatch(last) and func in names:
        return "probe"  # is_torchdynamo_compiling(): a function the module imports, asked about the running process
    return None


def phrase(node: ast.expr, negated: bool, names: frozenset[str]) -> str | None:
    """A sentence saying when an environment test is true (or false, when `negated`); None for other expressions."""
    kind = kind_of(node, names)
    if kind is None:
        return None
    if isinstance(node, ast.Compare):
        return _compare_phrase(node, negated, kind) if len(node.ops) == 1 else _truth_phrase(node, negated, kind)
    return _truth_phrase(node, negated, kind)


def _truth_phrase(node: ast.expr, negated: bool, kind: str) -> str:
    code = unparse(node)
    if code == "__debug__":
        return (
            "Python runs with `-O` (which turns `__debug__` off)"
            if negated
            else "Python runs without `-O` (the default)"
        )
    if code.endswith("TYPE_CHECKING"):
        return (
            "the code runs (always: `TYPE_CHECKING` is true only for a type checker)"
            if negated
            else ("a static type checker reads the code (never when it runs)")
        )
    if kind == "variable" and (variable := _variable(node)) is not None:
        return f"the environment variable `{variable}` is {'unset or empty' if negated else 'set (not empty)'}"
    if kind == "installed" and (package := _spec_package(node)) is not None:
        return f"`{package}` is {'not ' if negated else ''}installed"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "is_available":
        return f"`{unparse(node.func.value)}` is {'not ' if negated else ''}available"
    where = {
        "module": "a value the module sets when it is imported, not an input",
        "installed": "it asks about the installed packages",
        "probe": "it asks about the running process",
    }.get(kind, "it depends on where the code runs")
    # a probe such as `is_kernels_available()` may test a version range too: its result, not "installed", is said
    verb = "returns" if kind == "installed" and isinstance(node, ast.Call) else "is"
    return f"`{code}` {verb} {'false' if negated else 'true'} ({where})"


def _compare_phrase(node: ast.Compare, negated: bool, kind: str) -> str:
    left, right, op = node.left, node.comparators[0], type(node.ops[0])
    if negated:
        op = NEGATED_OP[op]
    if _is_literal(left) and op in MIRRORED_OP:
        left, right, op = right, left, MIRRORED_OP[op]
    if kind == "version" and _version(right) is not None and op in _VERSION_WORDS:
        return f"running on Python {_VERSION_WORDS[op].format(_version(right))}"
    if op in (ast.In, ast.NotIn) and dotted(right) == "os.environ" and isinstance(left, ast.Constant):
        return f"the environment variable `{left.value!s}` is {'' if op is ast.In else 'not '}set"
    subject = (
        f"the environment variable `{_variable(left)}`"
        if kind == "variable" and _variable(left)
        else f"`{unparse(left)}`"
    )
    where = "running where " if kind in ("platform", "version") else ""
    written = unparse(right) if _is_literal(right) else f"`{unparse(right)}`"
    if op in (ast.In, ast.NotIn):
        return f"{where}{membership(subject, op, written, container_kind(right, {}))}"
    return f"{where}{subject} {OP_WORDS[op]} {written}"


_VERSION_WORDS: dict[type, str] = {
    ast.Lt: "older than {}",
    ast.LtE: "{} or older",
    ast.Gt: "newer than {}",
    ast.GtE: "{} or newer",
    ast.Eq: "{}",
    ast.NotEq: "other than {}",
}


def _version(node: ast.expr) -> str | None:
    """`(3, 9)` -> '3.9', `3` -> '3'."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return str(node.value)
    if isinstance(node, ast.Tuple) and node.elts:
        numbers = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, int)]
        if len(numbers) == len(node.elts):
            return ".".join(str(n) for n in numbers)
    return None


def _variable(node: ast.expr) -> str | None:
    """The variable's name in `os.environ.get("X")`, `os.getenv("X")`, `os.environ["X"]`."""
    key: ast.expr | None = None
    if isinstance(node, ast.Call) and node.args:
        key = node.args[0]
    elif isinstance(node, ast.Subscript):
        key = node.slice
    return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None


def _spec_package(node: ast.expr) -> str | None:
    """The package `find_spec("numpy")` looks for, which tests installation alone.

    `is_torch_available()` is no such test: it may also require a version range (transformers'
    `is_kernels_available()` returns `is_available and viable_version`), so its name says no package.
    """
    if not isinstance(node, ast.Call):
        return None
    last = (dotted(node.func) or "").rsplit(".", 1)[-1]
    if (
        last == "find_spec"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return node.args[0].value
    return None


def _is_literal(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _is_literal(node.operand)
    return isinstance(node, (ast.Tuple, ast.List, ast.Set)) and all(_is_literal(e) for e in node.elts)
