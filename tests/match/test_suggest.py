"""Did you mean: reading which hole shows the tested value, and the closest allowed values."""

from __future__ import annotations

from errdex.match.suggest import closest, did_you_mean, hole_sources, membership_checks

FLAGSHIP_SOURCE = (
    "f'Invalid `cache_implementation` ({self.cache_implementation}). Choose one of: {valid_cache_implementations}'"
)
CONDITION = "self.cache_implementation is not None and self.cache_implementation not in valid_cache_implementations"
NAMES = ["static", "offloaded_static", "sliding_window", "hybrid", "dynamic", "offloaded", "quantized", "paged"]


def test_holes_of_each_message_form() -> None:
    assert hole_sources(FLAGSHIP_SOURCE) == [["self.cache_implementation"], ["valid_cache_implementations"]]
    assert hole_sources("'a %s b %r' % (x, y.z)") == [["x"], ["y.z"]]
    assert hole_sources("'a {} b {k}'.format(x, k=y)") == [["x"], ["y"]]
    assert hole_sources("'a ' + str(x) + ' b'") == [["x"]]
    assert hole_sources("f'{a}{b} c'") == [["a", "b"]]
    assert hole_sources("msg") == [["msg"]]
    assert hole_sources("(((") == []


def test_membership_checks_with_resolved_names_and_literals() -> None:
    resolved = {"valid_cache_implementations": NAMES}
    assert list(membership_checks(CONDITION, resolved)) == [("self.cache_implementation", NAMES)]
    assert list(membership_checks("mode not in ('a', 'b')", {})) == [("mode", ["a", "b"])]
    assert list(membership_checks("mode not in OTHER", {})) == []


def test_typo_gets_the_closest_name() -> None:
    suggestions, allowed = did_you_mean(
        CONDITION, {"valid_cache_implementations": NAMES}, FLAGSHIP_SOURCE, ("statc", "(...)")
    )
    assert suggestions == {"cache_implementation": ["static"]}
    assert allowed == {"cache_implementation": NAMES}


def test_quoted_values_are_compared_unquoted() -> None:
    suggestions, _ = did_you_mean(
        "mode not in MODES",
        {"MODES": ["fast", "slow"]},
        "f'Unknown mode {mode!r}: {MODES}'",
        ("'fsat'", "('fast', 'slow')"),
    )
    assert suggestions == {"mode": ["fast"]}


def test_no_suggestion_for_an_allowed_or_faraway_value() -> None:
    assert closest("static", NAMES) == []
    assert closest("zzzzzzzzzz", NAMES) == []


def test_a_literal_set_lists_its_values_in_one_order_in_every_process() -> None:
    # a set iterates in hash order, which changes with each process: the values are sorted as stored sets are
    checks = list(membership_checks("mode not in {'slow', 'eco', 'fast', 'turbo'}", {}))
    assert checks == [("mode", ["eco", "fast", "slow", "turbo"])]
