"""The OpenAPI document: FastAPI's description of the JSON routes, completed with what FastAPI cannot see.

The routes answer with JSON serialised once and cached, so they declare no response model (FastAPI would
validate and serialise every answer again): each names its TypedDict with `returns`, and the schemas are
generated from those types (errdex.web.schemas). The response examples are real answers, trimmed, written
into api_examples.json by `python -m tests.web.api_examples`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from fastapi import FastAPI

from errdex.errors import InputError
from errdex.web.schemas import REF, Schemas

EXAMPLES = Path(__file__).parent / "api_examples.json"
# FastAPI documents a 422 (and its schemas) for invalid parameters; errdex answers them with a 400 in its one shape.
_NEVER_ANSWERED = "422"
_ITS_SCHEMAS = ("HTTPValidationError", "ValidationError")
_returned: dict[str, type] = {}  # the TypedDicts the routes answer with, by the name their schemas get


def returns(tp: type, description: str) -> dict[int | str, dict[str, Any]]:
    """A route's `responses`: a 200 answer holding the JSON of the TypedDict `tp` (its schema made when served)."""
    _returned[tp.__name__] = tp
    return {200: {"description": description, "content": {"application/json": {"schema": {"$ref": REF + tp.__name__}}}}}


def example(value: object, summary: str = "The flagship error of transformers 5.16.0") -> dict[str, Any]:
    """A parameter's or a body's named example (FastAPI's `openapi_examples`)."""
    return {"flagship": {"summary": summary, "value": value}}


def complete(spec: Mapping[str, Any]) -> dict[str, Any]:
    """FastAPI's document with the response schemas and examples in, and the 422 it never answers with out."""
    completed = copy.deepcopy(dict(spec))
    schemas = Schemas()
    for tp in _returned.values():
        schemas.of(tp)
    responses = _response_examples()
    for path, operations in completed["paths"].items():
        for method, operation in operations.items():
            answers = operation["responses"]
            answers.pop(_NEVER_ANSWERED, None)
            answers["200"]["content"]["application/json"]["examples"] = {"real": responses[f"{method.upper()} {path}"]}
    components = completed.setdefault("components", {}).setdefault("schemas", {})
    for name in _ITS_SCHEMAS:
        components.pop(name, None)
    components.update(schemas.components)
    return completed


def document(app: FastAPI) -> dict[str, Any]:
    """The app's whole OpenAPI document, completed once and kept on the app."""
    if not hasattr(app.state, "openapi"):
        app.state.openapi = complete(app.openapi())
    spec: dict[str, Any] = app.state.openapi
    return spec


@cache
def _response_examples() -> dict[str, Any]:
    examples: dict[str, Any] = json.loads(EXAMPLES.read_text(encoding="utf-8"))["responses"]
    return examples


def example_values(operation: Mapping[str, Any]) -> dict[str, list[str]]:
    """Each parameter's example as the text a request carries (a list parameter's values in order)."""
    values = {}
    for parameter in operation.get("parameters", []):
        value = next(iter(parameter["examples"].values()))["value"]
        values[parameter["name"]] = [str(v) for v in value] if isinstance(value, list) else [str(value)]
    return values


def request_url(path: str, operation: Mapping[str, Any], values: Mapping[str, Sequence[str]]) -> str:
    """The address of a call of `operation` (at `path`) with these parameter values; empty values are left out."""
    query: list[tuple[str, str]] = []
    for parameter in operation.get("parameters", []):
        name = parameter["name"]
        given = [v for v in values.get(name, ()) if v]
        if parameter["in"] == "path":
            if not given:
                raise InputError(f"{name} is required")
            path = path.replace("{" + name + "}", quote(given[0], safe=""))
        else:
            query += [(name, v) for v in given]
    return path + ("?" + urlencode(query) if query else "")
