"""A paste cut short (an issue title, a chat message) is matched with the template up to where it stops."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from errdex.match import explain
from errdex.store import Store
from tests.match.packages import module_index

# kombu's transport raises this (kombu/transport/redis.py); the corpus case kombu-p3 is a paste cut after "key no".
CODE = (
    "class InconsistencyError(Exception):\n    pass\n\n\n"
    "def lookup(exchange, key):\n"
    "    raise InconsistencyError(\n"
    '        f"Cannot route message for exchange {exchange!r}: Table empty or key no longer exists. "\n'
    '        f"Probably the key ({key!r}) has been removed from the Redis database."\n'
    "    )\n"
)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory, backend: str) -> Iterator[Store]:
    with Store(module_index(tmp_path_factory.mktemp("cut"), backend, "routes", "redis", CODE)) as s:
        yield s


def test_a_message_cut_inside_a_literal_part_is_the_answer_marked_cut(store: Store) -> None:
    paste = (
        "routes.redis.InconsistencyError:\n"
        "Cannot route message for exchange 'reply.celery.pidbox': Table empty or key no"
    )
    best = explain(paste, store=store, auto_index=False).best
    assert best is not None and (best.file, best.line) == ("routes/redis.py", 6)
    assert best.cut and best.approximate and "message (cut short)" in best.evidence
    assert best.values[0] == "'reply.celery.pidbox'"


def test_a_message_cut_inside_its_first_part_is_the_answer(store: Store) -> None:
    best = explain("InconsistencyError: Cannot route message for exch", store=store, auto_index=False).best
    assert best is not None and best.cut and best.file == "routes/redis.py"


def test_a_message_that_goes_on_with_other_words_is_not_cut(store: Store) -> None:
    paste = "InconsistencyError: Cannot route message for exchange 'x': Table empty or key not in the ring at all"
    result = explain(paste, store=store, auto_index=False)
    assert result.matches and not result.matches[0].cut
    whole = explain(
        "InconsistencyError: Cannot route message for exchange 'x': Table empty or key no longer exists. "
        "Probably the key ('k') has been removed from the Redis database.",
        store=store,
        auto_index=False,
    ).best
    assert whole is not None and not whole.cut and not whole.approximate
    assert result.matches[0].confidence < whole.confidence
