"""The flagship on the real transformers 5.16.0 wheel: every input form finds configuration_utils.py:687."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

import pytest

from errdex.match import explain
from errdex.store import Store
from tests.backends import copy_index
from tests.flagship import CACHE_NAMES

pytestmark = pytest.mark.network

FILE = "transformers/generation/configuration_utils.py"
NAMES = tuple(CACHE_NAMES)
# What GenerationConfig.validate() raises, as the f-string formats it.
MESSAGE = "Invalid `cache_implementation` ({}). Choose one of: " + repr(NAMES)


@pytest.fixture(scope="module")
def store(transformers_db: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """A private copy of the shared index: explain() writes its lookup tables into the index's cache."""
    path = copy_index(transformers_db, tmp_path_factory.mktemp("match"), "transformers.db")
    with Store(path) as s:
        yield s


def check_flagship(store: Store, paste: str, value: str) -> None:
    result = explain(paste, store=store, auto_index=False)
    best = result.best
    assert best is not None, result.hint
    assert (best.package, best.version, best.file, best.line) == ("transformers", "5.16.0", FILE, 687)
    assert best.function == "GenerationConfig.validate" and best.exception == "ValueError"
    assert best.values == (value, repr(NAMES))
    assert best.allowed == {"cache_implementation": list(NAMES)}
    assert best.confidence >= 0.85


def test_message_with_flash(store: Store) -> None:
    check_flagship(store, "ValueError: " + MESSAGE.format("flash"), "flash")
    assert explain(MESSAGE.format("flash"), store=store).best.suggestions == {}  # type: ignore[union-attr]


def test_typo_suggests_static(store: Store) -> None:
    check_flagship(store, MESSAGE.format("statc"), "statc")
    best = explain(MESSAGE.format("statc"), store=store).best
    assert best is not None and best.suggestions == {"cache_implementation": ["static"]}


TRACEBACK = textwrap.dedent(
    f"""\
    Traceback (most recent call last):
      File "/home/me/run.py", line 4, in <module>
        model.generate(**inputs, cache_implementation="statc")
      File "/home/me/.venv/lib/python3.11/site-packages/transformers/generation/configuration_utils.py", line 687, in validate
        raise ValueError(
    ValueError: {MESSAGE.format("statc")}
    """
)


def test_traceback(store: Store) -> None:
    check_flagship(store, TRACEBACK, "statc")


def test_traceback_flattened_onto_one_line(store: Store) -> None:
    """As the web's one-line search box, an issue title or a chat message leave it."""
    check_flagship(store, " ".join(TRACEBACK.splitlines()), "statc")


def test_traceback_behind_a_compose_prefix(store: Store) -> None:
    """As `docker compose up` prints a service's output."""
    check_flagship(store, "".join(f"web-1  | {line}\n" for line in TRACEBACK.splitlines()), "statc")


def test_ipython_traceback_with_colours(store: Store) -> None:
    paste = (
        "\x1b[0;31m---------------------------------------------------------------------------\x1b[0m\n"
        "\x1b[0;31mValueError\x1b[0m                                Traceback (most recent call last)\n"
        "Cell \x1b[0;32mIn[3], line 1\x1b[0m\n"
        '\x1b[0;32m----> 1\x1b[0m model\x1b[38;5;241m.\x1b[39mgenerate(cache_implementation\x1b[38;5;241m=\x1b[39m\x1b[38;5;124m"flash"\x1b[39m)\n\n'
        f"File \x1b[0;32m/opt/conda/lib/python3.11/site-packages/transformers/generation/configuration_utils.py:687\x1b[0m, in \x1b[0;36mGenerationConfig.validate\x1b[0;34m(self, strict)\x1b[0m\n"
        "\x1b[0;32m--> 687\x1b[0m     \x1b[38;5;28;01mraise\x1b[39;00m \x1b[38;5;167;01mValueError\x1b[39;00m(\n\n"
        f"\x1b[0;31mValueError\x1b[0m: {MESSAGE.format('flash')}\n"
    )
    check_flagship(store, paste, "flash")


def test_message_wrapped_over_lines(store: Store) -> None:
    wrapped = MESSAGE.format("flash").replace(", 'hybrid'", ",\n 'hybrid'")
    result = explain("ValueError: " + wrapped, store=store)
    best = result.best
    assert best is not None and best.line == 687 and best.values[0] == "flash"


def test_cut_off_message_with_its_frame(store: Store) -> None:
    paste = (
        'File "/usr/lib/python3/dist-packages/transformers/generation/configuration_utils.py", line 687, in validate\n'
        "ValueError: Invalid `cache_implementation` (flash). Choose one of: ('static', 'offloaded_st"
    )
    result = explain(paste, store=store)
    best = result.best
    assert best is not None and (best.file, best.line) == (FILE, 687)


def test_reworded_message_from_an_older_version(store: Store) -> None:
    older = "ValueError: Invalid cache_implementation (flash). Choose one of: ['static', 'dynamic']"
    best = explain(older, store=store).best
    assert best is not None and best.line == 687 and best.approximate


def test_messages_of_other_libraries_abstain(store: Store) -> None:
    for paste in (
        "ZeroDivisionError: division by zero",
        "ValueError: operands could not be broadcast together with shapes (2,3) (4,)",
        "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB",
    ):
        result = explain(paste, store=store)
        assert result.abstain, paste
