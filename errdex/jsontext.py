"""JSON encoding for what indexing writes in bulk: analyses, site rows, link traces.

orjson encodes these 2-3x as fast as the standard library, and a cold index encodes every
analysis and every site. It refuses three things the standard library writes, and those fall
back to it: integers beyond 64 bits (a resolved constant may be `2**70`), keys that are not
strings, and strings with lone surrogates (a literal `"\\ud800"` in indexed code). Reading
stays with the standard library, which reads both encoders' output alike and keeps big
integers exact. (Non-finite floats, which orjson would write as null, never get here:
`errdex.extract.resolve.to_json` turns them into text.)
"""

from __future__ import annotations

import json
from typing import Any

import orjson


def dumps(value: Any, *, sort_keys: bool = False) -> bytes:
    """`value` as compact JSON bytes (keys sorted if asked), as `json.loads` reads it back."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS if sort_keys else 0)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(value, sort_keys=sort_keys, separators=(",", ":")).encode()


def dumps_text(value: Any) -> str:
    """`value` as compact JSON text, for a text column."""
    return dumps(value).decode()
