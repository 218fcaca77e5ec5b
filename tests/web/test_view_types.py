"""The views' JSON types spell out the store's records field for field, in order: a new field must reach the JSON."""

from __future__ import annotations

from dataclasses import fields

import pytest

from errdex.model import ReleaseRecord
from errdex.store import PackageSummary, StoreStats
from errdex.web.views import PackageRow, ReleaseJson, StatsJson


@pytest.mark.parametrize(
    ("record", "json_type", "added"),
    [(ReleaseRecord, ReleaseJson, set()), (PackageSummary, PackageRow, {"versions"}), (StoreStats, StatsJson, set())],
)
def test_a_view_type_has_every_field_of_its_record(record: type, json_type: type, added: set[str]) -> None:
    assert [f.name for f in fields(record)] == [k for k in json_type.__annotations__ if k not in added]
