"""The literal-part index: each template filed under its rarest words, so lookups never scan them all.

A template's keys are the words (and adjacent word pairs) of its literal parts that a message
made from it surely contains whole. Each template is filed under its rarest key and under the
rarest key that shares no word with the first (so a message from another version, with one
part reworded, is still found). A message is cut into the same kind of keys and every template
filed under one of them is a candidate; the one-key-per-posting choice keeps posting lists short.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from errdex.match.text import message_keys, template_keys, template_parts

KEYS_PER_TEMPLATE = 2


def build_keys(templates: Sequence[str | None]) -> dict[str, list[int]]:
    """key -> numbers of the templates filed under it."""
    keysets = [template_keys(template_parts(t)) if t else set() for t in templates]
    df: Counter[str] = Counter()
    for keys in keysets:
        df.update(keys)
    index: dict[str, list[int]] = {}
    for i, keys in enumerate(keysets):
        for key in _rarest(keys, df):
            index.setdefault(key, []).append(i)
    return index


def _rarest(keys: set[str], df: Counter[str]) -> list[str]:
    """The rarest key, then the rarest one sharing no word with those already chosen."""
    chosen: list[str] = []
    used: set[str] = set()
    for key in sorted(keys, key=lambda k: (df[k], -len(k), k)):
        words = set(key.split(" "))
        if used & words:
            continue
        chosen.append(key)
        used |= words
        if len(chosen) == KEYS_PER_TEMPLATE:
            break
    return chosen


def candidates(index: dict[str, list[int]], message: str) -> Counter[int]:
    """The templates filed under a key of the message, with how many of their keys it holds."""
    hits: Counter[int] = Counter()
    for key in message_keys(message):
        posting = index.get(key)
        if posting:
            hits.update(posting)
    return hits
