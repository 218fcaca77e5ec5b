"""Where a narrow screen may break a long path, dotted name or call: `<wbr>` at its joints, never inside a name.

The pages are full of tokens longer than a phone's line (`transformers/generation/configuration_utils.py:687`,
`GenerationMixin._prepare_generation_config`). Left alone, a browser either lets them stick out or, told to
break anywhere, cuts them mid-word. A break opportunity after each `/`, `(`, `=`, `,`, `_`, `@`, `+`, `?`
and `;` (an entity's end: the text is escaped, so an `&` only ever begins an entity, never a joint), before
each inner `.` and at each capital after a small letter lets them wrap where a reader would. It is added to
a rendered page's text, once, outside the elements whose text must stay as it is (code blocks that scroll
sideways, the paste box, the head).
"""

from __future__ import annotations

import re

LONG = 20  # characters from which a token may not fit a phone's line beside other words
WBR = "<wbr>"
# An element whose text is kept whole, a tag, or the text between tags (group 2; the pages write their tags
# in lower case, and escaped text holds no `<`).
_PIECES = re.compile(r"<(pre|textarea|script|style|head)\b.*?</\1>|<[^>]*>|([^<]+)", re.S)
_TOKEN = re.compile(rf"[^\s<>]{{{LONG},}}")
_JOINT = re.compile(r"(?<=[/(=,_@+?;])(?=[^\s/(=,_@+?;])|(?<=[^\s.])(?=\.[^\s.])|(?<=[a-z])(?=[A-Z])")


def break_long_words(html: str) -> str:
    """The page with break opportunities at the joints of the long tokens of its text."""
    return _PIECES.sub(_in_text, html)


def _in_text(piece: re.Match[str]) -> str:
    text = piece.group(2)
    return piece.group() if text is None else _TOKEN.sub(_joints, text)


def _joints(token: re.Match[str]) -> str:
    return _JOINT.sub(WBR, token.group())
