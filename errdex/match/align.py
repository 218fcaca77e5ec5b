"""Lay a template over a message in linear time: literal parts found left to right, holes capture the rest.

Only `str.find`/`str.rfind` on text taken from the message are used, never a regex built from a
template, so hostile templates and hostile pastes cost the same as friendly ones. A part that is
not found whole is looked for word by word inside the gap its neighbours leave, which is how a
message from another version (a word changed, a clause added) still lines up with the template.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple

from errdex.match.text import folded_words

Span = tuple[int, int]


class Alignment(NamedTuple):
    """How well a template covers a message, and what each of its holes captured.

    A named tuple, not a frozen dataclass: several are made per query, four times as fast.
    """

    hit: int  # literal characters of the template found in the message, in order
    total: int  # literal characters of the template
    unexplained: int  # message characters before or after the template's literal ends
    values: tuple[str | None, ...]  # the text each hole captured; None where a neighbour is missing
    info: int  # word characters among `hit`: what the literal text found tells (spaces and punctuation tell little)
    swallowed: int  # message characters a hole at either end of the template took

    @property
    def coverage(self) -> float:
        return self.hit / self.total if self.total else 0.0

    @property
    def exact(self) -> bool:
        return self.hit == self.total and self.unexplained == 0


def align(parts: list[str], folded: str, text: str) -> Alignment:
    """Align the literal `parts` of a template with a message (`folded` for search, `text` for values)."""
    spans = _exact_spans(parts, folded)
    hit = info = 0
    for p, s in zip(parts, spans, strict=True):
        if s is not None:
            hit += len(p)
            info += _info(p)
    for k, span in enumerate(spans):
        if span is None:
            low = _end_before(spans, k)
            high = _start_after(spans, k, len(folded))
            spans[k], found = _piece_span(parts[k], folded, low, high)
            hit += found
            info += found
    total = sum(len(p) for p in parts)
    n = len(folded)
    before = spans[0][0] if parts[0] and spans[0] is not None else 0
    after = n - spans[-1][1] if parts[-1] and spans[-1] is not None else 0
    return Alignment(
        hit,
        total,
        before + after,
        _values(spans, text),
        info,
        _swallowed(parts, spans, n),
    )


class Bound(NamedTuple):
    """The most `align` can find of a template in a message, from the parts found whole alone."""

    hit: int
    total: int
    unexplained: int  # at least this much
    exact: bool  # every part was found whole: this is what `align` gives
    info: int  # at most this much
    swallowed: int  # at least this much


def align_bound(parts: list[str], folded: str) -> Bound:
    """What `align` can at best reach, for one `str.find` a part (the parts must be folded).

    A part not found whole adds at most the characters of its words that the message holds
    somewhere; unexplained text can only grow when such a part is found word by word. It walks
    the parts as `_exact_spans` does, in one loop: it is asked of every candidate template.
    """
    last = len(parts) - 1
    pos = hit = total = info = swallowed = before = after = 0
    exact = True
    for k, part in enumerate(parts):
        total += len(part)
        if not part:
            continue
        i = folded.rfind(part, pos) if k == last and k > 0 else folded.find(part, pos)
        if i < 0:
            exact = False
            found = sum(map(len, filter(folded.__contains__, _words_of(part))))
            hit += found
            info += found
            continue
        pos = i + len(part)
        hit += len(part)
        info += _info(part)
        if k == 0:
            before = i
        elif k == 1 and not parts[0]:
            swallowed += i  # (where align finds the part too: the same search from the same start)
        if k == last:
            after = len(folded) - pos
        elif k == last - 1 and not parts[last]:
            swallowed += len(folded) - pos
    return Bound(hit, total, before + after, exact, info, swallowed)


@lru_cache(maxsize=1 << 16)
def _info(part: str) -> int:
    """The word characters of a part: what it tells about the message it is found in."""
    return sum(map(len, _words_of(part)))


@lru_cache(maxsize=1 << 16)
def _words_of(part: str) -> tuple[str, ...]:
    """A part's words, cut once per process: they are looked for in every message that misses the part."""
    return tuple(folded_words(part))


def _exact_spans(parts: list[str], folded: str) -> list[Span | None]:
    """Where each part is found whole, searching left to right; the last part is anchored at the end."""
    last, n = len(parts) - 1, len(folded)
    spans: list[Span | None] = []
    pos = 0
    for k, part in enumerate(parts):
        if not part:
            spans.append((0, 0) if k == 0 else (n, n) if k == last else (pos, pos))
            continue
        i = folded.rfind(part, pos) if k == last and k > 0 else folded.find(part, pos)
        if i < 0:
            spans.append(None)
            continue
        spans.append((i, i + len(part)))
        pos = i + len(part)
    return spans


def _end_before(spans: list[Span | None], k: int) -> int:
    for span in reversed(spans[:k]):
        if span is not None:
            return span[1]
    return 0


def _start_after(spans: list[Span | None], k: int, n: int) -> int:
    for span in spans[k + 1 :]:
        if span is not None:
            return span[0]
    return n


def _piece_span(part: str, folded: str, low: int, high: int) -> tuple[Span | None, int]:
    """The words of a part found in order between `low` and `high`: their span and their length."""
    start = end = -1
    found = 0
    pos = low
    for piece in _words_of(part):
        i = folded.find(piece, pos, high)
        if i < 0:
            continue
        if start < 0:
            start = i
        end = pos = i + len(piece)
        found += len(piece)
    return ((start, end) if start >= 0 else None), found


def _swallowed(parts: list[str], spans: list[Span | None], n: int) -> int:
    """Message text a hole at either end of the template took: from the start to the first literal part, and
    from the last one to the end."""
    out = 0
    if len(parts) > 1 and not parts[0] and spans[1] is not None:
        out += spans[1][0]
    if len(parts) > 1 and not parts[-1] and spans[-2] is not None:
        out += n - spans[-2][1]
    return out


def _values(spans: list[Span | None], text: str) -> tuple[str | None, ...]:
    """The text between consecutive parts, for each hole whose two neighbours were found."""
    out: list[str | None] = []
    for left, right in pairwise(spans):
        if left is None or right is None or right[0] < left[1]:
            out.append(None)
        else:
            out.append(text[left[1] : right[0]].strip())
    return tuple(out)
