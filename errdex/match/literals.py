"""The literal-part index: each template filed under its rarest words, so lookups never scan them all.

A template's keys are the words (and adjacent word pairs) of its literal parts that a message
made from it surely contains whole. Each template is filed under its rarest key and, when it is
rare too, under the rarest key that shares no word with the first; a message is cut into the
same kind of keys and the templates filed under them are candidates, those under the message's
rarest keys first. Filing a template under its rarest keys only keeps posting lists short.

A second, looser index files each template under its WORDS_PER_TEMPLATE rarest single words: it
is asked only when the first finds nothing that fits (and no template that holds the message
exactly), for a message from another version whose wording changed where the rarest keys were.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import chain
from typing import NamedTuple

from errdex.match.packed import KeyIndex
from errdex.match.text import template_keys, template_parts

KEYS_PER_TEMPLATE = 2
SECOND_KEY_MAX_DF = 64  # a second key as common as this would only lengthen its posting list
WORDS_PER_TEMPLATE = 4
MIN_WORD_HITS = 2  # words a message must share with a template to retrieve it from the loose index
LOOSE_MAX_POSTING = 1000  # a word filed under more templates than this says too little to be asked
LOOSE_BUDGET = 1000  # templates counted for one message, at most (a common word's list adds time, not answers)

Index = dict[str, list[int]]


class LiteralIndexes(NamedTuple):
    """The two indexes of a list of templates."""

    keys: KeyIndex  # key -> the templates filed under it
    words: KeyIndex  # word -> the templates filed under it, the loose index


def build_keys(templates: Sequence[str | None]) -> LiteralIndexes:
    """The literal-part index and the loose index of `templates`, which they number by position."""
    keysets = [template_keys(template_parts(t)) if t else set() for t in templates]
    df: Counter[str] = Counter()
    for keys in keysets:
        df.update(keys)
    index: Index = {}
    loose: Index = {}
    for i, keys in enumerate(keysets):
        ranked = sorted(sorted(keys), key=df.__getitem__)  # rarest first, ties in text order
        for key in _diverse(ranked, df):
            index.setdefault(key, []).append(i)
        for word in [k for k in ranked if " " not in k][:WORDS_PER_TEMPLATE]:
            loose.setdefault(word, []).append(i)
    return LiteralIndexes(KeyIndex.of(index), KeyIndex.of(loose))


def _diverse(ranked: list[str], df: Counter[str]) -> list[str]:
    """The first key, then the next rare ones sharing no word with those already chosen."""
    chosen: list[str] = []
    used: set[str] = set()
    for key in ranked:
        if chosen and df[key] > SECOND_KEY_MAX_DF:
            break
        words = set(key.split(" "))
        if used & words:
            continue
        chosen.append(key)
        used |= words
        if len(chosen) == KEYS_PER_TEMPLATE:
            break
    return chosen


def candidates(index: KeyIndex, keys: set[str], limit: int = 1 << 30) -> list[int]:
    """The templates filed under a key of a message (its `message_keys`), those under its rarest keys first (ties in
    key order), at most `limit`."""
    found = index.lookup(keys)
    if sum(map(len, found)) <= limit:  # most messages: all the lists, in one pass
        return list(dict.fromkeys(chain.from_iterable(found)))
    out: dict[int, None] = {}
    for numbers in found:
        out.update(dict.fromkeys(numbers[:limit]))  # a posting list holds each template once
        if len(out) >= limit:
            break
    return list(out)[:limit]


def loose_candidates(loose: KeyIndex, keys: set[str], limit: int) -> list[int]:
    """The templates sharing most of their rarest words with a message (its `message_keys`; at least MIN_WORD_HITS).

    The message's words are counted rarest first, until LOOSE_BUDGET templates were counted: a
    common word's long list adds little but time.
    """
    words = {key for key in keys if " " not in key}
    hits: Counter[int] = Counter()
    budget = LOOSE_BUDGET
    for numbers in loose.lookup(words):  # shortest first: once one is too long, so are the rest
        if len(numbers) > LOOSE_MAX_POSTING or len(numbers) > budget:
            break
        budget -= len(numbers)
        hits.update(numbers)
    return [i for i, n in hits.most_common(limit) if n >= MIN_WORD_HITS]
