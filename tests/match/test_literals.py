"""The literal-part index: which keys a template is filed under, and what a message retrieves."""

from __future__ import annotations

from errdex.match.literals import build_keys, candidates, loose_candidates
from errdex.match.text import fold, message_keys, template_keys, template_parts


def test_words_touching_a_hole_are_not_keys() -> None:
    keys = template_keys(template_parts("{}_config must be set, got x{}"))
    assert "_config" not in keys and "x" not in keys
    assert {"must", "be", "set", "must be", "got"} <= keys


def test_each_template_is_found_from_its_own_message() -> None:
    templates = [
        "Invalid `cache_implementation` ({}). Choose one of: {}",
        "Invalid value {} for {}",
        "value must be positive",
        "Could not find {} in {}!",
        None,
        "{}: {}",
    ]
    index, _ = build_keys(templates)
    assert 0 in candidates(index, message_keys(fold("Invalid `cache_implementation` (flash). Choose one of: ('a',)")))
    assert 1 in candidates(index, message_keys(fold("Invalid value 3 for size")))
    assert 2 in candidates(index, message_keys(fold("value must be positive")))
    assert 3 in candidates(index, message_keys(fold("Could not find x in y!")))
    assert not candidates(index, message_keys(fold("totally unrelated words")))


def test_a_limit_keeps_the_first_candidates() -> None:
    templates = [f"value {n} of the cart is wrong" for n in range(6)] + [f"cart item {n} missing" for n in range(6)]
    index, _ = build_keys(templates)
    keys = message_keys(fold("value 3 of the cart is wrong: cart item 3 missing"))
    everything = candidates(index, keys)
    assert len(everything) > 4
    for limit in range(1, len(everything) + 2):
        assert candidates(index, keys, limit) == everything[:limit]


def test_templates_are_filed_under_few_keys() -> None:
    index, loose = build_keys(["alpha beta gamma delta epsilon zeta"])
    assert 1 <= sum(len(v) for _, v in index.items()) <= 2
    assert sum(len(v) for _, v in loose.items()) == 4


def test_loose_index_finds_a_reworded_message() -> None:
    _, loose = build_keys(["Unknown mode {}. Choose one of: {}", "Something else entirely"])
    assert loose_candidates(loose, message_keys(fold("Unknown cart mode 'x'; choose from ('a',)")), 5) == [0]


def test_long_messages_are_cut_at_both_ends() -> None:
    keys = message_keys(fold("start here " + "x " * 100_000 + "end there"))
    assert {"start here", "end there"} <= keys


def test_loose_index_counts_rare_words_before_common_ones() -> None:
    common = [f"the value of field_{k} is wrong" for k in range(900)]  # each filed under 'is', 'of' and 'the' too
    _, loose = build_keys(common + ["Unknown cart mode {}. Choose one of: {}"])
    found = loose_candidates(
        loose, message_keys(fold("the value of the unknown cart mode is bad; choose from ('a',)")), 5
    )
    assert found == [900]  # the common words' lists, 2,700 templates long, were not counted
