"""The paste in a POST body: a form field `q`, a JSON object {"q": ...}, or the plain text itself.

The body has already been bounded by the application's body limit; parsing here only reads it.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs

from errdex.errors import InputError

FORM = "application/x-www-form-urlencoded"
JSON = "application/json"
MAX_FORM_FIELDS = 8


def paste_from_body(content_type: str | None, body: bytes) -> str:
    """The pasted text a POST body carries, whatever of the three forms it takes."""
    kind = (content_type or "").split(";", 1)[0].strip().lower()
    text = body.decode("utf-8", "replace")
    if kind == FORM:
        return _from_form(text)
    if kind == JSON:
        return _from_json(text)
    return text


def _from_form(text: str) -> str:
    try:
        fields = parse_qs(text, keep_blank_values=True, max_num_fields=MAX_FORM_FIELDS)
    except ValueError:
        raise InputError(f"The form has more than {MAX_FORM_FIELDS} fields; send only q.") from None
    values = fields.get("q")
    if not values:
        raise InputError("The form has no field q: put the pasted error in q.")
    return values[0]


def _from_json(text: str) -> str:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise InputError('The body is not valid JSON: send {"q": "<the pasted error>"}.') from None
    if not isinstance(data, dict) or not isinstance(data.get("q"), str):
        raise InputError('The JSON body needs a string field q: {"q": "<the pasted error>"}.')
    return data["q"]
