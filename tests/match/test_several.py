"""A paste with several errors: the fatal, last one is the answer; the others are answered and listed as such."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from errdex.cli import main
from errdex.match import explain
from errdex.store import Store
from tests.match.packages import module_index

CODE = (
    "import warnings\n\n\n"
    "def fit(x, max_iter):\n"
    "    if max_iter < 10:\n"
    '        warnings.warn(f"lbfgs failed to converge after {max_iter} iterations", RuntimeWarning)\n'
    "    if x is None:\n"
    '        raise ValueError(f"Input contains NaN, infinity or a value too large for {x!r}.")\n'
    "\n\ndef card(logger, make):\n"
    "    try:\n"
    "        return make()\n"
    "    except Exception:\n"
    '        logger.exception("Error while generating the model card, the card will be empty")\n'
)
PASTE = """/venv/lib/python3.12/site-packages/fitter/solve.py:6: RuntimeWarning: lbfgs failed to converge after 5 \
iterations
  warnings.warn(f"lbfgs failed to converge after {max_iter} iterations", RuntimeWarning)
Traceback (most recent call last):
  File "/home/me/run.py", line 3, in <module>
    fit(None, 5)
  File "/venv/lib/python3.12/site-packages/fitter/solve.py", line 8, in fit
    raise ValueError(f"Input contains NaN, infinity or a value too large for {x!r}.")
ValueError: Input contains NaN, infinity or a value too large for None.
"""


@pytest.fixture(scope="module")
def location(tmp_path_factory: pytest.TempPathFactory, backend: str) -> str:
    """The index of a package that warns, then raises."""
    return module_index(tmp_path_factory.mktemp("several"), backend, "fitter", "solve", CODE)


@pytest.fixture
def store(location: str) -> Iterator[Store]:
    with Store(location) as s:
        yield s


def test_the_fatal_error_is_the_answer_and_the_warning_before_it_is_listed(store: Store) -> None:
    result = explain(PASTE, store=store, auto_index=False)
    assert result.best is not None and (result.best.file, result.best.line) == ("fitter/solve.py", 8)
    assert [(c.file, c.line, c.kind) for c in result.also] == [("fitter/solve.py", 6, "warning")]
    assert result.to_json()["also"][0]["line"] == 6


def test_the_cli_lists_the_other_errors_after_the_answer(location: str) -> None:
    out = CliRunner().invoke(main, ["explain", PASTE, "--db", location]).output
    answer, _, listed = out.partition("also in this paste")
    assert "fitter/solve.py:8" in answer and "fitter/solve.py:6" in listed


def test_a_message_logged_above_a_cut_traceback_is_answered_despite_its_frames(store: Store) -> None:
    """The traceback below a logged message is the caught exception's, raised elsewhere (here in another
    package, and cut before its exception line): its frames must not count against the log call."""
    paste = (
        "Error while generating the model card, the card will be empty\n"
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.12/site-packages/fitter/solve.py", line 13, in card\n'
        "    return make()\n"
        '  File "/venv/lib/python3.12/site-packages/cards/render.py", line 40, in make\n'
        "    raise_for_widgets(dataset)\n"
    )
    result = explain(paste, store=store, auto_index=False)
    assert result.parsed.printed_above
    assert result.best is not None and (result.best.line, result.best.kind) == (15, "log")


def test_a_paste_with_one_error_lists_nothing_else(store: Store) -> None:
    result = explain(PASTE.split("\n", 2)[2], store=store, auto_index=False)
    assert result.best is not None and result.best.line == 8 and result.also == []
