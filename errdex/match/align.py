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
    cut: bool  # the message stops inside the template, which `total` then counts only up to there

    @property
    def coverage(self) -> float:
        return self.hit / self.total if self.total else 0.0

    @property
    def exact(self) -> bool:
        return self.hit == self.total and self.unexplained == 0 and not self.cut


def align(parts: list[str], folded: str, text: str) -> Alignment:
    """Align the literal `parts` of a template with a message (`folded` for search, `text` for values).

    A message that stops inside the template (a title or a chat message cut short) is aligned with the
    template up to where it stops: see `_cut`.
    """
    spans = _exact_spans(parts, folded)
    n = len(folded)
    stop = _cut(parts, spans, folded)
    upto = len(parts) if stop is None else stop[0]
    hit = info = 0
    for p, s in zip(parts[:upto], spans, strict=False):
        if s is not None:
            hit += len(p)
            info += _info(p)
    for k in range(upto):
        if spans[k] is None:
            low = _end_before(spans, k)
            high = _start_after(spans, k, n)
            spans[k], found = _piece_span(parts[k], folded, low, high)
            hit += found
            info += found
    total = sum(len(p) for p in parts[:upto])
    before = spans[0][0] if parts[0] and spans[0] is not None else 0
    if stop is not None:  # the holes up to the part it stops in have values; those after it none
        spans[upto] = (n - stop[1], n)
        values = _values(spans[: upto + 1], text) + (None,) * (len(parts) - upto - 1)
        return Alignment(hit + stop[1], total + stop[1], before, values, info + _info(folded[n - stop[1] :]), 0, True)
    after = n - spans[-1][1] if parts[-1] and spans[-1] is not None else 0
    return Alignment(hit, total, before + after, _values(spans, text), info, _swallowed(parts, spans, n), False)


MIN_CUT = 3  # characters of a literal part a message must end with to be read as cut inside it


def _cut(parts: list[str], spans: list[Span | None], folded: str) -> tuple[int, int] | None:
    """Where a message cut short stops inside the template, from the parts found whole (see `_cut_after`)."""
    last = max((k for k, s in enumerate(spans) if s is not None and parts[k]), default=-1)
    span = spans[last] if last >= 0 else None
    return _cut_after(parts, last, span[1] if span is not None else 0, folded)


def _cut_after(parts: list[str], last: int, end: int, folded: str) -> tuple[int, int] | None:
    """Where a message cut short stops inside the template: (the part it stops in, how many characters of it
    the message ends with), or None when it does not.

    `last` is the last literal part found whole (-1 for none) and `end` where it ends. The template's text after
    it is missing, and the message ends with the start of the next part (at least MIN_CUT characters of it,
    from a word's start): a message that ends inside a hole, or with text the template does not hold, is not cut.
    """
    nxt = next((k for k in range(last + 1, len(parts)) if parts[k]), None)
    if nxt is None:
        return None
    part = parts[nxt].lstrip()
    tail = folded[max(end, len(folded) - len(part)) :]
    for k in range(len(tail) - MIN_CUT + 1):
        if (k == 0 or not tail[k - 1].isalnum()) and part.startswith(tail[k:]):
            return nxt, len(tail) - k
    return None


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
    the parts as `_exact_spans` does, in one loop: it is asked of every candidate template. A message
    cut short is bounded as `align` aligns it: up to where it stops.
    """
    last = len(parts) - 1
    pos = hit = total = info = swallowed = before = after = 0
    exact = True
    found_last = -1  # the last part found whole, and where it ends
    end = 0
    missing: list[tuple[int, int]] = []  # (part, characters of its words found) for the parts not found whole
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
            missing.append((k, found))
            continue
        pos = i + len(part)
        found_last, end = k, pos
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
    if exact or found_last == last:
        return Bound(hit, total, before + after, exact, info, swallowed)
    stop = _cut_after(parts, found_last, end, folded)
    if stop is None:
        return Bound(hit, total, before + after, exact, info, swallowed)
    upto, partial = stop
    beyond = sum(found for k, found in missing if k >= upto)
    total -= sum(len(p) for p in parts[upto:])
    cut_exact = all(k >= upto for k, _ in missing)
    tail = folded[len(folded) - partial :]
    return Bound(hit - beyond + partial, total + partial, before, cut_exact, info - beyond + _info(tail), 0)


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
    if len(parts) > 1 and not parts[0] and parts[1] and spans[1] is not None:
        out += spans[1][0]
    if len(parts) > 1 and not parts[-1] and parts[-2] and spans[-2] is not None:
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
