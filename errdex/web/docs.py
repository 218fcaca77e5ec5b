"""The API's documentation: the OpenAPI document, and /docs, a page rendered from it on the server.

Swagger UI and ReDoc run scripts from a CDN; the site's content policy forbids scripts and anything
off-site, and the network may be closed. /docs is plain HTML instead, its "Try it" forms plain forms.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from errdex.errors import InputError
from errdex.web.links import ServerLinks
from errdex.web.openapi import document, example_values, request_url
from errdex.web.render import Renderer
from errdex.web.schemas import REF, Schema

router = APIRouter(include_in_schema=False)
LINKS = ServerLinks()
OPENAPI = "/openapi.json"
TRY_IT = "/docs/try"


@dataclass(frozen=True)
class Described:
    """The document as served: JSON bytes, and the page of /docs."""

    json: bytes
    html: str


def described(app: FastAPI) -> Described:
    """Made once per app and kept on it: the document does not change while the app runs."""
    if not hasattr(app.state, "described"):
        spec = document(app)
        renderer: Renderer = app.state.context.renderer
        html = renderer.page("docs.html", docs_page(spec), LINKS, alternate=OPENAPI)
        app.state.described = Described(json.dumps(spec, ensure_ascii=False).encode(), html)
    result: Described = app.state.described
    return result


@router.get(OPENAPI)
@router.get("/api" + OPENAPI)
async def openapi_json(request: Request) -> Response:
    """One document at both addresses: where tools look first, and beside the routes it describes (its address
    until now, which some clients do not follow a redirect to)."""
    return Response(described(request.app).json, media_type="application/json")


@router.get("/docs")
async def docs(request: Request) -> HTMLResponse:
    return HTMLResponse(described(request.app).html)


@router.get(TRY_IT)
async def try_it(request: Request) -> RedirectResponse:
    """Where the GET forms of /docs send their fields: on to the route's address, with the path's parameters in the
    path and the empty fields left out (a form cannot fill a path, and sends every field, empty or not)."""
    path = request.query_params.get("endpoint", "")
    operation = document(request.app)["paths"].get(path, {}).get("get")
    if operation is None:
        raise InputError(f"endpoint must be one of the API's GET routes, such as {LINKS.api_home()}")
    values = {name: request.query_params.getlist(name) for name in request.query_params}
    return RedirectResponse(request_url(path, operation, values), status_code=303)


def docs_page(spec: Mapping[str, Any]) -> dict[str, object]:
    """What /docs shows: the API's description, then each operation."""
    components = spec["components"]["schemas"]
    return {
        "info": spec["info"],
        "openapi": OPENAPI,
        "try_it": TRY_IT,
        "operations": [
            _operation(path, method, operation, components)
            for path, operations in spec["paths"].items()
            for method, operation in operations.items()
        ],
    }


def _operation(
    path: str, method: str, operation: Mapping[str, Any], components: Mapping[str, Schema]
) -> dict[str, Any]:
    ok = operation["responses"]["200"]
    answer = ok["content"]["application/json"]
    returned = components[answer["schema"]["$ref"].removeprefix(REF)]
    examples = example_values(operation)
    return {
        "method": method.upper(),
        "path": path,
        "anchor": f"{method}-{path.strip('/').replace('/', '-').replace('{', '').replace('}', '')}",
        "summary": operation.get("summary", ""),
        "parameters": [
            {
                "name": p["name"],
                "in": p["in"],
                "type": type_text(_not_null(p["schema"])),
                "required": p.get("required", False),
                "description": p.get("description", ""),
                "example": examples[p["name"]],
                "many": p["schema"].get("type") == "array",
            }
            for p in operation.get("parameters", [])
        ],
        "body": [
            {
                "media_type": media_type,
                "type": type_text(form["schema"]),
                "fields": list(form["schema"].get("properties", {})),
                "example": _first(form["examples"]),
            }
            for media_type, form in operation.get("requestBody", {}).get("content", {}).items()
        ],
        "request": f"{method.upper()} {request_url(path, operation, examples)}",
        "response": {
            "description": ok["description"],
            "type": type_text(answer["schema"]),
            "keys": [
                {
                    "name": key,
                    "type": type_text(schema),
                    "required": key in returned["required"],
                    "description": schema.get("description") or _type_description(schema, components),
                }
                for key, schema in returned["properties"].items()
            ],
            "example": json.dumps(_first(answer["examples"]), ensure_ascii=False, indent=2),
        },
        "errors": [(status, r["description"]) for status, r in operation["responses"].items() if status != "200"],
    }


def _type_description(schema: Schema, components: Mapping[str, Schema]) -> str:
    """What the docstring of a key's type says (`list of Place`: Place's), when the key has no words of its own."""
    for inner in (schema, schema.get("items", {}), *schema.get("anyOf", ())):
        if "$ref" in inner:
            return str(components[inner["$ref"].removeprefix(REF)].get("description", ""))
    return ""


def _first(examples: Mapping[str, Any]) -> Any:
    return next(iter(examples.values()))["value"]


def _not_null(schema: Schema) -> Schema:
    """A parameter's schema without the `null` FastAPI adds for an optional one (a query leaves it out instead)."""
    kept = [s for s in schema.get("anyOf", ()) if s.get("type") != "null"]
    return kept[0] if len(kept) == 1 else schema


def type_text(schema: Schema) -> str:
    """A schema in words, as a table cell: `list of Place`, `string or null`, `object of JsonValue`."""
    if "$ref" in schema:
        return str(schema["$ref"]).removeprefix(REF)
    if "anyOf" in schema:
        return " or ".join(type_text(s) for s in schema["anyOf"])
    if "enum" in schema:
        return "one of " + ", ".join(json.dumps(v) for v in schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(kind)
    if kind == "array":
        return "list of " + type_text(schema.get("items", {}))
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        return "object of " + type_text(schema["additionalProperties"])
    return str(kind or "any JSON")
