"""The API's documentation: the OpenAPI document's schemas and examples against real answers, and /docs."""

from __future__ import annotations

import re
from typing import Any, get_type_hints

import httpx
import jsonschema
import pytest
from markupsafe import escape

from errdex.pages.model import Page
from errdex.web import create_app
from errdex.web.headers import POLICY
from errdex.web.views import SearchAnswer
from tests.web.conftest import SHOP_ID
from tests.web.test_api import TURBO
from tests.web.test_pages import tags_of

pytestmark = pytest.mark.anyio

ERROR = "/api/errors/{error_id}"
FLAGSHIP_ID = "44c51e6e70d45f6a"
FLAGSHIP_PASTE = "ValueError: Invalid `cache_implementation` (flash). Choose one of: static, dynamic, paged"


def operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method, op) for path, ops in spec["paths"].items() for method, op in ops.items()]


def answer_schema(spec: dict[str, Any], path: str, method: str = "get") -> dict[str, Any]:
    return spec["paths"][path][method]["responses"]["200"]["content"]["application/json"]


def resolved(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    component: dict[str, Any] = spec["components"]["schemas"][schema["$ref"].removeprefix("#/components/schemas/")]
    return component


def assert_valid(spec: dict[str, Any], path: str, data: object, method: str = "get") -> None:
    """`data` is an answer of the type `path` documents: every key declared, of its type, and no other."""
    root = {**answer_schema(spec, path, method)["schema"], "components": spec["components"]}
    errors = [
        f"{list(e.absolute_path)}: {e.message[:200]}" for e in jsonschema.Draft202012Validator(root).iter_errors(data)
    ]
    assert not errors, errors[:5]


@pytest.fixture
async def spec(client: httpx.AsyncClient) -> dict[str, Any]:
    response = await client.get("/openapi.json")
    assert response.status_code == 200 and response.headers["content-type"] == "application/json"
    return dict(response.json())


async def test_the_document_is_served_at_both_addresses(client: httpx.AsyncClient, spec: dict[str, Any]) -> None:
    assert (await client.get("/api/openapi.json")).json() == spec
    assert spec["openapi"].startswith("3.1")


async def test_the_error_page_schema_has_the_keys_of_the_page_type(spec: dict[str, Any]) -> None:
    page = resolved(spec, answer_schema(spec, ERROR)["schema"])
    assert page["type"] == "object" and page["additionalProperties"] is False
    assert set(page["properties"]) == set(get_type_hints(Page))
    assert page["required"] == list(get_type_hints(Page))  # docs/page.md: every key of a page is always there
    assert resolved(spec, page["properties"]["what_it_means"])["properties"]["summary"] == {"type": "string"}


async def test_the_search_schema_has_the_matches(spec: dict[str, Any]) -> None:
    for method in ("get", "post"):
        answer = resolved(spec, answer_schema(spec, "/api/search", method)["schema"])
        assert set(answer["properties"]) == set(get_type_hints(SearchAnswer))
        assert answer["properties"]["matches"]["items"] == {"$ref": "#/components/schemas/CandidateJson"}


async def test_no_schema_is_left_empty(spec: dict[str, Any]) -> None:
    """Every schema says what it holds: a type, a reference, a choice or a set of values."""

    def walk(schema: dict[str, Any], where: str) -> None:
        assert set(schema) & {"type", "$ref", "anyOf", "enum"}, where
        for key in ("items", "additionalProperties"):
            if isinstance(schema.get(key), dict):
                walk(schema[key], f"{where}.{key}")
        for name, inner in schema.get("properties", {}).items():
            walk(inner, f"{where}.{name}")
        for n, inner in enumerate(schema.get("anyOf", ())):
            walk(inner, f"{where}[{n}]")

    for name, schema in spec["components"]["schemas"].items():
        walk(schema, name)
    for path, method, _ in operations(spec):
        walk(answer_schema(spec, path, method)["schema"], f"{method} {path}")


async def test_every_operation_has_an_example_request_and_answer(spec: dict[str, Any]) -> None:
    assert len(operations(spec)) == 5
    for path, method, op in operations(spec):
        for parameter in op.get("parameters", []):
            assert parameter["examples"], (path, parameter["name"])
        for media_type, form in op.get("requestBody", {}).get("content", {}).items():
            assert form["examples"], (path, media_type)
        (example,) = answer_schema(spec, path, method)["examples"].values()
        assert_valid(spec, path, example["value"], method)  # the stored answers are still of their documented type
        assert set(op["responses"]) == {"200", "400", "404", "413", "414"}  # no 422: invalid input is a 400


async def test_real_answers_validate_against_their_schemas(client: httpx.AsyncClient, spec: dict[str, Any]) -> None:
    assert_valid(spec, ERROR, (await client.get(f"/api/errors/{SHOP_ID}")).json())
    filled = await client.get(f"/api/errors/{SHOP_ID}", params=[("value", "('fast', 'slow')"), ("value", "'fsat'")])
    assert_valid(spec, ERROR, filled.json())
    assert_valid(spec, "/api/search", (await client.get("/api/search", params={"q": TURBO})).json())
    abstained = await client.post("/api/search", json={"q": "KeyError: nothing here"})
    assert_valid(spec, "/api/search", abstained.json(), "post")
    assert_valid(spec, "/api", (await client.get("/api")).json())
    assert_valid(spec, "/api/packages/{package}", (await client.get("/api/packages/shop")).json())


@pytest.mark.network
async def test_the_flagship_answers_validate_against_their_schemas(transformers_db: str) -> None:
    transport = httpx.ASGITransport(app=create_app(transformers_db))
    async with httpx.AsyncClient(transport=transport, base_url="http://errdex.test") as client:
        spec = (await client.get("/openapi.json")).json()
        found = (await client.get("/api/search", params={"q": FLAGSHIP_PASTE})).json()
        assert found["matches"][0]["id"] == FLAGSHIP_ID
        assert_valid(spec, "/api/search", found)
        page = await client.get(
            f"/api/errors/{FLAGSHIP_ID}", params=[("value", v) for v in found["matches"][0]["values"]]
        )
        assert_valid(spec, ERROR, page.json())


async def test_docs_describe_every_operation_with_a_form(client: httpx.AsyncClient, spec: dict[str, Any]) -> None:
    response = await client.get("/docs")
    assert response.status_code == 200
    assert response.headers["content-security-policy"] == POLICY
    html = response.text.replace("<wbr>", "")  # the break opportunities of long names
    assert "<script>" not in html  # no inline script: the one script is a file of the site's own (Ctrl+Enter)
    tags = tags_of(html)
    assert ("link", {"rel": "alternate", "type": "application/json", "href": "/openapi.json"}) in tags
    endpoints = {a["value"] for tag, a in tags if tag == "input" and a.get("name") == "endpoint"}
    assert endpoints == {path for path, method, _ in operations(spec) if method == "get"}
    posts = [a for tag, a in tags if tag == "form" and a.get("method") == "post" and a.get("role") != "search"]
    assert posts == [{"class": "paste", "method": "post", "action": "/api/search"}]  # beside the header's box
    for path, method, op in operations(spec):
        assert f"{method.upper()} {path}" in re.sub(r"</?code>", "", html)
        assert escape(op["summary"]) in html
    for key in get_type_hints(Page):
        assert f"<code>{key}</code>" in html
    assert escape("the user's captured values and what each does here") in html  # a key's comment, its description


async def test_a_docs_form_leads_to_the_api_address_with_its_fields(client: httpx.AsyncClient) -> None:
    fields = {"endpoint": ERROR, "error_id": SHOP_ID, "version": "1.0", "value": ["'fsat'", ""], "file": "", "line": ""}
    response = await client.get("/docs/try", params=fields)
    assert response.status_code == 303
    assert response.headers["location"] == f"/api/errors/{SHOP_ID}?version=1.0&value=%27fsat%27"
    page = (await client.get(response.headers["location"])).json()
    assert page["version"] == "1.0" and page["user_input"]["values"] == ["'fsat'"]
    search = await client.get("/docs/try", params={"endpoint": "/api/search", "q": TURBO, "limit": ""})
    assert (await client.get(search.headers["location"])).json()["q"] == TURBO


@pytest.mark.parametrize(
    "params",
    [{}, {"endpoint": "/nowhere"}, {"endpoint": ERROR}, {"endpoint": ERROR, "error_id": ""}, {"endpoint": "//x.test"}],
)
async def test_a_docs_form_without_what_it_needs_is_a_400(client: httpx.AsyncClient, params: dict[str, str]) -> None:
    response = await client.get("/docs/try", params=params)
    assert response.status_code == 400 and "location" not in response.headers


async def test_a_path_parameter_stays_in_its_segment(client: httpx.AsyncClient) -> None:
    response = await client.get("/docs/try", params={"endpoint": "/api/packages/{package}", "package": "../../x?y"})
    assert response.headers["location"] == "/api/packages/..%2F..%2Fx%3Fy"


async def test_the_footer_links_the_docs(client: httpx.AsyncClient) -> None:
    assert re.search(r'<a href="/docs">API', (await client.get("/")).text)
