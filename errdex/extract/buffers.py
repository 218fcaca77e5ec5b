"""Messages that compiled code writes into an error's field and other code raises later.

pandas' CSV tokenizer writes `Expected 3 fields in line 5, saw 4` into `self->error_msg` and returns an error code;
`parsers.pyx` reads the field into its own message (`message += parser.error_msg.decode("utf-8")`) and raises
`ParserError` with it. The text users see is the raise's template with the field's message in the hole that shows
the field: `{}. C error: Expected {} fields in line {}, saw {}`. A field is known by its last name; a raise shows
it when a hole's source reads it (`x.error_msg`, `x->error_msg`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

from errdex.extract.records import FileAnalysis, HoleSources, Template

_FIELD_READ = re.compile(r"(?:\.|->)([A-Za-z_]\w*)")


class Reader(NamedTuple):
    """A raise whose message shows an error's field: its class, template and which hole shows the field."""

    exception: str | None
    template: str
    holes: HoleSources
    at: int


def field_readers(analyses: Mapping[str, FileAnalysis]) -> dict[str, list[Reader]]:
    """Per field name, the raises of the release that show it (in path order)."""
    found: dict[str, list[Reader]] = {}
    for path in sorted(analyses):
        for site in analyses[path].sites:
            if site.kind != "error" or site.buffer is not None:
                continue
            for template in site.templates:
                for at, sources in enumerate(template.holes):
                    for name in {m for source in sources for m in _FIELD_READ.findall(source)}:
                        found.setdefault(name, []).append(Reader(site.exception, template.text, template.holes, at))
    return found


def raised_with(message: Template, reader: Reader) -> tuple[str, HoleSources]:
    """The field's message as the raise that reads it shows it: in place of the hole that shows the field."""
    pieces = reader.template.split("{}")
    if len(pieces) != len(reader.holes) + 1:
        return message.text, message.holes
    text = "{}".join(pieces[: reader.at + 1]) + message.text + "{}".join(pieces[reader.at + 1 :])
    inner = (
        message.holes
        if len(message.holes) == message.text.count("{}")
        else tuple(() for _ in range(message.text.count("{}")))
    )
    return text, (*reader.holes[: reader.at], *inner, *reader.holes[reader.at + 1 :])
