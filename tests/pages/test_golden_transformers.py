"""Golden pages on the real transformers wheels: 5.16.0's flagship error, and what changed since 4.57.0."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from errdex.indexing import index
from errdex.pages import build_page
from errdex.store import Store
from tests.backends import copy_index
from tests.flagship import CACHE_NAMES
from tests.pages.conftest import strings

pytestmark = pytest.mark.network

FLAGSHIP_ID = "44c51e6e70d45f6a"
SIBLINGS = ("early_stopping", "max_new_tokens", "assistant_ensemble_weight", "compile_config")
REJECTING = ("invalid", "rejected", "not accepted", "not one of", "unsupported")


def assert_dynamic_never_called_invalid(page: dict[str, Any]) -> None:
    for text in strings({k: v for k, v in page.items() if k not in ("snippet", "related")}):
        if "'dynamic'" in text:
            assert not any(word in text.lower() for word in REJECTING), text
    assert all("'dynamic'" not in v for t in page["triggers"] for v in t["values"].values())
    if page["example_fix"]:
        assert page["example_fix"]["value_before"] != "'dynamic'"


def test_flagship_page(transformers_store: Store) -> None:
    page = build_page(transformers_store, FLAGSHIP_ID)
    assert (page["package"], page["version"], page["line"]) == ("transformers", "5.16.0", 687)
    meaning = page["what_it_means"]
    assert meaning["condition"] == (
        "self.cache_implementation is not None and self.cache_implementation not in valid_cache_implementations"
    )
    assert meaning["lists"] == [
        {
            "subject": "self.cache_implementation",
            "name": "valid_cache_implementations",
            "role": "allowed",
            "values": CACHE_NAMES,
        }
    ]
    assert meaning["values"][0]["defined_at"] == "transformers/generation/configuration_utils.py:685"
    assert "is not one of `valid_cache_implementations` (11 values)" in meaning["summary"]

    (item,) = page["when_it_happens"]["inputs"]
    way = item["ways_in"][0]
    assert way["call"] == "GenerationConfig(cache_implementation=...)" and way["reaches_check"]
    assert "stores `kwargs.pop('cache_implementation', None)` in `self.cache_implementation` (line 407)" in way["how"]
    assert "by calling `self.validate()` (line 518)" in way["how"]
    assert "generation_config.update(cache_implementation=...)" in [w["call"] for w in item["ways_in"]]
    assert page["when_it_happens"]["summary"].startswith(
        "`cache_implementation` comes from `GenerationConfig(cache_implementation=...)`"
    )

    own = {c["function"] for c in page["callers"] if c["match"] == "self"}
    assert own == {"GenerationConfig.__init__", "GenerationConfig.update", "GenerationConfig.save_pretrained"}
    assert any(c["match"] == "receiver" and c["file"].startswith("transformers/models/") for c in page["callers"])
    assert "called from `GenerationConfig.__init__`" in page["when_it_happens"]["summary"]

    related = " | ".join(r["template"] or "" for r in page["related"])
    assert all(sibling in related for sibling in SIBLINGS)
    assert [r["relation"] for r in page["related"][:4]] == ["function"] * 4

    trigger = page["triggers"][0]["code"]
    assert trigger == (  # imported as users do: the top-level package re-exports it
        "from transformers import GenerationConfig\n\nGenerationConfig(cache_implementation='invalid')"
    )
    # no value of the user's is close to a listed one: the fix leaves it to the model's default (what the
    # constructor gives the keyword when it is left out), not a value of the list picked for them
    fix = page["example_fix"]
    assert fix["after"].endswith("GenerationConfig(cache_implementation=None)") and fix["value_source"] == "default"
    assert "(what `GenerationConfig.__init__` gives `cache_implementation` when the keyword is left out)" in fix["note"]
    assert page["solutions"][0]["kind"] == "use_allowed_value" and page["solutions"][0]["values"] == CACHE_NAMES
    assert page["source_url"] == (  # where the repository keeps it, as the release's sdist shows
        "https://github.com/huggingface/transformers/blob/v5.16.0/src/transformers/generation/configuration_utils.py#L687-L690"
    )
    assert [a["ref"] for a in page["source_url_alternatives"]] == ["5.16.0"]
    assert page["generated_by"] == "static"
    assert meaning["plain"] == (  # the user's call first, then what passes, from the ways in and the clauses
        "`self.cache_implementation` is set from the `cache_implementation` you pass to"
        " `transformers.GenerationConfig(...)` or `generation_config.update(...)`."
        " The check (`GenerationConfig.validate`, line 687) cannot fire when either `self.cache_implementation` is None"
        " or `self.cache_implementation` is one of `valid_cache_implementations` (11 values)."
    )
    assert_dynamic_never_called_invalid(page)


def test_flagship_with_the_users_values(transformers_store: Store) -> None:
    listed = repr(tuple(CACHE_NAMES))
    typo = build_page(
        transformers_store,
        FLAGSHIP_ID,
        values=["statc", listed],
        suggestions={"valid_cache_implementations": ["static"]},
    )
    assert typo["triggers"][0]["from_user"] and typo["triggers"][0]["code"].endswith(
        "GenerationConfig(cache_implementation='statc')"
    )
    assert typo["solutions"][0]["text"].startswith("Use 'static', the closest accepted value.")
    assert typo["example_fix"]["value_after"] == "'static'"
    assert typo["what_it_means"]["plain"].endswith(
        " With yours (`self.cache_implementation` shown as `statc`), the check fails."
    )
    accepted = build_page(transformers_store, FLAGSHIP_ID, values=["dynamic", listed])
    assert accepted["user_input"]["checked"][0]["result"] == "accepted"
    assert accepted["solutions"][0]["text"].startswith("'dynamic' is accepted by this check in transformers 5.16.0")
    assert "With yours" not in accepted["what_it_means"]["plain"]
    assert_dynamic_never_called_invalid(accepted)


def with_release(transformers_db: str, release_cache: Path, folder: Path, spec: str) -> str:
    """A copy of the 5.16.0 index with another release indexed beside it."""
    path = copy_index(transformers_db, folder, "errdex.db")
    with Store(path) as store:
        index(spec, store, cache_dir=release_cache)
    return path


@pytest.fixture(scope="module")
def two_releases(transformers_db: str, release_cache: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """5.16.0 and 4.57.0 indexed together: 4.57.0 accepts 'dynamic_full', 5.16.0 'paged' instead."""
    return with_release(transformers_db, release_cache, tmp_path_factory.mktemp("drift"), "transformers==4.57.0")


def test_versions_show_the_cache_names_that_changed(two_releases: str) -> None:
    with Store(two_releases) as store:
        page = build_page(store, FLAGSHIP_ID)
        older = build_page(store, FLAGSHIP_ID, version="4.57.0")
        drift = build_page(store, FLAGSHIP_ID, values=["dynamic_full", repr(tuple(CACHE_NAMES))])
    versions = page["versions"]
    assert [r["version"] for r in versions["releases"]] == ["4.57.0", "5.16.0"]
    assert versions["releases"][0]["places"] == [
        {"file": "transformers/generation/configuration_utils.py", "line": 555}
    ]
    assert versions["value_changes"] == [
        {
            "from_version": "4.57.0",
            "to_version": "5.16.0",
            "name_before": "ALL_CACHE_IMPLEMENTATIONS",
            "name_after": "valid_cache_implementations",
            "added": ["paged"],
            "removed": ["dynamic_full"],
            "reordered": False,
        }
    ]
    assert "dynamic_full" in older["what_it_means"]["lists"][0]["values"]
    assert "paged" not in older["what_it_means"]["lists"][0]["values"]
    texts = [s["text"] for s in drift["solutions"] if s["kind"] == "version_drift"]
    assert texts == [
        "'dynamic_full' is accepted in transformers 4.57.0 but rejected in 5.16.0: use a value this release accepts."
    ]
    assert versions["summary"] == "Among the indexed releases of transformers: 4.57.0 and 5.16.0 have it."
    assert_dynamic_never_called_invalid(page)


# ALL_CACHE_IMPLEMENTATIONS of transformers 4.54.1 (generation/configuration_utils.py:74),
# bound under `if is_torch_available():`
TORCH_CACHE_NAMES = [*CACHE_NAMES[:7], "offloaded", "dynamic", "quantized"]


@pytest.fixture(scope="module")
def with_4_54(transformers_db: str, release_cache: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """5.16.0 and 4.54.1 indexed together: 4.54.1 binds `ALL_CACHE_IMPLEMENTATIONS = []`, then the real names
    under `if is_torch_available():`."""
    return with_release(transformers_db, release_cache, tmp_path_factory.mktemp("torch"), "transformers==4.54.1")


def test_a_value_bound_when_torch_is_installed_is_the_one_listed(with_4_54: str) -> None:
    with Store(with_4_54) as store:
        older = build_page(store, FLAGSHIP_ID, version="4.54.1")
        newer = build_page(store, FLAGSHIP_ID)
    meaning = older["what_it_means"]
    assert meaning["lists"][0]["values"] == TORCH_CACHE_NAMES
    (value,) = meaning["values"]
    assert value["defined_at"] == "transformers/generation/configuration_utils.py:74"
    assert [(a["when"], a["value"], a["chosen"]) for a in value["alternatives"]] == [
        ("when `is_torch_available()` returns true", TORCH_CACHE_NAMES, True),
        ("when `is_torch_available()` returns false", [], False),
    ]
    assert "otherwise: `[]`" in value["choice"]
    assert "This page uses the value when `is_torch_available()` returns true" in value["choice"]
    solution = older["solutions"][0]
    assert solution["values"] == TORCH_CACHE_NAMES and "`is_torch_available()` returns true" in solution["text"]
    assert not any(re.search(r"\b0 values", text) for text in strings(older))
    # 5.16.0's list holds always, 4.54.1's only with torch installed: not compared, nothing claimed added
    assert newer["versions"]["value_changes"] == []
    assert not any(s["kind"] == "version_drift" and "added" in s["text"] for s in newer["solutions"])
