"""Error trackers: group errors by where they were raised, not by the text of their message.

Values in a message split one error into many issues ("Invalid version: '1.x'", "... '2.y'"),
and different errors with one message merge. The raise-site id errdex gives an error is the
same for every value and every release, so it is a better grouping key. `before_send` is a
`sentry_sdk` hook; it never drops or breaks an event, it only adds to it.
"""

from __future__ import annotations

from typing import Any

from errdex.hooks.safe import never_fails

TAG = "errdex.id"


def fingerprint(exc: BaseException) -> str | None:
    """The raise-site id of `exc` (the last raised of its chain that errdex can place), or None."""
    from errdex.hooks.explainer import shared

    explanation = shared().exception(exc, page=False)
    return explanation.candidate.id if explanation.candidate is not None else None


def before_send(event: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    """Set the event's fingerprint to the raise-site id and add errdex's explanation as the 'errdex' context.

    Use as `sentry_sdk.init(..., before_send=errdex.before_send)`, or call it from your own hook.
    An event errdex cannot place (or any failure inside errdex) is returned as it came.
    """
    exc_info = hint.get("exc_info") if isinstance(hint, dict) else None
    exc = exc_info[1] if isinstance(exc_info, tuple) and len(exc_info) == 3 else None
    if not isinstance(exc, BaseException):
        return event
    with never_fails("explain this event"):
        from errdex.hooks.explainer import shared

        explanation = shared().exception(exc)
        if explanation.candidate is not None:
            event["fingerprint"] = ["errdex", explanation.candidate.id]
            event.setdefault("tags", {})[TAG] = explanation.candidate.id
            event.setdefault("contexts", {})["errdex"] = explanation.to_json()
    return event
