"""Packed lists and indexes: the same answers as the plain list and dict they pack."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from errdex.match.packed import KeyIndex, Texts


@given(st.lists(st.one_of(st.none(), st.text(min_size=1, max_size=8))))
def test_texts_are_the_list(items: list[str | None]) -> None:
    texts = Texts.unpack(Texts.of(items).pack())
    assert list(texts) == items and len(texts) == len(items)


@given(st.dictionaries(st.text(max_size=6), st.lists(st.integers(0, 1000), min_size=1, max_size=5)), st.text(max_size=6))
def test_sorted_index_is_the_dict(index: dict[str, list[int]], probe: str) -> None:
    packed = KeyIndex.unpack(KeyIndex.of(index).pack())
    one_by_one = {key: list(numbers) for key in [*index, probe] for key, numbers in packed.lookup([key])}
    assert one_by_one == index  # in the packed form, until half as many keys were asked as it holds
    assert packed.table is not None
    assert {key: list(numbers) for key, numbers in packed.lookup([*index, probe])} == index
    assert len(packed) == len(index)
