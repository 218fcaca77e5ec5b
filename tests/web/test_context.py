"""The application's Context: warmed at startup, its first search about each package loads nothing more."""

from __future__ import annotations

import pytest

from errdex.match.tables import forget, tables_for
from errdex.web.context import Context
from tests.match.packages import loaded_state


@pytest.mark.anyio
async def test_a_warmed_context_answers_each_package_first_search_with_what_it_loaded(web_db: str) -> None:
    forget()  # as in a new server process
    context = Context(web_db)
    try:
        loaded = context.warm()
        tables = tables_for(context.store())
        assert set(loaded.packages) == tables.loaded() == {"shop", "evil"}
        held = loaded_state(tables.core)
        shop = await context.search("ValueError: mode must be one of ('fast', 'slow'), got 'fsat'", 5)
        evil = await context.search("ValueError: <script>alert('x')</script> is not a valid kind", 5)
        assert [shop["matches"][0]["package"], evil["matches"][0]["package"]] == ["shop", "evil"]
        assert loaded_state(tables.core) == held
    finally:
        context.close()
