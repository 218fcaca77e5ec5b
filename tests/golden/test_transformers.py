"""Golden tests on the real transformers 5.16.0 wheel: the flagship error and coverage."""

from __future__ import annotations

import ast
import functools
import zipfile
from pathlib import Path

import pytest

from errdex.model import error_id
from errdex.pages.record import record_json
from errdex.store import Store
from tests.flagship import CACHE_NAMES

pytestmark = pytest.mark.network

TEMPLATE = "Invalid `cache_implementation` ({}). Choose one of: {}"
FLAGSHIP_ID = error_id("transformers", "error", "ValueError", TEMPLATE, "")


def test_flagship_error(transformers_store: Store) -> None:
    record = transformers_store.error(FLAGSHIP_ID)
    page = record_json(record, transformers_store.source(record.release, record.site.file))
    assert page["template"] == TEMPLATE
    assert page["file"] == "transformers/generation/configuration_utils.py"
    assert page["line"] == 687
    assert page["function"] == "GenerationConfig.validate"
    assert page["exception"] == "ValueError"
    assert page["kind"] == "error"
    assert page["condition"] == (
        "self.cache_implementation is not None and self.cache_implementation not in valid_cache_implementations"
    )
    assert page["resolved"]["valid_cache_implementations"] == CACHE_NAMES
    assert page["snippet"]["start"] <= 687 <= page["snippet"]["end"]
    assert "raise ValueError(" in page["snippet"]["text"]


def test_flagship_related_errors(transformers_store: Store) -> None:
    related = transformers_store.error(FLAGSHIP_ID).related
    texts = " | ".join(r.template for r in related)
    for setting in ("early_stopping", "max_new_tokens", "assistant_ensemble_weight", "compile_config"):
        assert setting in texts, setting
    assert 0 < len(related) <= 8 and all(r.template for r in related)
    # validate() has more than 8 checks of its own: no room is left for others (and no "setting" relation to
    # checks of other classes' `max_matching_ngram_size` or `temperature`, which this check does not read)
    assert all(r.relation == "function" and r.function == "GenerationConfig.validate" for r in related)


def test_error_ids_are_stable_and_shared_by_copies(transformers_store: Store) -> None:
    release = transformers_store.release("transformers", "5.16.0")
    assert release.site_count > release.error_count > 3000
    assert FLAGSHIP_ID == "44c51e6e70d45f6a"


@functools.cache  # the same for every backend: parsed once per run
def _raises_with_a_message(wheel: Path) -> frozenset[tuple[str, int]]:
    """Every `raise Cls(...)` with an argument in the wheel's files, by a plain `ast.walk`."""
    expected: set[tuple[str, int]] = set()
    with zipfile.ZipFile(wheel) as zf:
        for name in zf.namelist():
            if name.endswith(".py"):
                for node in ast.walk(ast.parse(zf.read(name))):
                    if (
                        isinstance(node, ast.Raise)
                        and isinstance(node.exc, ast.Call)
                        and (node.exc.args or node.exc.keywords)
                        and not _raised_again(node.exc)
                    ):
                        expected.add((name, node.lineno))
    return frozenset(expected)


def test_coverage_no_raise_with_a_message_is_missed(transformers_store: Store, release_cache: Path) -> None:
    """Compare against a plain ast.walk of every file of the wheel (`raise exc.with_traceback(tb)` raises an
    exception made elsewhere, with no message of its own: one caught and raised again makes no site)."""
    expected = _raises_with_a_message(next(release_cache.rglob("transformers-5.16.0-*.whl")))
    errors = transformers_store.errors("transformers")
    rows = transformers_store.db.execute(
        "SELECT file, line, template, resolved FROM sites WHERE kind = 'error'"
    ).fetchall()
    found = {(file, line) for file, line, _, _ in rows}
    assert expected - found == set()
    with_template = sum(1 for _, _, t, _ in rows if t is not None) / len(rows)
    resolved = sum(1 for _, _, _, r in rows if r != "{}") / len(rows)
    print(
        f"\ncoverage: {len(rows)} error sites, {len(errors)} errors, {with_template:.1%} with a template,"
        f" {resolved:.1%} with resolved values"
    )
    assert with_template > 0.95


def _raised_again(call: ast.Call) -> bool:
    """`name.with_traceback(tb)`: an exception object raised with another traceback, not one made here."""
    func = call.func
    return isinstance(func, ast.Attribute) and func.attr == "with_traceback" and isinstance(func.value, ast.Name)
