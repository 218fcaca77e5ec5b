"""A page the server has cached shows what `errdex verify` found once it ran, without a restart or a re-index."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from errdex.indexing import index
from errdex.store import Store, Verification
from errdex.web import create_app
from tests.backends import new_index
from tests.fixtures import shop, write_tree
from tests.web.conftest import SHOP_ID

pytestmark = pytest.mark.anyio


async def test_a_verdict_kept_after_the_page_was_served_is_shown(backend: str, tmp_path: Path) -> None:
    path = new_index(backend, tmp_path)
    with Store(path) as store:
        index(str(write_tree(tmp_path / "shop", shop("1.0"))), store)
    transport = httpx.ASGITransport(app=create_app(path))
    async with httpx.AsyncClient(transport=transport, base_url="http://errdex.test") as client:
        before = (await client.get(f"/api/errors/{SHOP_ID}")).json()
        trigger = before["triggers"][0]["code"]
        assert [r["status"] for r in before["verified"] if r["role"] == "trigger"] == ["not verified"]
        with Store(path) as store:
            store.put_verification(
                Verification(
                    error_id=SHOP_ID, package="shop", version="1.0", python="3.11", role="trigger", code=trigger,
                    status="verified", detail="it raised ValueError: mode must be one of ('fast', 'slow'), got 'x'",
                    exception="builtins.ValueError", message="mode must be one of ('fast', 'slow'), got 'x'",
                    file="shop/cart.py", line=5, isolation="network namespace", checked_at="2026-12-03T10:00:00+00:00",
                )
            )  # fmt: skip
        after = (await client.get(f"/api/errors/{SHOP_ID}")).json()
        html = (await client.get(f"/errors/{SHOP_ID}")).text
    assert [r["status"] for r in after["verified"] if r["role"] == "trigger"] == ["verified"]
    assert "Verified by running it (Python 3.11, 2026-12-03): it raised ValueError" in html
