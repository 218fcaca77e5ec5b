"""Packed lists and indexes: the same answers as the plain list and dict they pack."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from errdex.match.packed import KeyIndex, Texts


@given(st.lists(st.one_of(st.none(), st.text(min_size=1, max_size=8))))
def test_texts_are_the_list(items: list[str | None]) -> None:
    texts = Texts.unpack(Texts.of(items).pack())
    assert list(texts) == items and len(texts) == len(items)
    assert texts.text.isascii()  # one byte a character: the items that are not ASCII are kept apart


@given(
    st.dictionaries(st.text(max_size=6), st.lists(st.integers(0, 1000), min_size=1, max_size=5)), st.text(max_size=6)
)
def test_sorted_index_is_the_dict(index: dict[str, list[int]], probe: str) -> None:
    packed = KeyIndex.unpack(KeyIndex.of(index).pack())
    one_by_one = {key: list(numbers) for key in [*index, probe] for numbers in packed.lookup({key})}
    assert one_by_one == index  # in the packed form, until DICT_COST as many keys were asked as it holds
    assert packed.table is not None
    rarest_first = sorted(sorted(index), key=lambda key: len(index[key]))  # ties in key order
    assert [list(numbers) for numbers in packed.lookup({*index, probe})] == [index[key] for key in rarest_first]
    assert len(packed) == len(index) and packed.keys.text.isascii()
    assert {key: list(numbers) for key, numbers in packed.items()} == index


@given(
    st.dictionaries(st.text(max_size=4), st.lists(st.integers(0, 1000), min_size=1, max_size=3), min_size=10), st.data()
)
def test_both_forms_list_the_rarest_keys_first(index: dict[str, list[int]], data: st.DataObject) -> None:
    packed = KeyIndex.of(index)
    asked = data.draw(st.sets(st.sampled_from(sorted(index)), max_size=3)) | data.draw(
        st.sets(st.text(max_size=4), max_size=1)
    )
    rarest_first = [index[key] for key in sorted(sorted(asked & set(index)), key=lambda key: len(index[key]))]
    assert [list(numbers) for numbers in packed.lookup(asked)] == rarest_first
    assert packed.table is None  # fewer keys asked than DICT_COST of those the index holds
    packed.lookup(set(index))
    assert packed.table is not None and [list(numbers) for numbers in packed.lookup(asked)] == rarest_first
