"""An exception written inside the user's words or an application's log line is read as typed, beside the
paste as written: whichever reading fits an indexed error better answers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from errdex.match import explain
from errdex.match.parse import parse
from errdex.match.parse.embedded import embedded
from errdex.store import Store
from tests.match.packages import module_index

CODE = (
    "import logging\n\nlogger = logging.getLogger(__name__)\n\n\n"
    "def frame(columns):\n"
    "    if isinstance(columns, set):\n"
    '        raise ValueError("columns cannot be a set")\n\n\n'
    "def infer(data):\n"
    "    try:\n"
    "        return data.schema\n"
    "    except Exception as exc:\n"
    '        logger.warning(f"Failed to infer schema for NumPy dataset. Exception: {exc}")\n'
    "\n\ndef secret(key):\n"
    "    if not key:\n"
    '        raise ValueError("The SECRET_KEY setting must not be empty.")\n'
    "\n\ndef named(name, value):\n"
    "    if not value:\n"
    '        raise TypeError(f"{name} must not be empty")\n'
)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory, backend: str) -> Iterator[Store]:
    with Store(module_index(tmp_path_factory.mktemp("embedded"), backend, "frames", "core", CODE)) as s:
        yield s


@pytest.mark.parametrize(
    ("paste", "exception", "message"),
    [
        # pandas-p12 of the real pastes (benchmarks/pastes/data.json), an issue's first sentence
        ("Pandas 1.5.0 returns the error ValueError: columns cannot be a set", "ValueError", "columns cannot be a set"),
        # django-q1 of the real pastes: the error quoted in the user's sentence
        (
            'After docker-compose up --build, I got "django.core.exceptions.ImproperlyConfigured: The SECRET_KEY '
            'setting must not be empty"',
            "django.core.exceptions.ImproperlyConfigured",
            "The SECRET_KEY setting must not be empty",
        ),
        # httpx-p4 of the real pastes: a line in backticks between the user's words
        (
            "Trailing whitespace raises a httpx.LocalProtocolError\n"
            "`httpx.LocalProtocolError: Illegal header value b'Mozilla/5.0 '`\n"
            "Removing the space should fix the issue.",
            "httpx.LocalProtocolError",
            "Illegal header value b'Mozilla/5.0 '",
        ),
    ],
)
def test_a_type_inside_the_users_words_is_read(paste: str, exception: str, message: str) -> None:
    inner = embedded(parse(paste))
    assert (inner.exception, inner.message) == (exception, message)


def test_words_without_a_type_are_left_as_they_are() -> None:
    parsed = parse("My training stops with: columns cannot be a set")
    assert embedded(parsed) is parsed


def test_the_typed_reading_answers_when_it_fits_better(store: Store) -> None:
    result = explain("Pandas 1.5.0 returns the error ValueError: columns cannot be a set", store=store)
    assert result.best is not None and (result.best.file, result.best.line) == ("frames/core.py", 8)
    assert result.parsed.exception == "ValueError" and result.best.evidence == ("message", "exception")


def test_a_log_message_holding_exception_text_keeps_its_own_reading(store: Store) -> None:
    result = explain("Failed to infer schema for NumPy dataset. Exception: 'model'", store=store)
    assert result.best is not None and (result.best.line, result.best.kind) == (15, "log")
    assert result.parsed.exception is None


def test_a_template_whose_hole_swallows_most_of_the_message_does_not_stop_the_search(store: Store) -> None:
    """`{} must not be empty` holds the message exactly, its hole taking most of it; the template it was written
    from, which the paste lost its final full stop of, is still found."""
    best = explain("ValueError: The SECRET_KEY setting must not be empty", store=store).best
    assert best is not None and best.line == 20
