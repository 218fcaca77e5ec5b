"""Where the inputs of a check come from: the parameter or the argument a user passes to set them.

For `self.cache_implementation` checked in `GenerationConfig.validate`, the class's methods are
searched for `self.cache_implementation = ...`: `__init__` stores `kwargs.pop("cache_implementation",
None)` there and calls `self.validate()`, so the way in is `GenerationConfig(cache_implementation=...)`.
A plain name is a parameter of the function (the way in is a call of that function), a parameter
of the function a nested one is defined in, or a local computed in it. Ways in are only what a
user or a caller takes (a call passing the parameter, a property read); where a name is bound
without one (a local, a loop variable, a class attribute, a class of the module) is said apart,
as `bound`. Only the file of the site is read; base classes defined in it are searched too.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from errdex.extract.resolve import dotted_name
from errdex.pages.conditions import input_name
from errdex.pages.defaults import NOT_LITERAL, literal_value
from errdex.pages.evaluate import UNKNOWN, truth, value_of
from errdex.pages.inforce import (
    Bound,
    InForce,
    block_holds,
    earlier_pass,
    guard,
    ifs_around,
    in_force,
    mutates,
    short,
    span_holds,
    target_binds,
    walk_scope,
)
from errdex.pages.model import EntryStep, InputBinding, InputWay
from errdex.pages.source import (
    FoundDefinition,
    FunctionNode,
    abc_declared,
    call_code,
    class_and_bases,
    decorated_as,
    find,
    is_accessor,
    keyword_default,
    methods,
    parameters,
    subclasses,
)


@dataclass(frozen=True)
class WayIn:
    """One way a user sets an input: the call, what the method does with it, where, and whether it reaches the check."""

    call: str | None
    via: str
    how: str
    line: int
    reaches: bool
    keyword: str | None = None
    required: tuple[str, ...] = ()  # the other parameters a call of `via` must pass
    value: ast.expr | None = field(default=None, compare=False)  # the one expression it stores, when one
    default: str | None = None  # the literal a call leaving out `keyword` gives it; None: none, or no literal

    def json(self, file: str, import_from: str | None = None, through: list[EntryStep] | None = None) -> InputWay:
        return {
            "call": self.call,
            "import_from": import_from,
            "keyword": self.keyword,
            "required": list(self.required),
            "via": self.via,
            "how": self.how,
            "file": file,
            "line": self.line,
            "reaches_check": self.reaches,
            "default": self.default,
            "through": through or [],
        }

    def bound_json(self, file: str) -> InputBinding:
        """The same fact said as where the name is bound (no call of it is a way in)."""
        return {"how": self.how, "file": file, "line": self.line}


@dataclass(frozen=True)
class Traced:
    """An input's kind, the ways in a user or a caller takes, and where it is bound when none sets it."""

    kind: str  # attribute | parameter | local | other
    ways: list[WayIn]
    bound: list[WayIn]
    computed_from: tuple[Source, ...] = ()  # for a local: the inputs its one binding reads, traced in their turn


@dataclass(frozen=True)
class Source:
    """An input a local is computed from (`q_min, q_max = self.quantile_range`): the local is no way in itself, but
    a user who sets this input sets what it is computed from."""

    code: str
    line: int  # the local's binding that reads it
    traced: Traced


MAX_SOURCES = 3


def trace(
    tree: ast.Module,
    site_function: str,
    code: str,
    line: int,
    template: str | None = None,
    condition: ast.expr | None = None,
) -> Traced:
    """An input traced (`_trace`), less what the function itself assigns to the very expressions the check reads off
    it: after `conn.cert_file = cert` a check of `conn.cert_file` sees `cert`, whatever `conn` was passed. A store of
    a constant that makes the check's `condition` false is said not to reach it."""
    traced = _unreaching(_trace(tree, site_function, code, line, template), code, condition)
    located = find(tree, site_function)
    if located is None or isinstance(located.node, ast.ClassDef):
        return traced
    reads = _reads_off(located.node, code, line)
    assigned = {text: found for text in reads if text and (found := in_force(located.node, text, line)) is not None}
    if not assigned:
        return traced
    notes = [
        WayIn(None, site_function, _assigned_how(site_function, text, found), found.bindings[-1].line, True)
        for text, found in assigned.items()
    ]
    if set(assigned) == reads and not any(found.entry for found in assigned.values()):
        return Traced("local", [], notes)  # every read of it is set by the function: no argument reaches the check
    said = "; ".join(n.how for n in notes)
    return replace(
        traced, ways=[replace(w, how=f"{w.how}; but {said}") for w in traced.ways], bound=notes + traced.bound
    )


def _unreaching(traced: Traced, code: str, condition: ast.expr | None) -> Traced:
    """`self.raw = None` for a check under `hasattr(self.raw, "stream")`: with that value the condition is false,
    so it is no value the check sees (nor a way to it)."""
    if condition is None:
        return traced

    def said(way: WayIn) -> WayIn:
        constant = value_of(way.value, {}) if way.value is not None else UNKNOWN
        if not isinstance(constant, _PLAIN) or truth(condition, {code: constant}) is not False:
            return way
        how = f"{way.how}; with `{code}` = `{short(way.value)}` the check's condition is false: it cannot be the value"
        return replace(way, how=how + " the check sees", reaches=False)

    return replace(traced, ways=[said(w) for w in traced.ways], bound=[said(w) for w in traced.bound])


_PLAIN = (type(None), bool, int, float, str, bytes)  # values whose attributes and truth the evaluator knows


def _assigned_how(function: str, text: str, found: InForce) -> str:
    """What the function assigns to a read of the check, and whether the value on entry may still be in force."""
    how = local_how(function, text, found).replace(f"`{text}` is computed", f"`{text}`, which the check reads, is set")
    return how + (", or else it keeps the value it had on entry" if found.entry else "")


def _reads_off(function: FunctionNode, code: str, line: int) -> set[str]:
    """How the raise's own `if` test reads `code`: the attributes and subscripts of it (`conn.cert_file` off
    `conn`), and "" where it reads `code` itself (or calls a method of it)."""
    tests = [n.test for n in ast.walk(function) if isinstance(n, ast.If) and block_holds(n.body, line)]
    if not tests:
        return set()
    test = min(tests, key=lambda t: line - t.lineno)
    called = {id(n.func) for n in ast.walk(test) if isinstance(n, ast.Call)}
    parents = {id(c): p for p in ast.walk(test) for c in ast.iter_child_nodes(p)}
    out = set()
    for node in ast.walk(test):
        if isinstance(node, (ast.Name, ast.Attribute)) and short(node, 1000) == code:
            parent = parents.get(id(node))
            read = (
                isinstance(parent, (ast.Attribute, ast.Subscript)) and parent.value is node and id(parent) not in called
            )
            out.add(short(parent, 1000) if read and parent is not None else "")
    return out


def _trace(tree: ast.Module, site_function: str, code: str, line: int, template: str | None = None) -> Traced:
    """The kind of an input (`attribute`, `parameter`, `local`, `other`), its ways in (best first), and where it is
    bound when no way in sets it.

    `line` is the raise's: the checking function's own stores after it come too late to reach it. `template` is
    the error's message: a part of it added only under a test tells which bindings cannot come with it.
    """
    located = find(tree, site_function)
    if located is None or isinstance(located.node, ast.ClassDef):
        return Traced("other", [], [])
    enclosing = _enclosing(located, code)
    if enclosing is not None:
        return _free_variable(tree, located, enclosing, code)
    if code.startswith(("self.", "cls.")):
        return _attribute(tree, located, input_name(code), line)
    params = {p.arg for p in parameters(located.node)}
    if code in params:
        abstract = located.owner is not None and located.node.name == "__init__" and _abstract(tree, located.owner)
        call = None if abstract else call_code(_called_as(tree, located, site_function), located.node, [code])
        how = f"`{code}` is a parameter of `{site_function}`" + (_ABSTRACT.format(located.owner) if abstract else "")
        required = required_parameters(located.node, code, bound=located.owner is not None)
        default = literal_default(located.node, code)
        way = WayIn(call, site_function, how, located.node.lineno, True, code, required, default=default)
        return Traced("parameter", [way], [])
    packed = _packed_parameter(located.node, code)
    if packed is not None:
        how = f"`{code}` is the `{packed}` parameter of `{site_function}`: what its callers pass beyond the others"
        return Traced("parameter", [WayIn(None, site_function, how, located.node.lineno, True)], [])
    found = in_force(located.node, code, line)
    if found is not None:
        found = _with_message(located.node, code, found, line, template)
        read = _read_by_tests(located.node, code, line, found)
        if read:
            how = "; ".join(f"{local_how(site_function, code, at)}, {_read_at(lines)}" for lines, at in read)
            if all(at.bindings != found.bindings for _, at in read):
                later = ", ".join(str(b.line) for b in found.bindings)
                binds = f"lines {later} bind" if len(found.bindings) > 1 else f"line {later} binds"
                how += f" ({binds} it again after {'those tests' if len(read) > 1 else 'that test'})"
            return Traced("local", [], [WayIn(None, site_function, how, read[0][1].bindings[-1].line, True)])
        how = local_how(site_function, code, found)
        sources = _computed_from(tree, site_function, located.node, found)
        return Traced("local", [], [WayIn(None, site_function, how, found.bindings[-1].line, True)], sources)
    walrus = _assignment_expressions(located.node, code, line)
    if walrus:
        listed = "; ".join(f"`{short(n)}` (line {n.lineno})" for n in walrus)
        plural = "s" if len(walrus) > 1 else ""
        how = f"`{code}` is bound in `{site_function}` by the assignment expression{plural} {listed}"
        return Traced("local", [], [WayIn(None, site_function, how, walrus[-1].lineno, True)])
    stores = sorted(
        stmt.lineno
        for stmt in walk_scope(located.node)
        if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign))
        and stmt.lineno < line
        and any(target_binds(t, code) for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]))
    )
    if stores:  # bound only in blocks that leave first: an earlier check's name, not one this raise reads
        lines = ", ".join(map(str, stores))
        how = (
            f"`{code}` is bound in `{site_function}` only at line{'s' if len(stores) > 1 else ''} {lines}, on paths"
            f" that leave the function before line {line}: a run that reaches line {line} did not bind it"
        )
        return Traced("local", [], [WayIn(None, site_function, how, stores[-1], True)])
    defined = _module_name_way(tree, code, site_function)
    return Traced("other", [], [defined] if defined is not None else [])


def _computed_from(tree: ast.Module, site_function: str, func: FunctionNode, found: InForce) -> tuple[Source, ...]:
    """The parameters and `self` attributes the local's one assignment reads (not a method it calls), each traced
    from that line, when a user's call sets it; nothing when the local is bound several ways or changed after."""
    single = found.single
    if single is None or single.kind != "assign" or single.value is None or found.mutated_at:
        return ()
    params = {p.arg for p in parameters(func)} - {"self", "cls"}
    called = {id(n.func) for n in ast.walk(single.value) if isinstance(n, ast.Call)}
    codes: list[str] = []
    for node in ast.walk(single.value):
        if isinstance(node, ast.Name) and node.id in params:
            codes.append(node.id)
        elif isinstance(node, ast.Attribute) and id(node) not in called and short(node.value) == "self":
            codes.append(f"self.{node.attr}")
    out = []
    for text in list(dict.fromkeys(codes))[:MAX_SOURCES]:
        traced = _trace(tree, site_function, text, single.line)
        if traced.kind in ("parameter", "attribute") and any(w.call and w.keyword for w in traced.ways):
            out.append(Source(text, single.line, traced))
    return tuple(out)


def _read_at(lines: list[int]) -> str:
    """'as the test at line 475 reads it', 'as the tests at lines 573, 595 read it'."""
    if len(lines) == 1:
        return f"as the test at line {lines[0]} reads it"
    return f"as the tests at lines {', '.join(map(str, lines))} read it"


def _read_by_tests(function: FunctionNode, code: str, line: int, found: InForce) -> list[tuple[list[int], InForce]]:
    """`if proxy:` then `proxy = prepend_scheme(proxy)` inside it, above the raise: the check's clause on `proxy`
    reads the binding in force at that test, not the one at the raise. The tests of the `if`s around the raise that
    read `code`, grouped by what is in force where each reads it (in line order), when some group differs from what
    is in force at the raise; empty when all read that (or what one reads is not resolved)."""
    tests = sorted(
        (
            n
            for n in ifs_around(function, line)
            if any(isinstance(r, (ast.Name, ast.Attribute)) and short(r, 1000) == code for r in ast.walk(n.test))
        ),
        key=lambda n: n.lineno,
    )
    groups: list[tuple[list[int], InForce]] = []
    for test in tests:
        # no binding between the test and the raise: it reads what the raise sees (what the tests let through)
        rebound_after = any(b.line > test.lineno for b in found.bindings)
        at = in_force(function, code, test.lineno, test=True) if rebound_after else found
        if at is None or at.entry:
            return []
        same = next((g for g in groups if g[1].bindings == at.bindings), None)
        if same is not None:
            same[0].append(test.lineno)
        else:
            groups.append(([test.lineno], at))
    return groups if any(at.bindings != found.bindings for _, at in groups) else []


def _called_as(tree: ast.Module, located: FoundDefinition, qualname: str) -> str:
    """`TensorflowDatasetMixin.to_tf_dataset` as `Dataset.to_tf_dataset`: a mixin is not made on its own, so its
    method is called on an object of the one class of the module built on it (with several, which one a user has
    is not known, and the mixin is named)."""
    owner = located.owner
    if owner is None or not owner.name.endswith("Mixin") or located.node.name == "__init__":
        return qualname
    built = [c for c in subclasses(tree, owner) if not c.name.endswith("Mixin")]
    return f"{built[0].name}.{located.node.name}" if len(built) == 1 else qualname


def _assignment_expressions(function: FunctionNode, code: str, line: int) -> list[ast.NamedExpr]:
    """`x := ...` binding the name before the raise (the statement walk does not look inside expressions)."""
    found = [n for n in ast.walk(function) if isinstance(n, ast.NamedExpr) and n.target.id == code and n.lineno <= line]
    return sorted(found, key=lambda n: n.lineno)


def _with_message(function: FunctionNode, code: str, found: InForce, line: int, template: str | None) -> InForce:
    """The bindings in force that can come with the page's message, when the raise passes a name as its message.

    `msg += " with any supported extension ..."` only `if allowed_extensions is not None:`: a page about the
    message with that text is about a run where the test held, so a binding in the `else` of the same test
    (`else: out = matched_paths`) is not the one in force. And a binding of the message name itself whose
    literal text is not in the page's template (`msg = f"{code} Client Error: ..."` on the page for
    `{} Server Error: {}`) cannot have made it.
    """
    message = _message_name(function, line)
    if template is None or message is None:
        return found
    needed = _message_tests(function, line, template, message)
    elses = [
        node
        for node in ast.walk(function)
        if isinstance(node, ast.If) and node.orelse and ast.dump(node.test) in needed
    ]
    kept = tuple(
        b
        for b in found.bindings
        if not any(block_holds(node.orelse, b.line) for node in elses)
        and (code != message or _can_make(b, template, any(n > b.line for n in found.mutated_at)))
    )
    if not kept:
        return found
    left = set(found.excluded) | (set(found.bindings) - set(kept))
    return replace(found, bindings=kept, excluded=tuple(sorted(left, key=lambda b: b.line)))


def _message_name(function: FunctionNode, line: int) -> str | None:
    """The plain name a raise on `line` passes as its message (`raise E(msg, ...)`), None otherwise."""
    raised = next(
        (n for n in ast.walk(function) if isinstance(n, ast.Raise) and n.lineno == line and n.exc is not None), None
    )
    exc = raised.exc if raised is not None else None
    if isinstance(exc, ast.Call) and exc.args and isinstance(exc.args[0], ast.Name):
        return exc.args[0].id
    return None


class MessageBinding(NamedTuple):
    """A binding of the raise's message name whose literal text is in the page's template, and the test of the
    innermost `if` it is under (None at the function's top level, or under an `if` that holds the raise too)."""

    bound: Bound
    guard: str | None


def message_bindings(function: FunctionNode, line: int, template: str) -> list[MessageBinding]:
    """`msg = f"{path} (invalid repository id)"` under `elif isinstance(err, HFValidationError):` when the raise on
    `line` is `raise E(msg)`: the bindings in force there that write the template's own text (a piece of literal
    text, not blank), each with its guard; empty when the message is no plain name or none writes that text."""
    message = _message_name(function, line)
    found = in_force(function, message, line) if message is not None else None
    if found is None:
        return []
    out = []
    for bound in found.bindings:
        value = bound.value if bound.kind == "assign" and isinstance(bound.target, ast.Name) else None
        text = _literal_text(value) if value is not None else ""
        if text.strip() and _can_make(bound, template, False):
            # under an `if` around the raise too, in the same branch: its test is the check's, already said
            shared = any(
                block_holds(n.body if block_holds(n.body, line) else n.orelse, bound.line)
                for n in ifs_around(function, line)
            )
            out.append(MessageBinding(bound, None if shared else guard(function, bound.line)))
    return out


def _can_make(bound: Bound, template: str, grown: bool) -> bool:
    """Whether a binding of the message can give the template: each literal piece of it is in the template, and
    an empty string stays empty unless something is added to it later."""
    value = bound.value if bound.kind == "assign" and isinstance(bound.target, ast.Name) else None
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        if not value.value and not grown:
            return not template
        pieces = [value.value]
    elif isinstance(value, ast.JoinedStr):
        pieces = [v.value for v in value.values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
    else:
        return True
    return all(piece in template for piece in pieces if piece.strip())


def _message_tests(function: FunctionNode, line: int, template: str, message: str) -> set[str]:
    """The tests (as dumped trees) under which the raise's message variable gets a part of `template` added."""
    tests = set()
    for node in ast.walk(function):
        if not isinstance(node, ast.If) or node.lineno > line:
            continue
        for stmt in node.body:
            added = _literal_text(stmt.value) if isinstance(stmt, ast.AugAssign) and _sets(stmt, message) else ""
            if added.strip() and added in template:
                tests.add(ast.dump(node.test))
    return tests


def _sets(stmt: ast.AugAssign | ast.AnnAssign, name: str) -> bool:
    """Whether the statement's target is the plain name."""
    return isinstance(stmt.target, ast.Name) and stmt.target.id == name


def _literal_text(node: ast.expr) -> str:
    """The longest literal piece of a string expression (`f" with {x}"` -> " with "), "" when none."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        pieces = [v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
        return max(pieces, key=len, default="")
    return ""


def _enclosing(located: FoundDefinition, code: str) -> str | None:
    """The function a nested function is defined in, when `code` is a free variable of it (a parameter or a local of
    the enclosing function, `self` of the enclosing method)."""
    if ".<locals>." not in located.qualname:
        return None
    root = code.split(".", 1)[0]
    function = located.node
    if not isinstance(function, ast.ClassDef) and _binds(function, root):
        return None
    return located.qualname.rsplit(".<locals>.", 1)[0]


def _binds(function: FunctionNode, name: str) -> bool:
    """Whether the function binds `name` itself (a parameter, a store, a loop or `except` target)."""
    if name in {p.arg for p in parameters(function)} or _packed_parameter(function, name) is not None:
        return True
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
            return True
        if isinstance(node, ast.ExceptHandler) and node.name == name:
            return True
        if isinstance(node, (ast.Nonlocal, ast.Global)) and name in node.names:
            return False
    return False


def _free_variable(tree: ast.Module, located: FoundDefinition, enclosing: str, code: str) -> Traced:
    """An input a nested function reads from the function it is defined in: traced there, as it stands where the
    nested function is defined."""
    traced = trace(tree, enclosing, code, located.node.lineno)
    nested = located.qualname.rsplit(".", 1)[-1]
    where = f" (read by `{nested}`, the function defined inside `{enclosing}` at line {located.node.lineno})"
    root = code.split(".", 1)[0]
    later = _bound_after(find(tree, enclosing), root, located.node.end_lineno or located.node.lineno)
    if later:  # a closure reads the name when it is called: a later binding may be the one it sees
        lines = ", ".join(map(str, later))
        if not traced.ways and not traced.bound:
            how = f"`{root}` is bound in `{enclosing}` only after `{nested}` is defined (line {lines}){where}"
            return Traced(
                "local", [], [WayIn(None, enclosing, how + ": which value a call sees is not resolved", later[0], True)]
            )
        where += f"; `{enclosing}` binds it again after that (line {lines}): which value a call sees is not resolved"
    return Traced(
        traced.kind,
        [replace(w, how=w.how + where) for w in traced.ways],
        [replace(w, how=w.how + where) for w in traced.bound],
    )


def _bound_after(enclosing: FoundDefinition | None, name: str, end: int) -> list[int]:
    """The lines after `end` where the enclosing function itself (not a function nested in it) binds `name`."""
    if enclosing is None or isinstance(enclosing.node, ast.ClassDef):
        return []
    nodes = [n for stmt in enclosing.node.body for n in walk_scope(stmt)]
    stored = {n.lineno for n in nodes if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)}
    return sorted(line for line in stored if line > end)


def _attribute(tree: ast.Module, located: FoundDefinition, attr: str, line: int) -> Traced:
    """`self.X`: the calls whose arguments a method stores in it; the stores, properties and class attributes that
    bind it otherwise."""
    if attr.startswith("__") and attr.endswith("__"):
        how = f"`self.{attr}` is set by Python itself for every object, not by the package's code"
        return Traced("other", [], [WayIn(None, located.qualname, how, located.node.lineno, True)])
    ways = _attribute_ways(tree, located, attr, line)
    computed = _property_way(located, attr) if not ways else None
    if computed is not None:
        return Traced("attribute", [computed], [])
    field = _dataclass_field(tree, located, attr)
    if field is not None:
        return Traced("attribute", [w for w in ways if w.call] + [field], [w for w in ways if not w.call])
    declared = _class_attribute(tree, located, attr)
    filled = _filled(tree, located, attr)
    stored = [w for w in ways if not w.call]
    if filled is not None:  # said with each store, which alone would read as the value the check sees
        stored = [replace(w, how=f"{w.how}; {filled.how}") for w in stored] or [filled]
    return Traced("attribute", [w for w in ways if w.call], stored + declared)


def _filled(tree: ast.Module, located: FoundDefinition, attr: str) -> WayIn | None:
    """`self.binds[name] = bind` in a method of the class (or a base of the module): what the check reads of
    `self.binds` is what such methods put in it, not only what was first stored (`self.binds = {}`)."""
    owner = located.owner
    found: list[tuple[str, int]] = []
    for cls in class_and_bases(tree, owner):
        for name, method in methods(cls).items():
            lines = [getattr(n, "lineno", 0) for n in walk_scope(method) if mutates(n, f"self.{attr}")]
            if lines:
                found.append((f"{cls.name}.{name}", min(lines)))
    if not found:
        return None
    listed = ", ".join(f"`{name}` (line {at})" for name, at in found[:MAX_FILLED])
    more = f" and {len(found) - MAX_FILLED} more" if len(found) > MAX_FILLED else ""
    how = f"`self.{attr}` is changed in place by {listed}{more}, so the check sees what those put in it"
    return WayIn(None, found[0][0], how, found[0][1], True)


MAX_FILLED = 3  # methods named that change an attribute in place


def _dataclass_field(tree: ast.Module, located: FoundDefinition, attr: str) -> WayIn | None:
    """`tokenizer: Tokenizer` in a dataclass or a `NamedTuple` (the class or a base of the module): its constructor
    takes it."""
    owner = located.owner
    if owner is None:
        return None
    for cls in class_and_bases(tree, owner):
        kind = record_kind(cls)
        if kind is None:
            continue
        for stmt in cls.body:
            if isinstance(stmt, ast.AnnAssign) and _sets(stmt, attr) and "ClassVar" not in ast.unparse(stmt.annotation):
                reaches = "__post_init__" in _reaching(methods(owner), located.node.name)
                call = None if _abstract(tree, owner) else f"{owner.name}({attr}=...)"
                how = f"`self.{attr}` is the {kind} field `{cls.name}.{attr}` (line {stmt.lineno}): the constructor"
                how += " takes it" + (" and `__post_init__` then reaches the check" if reaches else "")
                # no keyword: the field's annotation is not read as what it takes, so no trigger goes through it
                return WayIn(call, f"{owner.name}.__init__", how, stmt.lineno, reaches)
    return None


def record_kind(cls: ast.ClassDef) -> str | None:
    """ "dataclass" for `@dataclass(...)`, "NamedTuple" for `class C(NamedTuple)`: classes whose annotated body
    names are the constructor's fields; None for any other class."""
    if any((dotted_name(_called(d)) or "").endswith("dataclass") for d in cls.decorator_list):
        return "dataclass"
    if any((dotted_name(b) or "").split(".")[-1] == "NamedTuple" for b in cls.bases):
        return "NamedTuple"
    return None


def _called(node: ast.expr) -> ast.expr:
    """`dataclass(frozen=True)` -> `dataclass`: the decorator itself."""
    return node.func if isinstance(node, ast.Call) else node


def _class_attribute(tree: ast.Module, located: FoundDefinition, attr: str) -> list[WayIn]:
    """`_engines = {...}` in the body of the class (or of a base defined in the module): the value `self._engines`
    has until an instance stores its own."""
    for cls in class_and_bases(tree, located.owner):
        for stmt in cls.body:
            targets = (
                stmt.targets
                if isinstance(stmt, ast.Assign)
                else [stmt.target]
                if isinstance(stmt, ast.AnnAssign)
                else []
            )
            value = getattr(stmt, "value", None)
            if value is not None and any(isinstance(t, ast.Name) and t.id == attr for t in targets):
                how = (
                    f"`self.{attr}` is the class attribute `{cls.name}.{attr}` = `{short(value)}` (line {stmt.lineno})"
                )
                return [WayIn(None, f"{cls.name}.{attr}", how, stmt.lineno, True)]
    return []


def _packed_parameter(function: FunctionNode, code: str) -> str | None:
    """`*args` or `**kwargs` when `code` is the function's catch-all parameter of that name."""
    args = function.args
    if args.vararg is not None and args.vararg.arg == code:
        return f"*{code}"
    if args.kwarg is not None and args.kwarg.arg == code:
        return f"**{code}"
    return None


def _property_way(located: FoundDefinition, attr: str) -> WayIn | None:
    """`self.nlevels` read from a property (or another method) of the class: computed when read, not stored."""
    owner = located.owner
    if owner is None:
        return None
    named = [s for s in owner.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == attr]
    # a read runs the getter, not the `@attr.setter` defined after it under the same name
    method = next((m for m in named if not is_accessor(m)), None)
    if method is None:
        return None
    decorated = {dotted_name(d) for d in method.decorator_list}
    kind = "property" if decorated & {"property", "functools.cached_property", "cached_property"} else "method"
    how = f"`self.{attr}` is the {kind} `{owner.name}.{attr}` (line {method.lineno}), computed when it is read"
    return WayIn(None, f"{owner.name}.{attr}", how, method.lineno, True)


def _module_name_way(tree: ast.Module, code: str, function: str) -> WayIn | None:
    """A name the module itself defines at its top level (a class, a function, an import): no input at all."""
    for stmt in tree.body:
        if isinstance(stmt, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == code:
            what = "class" if isinstance(stmt, ast.ClassDef) else "function"
            return WayIn(
                None, function, f"`{code}` is the {what} the module defines at line {stmt.lineno}", stmt.lineno, True
            )
        if isinstance(stmt, (ast.Import, ast.ImportFrom)) and any(
            (a.asname or a.name.split(".")[0]) == code for a in stmt.names
        ):
            return WayIn(None, function, f"`{code}` is imported by the module at line {stmt.lineno}", stmt.lineno, True)
    assigned = [
        stmt
        for stmt in tree.body
        if isinstance(stmt, (ast.Assign, ast.AnnAssign))
        and any(
            isinstance(t, ast.Name) and t.id == code for t in getattr(stmt, "targets", [getattr(stmt, "target", None)])
        )
    ]
    if assigned:
        lines = ", ".join(str(stmt.lineno) for stmt in assigned)
        how = f"`{code}` is bound at the module's top level (line{'s' if len(assigned) > 1 else ''} {lines})"
        return WayIn(None, function, how, assigned[-1].lineno, True)
    return None


def local_how(function: str, code: str, found: InForce) -> str:
    """What binds a local at the raise: the one binding in force, or each that may be, unresolved."""
    single = found.single
    if single is None:
        listed = "; ".join(f"`{b.code}` (line {b.line}{earlier_pass(b.line, found.line)})" for b in found.bindings)
        if found.mutated_at:
            lines = ", ".join(map(str, found.mutated_at))
            listed += f"; and changed at line{'s' if len(found.mutated_at) > 1 else ''} {lines} (`+=` or in place)"
        if not found.excluded:
            return (
                f"`{code}` is bound {len(found.bindings)} ways in `{function}` before the check: {listed};"
                " which one is in force there is not resolved"
            )
        left = "; ".join(f"`{b.code}` (line {b.line})" for b in found.excluded)
        return (
            f"`{code}` can be in force at the check through {len(found.bindings)} of its bindings in `{function}`:"
            f" {listed}; which one is not resolved (its other bindings before the check, {left}, do not reach it"
            " with the check raising: a path from them leaves first, or the check's own condition excludes them)"
        )
    how = _binding_how(function, code, single) + earlier_pass(single.line, found.line)
    filled = [n for n in found.mutated_at if n > single.line or n > found.line]
    if filled:
        how += f", then changed in place at line{'s' if len(filled) > 1 else ''} {', '.join(map(str, filled))}"
    return how + _refuted_words(code, found)


def _refuted_words(code: str, found: InForce) -> str:
    """'; the check does not fire when `valid` was last bound by `valid = True` (line 606, under `if query is
    None`)': the bindings whose constant the check's own tests turn away, so that the user sees what spares them."""
    if not found.refuted:
        return ""
    listed = " or ".join(
        f"`{r.bound.code}` (line {r.bound.line}" + (f", under `if {r.guard}`)" if r.guard else ")")
        for r in found.refuted
    )
    return f"; the check does not fire when `{code}` was last bound by {listed}"


def _binding_how(function: str, code: str, bound: Bound) -> str:
    at = f"at line {bound.line}"
    if bound.kind == "except":
        return f"`{code}` is the exception caught by `{bound.code}` {at}"
    if bound.kind == "for":
        return f"`{code}` is the loop variable of `{bound.code}` {at}"
    if bound.kind == "with":
        return f"`{code}` is bound by `{bound.code}` {at}"
    if bound.kind == "comprehension":
        return f"`{code}` is a variable of the comprehension `{bound.code}` {at}"
    if bound.kind == "assign" and bound.value is not None:
        position = _position(bound.target, code)
        if position is not None:
            return f"`{code}` is unpacked in `{function}` from `{short(bound.value)}` ({position}, line {bound.line})"
        return f"`{code}` is computed in `{function}` from `{short(bound.value)}` (line {bound.line})"
    return f"`{code}` is bound by `{bound.code}` {at}"


def _position(target: ast.expr | None, name: str) -> str | None:
    """Where a name sits when a tuple is unpacked into it (`a, b = f(x)`): "item 2 of 2"; with a starred target
    (`a, b, *_ = f(x)`) the count is not fixed, so only "item 2" (or "the starred rest")."""
    if not isinstance(target, (ast.Tuple, ast.List)):
        return None
    starred = any(isinstance(e, ast.Starred) for e in target.elts)
    for i, e in enumerate(target.elts):
        if isinstance(e, ast.Starred) and isinstance(e.value, ast.Name) and e.value.id == name:
            return "the starred rest"
        if isinstance(e, ast.Name) and e.id == name:
            before = target.elts[:i]
            if any(isinstance(b, ast.Starred) for b in before):
                return f"item {len(target.elts) - i} from the end"
            return f"item {i + 1}" if starred else f"item {i + 1} of {len(target.elts)}"
    return None


def _attribute_ways(tree: ast.Module, located: FoundDefinition, attr: str, line: int) -> list[WayIn]:
    ways: list[WayIn] = []
    owner = located.owner
    reaching = (
        _reaching(methods(owner), located.node.name, _reached_through_bases(tree, owner, located.node.name))
        if owner is not None
        else set()
    )
    hierarchy = class_and_bases(tree, owner)
    for i, cls in enumerate(hierarchy):
        for name, method in methods(cls).items():
            if _overridden(hierarchy[:i], hierarchy, name):
                continue
            stores = sorted(_stores(method, attr), key=lambda pair: _is_generic_setattr(pair[1], method))
            named = [pair for pair in stores if not _is_generic_setattr(pair[1], method)]
            stores = named or stores  # a store naming the attribute comes before a `setattr` by keyword
            if method is located.node:  # every store that can reach the raise is one of its values there
                stores = _in_force_stores(method, attr, stores, line)
            if not stores:
                continue
            way = _way(tree, cls, name, method, attr, stores, reaching if cls is owner else set())
            ways.append(way)
            if cls is not owner and owner is not None and way.keyword:
                ways += _passed_on(tree, owner, cls.name, method, way, reaching)
            if cls is owner and way.keyword and name == "__init__" and _abstract(tree, cls):
                for sub in subclasses(tree, cls):  # who constructs what an abstract class cannot
                    inherited = {**methods(cls), **methods(sub)}
                    ways += _passed_on(tree, sub, cls.name, method, way, _reaching(inherited, located.node.name))
    if not ways and owner is not None:  # a mixin reads what the classes built on it store (`Session.__init__`)
        for sub in subclasses(tree, owner):
            for name, method in methods(sub).items():
                stores = [pair for pair in _stores(method, attr) if not _is_generic_setattr(pair[1], method)]
                if stores:
                    ways.append(_way(tree, sub, name, method, attr, stores, set()))
    return sorted(ways, key=lambda w: (not w.reaches, w.call is None, not w.via.endswith(".__init__"), w.line))


def _overridden(nearer: list[ast.ClassDef], hierarchy: list[ast.ClassDef], name: str) -> bool:
    """Whether a nearer class defines the method again without calling the base's (`super().set_data(...)` or
    `Base.set_data(self, ...)`): then the base's stores never run for the checking class's objects."""
    overrides = [methods(c)[name] for c in nearer if name in methods(c)]
    return any(
        not any(_calls_base(n, c.name, name) for n in ast.walk(o) if isinstance(n, ast.Call) for c in hierarchy)
        for o in overrides
    )


def _in_force_stores(
    method: FunctionNode, attr: str, stores: list[tuple[ast.stmt, ast.expr]], line: int
) -> list[tuple[ast.stmt, ast.expr]]:
    """The checking method's own stores that can reach the raise (not one in a branch that returns first)."""
    found = in_force(method, f"self.{attr}", line)
    lines = {b.line for b in found.bindings} if found is not None else set()
    return [(s, v) for s, v in stores if s.lineno in lines or (isinstance(s, ast.Expr) and s.lineno < line)]


def _passed_on(
    tree: ast.Module, owner: ast.ClassDef, base: str, base_method: FunctionNode, way: WayIn, reaching: set[str]
) -> list[WayIn]:
    """Methods of the class that hand one of their own arguments to the base method that stores the input."""
    out = []
    for name, method in methods(owner).items():
        for call in ast.walk(method):
            if not (isinstance(call, ast.Call) and _calls_base(call, base, base_method.name)):
                continue
            keyword = _argument_for(call, method, base_method, way.keyword or "")
            if keyword is None:
                continue
            qualname = f"{owner.name}.{name}"
            how = f"`{qualname}` passes `{keyword}` on to `{base}.{base_method.name}` (line {call.lineno}); {way.how}"
            reached_by = _call_after(method, call, reaching)
            reaches = name in reaching and reached_by is not None
            if reaches:
                how += f", and then reaches the check{_call_line(reached_by)}"
            abstract = name == "__init__" and _abstract(tree, owner)
            code = None if abstract else call_code(qualname, method, [keyword])
            how += _ABSTRACT.format(owner) if abstract else ""
            required = required_parameters(method, keyword) if code else ()
            default = literal_default(method, keyword)
            out.append(WayIn(code, qualname, how, call.lineno, reaches, keyword, required, default=default))
    return out


def _calls_base(call: ast.Call, base: str, method: str) -> bool:
    """`super().method(...)` or `Base.method(self, ...)`."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr != method:
        return False
    receiver = func.value
    if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name) and receiver.func.id == "super":
        return True
    return isinstance(receiver, ast.Name) and receiver.id == base


def _argument_for(call: ast.Call, caller: FunctionNode, callee: FunctionNode, keyword: str) -> str | None:
    """The caller's own parameter that the call passes as the callee's `keyword`, if any."""
    own = {p.arg for p in parameters(caller)}
    for kw in call.keywords:
        if kw.arg == keyword and isinstance(kw.value, ast.Name) and kw.value.id in own:
            return kw.value.id
        if (
            kw.arg is None
            and caller.args.kwarg
            and isinstance(kw.value, ast.Name)
            and kw.value.id == caller.args.kwarg.arg
        ):
            return keyword  # `**kwargs` passed on: the caller accepts the same keyword
    named = [p.arg for p in [*callee.args.posonlyargs, *callee.args.args] if p.arg not in ("self", "cls")]
    args = call.args[1:] if isinstance(call.func, ast.Attribute) and not _is_super_call(call) else call.args
    if keyword in named and named.index(keyword) < len(args):
        value = args[named.index(keyword)]
        if isinstance(value, ast.Name) and value.id in own:
            return value.id
    return None


def _is_super_call(call: ast.Call) -> bool:
    receiver = call.func.value if isinstance(call.func, ast.Attribute) else None
    return isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name) and receiver.func.id == "super"


def _way(
    tree: ast.Module,
    cls: ast.ClassDef,
    name: str,
    method: FunctionNode,
    attr: str,
    stores: list[tuple[ast.stmt, ast.expr]],
    reaching: set[str],
) -> WayIn:
    """The way in through a method's stores of `self.<attr>` (the first gives the keyword; more are alternatives)."""
    stmt, stored = stores[0]
    qualname = f"{cls.name}.{name}"
    keyword = _keyword_for(method, stored, attr)
    abstract = name == "__init__" and _abstract(tree, cls)
    call = call_code(qualname, method, [keyword]) if keyword and not abstract else None
    reached_by = _call_after(method, stmt, reaching)
    reaches = name in reaching and reached_by is not None
    if _is_generic_setattr(stored, method):
        how = f"`{qualname}` sets the attribute named by each keyword argument (`{short(stored)}`, line {stmt.lineno})"
    else:
        how = f"`{qualname}` stores `{short(stored)}` in `self.{attr}` (line {stmt.lineno})"
        if len(stores) > 1:
            each = " or ".join(f"`{short(v)}` (line {s.lineno})" for s, v in stores)
            how = f"`{qualname}` stores {each} in `self.{attr}` (which one is in force at the check is not resolved)"
    if reaches:
        how += f" and then reaches the check{_call_line(reached_by)}"
    if abstract:
        how += _ABSTRACT.format(cls)
    required = required_parameters(method, keyword) if call else ()
    value = stored if len(stores) == 1 and not _is_generic_setattr(stored, method) else None
    default = literal_default(method, keyword) if keyword and not _is_generic_setattr(stored, method) else None
    return WayIn(call, qualname, how, stmt.lineno, reaches, keyword, required, value, default)


_ABSTRACT = (
    "; `{0.name}` is abstract (an `@abstractmethod` under `ABCMeta`): it is not instantiated itself,"
    " its subclasses' constructors pass it on"
)


def _abstract(tree: ast.Module, cls: ast.ClassDef) -> bool:
    """A class that cannot be instantiated: `ABCMeta` (or `ABC`) on it or on a base of the module, with an
    `@abstractmethod` among the methods it has (its own, or a base's of the module it does not override)."""
    hierarchy = class_and_bases(tree, cls)
    if not any(abc_declared(c) for c in hierarchy):
        return False
    inherited: dict[str, FunctionNode] = {}
    for c in reversed(hierarchy):  # the nearest class's method wins
        inherited.update(methods(c))
    return any(
        (dotted_name(d) or "").endswith("abstractmethod")
        for method in inherited.values()
        for d in method.decorator_list
    )


def literal_default(func: FunctionNode, keyword: str) -> str | None:
    """The literal a call of `func` that leaves out `keyword` gives it (`None`, `'auto'`), as written; None when
    no default is written or it is no literal."""
    default = keyword_default(func, keyword)
    return ast.unparse(default) if default is not None and literal_value(default) is not NOT_LITERAL else None


def required_parameters(func: FunctionNode, given: str | None, bound: bool = True) -> tuple[str, ...]:
    """Parameters without a default (other than `given`), in the signature's order: a call must pass them; and
    `*args` as `*args`, for what the user passes there (the function may refuse to go on without it: `if not fields:
    raise ...`). Those before `*args` can only be passed by position when something is passed there; so can those
    before a `/`, written after the last positional-only one (`given` among them), as a signature writes it. A
    `bound` function is a
    method a call gets through its object or class: its first parameter (`self`, `cls`) is not passed (unless it is
    a static method); a module function's `cls` is."""
    a = func.args
    positional = [*a.posonlyargs, *a.args]
    if bound and positional and not decorated_as(func, "staticmethod"):
        positional = positional[1:]
    without_default = positional[: len(positional) - len(a.defaults)] if a.defaults else positional
    only = [p.arg for p in without_default if p in a.posonlyargs]
    keyword_only = [p.arg for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is None]
    varargs = [f"*{a.vararg.arg}"] if a.vararg is not None else []
    rest = [p.arg for p in without_default if p not in a.posonlyargs]
    names = [*only, *(["/"] if only else []), *rest, *varargs, *keyword_only]
    return tuple(n for n in names if n != given or n in only)  # `given` too when it can only go by position


def _stores(method: FunctionNode, attr: str) -> list[tuple[ast.stmt, ast.expr]]:
    """Statements of a method that set `self.<attr>`, with the stored expression."""
    out: list[tuple[ast.stmt, ast.expr]] = []
    for node in ast.walk(method):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(_is_self_attr(t, attr) for t in targets):
                out.append((node, node.value))
        elif isinstance(node, ast.Expr) and _is_generic_setattr(node.value, method):
            out.append((node, node.value))
    return out


def _keyword_for(method: FunctionNode, stored: ast.expr, attr: str) -> str | None:
    """The keyword argument a caller passes to set the attribute, when the stored value is one."""
    params = {p.arg for p in parameters(method)}
    if isinstance(stored, ast.Name) and stored.id in params:
        return stored.id
    kwargs = method.args.kwarg.arg if method.args.kwarg else None
    if kwargs is None:
        return None
    if isinstance(stored, ast.Call) and isinstance(stored.func, ast.Attribute) and stored.func.attr in ("pop", "get"):
        target = stored.func.value
        if (
            isinstance(target, ast.Name)
            and target.id == kwargs
            and stored.args
            and isinstance(stored.args[0], ast.Constant)
        ):
            return stored.args[0].value if isinstance(stored.args[0].value, str) else None
    if isinstance(stored, ast.Subscript) and isinstance(stored.value, ast.Name) and stored.value.id == kwargs:
        key = stored.slice
        return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None
    if _is_generic_setattr(stored, method):
        return attr
    return None


def _is_generic_setattr(node: ast.expr, method: FunctionNode) -> bool:
    """`setattr(self, key, value)` in a method taking `**kwargs`: any attribute can be set by keyword."""
    return (
        method.args.kwarg is not None
        and isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "setattr"
        and len(node.args) == 3
        and isinstance(node.args[0], ast.Name)
        and node.args[0].id == "self"
        and not isinstance(node.args[1], ast.Constant)
    )


def _reaching(members: dict[str, FunctionNode], target: str, through_bases: frozenset[str] = frozenset()) -> set[str]:
    """The target and the methods of the class that call `self.<target>()`, directly or through others, or a base's
    method that does (`through_bases`, named `super.<name>`)."""
    calls = {name: _self_calls(method) for name, method in members.items()}
    reached = {target, *through_bases}
    changed = True
    while changed:
        changed = False
        for name, called in calls.items():
            if name not in reached and called & reached:
                reached.add(name)
                changed = True
    return reached


def _self_calls(method: FunctionNode) -> set[str]:
    """The methods the method calls on its own instance: `self.<m>()`, and `super.<m>` for a base's
    (`super().m()`, `Base.m(self)`); not those in the functions it defines (a closure it hands out, `fset`, runs
    when its receiver calls it, not when the method runs)."""
    nodes = walk_scope(method)
    return {name for node in nodes if isinstance(node, ast.Call) and (name := _called_on_self(node, method))}


def _called_on_self(call: ast.Call, method: FunctionNode) -> str | None:
    """`m` for `self.m(...)`, `super.m` for `super().m(...)` or `Base.m(self, ...)`; None for any other call."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    if isinstance(func.value, ast.Name) and func.value.id in ("self", "cls"):
        return func.attr
    this = method.args.args[0].arg if method.args.args else None
    passes_self = bool(call.args) and isinstance(call.args[0], ast.Name) and call.args[0].id == this
    if _is_super_call(call) or (isinstance(func.value, ast.Name) and passes_self):
        return f"super.{func.attr}"
    return None


def _reached_through_bases(tree: ast.Module, owner: ast.ClassDef, target: str) -> frozenset[str]:
    """`super.<m>` for each method `m` of the owner's bases in the module that reaches the target on an instance of
    the owner: its own `self.<x>()` calls find the owner's methods first (`self` is the owner), its base calls the
    next base's (`_OrderedMerge.__init__` -> `_MergeOperation.__init__` -> `self._validate_left_right_on`)."""
    hierarchy = class_and_bases(tree, owner)

    def found(name: str, start: int) -> tuple[int, str] | None:
        return next(((i, name) for i in range(start, len(hierarchy)) if name in methods(hierarchy[i])), None)

    calls: dict[tuple[int, str], set[tuple[int, str] | None]] = {
        (i, name): {
            found(c.removeprefix("super."), i + 1) if c.startswith("super.") else found(c, 0)
            for c in _self_calls(method)
        }
        for i, cls in enumerate(hierarchy)
        for name, method in methods(cls).items()
    }
    start = found(target, 0)
    reached: set[tuple[int, str]] = {start} if start is not None else set()
    changed = True
    while changed:
        changed = False
        for key, runs in calls.items():
            if key not in reached and not runs.isdisjoint(reached):
                reached.add(key)
                changed = True
    return frozenset(f"super.{name}" for i, name in reached if i > 0 and found(name, 1) == (i, name))


def _call_after(method: FunctionNode, first: ast.AST, reaching: set[str]) -> ast.Call | FunctionNode | None:
    """The `self.<m>()` reaching the check that can run after `first` (the method itself when it is the check's).

    A call in the other branch of an `if` than `first`, or before it outside any loop, cannot follow it.
    """
    if method.name in reaching and not _self_calls(method) & reaching - {method.name}:
        return method  # the checking method itself (its stores after the raise are already left out)
    for node in ast.walk(method):
        if isinstance(node, ast.Call) and _called_on_self(node, method) in reaching - {method.name}:
            if _may_follow(method, first, node):
                return node
    return None


def _may_follow(method: FunctionNode, first: ast.AST, later: ast.AST) -> bool:
    """Whether `later` can run after `first` in one call of the method."""
    start, end = _lines(first)
    at = _lines(later)[0]
    if at <= end and not any(span_holds(loop, start) and span_holds(loop, at) for loop in _loops(method)):
        return False
    for node in ast.walk(method):
        if isinstance(node, ast.If) and node.orelse:
            body, orelse = node.body, node.orelse
            if (block_holds(body, start) and block_holds(orelse, at)) or (
                block_holds(orelse, start) and block_holds(body, at)
            ):
                return False
    return True


def _lines(node: ast.AST) -> tuple[int, int]:
    start = getattr(node, "lineno", 0)
    return start, getattr(node, "end_lineno", None) or start


def _loops(method: FunctionNode) -> list[ast.AST]:
    return [n for n in ast.walk(method) if isinstance(n, (ast.For, ast.AsyncFor, ast.While))]


def _call_line(reached_by: ast.Call | FunctionNode | None) -> str:
    if isinstance(reached_by, ast.Call) and isinstance(reached_by.func, ast.Attribute):
        receiver = ast.unparse(reached_by.func.value) if not _is_super_call(reached_by) else "super()"
        return f" by calling `{receiver}.{reached_by.func.attr}()` (line {reached_by.lineno})"
    return ""


def _is_self_attr(node: ast.expr, attr: str) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == attr
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )
