"""Properties: any template laid over its own message matches exactly; no input crashes the matcher."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errdex.match import explain
from errdex.match.align import Alignment, align, align_bound
from errdex.match.literals import build_keys, candidates
from errdex.match.text import fold, message_keys, squash, template_parts
from errdex.store import Store
from tests.match.packages import shop_store

# Literal text as hostile as templates get: regex metacharacters, quotes, braces, unicode, newlines.
LITERAL = st.text(
    alphabet=st.sampled_from(list("ab Zé.*+?()[]{}|^$\\'\"`\n\t:;-_0123456789İ")), min_size=1, max_size=30
)
VALUE = (
    st.text(alphabet=st.sampled_from(list("xyz'()[], 0123456789.-_")), min_size=1, max_size=20)
    .map(str.strip)
    .filter(bool)
)


@st.composite
def template_and_message(draw: st.DrawFn) -> tuple[str, str, list[str]]:
    literals = [lit.replace("{}", "{ }") for lit in draw(st.lists(LITERAL, min_size=1, max_size=5))]
    values = draw(st.lists(VALUE, min_size=len(literals) - 1, max_size=len(literals) - 1))
    template = "{}".join(literals)
    message = "".join(lit + (values[k] if k < len(values) else "") for k, lit in enumerate(literals))
    return template, message, values


def aligned(template: str, message: str) -> tuple[list[str], str, Alignment]:
    """The template's parts, the message as the matcher reads it, and their alignment."""
    text = squash(message)
    parts = template_parts(template)
    return parts, text, align(parts, fold(text), text)


@given(template_and_message())
def test_a_template_covers_its_own_message(case: tuple[str, str, list[str]]) -> None:
    template, message, values = case
    parts, _, alignment = aligned(template, message)
    assert alignment.hit == alignment.total
    assert len(alignment.values) == len(parts) - 1


@given(template_and_message())
def test_a_template_is_retrieved_by_its_own_message(case: tuple[str, str, list[str]]) -> None:
    template, message, _ = case
    index, _ = build_keys([template])
    if index:  # a template with no whole word in its literal parts has no key
        assert 0 in candidates(index, message_keys(fold(squash(message))))


@given(st.text(max_size=300), st.text(max_size=300))
def test_alignment_of_anything_is_well_formed(template: str, message: str) -> None:
    parts, text, a = aligned(template, message)
    assert 0 <= a.hit <= a.total and 0.0 <= a.coverage <= 1.0 and a.unexplained <= len(text)
    assert len(a.values) == len(parts) - 1


@given(template_and_message())
def test_bound_of_a_template_on_its_own_message_is_its_alignment(case: tuple[str, str, list[str]]) -> None:
    template, message, _ = case
    parts, text, a = aligned(template, message)
    assert align_bound(parts, fold(text)) == (a.hit, a.total, a.unexplained, True, a.info, a.swallowed)


@given(
    st.lists(LITERAL, min_size=1, max_size=5).map("{}".join),
    st.text(alphabet=st.sampled_from(list("ab Z.()'0_:")), max_size=80),
)
def test_bound_is_never_below_the_alignment(template: str, message: str) -> None:
    text = squash(message)
    parts = template_parts(template)
    a = align(parts, fold(text), text)
    hit, total, unexplained, exact, info, swallowed = align_bound(parts, fold(text))
    assert hit >= a.hit and total == a.total and unexplained <= a.unexplained
    assert info >= a.info and swallowed <= a.swallowed
    assert not exact or (hit, unexplained, info, swallowed) == (a.hit, a.unexplained, a.info, a.swallowed)


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory, backend: str) -> Iterator[Store]:
    store = shop_store(tmp_path_factory.mktemp("shop"), "1.0", backend=backend)
    explain("warm up", store=store, auto_index=False)
    yield store
    store.close()


PASTE_PIECES = st.sampled_from(
    [
        "Traceback (most recent call last):\n",
        '  File "/x/site-packages/shop/cart.py", line 14, in __init__\n',
        "ValueError: ",
        "Unknown mode ",
        "'fsat'",
        ". Choose one of: ",
        "('fast', 'slow')",
        "\n",
        "E   ",
        "> ",
        "During handling of the above exception, another exception occurred:\n",
        "\x1b[0;31m",
        "+---------------- 1 ----",
        "2024-01-01 10:00:00 WARNING shop.cart: ",
        "/x/shop/cart.py:18: FutureWarning: ",
        "Did you mean: 'x'?",
        "{}",
        "\\",
    ]
)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=2000)
@given(st.lists(st.one_of(PASTE_PIECES, st.text(max_size=40)), min_size=1, max_size=30).map("".join))
def test_explain_never_crashes(shop: Store, paste: str) -> None:
    if not paste.strip():
        return
    result = explain(paste, store=shop, auto_index=False)
    assert all(0.0 <= c.confidence <= 1.0 for c in result.matches)
    assert result.abstain or result.matches[0].confidence >= 0.5
    assert result.to_json()["abstain"] == result.abstain


def test_empty_paste_is_an_input_error(shop: Store, tmp_path: Path) -> None:
    from errdex.errors import InputError

    with pytest.raises(InputError):
        explain("   \n", store=shop)
