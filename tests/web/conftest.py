"""Fixtures of the web tests: small indexes written by the tests, and the app called in-process.

`shop` 1.0 and 2.0 (tests/fixtures.py) give two releases of one error; `evil` is a package
whose messages and names carry markup, to prove that every value is escaped.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import AsyncIterator

import httpx
import pytest

from errdex.indexing import index
from errdex.model import error_id
from errdex.store import Store
from errdex.web import create_app
from tests.backends import new_index
from tests.fixtures import shop, write_tree

os.environ.setdefault("ERRDEX_STRICT_TEMPLATES", "1")  # a template reading a key the data lacks fails the test

SHOP_TEMPLATE = "mode must be one of {}, got {}"
SHOP_ID = error_id("shop", "error", "ValueError", SHOP_TEMPLATE, "")
EVIL_TEMPLATE = "<script>alert('x')</script> is not a valid {}"
EVIL_ID = error_id("evil", "error", "ValueError", EVIL_TEMPLATE, "")
EVIL = {
    "pyproject.toml": '[project]\nname = "evil"\nversion = "0.1"\n',
    "evil/__init__.py": "",
    "evil/core.py": textwrap.dedent(
        """
        KINDS = ("<b>bold</b>", "</textarea><script>alert(1)</script>")


        class GateError(Exception):
            pass


        def check(kind):
            if kind not in KINDS:
                raise ValueError(f"<script>alert('x')</script> is not a valid {kind}")
            raise TypeError("plain")


        def gate(reason):
            raise GateError(reason)
        """
    ),
}


@pytest.fixture(scope="session")
def web_db(tmp_path_factory: pytest.TempPathFactory, backend: str) -> str:
    """An index of shop 1.0, shop 2.0 and evil 0.1, built once (per backend) for the web tests."""
    root = tmp_path_factory.mktemp("web")
    path = new_index(backend, root, "web.db")
    with Store(path) as store:
        for name, files in (
            ("shop-1.0", shop("1.0")),
            ("shop-2.0", shop("2.0", ("fast", "slow", "eco"))),
            ("evil", EVIL),
        ):
            index(str(write_tree(root / name, files)), store)
    return path


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def client(web_db: str) -> AsyncIterator[httpx.AsyncClient]:
    """httpx talking to the ASGI app in-process (no socket), over the web tests' index."""
    transport = httpx.ASGITransport(app=create_app(web_db))
    async with httpx.AsyncClient(transport=transport, base_url="http://errdex.test") as c:
        yield c


def assert_problem(response: httpx.Response, status: int) -> str:
    """The one JSON error shape: {"error": {"status", "title", "message"}}, nothing else; its message."""
    assert response.status_code == status, response.text[:300]
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"status", "title", "message"}
    assert body["error"]["status"] == status
    assert isinstance(body["error"]["title"], str) and body["error"]["title"]
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return body["error"]["message"]
