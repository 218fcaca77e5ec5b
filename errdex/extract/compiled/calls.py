"""The calls of one function by name in a compiled source, with the `if` tests around each: where a raise
helper's real check is (numpy's `raise_reshape_size_mismatch` is called when the sizes differ)."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from errdex.extract.compiled import c_family, rust
from errdex.extract.compiled.grammar import line, matches, parser, text
from errdex.extract.compiled.sites import guards, squeezed
from errdex.model import NATIVE_LANGUAGES, Language

_CALLS = {
    "c": "(call_expression function: [(identifier) (field_expression)] @called) @call",
    "cpp": "(call_expression function: [(identifier) (qualified_identifier) (field_expression)] @called) @call",
    "rust": "(call_expression function: [(identifier) (scoped_identifier) (field_expression)] @called) @call",
}


@dataclass(frozen=True, slots=True)
class CompiledCall:
    """One call of the function: where, in which function, as written, and the tests that must hold for it to run."""

    called: str  # the name called (last part)
    qualifier: str | None  # what qualifies it as written (`cv` of `cv::resize(...)`), None when nothing does
    on_object: bool  # a method called on an object (`x.build()`, `p->build()`): which class's is not known
    receiver: str | None  # the object it is called on, as written (`self`, `x`), for a method
    line: int
    function: str
    call: str
    guards: tuple[str, ...]


def calls_of(source: str, language: Language, names: Collection[str]) -> list[CompiledCall]:
    """The calls of functions named `names` (last part: `resize` for `cv::resize`) in one C, C++ or Rust source,
    in the order they are written."""
    if language not in NATIVE_LANGUAGES or not names:
        return []
    named = "|".join(map(re.escape, sorted(names)))
    if not re.search(rf"\b(?:{named})\s*\(", source):
        return []
    root = parser(language).parse(source.encode("utf-8", "surrogatepass")).root_node
    rust_source = language == "rust"
    found: list[CompiledCall] = []
    for captured in matches(language, _CALLS[language], root):
        called = captured["called"][0]
        last = called.child_by_field_name("name" if called.type == "scoped_identifier" else "field") or called
        if called.type == "qualified_identifier":
            last = called.child_by_field_name("name") or called
        if text(last) not in names:
            continue
        call = captured["call"][0]
        if rust_source:
            function, tests = rust.function_name(call), guards(call, ("function_item",), rust.branch)
        else:
            function, tests = c_family.function_name(call), c_family.clauses_of(call)
        qualifier = text(called).rpartition("::")[0] or None if called.type != "field_expression" else None
        on_object = called.type == "field_expression"
        value = called.child_by_field_name("value" if rust_source else "argument") if on_object else None
        receiver = text(value) if value is not None else None
        call_found = CompiledCall(
            text(last), qualifier, on_object, receiver, line(call), function, squeezed(call), tests
        )
        found.append(call_found)
    return found


def reaches(call: CompiledCall, target: str, target_file: str) -> bool:
    """Whether a call by name is a call of `target` (a function's name as its definition writes it: `f`,
    `cv::resize`, `TensorIteratorBase::build`) defined in `target_file`, as far as names tell: a method called on
    an object is followed only on `self`/`this` inside its own class (another object's class is not known); a
    qualified target is reached by a call qualified alike, or by an unqualified one inside its own class (or
    namespace: a lower-case qualifier, by the usual naming); a Rust function by a path ending in its module."""
    owner, _, _ = target.rpartition("::")
    own = owner.rsplit("::", 1)[-1]
    caller_owner = call.function.rpartition("::")[0].rsplit("::", 1)[-1]
    if call.on_object:
        return bool(own) and call.receiver in _OWN_OBJECT and caller_owner == own
    if not owner:
        return (
            call.qualifier is None
            or not target_file.endswith(".rs")
            or _module_of(target_file)
            in (
                call.qualifier.rsplit("::", 1)[-1],
                "crate",
            )
        )
    if call.qualifier is not None:
        return call.qualifier.rsplit("::", 1)[-1] == own
    return caller_owner == own or own[:1].islower()


_OWN_OBJECT = ("self", "this")


def _module_of(path: str) -> str:
    """The Rust module a file is: its name, or its folder's for `mod.rs` and `lib.rs`."""
    folder, _, name = path.rpartition("/")
    stem = name.removesuffix(".rs")
    return folder.rsplit("/", 1)[-1] if stem in ("mod", "lib") else stem
