"""Aligning a template's literal parts with a message: coverage, captured values, linear time."""

from __future__ import annotations

from errdex.match.align import align
from errdex.match.text import fold, squash, template_parts


def lay(template: str, message: str):
    text = squash(message)
    return align(template_parts(template), fold(text), text)


def test_exact_message_captures_each_hole() -> None:
    a = lay(
        "Invalid `cache_implementation` ({}). Choose one of: {}",
        "Invalid `cache_implementation` (flash). Choose one of: ('static', 'dynamic')",
    )
    assert a.exact and a.coverage == 1.0
    assert a.values == ("flash", "('static', 'dynamic')")


def test_value_spanning_lines_is_captured_whole() -> None:
    a = lay("Choose one of: {}. Got {}", "Choose one of: ('a',\n 'b',\n 'c'). Got x y z")
    assert a.exact
    assert a.values == ("('a', 'b', 'c')", "x y z")


def test_quotes_of_either_kind_match() -> None:
    a = lay("Unknown mode '{}'", 'Unknown mode "it\'s"')
    assert a.exact and a.values == ("it's",)


def test_trailing_literal_is_anchored_at_the_end() -> None:
    a = lay("{} is not {}.", "a is not b is not c.")
    assert a.exact and a.values == ("a", "b is not c")


def test_text_around_a_template_is_unexplained() -> None:
    a = lay("size must be positive", "Error: size must be positive!")
    assert a.coverage == 1.0 and not a.exact and a.unexplained == len("Error: ") + 1


def test_reworded_part_is_matched_word_by_word() -> None:
    a = lay("Unknown mode {}. Choose one of: {}", "Unknown mode 'x'. Please choose one of: ('a', 'b')")
    assert not a.exact and 0.6 < a.coverage < 1.0


def test_unrelated_message_covers_little() -> None:
    assert lay("Invalid `cache_implementation` ({}). Choose one of: {}", "division by zero").coverage < 0.2


def test_regex_metacharacters_are_plain_text() -> None:
    template = "bad pattern (.*)+[a-z]{2,} \\d+$ ^ | {} (?P<x>"
    a = lay(template, "bad pattern (.*)+[a-z]{2,} \\d+$ ^ | 'zz' (?P<x>")
    assert a.exact and a.values == ("'zz'",)
    assert not lay(template, "bad pattern aaaa zz").exact


def test_hostile_long_message_is_linear() -> None:
    message = "a" * 1_000_000 + "!"
    a = lay("{}a{}a{}a{}b", message)
    assert a.hit < a.total
