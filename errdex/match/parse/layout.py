"""Putting a paste's lines back as the program printed them: JSON-escaped tracebacks decoded, per-line prefixes
off, flattened tracebacks split, wrapped frame lines joined.

Each rewrite runs only when a cheap test over the paste's end says they may apply, so most pastes
are split into lines once, as before.
"""

from __future__ import annotations

from errdex.match.parse.escaped import may_be_escaped, unescape
from errdex.match.parse.flattened import is_flattened, unflatten
from errdex.match.parse.lines import Paste, split_paste
from errdex.match.parse.prefixes import TAIL, may_carry_prefixes, strip_prefixes
from errdex.match.parse.wrapped import may_be_wrapped, rejoin


def relaid(text: str) -> Paste:
    """The paste of a cleaned text, its lines freed of prefixes and line breaks put back where lost or added."""
    tail = max(0, len(text) - TAIL)
    prefixed, flattened = may_carry_prefixes(text), is_flattened(text, tail)
    wrapped, escaped = may_be_wrapped(text), may_be_escaped(text, tail)
    if not prefixed and not flattened and not wrapped and not escaped:
        return split_paste(text)
    lines = text.split("\n")
    if escaped:
        lines = unescape(lines)
    if prefixed:
        lines = strip_prefixes(lines)
    if flattened or prefixed:
        lines = unflatten(lines)
    if wrapped or prefixed:
        lines = rejoin(lines)
    return split_paste("\n".join(lines), lines)
