"""Templates that share all their words: every key of a message hits hundreds of them.

`{} is not a known field of {}`, with its punctuation varied, is raised in
hundreds of places: the ranker must still pick the right one among more candidates than it
aligns, and asking for more answers must not change the first ones (it aligns the most
promising first and stops once no other can enter the best few).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.indexing import index
from errdex.match import explain
from errdex.match.rank import MAX_VERIFY
from errdex.store import Store
from tests.backends import new_index

COUNT = 300
ENDINGS = ["".join(p) for n in range(5) for p in itertools.product("!?.;", repeat=n)][:COUNT]


def message(k: int) -> str:
    return f"ValueError: 'Model' is not a known field of 'size'{ENDINGS[k]}"


def write_package(root: Path, name: str, code: str) -> Path:
    folder = root / name
    (folder / name).mkdir(parents=True)
    (folder / "pyproject.toml").write_text(f'[project]\nname = "{name}"\nversion = "1.0"\n')
    (folder / name / "__init__.py").write_text("")
    (folder / name / "checks.py").write_text(code)
    return folder


@pytest.fixture(scope="module")
def crowd(tmp_path_factory: pytest.TempPathFactory, backend: str) -> Iterator[Store]:
    root = tmp_path_factory.mktemp("crowd")
    folder = write_package(
        root,
        "crowd",
        "".join(
            f"\n\ndef check_{k}(obj, name):\n"
            f'    raise ValueError(f"{{obj!r}} is not a known field of {{name!r}}{ending}")\n'
            for k, ending in enumerate(ENDINGS)
        ),
    )
    store = Store(new_index(backend, root, "crowd.db"))
    index(str(folder), store)
    yield store
    store.close()


def test_more_templates_share_the_keys_than_are_aligned() -> None:
    assert COUNT > MAX_VERIFY


@pytest.mark.parametrize("k", [0, 1, 57, 123, MAX_VERIFY, COUNT - 1])
def test_each_message_finds_its_own_template(crowd: Store, k: int) -> None:
    best = explain(message(k), store=crowd, auto_index=False).best
    assert best is not None and best.function == f"check_{k}"
    assert best.values == ("'Model'", "'size'") and not best.approximate


@pytest.mark.parametrize(
    "paste",
    [
        message(5),
        message(COUNT - 1),
        "'Model' is not a known field of 'size' in this version",
        "ValueError: is not a known field",
        "TypeError: 'x' is not a known field of",
    ],
)
def test_asking_for_more_answers_keeps_the_first_ones(crowd: Store, paste: str) -> None:
    few = explain(paste, store=crowd, auto_index=False, limit=5).matches
    many = explain(paste, store=crowd, auto_index=False, limit=100).matches
    assert [(c.id, c.confidence) for c in few] == [(c.id, c.confidence) for c in many[:5]]


def test_a_template_raised_by_many_packages_is_one_answer_with_its_copies(tmp_path: Path, backend: str) -> None:
    code = 'def check(obj, name):\n    raise ValueError(f"{obj!r} is not a known field of {name!r}")\n'
    with Store(new_index(backend, tmp_path, "same.db")) as store:
        for k in range(12):
            index(str(write_package(tmp_path, f"twin{k}", code)), store)
        few = explain(message(0), store=store, auto_index=False, limit=5).matches
        many = explain(message(0), store=store, auto_index=False, limit=100).matches
    assert len(many) == 1  # twelve ties: nothing in the paste tells them apart
    assert {many[0].package, *(c.package for c in many[0].copies)} == {f"twin{k}" for k in range(12)}
    assert [(c.id, c.copies) for c in few] == [(c.id, c.copies) for c in many]
