"""JSON Schemas of errdex's TypedDicts, so that the OpenAPI document describes each answer by its type.

pydantic's TypeAdapter refuses the standard library's TypedDict before Python 3.12, and errdex's core does
not depend on pydantic; the forms these types use are few (TypedDict, list, dict, union, Literal,
NotRequired, the JSON scalars), so they are converted here. Any other form is an error, never `{}`.
"""

from __future__ import annotations

import ast
import inspect
import io
import sys
import tokenize
import types
from functools import cache
from typing import Any, ForwardRef, Literal, NotRequired, Union, get_args, get_origin, get_type_hints, is_typeddict

from errdex.model import JsonValue

Schema = dict[str, Any]
REF = "#/components/schemas/"
_SCALARS: dict[object, str] = {str: "string", int: "integer", float: "number", bool: "boolean", type(None): "null"}
# Recursive aliases: their own definition names them (`list["JsonValue"]`), so each is a component of that name.
ALIASES: dict[str, object] = {"JsonValue": JsonValue}


class Schemas:
    """Types converted to schemas; each TypedDict and alias is defined once in `components`, by its name."""

    def __init__(self) -> None:
        self.components: dict[str, Schema] = {}
        self._types: dict[str, object] = {}  # component name -> its type: two types may not share a name

    def of(self, tp: object) -> Schema:
        if isinstance(tp, str | ForwardRef):
            return self._alias(tp if isinstance(tp, str) else tp.__forward_arg__)
        if is_typeddict(tp):
            return self._typed_dict(tp)
        if tp in _SCALARS:
            return {"type": _SCALARS[tp]}
        origin, args = get_origin(tp), get_args(tp)
        if origin is list:
            return {"type": "array", "items": self.of(args[0])}
        if origin is dict and args[0] is str:
            return {"type": "object", "additionalProperties": self.of(args[1])}
        if origin is Literal:
            return {"enum": list(args)}
        if origin in (Union, types.UnionType):
            union = self._union(args)
            for name in ALIASES:  # a hint holds an alias's value, not its name: the same schema is the alias
                if self._alias(name) and self.components[name] == union:
                    return {"$ref": REF + name}
            return union
        raise TypeError(f"no JSON Schema for {tp!r}")

    def _union(self, args: tuple[object, ...]) -> Schema:
        schemas = [self.of(arg) for arg in args]
        simple = [s["type"] for s in schemas if set(s) == {"type"}]  # string | null: one "type" list
        rest = [s for s in schemas if set(s) != {"type"}]
        scalars = [{"type": simple[0] if len(simple) == 1 else simple}] if simple else []
        return {"anyOf": rest + scalars} if rest else scalars[0]

    def _alias(self, name: str) -> Schema:
        if self._define(name, ALIASES[name]):
            self.components[name] = self._union(get_args(ALIASES[name]))
        return {"$ref": REF + name}

    def _typed_dict(self, cls: Any) -> Schema:
        name = cls.__name__
        if self._define(name, cls):
            notes = field_notes(cls)
            properties: dict[str, Schema] = {}
            required = []
            for key, hint in get_type_hints(cls, include_extras=True).items():
                # read from the hint: before Python 3.12 `__required_keys__` misses NotRequired in string annotations
                if get_origin(hint) is NotRequired:
                    hint = get_args(hint)[0]
                else:
                    required.append(key)
                properties[key] = self.of(hint) | ({"description": notes[key]} if key in notes else {})
            doc = {"description": inspect.cleandoc(cls.__doc__)} if cls.__doc__ else {}
            self.components[name] = {
                "type": "object",
                **doc,
                "properties": properties,
                "required": required,
                "additionalProperties": False,
            }
        return {"$ref": REF + name}

    def _define(self, name: str, tp: object) -> bool:
        """Whether `name` is still to be defined; reserved now, so that a type that contains itself refers to it."""
        known = self._types.setdefault(name, tp)
        if known is not tp:
            raise TypeError(f"two types are named {name}: {known!r} and {tp!r}")
        if name in self.components:
            return False
        self.components[name] = {}
        return True


def field_notes(cls: type) -> dict[str, str]:
    """The comment of each key of a TypedDict, inherited keys too: the one on its line, else the lines above it.

    Read from the source, as the classes no longer know their TypedDict bases at run time before Python 3.12.
    """
    module = sys.modules[cls.__module__]
    tree, comments = _source(module.__name__)
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls.__name__)
    notes: dict[str, str] = {}
    for base in node.bases:
        parent = vars(module).get(base.id) if isinstance(base, ast.Name) else None
        if parent is not None and is_typeddict(parent):
            notes |= field_notes(parent)
    for item in node.body:
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            above: list[str] = []
            line = item.lineno - 1
            while line in comments and comments[line][1]:
                above.insert(0, comments[line][0])
                line -= 1
            own = comments.get(item.end_lineno or item.lineno)
            text = own[0] if own and not own[1] else " ".join(above)
            if text:
                notes[item.target.id] = text
    return notes


@cache
def _source(module: str) -> tuple[ast.Module, dict[int, tuple[str, bool]]]:
    """A module's syntax tree and its comments: line -> (text, whether the comment is the whole line)."""
    text = inspect.getsource(sys.modules[module])
    comments = {
        token.start[0]: (token.string.lstrip("#").strip(), not token.line[: token.start[1]].strip())
        for token in tokenize.generate_tokens(io.StringIO(text).readline)
        if token.type == tokenize.COMMENT
    }
    return ast.parse(text), comments
