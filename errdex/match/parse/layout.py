"""Putting a paste's lines back as the program printed them: per-line prefixes off, flattened tracebacks split,
wrapped frame lines joined.

Both rewrites run only when a cheap test over the paste's end says they may apply, so most pastes
are split into lines once, as before.
"""

from __future__ import annotations

from errdex.match.parse.flattened import is_flattened, unflatten
from errdex.match.parse.lines import Paste, split_paste
from errdex.match.parse.prefixes import TAIL, may_carry_prefixes, strip_prefixes
from errdex.match.parse.wrapped import may_be_wrapped, rejoin


def relaid(text: str) -> Paste:
    """The paste of a cleaned text, its lines freed of prefixes and line breaks put back where lost or added."""
    prefixed, flattened = may_carry_prefixes(text), is_flattened(text, max(0, len(text) - TAIL))
    wrapped = may_be_wrapped(text)
    if not prefixed and not flattened and not wrapped:
        return split_paste(text)
    lines = text.split("\n")
    if prefixed:
        lines = strip_prefixes(lines)
    if flattened or prefixed:
        lines = unflatten(lines)
    if wrapped or prefixed:
        lines = rejoin(lines)
    return split_paste("\n".join(lines), lines)
