"""Which binding of a local (or of `self.X` in the checking method) is in force at a raise.

`m = re.fullmatch(a, s)` then `if m: return ...` then `m = re.fullmatch(b, s)`: at a raise after
both, only the second can be in force (a later unconditional rebinding replaces the first). A
binding inside a branch that returns before the raise never reaches it; a binding in a loop body
may reach a raise earlier in that body on the next pass (a pass the check lets by goes on after it), and so
does a change in place there (`seen.append(x)` after `if x in seen: raise`). A loop is left by a `break` (with what is
in force there) or when its test fails (a `while True:` never does; a `while not answer:` after
`answer = None` is entered, so `None` leaves it only if the body can keep it). A plain local bound
to a constant follows a branch only when the evaluator lets its test go that way: after
`answer = "n"` and `if answer != "y": return`, that binding does not get past the `if`. When more
than one binding can reach the raise, the page lists them and says which one is in force is not
resolved. A container that is mutated (`.update(...)`, `x[k] = ...`, `+=`) before the raise no
longer has the value it was bound to. A path on which the function binds nothing keeps the value the name
had on entry (a parameter's argument): `if max_num is None: max_num = DEFAULT` leaves the caller's value
in force otherwise. An `except` block runs after part of its `try` body: a binding the body's last
statement makes may be the one that raised, so it is not in force there.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field

from errdex.pages.evaluate import UNKNOWN, truth, value_of
from errdex.pages.source import FunctionNode

_MUTATORS = frozenset(
    {
        "append",
        "appendleft",
        "extend",
        "extendleft",
        "insert",
        "update",
        "add",
        "setdefault",
        "pop",
        "popitem",
        "remove",
        "discard",
        "clear",
        "sort",
        "reverse",
        "difference_update",
        "intersection_update",
        "symmetric_difference_update",
    }
)
_AT_ONCE = (ast.Expr, ast.Assert, ast.FunctionDef, ast.AsyncFunctionDef, ast.Assign, ast.AnnAssign, ast.AugAssign)
_LEAVES = (ast.Return, ast.Raise, ast.Continue, ast.Break)
_IMMUTABLE = (type(None), bool, int, float, complex, str, bytes)  # a value no later statement changes in place
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


@dataclass(frozen=True)
class Bound:
    """One binding of the name: its line, what kind of statement binds it, and that statement's code."""

    line: int
    kind: str  # "assign" | "for" | "except" | "with" | "comprehension" | "augmented" | "other"
    code: str
    value: ast.expr | None = field(default=None, compare=False)  # the expression assigned, for "assign"
    target: ast.expr | None = field(default=None, compare=False)  # the target it is bound through


@dataclass(frozen=True)
class Refuted:
    """A binding to a constant that reaches the raise only on paths where a test of the `if`s around it comes out
    against it (`valid = True` before `if not valid: raise`): when it is the last to bind the name, the check does
    not fire. `guard` is the innermost `if` around the binding, as written (None at the function's top level)."""

    bound: Bound
    guard: str | None


@dataclass(frozen=True)
class InForce:
    """The bindings that can reach the raise, and the lines that mutate the bound value before it."""

    bindings: tuple[Bound, ...]
    mutated_at: tuple[int, ...]
    entry: bool  # a path reaches the raise binding nothing: the value on entry (a parameter's argument) may be in force
    excluded: tuple[Bound, ...] = ()  # bindings before the raise that the walk found cannot be in force there
    line: int = 0  # the raise's: a binding after it (in a loop's body) is in force there from an earlier pass
    refuted: tuple[Refuted, ...] = ()  # of `excluded`, those a test on the way turns away by their constant

    @property
    def single(self) -> Bound | None:
        return self.bindings[0] if len(self.bindings) == 1 else None


def in_force(func: FunctionNode, code: str, line: int, test: bool = False) -> InForce | None:
    """The bindings of `code` (a name, or `self.X`) in force at the raise on `line` (or, with `test`, where the
    test of the `if` on `line` reads it); None when the function does not bind it."""
    plain = _plain_local(func, code)
    walk = _Walk(code, line, plain, test)
    walk.block(func.body, frozenset([_ENTRY]))
    if walk.at_raise is None:
        return None
    found = tuple(sorted(walk.at_raise - {_ENTRY}, key=lambda b: b.line)) or _comprehension(func, code, line)
    if not found:
        return None
    before = {b for b in walk.all_bindings(func.body, line) if b.line < line and b.kind != "comprehension"}
    excluded = tuple(sorted(before - set(found), key=lambda b: b.line))
    carried = [at for at, live, start in walk.later if any(_kept(b, start, line) for b in live & walk.at_raise)]
    mutated = tuple(sorted({*walk.mutated, *carried}))
    refuted = _refuted(func, code, line, excluded, test) if excluded and plain else ()
    return InForce(found, mutated, _ENTRY in walk.at_raise, excluded, line, refuted)


def _refuted(func: FunctionNode, code: str, line: int, excluded: tuple[Bound, ...], test: bool) -> tuple[Refuted, ...]:
    """Those of the `excluded` bindings that the same walk, blind to the tests of the `if`s around the raise, finds
    in force there: only the check's own tests kept them from it (not a later binding, a loop's test, nor a path
    that leaves first), so that with one of them last bound the check does not fire. For a plain local only."""
    around = frozenset(id(n.test) for n in ifs_around(func, line))
    blind = _Walk(code, line, True, test, around)
    blind.block(func.body, frozenset([_ENTRY]))
    reaching = blind.at_raise or frozenset()
    return tuple(Refuted(b, guard(func, b.line)) for b in excluded if b in reaching)


def earlier_pass(bound: int, check: int) -> str:
    """What a binding on line `bound` after the check on line `check` is: one in the body of a loop holding the
    check, which reaches it only on a later pass ("" for one before it)."""
    return ", on an earlier pass of the loop" if check and bound > check else ""


def _kept(bound: Bound, start: int, line: int) -> bool:
    """Whether a binding changed in place after the raise in a loop's body is the one the raise sees on the next
    pass: one the pass makes again before the raise (its loop variable, `seen = []` at its top) is a new value."""
    return not start <= bound.line < line


def _plain_local(func: FunctionNode, code: str) -> bool:
    """Whether `code` is a name the function binds only by plain statements (no `+=`, `:=`, `global` or
    `nonlocal` of it anywhere in it), so that what a statement bound it to is its value until the next one."""
    if not code.isidentifier():
        return False
    for node in ast.walk(func):
        if isinstance(node, ast.AugAssign) and target_binds(node.target, code):
            return False
        if isinstance(node, ast.NamedExpr) and node.target.id == code:
            return False
        if isinstance(node, (ast.Global, ast.Nonlocal)) and code in node.names:
            return False
    return True


def _comprehension(func: FunctionNode, name: str, line: int) -> tuple[Bound, ...]:
    """A name bound only as the variable of a comprehension (`any(x > 0 for x in xs)`): the nearest one starting
    at or before the raise's line (the check's own), or one after it inside a loop holding both; a comprehension
    after the check outside such a loop runs too late to be the one it reads."""
    loops = [n for n in ast.walk(func) if isinstance(n, (ast.For, ast.AsyncFor, ast.While))]
    found = [
        Bound(node.lineno, "comprehension", short(node), target=gen.target)
        for node in ast.walk(func)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp))
        for gen in node.generators
        if target_binds(gen.target, name)
        and (node.lineno <= line or any(span_holds(loop, line) and span_holds(loop, node.lineno) for loop in loops))
    ]
    return tuple(sorted(found, key=lambda b: (b.line > line, -b.line))[:1])


_ENTRY = Bound(0, "entry", "")  # what the name holds when the function starts


class _Exits:
    """What is in force at each `break` and `continue` of the loop being walked, and where its pass starts when
    the raise is in its body (0 otherwise)."""

    __slots__ = ("breaks", "continues", "start")

    def __init__(self, start: int = 0) -> None:
        self.breaks: list[frozenset[Bound]] = []
        self.continues: list[frozenset[Bound]] = []
        self.start = start


class _Walk:
    """Statements in order along the paths to the raise, with the set of bindings live after each."""

    def __init__(self, code: str, line: int, plain: bool, test: bool = False, blind: frozenset[int] = frozenset()):
        self.code = code
        self.line = line
        self.blind = blind  # the ids of tests whose outcome is not applied to the bindings (see `_refuted`)
        self.test = test  # `line` is an `if` statement's: what is in force where its test reads the name
        self.plain = plain  # only ever bound by plain statements: a constant it is bound to stays its value
        self.at_raise: frozenset[Bound] | None = None
        self.mutated: list[int] = []
        self.loops: list[_Exits] = []  # the loops around the statement walked, innermost last
        self.past = False  # walking a loop's pass on past the raise, to what it hands the next pass
        self.later: list[tuple[int, frozenset[Bound], int]] = []  # mutations after the raise in its loop's body

    def block(self, body: list[ast.stmt], live: frozenset[Bound]) -> frozenset[Bound] | None:
        """What is live after the block (None when no path goes on past it)."""
        current: frozenset[Bound] | None = live
        for stmt in body:
            if current is None:
                return None
            current = self.statement(stmt, current)
        return current

    def statement(self, stmt: ast.stmt, live: frozenset[Bound]) -> frozenset[Bound] | None:
        holds = not self.past and stmt.lineno <= self.line <= (stmt.end_lineno or stmt.lineno)
        if holds and isinstance(stmt, _LEAVES + _AT_ONCE):
            # a nested `def` on the line: what is in force where it is defined; an assignment: where its value is
            # computed (a call passing the name, `fac, bins = f(x, bins)`)
            self.at_raise = live
            return None
        if holds and self.test and isinstance(stmt, ast.If) and stmt.lineno == self.line:
            self.at_raise = live
            return None
        if isinstance(stmt, ast.Break) and self.loops:
            self.loops[-1].breaks.append(live)
        if isinstance(stmt, ast.Continue) and self.loops:
            self.loops[-1].continues.append(live)
        if isinstance(stmt, _LEAVES):
            return None
        if isinstance(stmt, ast.If):
            return self._if(stmt, live, holds)
        if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
            return self._loop(stmt, live, holds)
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            bound = [_bound(stmt, i.optional_vars, "with") for i in stmt.items if self._binds(i.optional_vars)]
            return self.block(stmt.body, frozenset(bound[-1:]) or live)
        if isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
            return self._try(stmt, live, holds)
        if isinstance(stmt, ast.Match):
            return self._branches([(case.body, live) for case in stmt.cases] + [([], live)], holds)
        return self._simple(stmt, live)

    def _branches(self, blocks: list[tuple[list[ast.stmt], frozenset[Bound]]], holds: bool) -> frozenset[Bound] | None:
        """Each block walked from what can enter it; what can leave any of them."""
        outs = []
        for body, entering in blocks:
            if holds and not block_holds(body, self.line):
                continue
            outs.append(self.block(body, entering))
        return _union(outs)

    def _if(self, stmt: ast.If, live: frozenset[Bound], holds: bool) -> frozenset[Bound] | None:
        return self._branches(
            [(stmt.body, self._going(stmt.test, live, True)), (stmt.orelse, self._going(stmt.test, live, False))],
            holds,
        )

    def _going(self, test: ast.expr, live: frozenset[Bound], way: bool) -> frozenset[Bound]:
        """The bindings with which `test` can come out `way`: a plain local bound to a constant the evaluator
        shows makes it come out the other way does not go on (an unknown value always may)."""
        if not self.plain or id(test) in self.blind:
            return live
        return frozenset(b for b in live if truth(test, {self.code: _constant(b)}) is not (not way))

    def _loop(
        self, stmt: ast.For | ast.AsyncFor | ast.While, live: frozenset[Bound], holds: bool
    ) -> frozenset[Bound] | None:
        """A loop: its passes until what reaches the top of a pass stops growing, then what leaves it by its test
        failing (or its iterable running out) through its `else`, and by a `break`."""
        target = getattr(stmt, "target", None)
        each = frozenset([_bound(stmt, target, "for")]) if target is not None and self._binds(target) else None
        test = stmt.test if isinstance(stmt, ast.While) else None
        inside = holds and block_holds(stmt.body, self.line)
        if inside:
            self._mutations(stmt.body)
        top, again, exits = live, None, _Exits()
        while True:
            start = each if each is not None else top if test is None else self._going(test, top, True)
            exits = _Exits(stmt.lineno if inside else 0)
            self.loops.append(exits)
            self.past, past = True, self.past  # a pass the check lets by goes on after it, to the next pass
            again = _union([self.block(stmt.body, start), *exits.continues])  # what a pass hands to the next
            self.past = past
            self.loops.pop()
            grown = top | (again or frozenset())
            if grown == top:
                break
            top = grown
        if inside:  # a pass from all that reaches the top of one, up to the raise: what is in force there
            self.loops.append(_Exits(stmt.lineno))
            self.block(stmt.body, start)
            self.loops.pop()
            return None
        ran_out = self._ran_out(test, live, again)
        if holds:  # the raise is in the loop's `else`
            return self.block(stmt.orelse, ran_out) if ran_out is not None else None
        after = self.block(stmt.orelse, ran_out) if ran_out is not None else None
        return _union([after, *exits.breaks])

    def _ran_out(
        self, test: ast.expr | None, live: frozenset[Bound], again: frozenset[Bound] | None
    ) -> frozenset[Bound] | None:
        """What is in force when a loop stops by itself: before any pass (a `for` may run none) or after one,
        less what its test certainly lets in again; None for a `while` whose test is always true."""
        if test is None:
            return _union([live, again])
        if truth(test, {}) is True:
            return None
        return _union([self._going(test, live, False), None if again is None else self._going(test, again, False)])

    def _try(self, stmt: ast.stmt, live: frozenset[Bound], holds: bool) -> frozenset[Bound] | None:
        body: list[ast.stmt] = getattr(stmt, "body", [])
        handlers: list[ast.ExceptHandler] = getattr(stmt, "handlers", [])
        partly = live | frozenset(self.all_bindings(body, _last_line(body)))  # a handler runs after part of it
        outs = []
        for handler in handlers:
            if holds and not span_holds(handler, self.line):
                continue
            start = partly
            if handler.name is not None and handler.name == self.code:
                start = frozenset([Bound(handler.lineno, "except", _header(handler), target=None)])
            outs.append(self.block(handler.body, start))
        if not holds or block_holds(body + getattr(stmt, "orelse", []), self.line):
            went_on = self.block(body, live)
            outs.append(self.block(getattr(stmt, "orelse", []), went_on) if went_on is not None else None)
        after = _union(outs)
        final: list[ast.stmt] = getattr(stmt, "finalbody", [])
        if final and (not holds or block_holds(final, self.line)):
            return self.block(final, after if after is not None else partly)
        return after

    def _simple(self, stmt: ast.stmt, live: frozenset[Bound]) -> frozenset[Bound]:
        """An assignment (or a def, an import) replaces what was live; a mutation is noted (one after the raise in
        its loop's body with what is live there: it reaches the raise on the next pass if that binding does)."""
        self._mutations([stmt])
        if stmt.lineno > self.line and any(self._mutates(n) for n in walk_scope(stmt)):
            self.later.append((stmt.lineno, live, next((e.start for e in reversed(self.loops) if e.start), 0)))
        if isinstance(stmt, ast.Assign) and any(self._binds(t) for t in stmt.targets):
            target = next(t for t in stmt.targets if self._binds(t))
            return frozenset([_bound(stmt, target, "assign", stmt.value)])
        if isinstance(stmt, ast.AnnAssign) and stmt.value is not None and self._binds(stmt.target):
            return frozenset([_bound(stmt, stmt.target, "assign", stmt.value)])
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and stmt.name == self.code:
            return frozenset([Bound(stmt.lineno, "other", f"def {stmt.name}")])
        if isinstance(stmt, (ast.Import, ast.ImportFrom)) and any(
            (a.asname or a.name.split(".")[0]) == self.code for a in stmt.names
        ):
            return frozenset([Bound(stmt.lineno, "other", short(stmt))])
        if isinstance(stmt, ast.Delete) and any(self._binds(t) for t in stmt.targets):
            return frozenset()
        return live

    def _binds(self, target: ast.expr | None) -> bool:
        return target is not None and target_binds(target, self.code)

    def all_bindings(self, body: list[ast.stmt], before: int) -> list[Bound]:
        """Every binding of the name in a block (its nested functions and classes aside), an assignment only when
        it ends before line `before`: only then may a later statement of the block raise after it completed."""
        out = []
        for stmt in body:
            for node in walk_scope(stmt):
                if isinstance(node, (ast.Assign, ast.AnnAssign)) and (node.end_lineno or before) >= before:
                    continue
                if isinstance(node, ast.Assign) and any(self._binds(t) for t in node.targets):
                    target = next(t for t in node.targets if self._binds(t))
                    out.append(_bound(node, target, "assign", node.value))
                elif isinstance(node, ast.AnnAssign) and node.value is not None and self._binds(node.target):
                    out.append(_bound(node, node.target, "assign", node.value))
                elif isinstance(node, (ast.For, ast.AsyncFor)) and self._binds(node.target):
                    out.append(_bound(node, node.target, "for"))
                elif isinstance(node, ast.ExceptHandler) and node.name == self.code:
                    out.append(Bound(node.lineno, "except", _header(node)))
                elif isinstance(node, (ast.With, ast.AsyncWith)):
                    out += [_bound(node, i.optional_vars, "with") for i in node.items if self._binds(i.optional_vars)]
        return out

    def _mutations(self, body: list[ast.stmt]) -> None:
        """Lines that change the bound value in place before the raise."""
        for stmt in body:
            for node in walk_scope(stmt):
                at = getattr(node, "lineno", self.line)
                if at < self.line and self._mutates(node):
                    self.mutated.append(at)

    def _mutates(self, node: ast.AST) -> bool:
        return mutates(node, self.code)


def mutates(node: ast.AST, code: str) -> bool:
    """Whether the node changes the value `code` names in place (`x[k] = v`, `x += y`, `x.update(...)`, `del x[k]`)."""
    if isinstance(node, ast.AugAssign):
        return _is_code(node.target, code)
    if isinstance(node, (ast.Assign, ast.Delete)):
        return any(isinstance(t, ast.Subscript) and _is_code(t.value, code) for t in node.targets)
    if isinstance(node, ast.Call):
        func = node.func
        return isinstance(func, ast.Attribute) and func.attr in _MUTATORS and _is_code(func.value, code)
    return False


def walk_scope(node: ast.AST) -> list[ast.AST]:
    """The nodes under `node`, not entering nested functions, classes or lambdas."""
    out, stack = [], [node]
    while stack:
        current = stack.pop()
        out.append(current)
        stack += [c for c in ast.iter_child_nodes(current) if not isinstance(c, _SCOPES)]
    return out


def global_stores(function: FunctionNode, name: str) -> list[int]:
    """The lines where a function declaring `global name` binds it (`_KERNEL = load()`): a new module value."""
    if not any(isinstance(n, ast.Global) and name in n.names for n in walk_scope(function)):
        return []
    nodes = walk_scope(function)
    return sorted(n.lineno for n in nodes if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store))


def target_binds(target: ast.expr, code: str) -> bool:
    """Whether an assignment target binds `code` (itself, or an item of a tuple or list it unpacks into)."""
    if isinstance(target, (ast.Tuple, ast.List)):
        return any(target_binds(e, code) for e in target.elts)
    if isinstance(target, ast.Starred):
        return target_binds(target.value, code)
    return _is_code(target, code)


def _is_code(node: ast.expr, code: str) -> bool:
    """Whether the node is the expression `code` (a name, `self.X`, or any attribute or subscript by its text)."""
    if isinstance(node, ast.Name):
        return node.id == code
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}" == code
    return isinstance(node, (ast.Attribute, ast.Subscript)) and not code.isidentifier() and short(node, 1000) == code


def _bound(stmt: ast.stmt, target: ast.expr | None, kind: str, value: ast.expr | None = None) -> Bound:
    return Bound(stmt.lineno, kind, _header(stmt), value, target)


def _header(node: ast.AST) -> str:
    """The statement as written, without its body (`for a, b in x.items()`, `except E as e`)."""
    if isinstance(node, (ast.For, ast.AsyncFor)):
        return f"for {_target(node.target)} in {short(node.iter)}"
    if isinstance(node, (ast.With, ast.AsyncWith)):
        items = ", ".join(
            short(i.context_expr) + (f" as {short(i.optional_vars)}" if i.optional_vars else "") for i in node.items
        )
        return f"with {items}"
    if isinstance(node, ast.ExceptHandler):
        caught = f" {short(node.type)}" if node.type is not None else ""
        return f"except{caught}" + (f" as {node.name}" if node.name else "")
    return short(node)


def _target(node: ast.expr) -> str:
    """A loop's target as written (`a, b`, not `(a, b)`)."""
    return ", ".join(map(short, node.elts)) if isinstance(node, ast.Tuple) and node.elts else short(node)


def _constant(bound: Bound) -> object:
    """The constant a plain assignment binds (None, a number, a string), UNKNOWN for anything else."""
    if bound.kind != "assign" or bound.value is None or not isinstance(bound.target, ast.Name):
        return UNKNOWN
    value = value_of(bound.value, {})
    return value if isinstance(value, _IMMUTABLE) else UNKNOWN


def _last_line(body: list[ast.stmt]) -> int:
    """Where the block's last simple statement starts (inside its last compound statement's last block)."""
    last = body[-1] if body else None
    while last is not None:
        blocks = [b for b in (getattr(last, f, None) for f in ("finalbody", "orelse", "body")) if b]
        if not blocks or isinstance(last, _SCOPES):
            return last.lineno
        last = blocks[0][-1]
    return 0


def _union(outs: list[frozenset[Bound] | None]) -> frozenset[Bound] | None:
    going = [o for o in outs if o is not None]
    return frozenset().union(*going) if going else None


def span_holds(node: ast.AST, line: int) -> bool:
    """Whether a node's lines hold `line`."""
    start = getattr(node, "lineno", 0)
    return start <= line <= (getattr(node, "end_lineno", None) or start)


def block_holds(block: list[ast.stmt], line: int) -> bool:
    """Whether a block's lines hold `line`."""
    return bool(block) and block[0].lineno <= line <= (block[-1].end_lineno or block[-1].lineno)


def short(node: ast.AST | None, limit: int = 120) -> str:
    """A node's source, cut to `limit` characters for a sentence."""
    if node is None:
        return ""
    try:
        text = ast.unparse(node)
    except (RecursionError, ValueError):
        return "<expression>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass(frozen=True)
class Rebound:
    """A parameter (or an attribute of one, `self.by`) the function binds again before the raise: the check sees
    that value, not the argument (not the value the attribute had on entry)."""

    name: str
    bound: Bound
    when: str | None  # the test of the innermost `if` the rebinding is under, as code ("not (...)" in its else)


def rebound(func: FunctionNode, names: Iterable[str], line: int) -> list[Rebound]:
    """The rebindings of those of `names` that are parameters of `func`, or attributes of one (`self.by`), which
    can reach the raise on `line` (one after it in a loop's body reaches it on the next pass)."""
    own = _parameters(func)
    out = []
    for name in names:
        if name.split(".", 1)[0] not in own:
            continue
        found = in_force(func, name, line)
        for bound in found.bindings if found is not None else ():
            if bound.line != line and bound.kind != "comprehension":
                out.append(Rebound(name, bound, guard(func, bound.line)))
        grown = [n for n in walk_scope(func) if isinstance(n, ast.AugAssign) and _is_code(n.target, name)]
        for node in (n for n in grown if n.lineno < line):  # `repo_url += "/" + repo_id`: made from the one before
            out.append(Rebound(name, Bound(node.lineno, "augmented", short(node)), guard(func, node.lineno)))
    return sorted(out, key=lambda r: r.bound.line)


def _parameters(func: FunctionNode) -> set[str]:
    arguments = func.args
    parameters = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
    return {a.arg for a in parameters if a is not None}


@dataclass(frozen=True)
class Changed:
    """A parameter the function changes in place before the raise (`kwargs.pop('nbins')`): the check sees what is
    left, not the argument as passed."""

    name: str
    lines: tuple[int, ...]
    code: str  # the first change, as code
    at: int  # the raise's line: changes after it, in a loop's body, reach it only from the loop's second pass


def changed_in_place(func: FunctionNode, names: Iterable[str], line: int) -> list[Changed]:
    """Those of `names` that are parameters of `func` which a statement of it before `line` changes in place (see
    `mutates`; nested definitions aside), or one after it in the body of a loop holding both (on the next pass)."""
    own = _parameters(func)
    loops = [n.body for n in walk_scope(func) if isinstance(n, (ast.For, ast.AsyncFor, ast.While))]
    out = []
    for name in (n for n in names if n in own):
        found = sorted(
            (
                n
                for n in walk_scope(func)
                if isinstance(n, (ast.stmt, ast.expr))
                and (n.lineno < line or any(block_holds(b, n.lineno) and block_holds(b, line) for b in loops))
                and mutates(n, name)
            ),
            key=lambda n: (n.lineno, n.col_offset),
        )
        if found:
            out.append(Changed(name, tuple(dict.fromkeys(n.lineno for n in found)), short(found[0], 80), line))
    return out


def ifs_around(func: FunctionNode, line: int) -> list[ast.If]:
    """The `if` statements of the function (nested definitions aside) whose body or `else` holds `line`."""
    return [
        n
        for n in walk_scope(func)
        if isinstance(n, ast.If) and (block_holds(n.body, line) or block_holds(n.orelse, line))
    ]


def own_chain(func: FunctionNode, line: int) -> ast.expr | None:
    """The tests of the `if`/`elif` chain the raise on `line` is in, as one `and`: its own test, and the negated test
    of each earlier branch that raises nothing (`not (mode == 'fast') and mode != 'slow'`: a value that takes that
    branch is one the code handles); None when no `if` holds it. An `if` around that chain is left out."""
    around = sorted(ifs_around(func, line), key=lambda n: n.lineno)
    if not around:
        return None
    inner = around[-1]
    tests = [inner.test if block_holds(inner.body, line) else negation(inner.test)]
    for outer in reversed(around[:-1]):
        if outer.orelse != [inner]:
            break  # `inner` is no `elif` of it: `outer` holds the whole chain
        if not any(isinstance(n, ast.Raise) for stmt in outer.body for n in walk_scope(stmt)):
            tests.insert(0, negation(outer.test))
        inner = outer
    return tests[0] if len(tests) == 1 else ast.BoolOp(ast.And(), tests)


def guard(func: FunctionNode, line: int) -> str | None:
    """The innermost `if` of the function whose body (its test) or `else` (the test negated) holds `line`."""
    found: str | None = None
    for node in walk_scope(func):
        if isinstance(node, ast.If) and block_holds(node.body, line):
            found = short(node.test)
        elif isinstance(node, ast.If) and block_holds(node.orelse, line):
            found = f"not ({short(node.test)})"
    return found


def negation(test: ast.expr) -> ast.expr:
    """`not t` as the extractor writes the negation of a test (`t` itself for `not t`)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand
    return ast.UnaryOp(ast.Not(), test)
