"""Source written by strangers: huge, odd or broken files are skipped or bounded, never a crash."""

from __future__ import annotations

from errdex.extract import analyse_file
from errdex.extract.file import MAX_FILE_BYTES
from tests.extract.raw import texts


def test_enormous_string_literal_is_kept_as_a_site_without_template() -> None:
    data = b"raise ValueError('" + b"x" * 5_000_000 + b"')\n"
    (site,) = analyse_file("pkg/big.py", data).sites
    assert texts(site) == [None]
    assert site.reason == "message is longer than 20,000 characters"
    assert len(site.message_source) <= 20_000


def test_generated_file_over_the_size_limit_is_skipped() -> None:
    line = b"X = 1\n"
    data = line * (MAX_FILE_BYTES // len(line) + 1) + b"raise ValueError('late')\n"
    result = analyse_file("pkg/generated.py", data)
    assert result.skip == "file is larger than 20 MB"


def test_mixed_encodings_fall_back_to_the_declared_one() -> None:
    data = "# coding: cp1252\nraise ValueError('naïve – “quoted”')\n".encode("cp1252")
    (site,) = analyse_file("pkg/win.py", data).sites
    assert texts(site) == ["naïve – “quoted”"]


def test_bytes_that_are_no_text_at_all() -> None:
    result = analyse_file("pkg/binary.py", bytes(range(256)) * 10)
    assert result.skip is not None


def test_deep_if_nesting_in_a_function() -> None:
    body = "".join("    " * (i + 1) + f"if x > {i}:\n" for i in range(90))
    data = ("def f(x):\n" + body + "    " * 91 + "raise ValueError('deep')\n").encode()
    (site,) = analyse_file("pkg/deep.py", data).sites
    assert len(site.clauses) == 90


def test_parser_warnings_about_the_code_read_are_not_shown(recwarn) -> None:
    analyse_file("pkg/escape.py", b"import re\nraise ValueError('bad \\d escape')\n", fast=False)
    assert [str(w.message) for w in recwarn] == []


def test_compiled_sources_written_by_strangers_are_bounded_too() -> None:
    huge = b'void f(void) { PyErr_SetString(PyExc_ValueError, "' + b"x" * 100_000 + b'"); }\n'
    (site,) = analyse_file("pkg/src/big.c", huge).sites
    assert site.templates == () and site.reason == "message is longer than 20,000 characters"
    assert len(site.message_source) <= 20_000
    assert analyse_file("pkg/src/nul.c", b"int x;\x00\x01 PyErr_SetString(a, b);").skip == "contains NUL bytes"
    nested = b"void f(void) {" + b"if (a) {" * 2000 + b'PyErr_SetString(PyExc_ValueError, "deep");' + b"}" * 2001
    (deep,) = analyse_file("pkg/src/deep.c", nested).sites
    assert len(deep.clauses) == 2000
    unending = b"".join(b"    raise ValueError(\n" for _ in range(20_000))
    assert analyse_file("pkg/_libs/broken.pyx", unending).sites == ()  # read up to MAX_STATEMENTS, none parses
