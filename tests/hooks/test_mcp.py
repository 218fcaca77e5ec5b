"""`errdex mcp` over stdio, driven by the official MCP SDK's own client."""

from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path
from typing import Any

import pytest

from errdex.indexing import index
from errdex.store import Store
from tests.hooks.conftest import environment

mcp = pytest.importorskip("mcp")
anyio = pytest.importorskip("anyio")


@pytest.fixture
def indexed_db(errdex_db: Path) -> Path:
    with Store(errdex_db) as store:
        index("packaging", store, installed=True)
    return errdex_db


def invalid_version_traceback() -> str:
    from packaging.version import Version

    try:
        Version("1.0.x")
    except ValueError as exc:
        return "".join(traceback.format_exception(exc))
    raise AssertionError("Version('1.0.x') did not raise")


def call(db: Path, *calls: tuple[str, dict[str, Any]]) -> tuple[list[str], list[tuple[bool, str]]]:
    """Start `python -m errdex mcp`, list its tools, make the calls; (tool names, [(is_error, text)])."""

    async def session() -> tuple[list[str], list[tuple[bool, str]]]:
        params = mcp.StdioServerParameters(command=sys.executable, args=["-m", "errdex", "mcp"], env=environment(db))
        async with mcp.Client(params) as client:
            tools = [t.name for t in (await client.list_tools()).tools]
            answers = []
            for name, arguments in calls:
                result = await client.call_tool(name, arguments)
                answers.append((bool(result.is_error), result.content[0].text))
            return tools, answers

    return anyio.run(session)


def test_explain_show_and_search_answer_in_compact_json(indexed_db: Path) -> None:
    tools, answers = call(
        indexed_db,
        ("explain", {"text": invalid_version_traceback()}),
        ("search", {"query": "Invalid version", "package": "packaging", "limit": 3}),
        ("explain", {"text": "a sentence that no library raises, about nothing in particular"}),
    )
    assert sorted(tools) == ["api", "explain", "search", "show"]
    (failed, explained), (_, searched), (_, abstained) = answers
    assert not failed and "\n" not in explained and '", "' not in explained and '": ' not in explained
    answer = json.loads(explained)
    best = answer["matches"][0]
    assert not answer["abstain"] and best["package"] == "packaging" and best["file"] == "packaging/version.py"
    assert best["values"] == ["'1.0.x'"] and answer["page"]["id"] == best["id"]
    # the whole page comes along; its solutions are empty here: the check tests a local (`match`), nothing to set
    assert "solutions" in answer["page"] and "parsed" not in answer
    found = json.loads(searched)["results"]
    assert best["id"] in [r["id"] for r in found] and all(r["package"] == "packaging" for r in found)
    assert json.loads(abstained)["abstain"] is True

    _, [(failed, shown)] = call(indexed_db, ("show", {"error_id": best["id"]}))
    page = json.loads(shown)
    assert not failed and page["id"] == best["id"] and page["template"] == "Invalid version: {}"


def test_errors_come_back_as_tool_errors_that_say_what_to_do(indexed_db: Path) -> None:
    _, [(unknown, text), (empty, why)] = call(
        indexed_db, ("show", {"error_id": "0000000000000000"}), ("explain", {"text": "  "})
    )
    assert unknown and "no error with id '0000000000000000' is indexed" in text
    assert empty and "empty" in why


def test_api_shows_a_symbols_signature_and_its_indexed_releases(indexed_db: Path) -> None:
    _, [(failed, shown), (unknown, why)] = call(
        indexed_db,
        ("api", {"package": "packaging", "symbol": "Version.__init__"}),
        ("api", {"package": "no-such-package"}),
    )
    assert not failed
    (found,) = json.loads(shown)["found"]
    assert found["file"] == "packaging/version.py" and [p["name"] for p in found["symbol"]["params"]] == [
        "self",
        "version",
    ]
    assert all(state["state"] == "present" for state in found["history"])
    assert unknown and "no-such-package" in why
