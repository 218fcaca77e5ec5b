"""Find input values that certainly raise the error (a trigger) and a change that certainly avoids it.

TriggerValue values for each input come from the condition itself: the members of the list it is
checked against, the numbers it is compared with and their neighbours, None, instances of the
classes it must be, plus one fresh value known to be outside every list. Each assignment is
checked with the three-valued evaluator: a trigger must make the condition certainly true, a
fix certainly false. A fix only uses values read from the code (or the user's did-you-mean),
never an invented one, so an allowed value is never called invalid nor a made-up value valid; nor None where it
passes by leaving out what the check is about (see `_leaves_out`).
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from errdex.pages.ahead import passed
from errdex.pages.conditions import conjuncts, parse_condition
from errdex.pages.evaluate import OPAQUE, UNKNOWN, Instance, truth, value_of
from errdex.pages.model import CallBeforeJson, ExitJson, Receives
from errdex.pages.prior import Earlier, passes

MAX_POOL = 24
MAX_TRIES = 1000
MAX_CANDIDATES = 3  # calls worth running that `errdex verify` tries for a page without a certain trigger
_BUILTIN_SAMPLES: dict[str, Any] = {"int": 1, "float": 1.0, "str": "text", "bool": True, "list": [], "dict": {}}
_TYPE_SAMPLES: list[Any] = ["text", 1, 1.5, [], {}]
# a fix keeps what the call asks for where the code shows how (a did-you-mean, the type wanted); else the
# default, which a user need not choose, before a value of a list picked for them
FIX_TAGS = ("user", "suggested", "instance", "default", "documented", "listed", "declared", "boundary", "none")


@dataclass(frozen=True)
class TriggerValue:
    """A value to try for one input, and where it came from (only some origins may serve as a fix)."""

    value: Any
    # user | suggested | default | documented | listed | declared | compared | boundary | instance | none | fresh
    # | sample | truthy | empty | opaque
    tag: str


def pools(
    node: ast.expr, inputs: list[str], env: Mapping[str, Any], first: Mapping[str, list[TriggerValue]]
) -> dict[str, list[TriggerValue]]:
    """For each input, the values worth trying, most telling first (`first` before the rest)."""
    found: dict[str, list[TriggerValue]] = {code: list(first.get(code, [])) for code in inputs}
    numbers: dict[str, list[float]] = {code: [] for code in inputs}
    for sub in ast.walk(node):
        if isinstance(sub, ast.Compare):
            _from_compare(sub, found, numbers, env)
        elif (
            isinstance(sub, ast.Call)
            and isinstance(sub.func, ast.Name)
            and sub.func.id == "isinstance"
            and len(sub.args) == 2
        ):
            _from_isinstance(sub, found)
        elif isinstance(sub, ast.UnaryOp) and isinstance(sub.op, ast.Not):
            _from_truthiness(sub.operand, found)
        elif isinstance(sub, ast.BoolOp):
            for value in sub.values:
                _from_truthiness(value, found)
    for code, values in numbers.items():
        ordered = sorted(set(values))
        found[code] += [TriggerValue(_mid(a, b), "boundary") for a, b in itertools.pairwise(ordered)]
    # None always joins as a trigger candidate; it is a fix only where the code compares with None itself
    return {code: _unique(values + [TriggerValue(None, "sample")])[:MAX_POOL] for code, values in found.items()}


def declared(receives: Receives) -> list[TriggerValue]:
    """What the code declares an input takes, as candidates: its annotation's `Literal` values, then one value of
    each type its annotation or default names (a check `x is not None` fires for any of them); both of a `bool`'s."""
    values = [TriggerValue(v, "declared") for v in receives["values"] if _plain(v)]
    for name in receives["types"] or []:
        if name == "bool":  # both of its values are what the code declares it takes
            values += [TriggerValue(True, "declared"), TriggerValue(False, "declared")]
        elif name in _BUILTIN_SAMPLES:
            values.append(TriggerValue(_BUILTIN_SAMPLES[name], "sample"))
        elif name != "None" and name.isidentifier():
            values.append(TriggerValue(Instance(name), "sample"))
    return values


def _from_compare(
    node: ast.Compare, found: dict[str, list[TriggerValue]], numbers: dict[str, list[float]], env: Mapping[str, Any]
) -> None:
    sides = [node.left, *node.comparators]
    for i, op in enumerate(node.ops):
        left, right = sides[i], sides[i + 1]
        for subject, other, mirrored in ((left, right, False), (right, left, True)):
            code = _code(subject)
            if code not in found:
                continue
            value = value_of(other, env)
            if value is UNKNOWN:
                continue
            found[code] += _from_pair(type(op), value, mirrored)
            if _is_number(value):
                numbers[code].append(value)


def _from_pair(op: type, value: Any, mirrored: bool) -> list[TriggerValue]:
    if op in (ast.In, ast.NotIn) and not mirrored:
        members = list(value)[:MAX_POOL] if isinstance(value, (list, dict)) else []
        return [TriggerValue(m, "listed") for m in members if _plain(m)] + [TriggerValue(fresh_outside(value), "fresh")]
    if op in (ast.Is, ast.IsNot):
        return [TriggerValue(value, "none")] if value is None else []
    if op in (ast.Eq, ast.NotEq):
        return [TriggerValue(value, "compared"), TriggerValue(fresh_outside([value]), "fresh")] if _plain(value) else []
    if _is_number(value):
        step = 1 if isinstance(value, int) else 1.0
        return [
            TriggerValue(value, "boundary"),
            TriggerValue(value - step, "boundary"),
            TriggerValue(value + step, "boundary"),
        ]
    return []


def _from_isinstance(node: ast.Call, found: dict[str, list[TriggerValue]]) -> None:
    code = _code(node.args[0])
    if code not in found:
        return
    kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
    for kind in kinds:
        name = _code(kind)
        if name in _BUILTIN_SAMPLES:  # a made-up str or number is no fix (`init='text'`); a container is filled
            tag = "instance" if isinstance(_BUILTIN_SAMPLES[name], (list, dict)) else "sample"
            found[code].append(TriggerValue(_BUILTIN_SAMPLES[name], tag))
        elif name:
            found[code].append(TriggerValue(Instance(name.rsplit(".", 1)[-1]), "instance"))
    found[code] += [TriggerValue(v, "sample") for v in _TYPE_SAMPLES] + [TriggerValue(OPAQUE, "opaque")]


def _from_truthiness(node: ast.expr, found: dict[str, list[TriggerValue]]) -> None:
    code = _code(node)
    if code in found:
        found[code] += [TriggerValue(True, "truthy"), TriggerValue("", "empty"), TriggerValue(0, "empty")]


def fresh_outside(container: Any) -> Any:
    """A value certainly not in `container`: one past the largest int, else an unused word."""
    members = list(container) if isinstance(container, (list, dict, str)) else []
    ints = [m for m in members if isinstance(m, int) and not isinstance(m, bool)]
    if ints and len(ints) == len(members):
        return max(ints) + 1
    word, n = "invalid", 1
    while word in members:
        n += 1
        word = f"invalid{n}"
    return word


def find_trigger(
    node: ast.expr, pool: Mapping[str, list[TriggerValue]], env: Mapping[str, Any], earlier: Sequence[Earlier]
) -> dict[str, TriggerValue] | None:
    """The smallest assignment of inputs (fewest inputs set) that makes the condition certainly true, and
    certainly passes the earlier raising checks that read those inputs (else another raise may fire first)."""
    for assignment in _assignments(pool):
        values = {**env, **{code: c.value for code, c in assignment.items()}}
        if truth(node, values) is True and passes(earlier, values, assignment):
            return assignment
    return None


def try_calls(
    node: ast.expr,
    pool: Mapping[str, list[TriggerValue]],
    env: Mapping[str, Any],
    earlier: Sequence[Earlier],
    limit: int = MAX_CANDIDATES,
) -> list[dict[str, TriggerValue]]:
    """Assignments of every input of `pool` that leave the condition not certainly false and pass the earlier checks
    they decide: calls worth running where none certainly raises (what the pool leaves out stays as the call gives
    it). Those that make the condition certainly true come first."""
    codes = list(pool)
    sure: list[dict[str, TriggerValue]] = []
    maybe: list[dict[str, TriggerValue]] = []
    for tries, chosen in enumerate(itertools.product(*(pool[c] for c in codes))):
        if tries >= MAX_TRIES or len(sure) >= limit:
            break
        assignment = dict(zip(codes, chosen, strict=True))
        values = {**env, **{code: c.value for code, c in assignment.items()}}
        found = truth(node, values)
        if found is not False and passes(earlier, values, assignment):
            (sure if found is True else maybe).append(assignment)
    return (sure + maybe)[:limit]


def find_fix(
    node: ast.expr,
    own: ast.expr | None,
    trigger: Mapping[str, TriggerValue],
    pool: Mapping[str, list[TriggerValue]],
    env: Mapping[str, Any],
    earlier: Sequence[Earlier],
    exits: Sequence[ExitJson] = (),
) -> tuple[str, TriggerValue] | None:
    """One input of the trigger changed to a value from the code that makes the condition certainly false, and the
    raise's `own` test too (a value that only takes another branch around it turns the checking off; see `_fixes`), and
    passes the earlier raising checks of the trigger's inputs (so the fixed call does not fail on one of them),
    and does not make the function certainly return before the check (`if value is None: return None`: a call
    that skips the function's work is no fix of it)."""
    for code in trigger:
        for candidate in sorted(
            pool.get(code, []), key=lambda c: FIX_TAGS.index(c.tag) if c.tag in FIX_TAGS else len(FIX_TAGS)
        ):
            if candidate.tag not in FIX_TAGS or _leaves_out(node, code, candidate):
                continue
            filled = _filled(candidate, trigger[code])
            if filled is None:
                continue
            values = {**env, **{k: c.value for k, c in trigger.items()}, code: filled.value}
            if _fixes(node, own, values) and passes(earlier, values, trigger) and not _returns_first(exits, values):
                return code, filled
    return None


def _read_beyond_none(node: ast.expr, code: str) -> bool:
    """Whether the check reads something of `code`'s value (`len(x)`, `x.shape`, `x[0]`, `x + 1`), not only compares
    or type-tests it (`x is not None and len(x) != n`): None then passes by leaving out the data the check is about.
    (A value only compared, `mode not in MODES`, is a choice, and None, where the check lets it through, is one.)"""
    return any(parent is not None and not _compares(parent) for parent in _read_by(node, code))


def switch_only(node: ast.expr, code: str) -> bool:
    """Whether the check tests `code` only for truth or None (`exploit and not hasattr(estimator, "fit")`): a switch,
    whose other value turns off what the check is about unless the message names the switch itself."""
    found = _read_by(node, code)
    return bool(found) and all(_tests_truth(parent) for parent in found)


def _read_by(node: ast.expr, code: str) -> list[ast.AST | None]:
    """What reads each occurrence of `code` in the condition: the node around it (None where it is the whole)."""
    parents = {id(child): parent for parent in ast.walk(node) for child in ast.iter_child_nodes(parent)}
    return [
        parents.get(id(sub))
        for sub in ast.walk(node)
        if isinstance(sub, (ast.Name, ast.Attribute)) and _code(sub) == code
    ]


def _tests_truth(parent: ast.AST | None) -> bool:
    if parent is None or isinstance(parent, ast.BoolOp):
        return True
    if isinstance(parent, ast.UnaryOp):
        return isinstance(parent.op, ast.Not)
    return (
        isinstance(parent, ast.Compare)
        and len(parent.ops) == 1
        and isinstance(parent.ops[0], (ast.Is, ast.IsNot))
        and any(isinstance(side, ast.Constant) and side.value is None for side in (parent.left, *parent.comparators))
    )


def _compares(parent: ast.AST | None) -> bool:
    """A comparison, a truth test or a type test (`isinstance(x, dict)`) of what it holds."""
    if isinstance(parent, ast.Call):
        return isinstance(parent.func, ast.Name) and parent.func.id == "isinstance"
    return isinstance(parent, (ast.Compare, ast.BoolOp, ast.UnaryOp))


def _leaves_out(node: ast.expr, code: str, candidate: TriggerValue) -> bool:
    """None as a fix that leaves out what the check is about: an input the check reads beyond its None-test, or one
    of a check that also asks for another input (`masked is None and ids is not None`: `ids` needs `masked`)."""
    return candidate.value is None and (_read_beyond_none(node, code) or _asks_for_another(node, code))


def _asks_for_another(node: ast.expr, code: str) -> bool:
    return any(
        isinstance(part, ast.Compare)
        and len(part.ops) == 1
        and isinstance(part.ops[0], ast.Is)
        and isinstance(part.comparators[0], ast.Constant)
        and part.comparators[0].value is None
        and _code(part.left) not in (None, code)
        for part in conjuncts(node)
    )


def find_passing(
    node: ast.expr,
    own: ast.expr | None,
    pool: Mapping[str, list[TriggerValue]],
    env: Mapping[str, Any],
    earlier: Sequence[Earlier],
    exits: Sequence[ExitJson] = (),
) -> tuple[str, TriggerValue] | None:
    """When no call certainly raises (the check also reads what no call sets, or objects the evaluator cannot build):
    one input's value from the code that makes the condition certainly false whatever the others hold, passes the
    earlier raising checks that read it, and does not make the function certainly return first."""
    for code, candidates in pool.items():
        for candidate in sorted(
            (c for c in candidates if c.tag in FIX_TAGS and c.tag != "user" and not _leaves_out(node, code, c)),
            key=lambda c: FIX_TAGS.index(c.tag),
        ):
            values = {**env, code: candidate.value}
            if _fixes(node, own, values) and passes(earlier, values, [code]) and not _returns_first(exits, values):
                return code, candidate
    return None


def _fixes(node: ast.expr, own: ast.expr | None, values: Mapping[str, Any]) -> bool:
    """Whether the values make the condition certainly false, and the raise's own test when it is known: in
    `if verify_integrity: (if self.ndim != block.ndim: raise)` a False `verify_integrity` keeps the check from running,
    which turns it off rather than fixes what it checks."""
    return truth(node, values) is False and (own is None or truth(own, values) is False)


def _returns_first(exits: Sequence[ExitJson], values: Mapping[str, Any]) -> bool:
    """Whether one of the returns before the check certainly runs with these values (every test around it true)."""
    return any(
        e["when"] and all((node := parse_condition(t)) is not None and truth(node, values) is True for t in e["when"])
        for e in exits
    )


def _filled(candidate: TriggerValue, wrong: TriggerValue) -> TriggerValue | None:
    """An empty container is no fix: code after the check often tests it for truth (`if use_kwargs:`), and an
    empty one turns off what a full one asks for. A list holding the trigger's own value keeps the call's intent
    (`use_kwargs='text'` -> `['text']`); any other empty container is left out."""
    value = candidate.value
    if not isinstance(value, (list, dict, set, tuple)) or value:
        return candidate
    if isinstance(value, list) and isinstance(wrong.value, (str, int, float)):
        return TriggerValue([wrong.value], candidate.tag)
    return None


def listed_first(
    calls: Sequence[CallBeforeJson], inputs: Sequence[str], first: Mapping[str, list[TriggerValue]]
) -> dict[str, list[TriggerValue]]:
    """`first` with, for each input, the members of the literal lists an earlier call is passed along with it
    (`check_in_list(["dots", "points"], units=units)`): values that call names, tried before made-up ones. The call
    must be passed the input itself, not an object it is part of."""
    out = {code: list(values) for code, values in first.items()}
    for code in inputs:
        # a call passed the input itself: one passed `self` lists values for something else (`accept_sparse=["csr"]`)
        listed = [TriggerValue(v, "listed") for c in calls if code in c["passes"] for v in c["listed"]]
        if listed:
            out[code] = out.get(code, []) + listed
    return out


def listed_earlier(
    checks: Sequence[Earlier], inputs: Sequence[str], env: Mapping[str, Any], first: Mapping[str, list[TriggerValue]]
) -> dict[str, list[TriggerValue]]:
    """`first` with the members of the lists an earlier raising check tests an input against (`if duplicates not in
    ["raise", "drop"]: raise`): values the function names for it (a fix must still pass that check)."""
    out = {code: list(values) for code, values in first.items()}
    for check in checks:
        if check.test is None:
            continue
        for code, values in pools(check.test, list(inputs), env, {}).items():
            listed = [v for v in values if v.tag == "listed"]
            if listed:
                out[code] = out.get(code, []) + listed
    return out


def scope(
    trigger: Mapping[str, TriggerValue],
    function: str,
    calls: Sequence[CallBeforeJson],
    exits: Sequence[ExitJson],
    decorators: Sequence[str],
) -> str:
    """What a trigger holds only under, as words after its values (empty when it certainly fires): the earlier
    returns its values alone do not show untaken (`, if `f` has not returned earlier (lines 110, 113)`), then the
    package's decorators and the earlier calls passed its inputs, which may reject a value first."""
    values = {code: c.value for code, c in trigger.items()}  # not `env`: what it resolves holds at the raise
    open_exits = [e["line"] for e in exits if not any(certainly_false(test, values) for test in e["when"])]
    out = ""
    if open_exits:
        plural = "s" if len(open_exits) > 1 else ""
        out += f", if `{function}` has not returned earlier (line{plural} {', '.join(map(str, open_exits))})"
    if decorators:  # what a decorator does is not read: only that the call must get through it is true
        many = len(decorators) > 1
        named = " and ".join(f"`@{d}`" for d in decorators)
        plural, verb = ("s", "let") if many else ("", "lets")
        out += f", if the decorator{plural} {named} (not followed here) {verb} the call through"
    receiving = {(c["line"], c["call"]): c for code in trigger for c in passed(calls, code)}
    rejecting = [
        f"`{c['call']}` (passed {' and '.join(f'`{p}`' for p in c['passes'])} at line {c['line']}, not followed here)"
        for _, c in sorted(receiving.items())
    ]
    if rejecting:
        out += f", unless {' or '.join(rejecting)} rejects it first"
    return out


def certainly_false(test: str, values: Mapping[str, Any]) -> bool:
    """Whether the test (as code) is certainly false with these values."""
    node = parse_condition(test)
    return node is not None and truth(node, values) is False


def _assignments(pool: Mapping[str, list[TriggerValue]]) -> Iterator[dict[str, TriggerValue]]:
    codes = list(pool)
    tries = 0
    for size in range(1, len(codes) + 1):
        for chosen in itertools.combinations(codes, size):
            for values in itertools.product(*(pool[c] for c in chosen)):
                tries += 1
                if tries > MAX_TRIES:
                    return
                yield dict(zip(chosen, values, strict=True))


def _unique(values: list[TriggerValue]) -> list[TriggerValue]:
    out: list[TriggerValue] = []
    seen: set[str] = set()
    for candidate in values:
        key = repr((type(candidate.value).__name__, candidate.value))
        if key not in seen:
            seen.add(key)
            out.append(candidate)
    return out


def _mid(a: float, b: float) -> float:
    return (a + b) / 2 if isinstance(a, float) or isinstance(b, float) or (a + b) % 2 else (a + b) // 2


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _code(node: ast.expr) -> str | None:
    try:
        return ast.unparse(node) if isinstance(node, (ast.Name, ast.Attribute)) else None
    except (RecursionError, ValueError):
        return None


def code_value(value: Any) -> str:
    """A candidate written as Python source: `'static'`, `0`, `None`, `CompileConfig(...)`, `object()`; `...` for the
    user's own value when it is not known."""
    if value is Ellipsis:
        return "..."
    if isinstance(value, Instance):
        return f"{value.cls}(...)"
    return repr(value)
