"""What running the page's own trigger and fix showed (`errdex verify` keeps it in the store), beside them.

Only a run of the very code the page shows counts: a page whose trigger changed since (another release of errdex,
the user's values) is "not verified" again. A disproved trigger says so in its own text, so no renderer can show
it as a call that raises.
"""

from __future__ import annotations

from errdex.pages.model import Page, RunJson
from errdex.store import Store, Verification

VERBS = {"trigger": "running it", "candidate": "running it", "fix": "running the fixed call"}


def with_runs(store: Store, page: Page) -> None:
    """Fill `page["verified"]` with the newest run of its trigger and of its fix, and mark a disproved trigger."""
    shown = {
        "trigger": page["triggers"][0]["code"] if page["triggers"] else None,
        "fix": page["example_fix"]["after"] if page["example_fix"] else None,
    }
    runs = store.verifications(page["id"], page["version"])
    newest: dict[str, Verification] = {}
    for run in runs:
        if shown.get(run.role) == run.code and run.role not in newest:
            newest[run.role] = run
    if page["candidates"]:  # no whole call certainly raises it
        found = _raised_by_a_call_to_try(page, runs)
        if found is not None:
            shown["trigger"] = found.code
            newest["trigger"] = found
    yours = bool(page["triggers"]) and page["triggers"][0]["from_user"]  # made with the values of the user's message
    page["verified"] = [
        _json(newest[role]) if role in newest else _never(page["id"], page["version"], role, yours)
        for role, code in shown.items()
        if code is not None
    ]
    trigger = newest.get("trigger")
    if trigger is not None and trigger.status == "disproved":
        first = page["triggers"][0]
        first["text"] = f"{_said(trigger)} The code's reading: {first['text']}"
        page["verified"][0]["beside"] = False


def _raised_by_a_call_to_try(page: Page, runs: list[Verification]) -> Verification | None:
    """The newest run of one of the page's calls to try that raised the error: it becomes the page's first trigger."""
    tried = {c["code"]: c for c in page["candidates"]}
    newest: dict[str, Verification] = {}
    for run in runs:  # newest first: a later run of the same call that did not raise it overrules an earlier one
        if run.role == "candidate" and run.code in tried:
            newest.setdefault(run.code, run)
    found = next((r for r in newest.values() if r.status == "verified"), None)
    if found is not None:
        call = tried[found.code]
        text = "This call raises it, as running it showed; reading the code alone did not decide that it gets there."
        page["triggers"] = [{**call, "text": text}, *page["triggers"]]
    return found


def _said(run: Verification) -> str:
    when = f"Python {run.python}, {run.checked_at[:10]}"
    if run.status in ("verified", "disproved"):
        return f"{run.status.capitalize()} by {VERBS[run.role]} ({when}): {run.detail}."
    return f"Not verified: {run.status} ({when}): {run.detail}."


def _never(error_id: str, version: str, role: str, yours: bool) -> RunJson:
    command = f"errdex verify {error_id} --version {version}" + (" --message YOUR_MESSAGE" if yours else "")
    return {
        "role": role,
        "status": "not verified",
        "beside": True,
        "text": f"Not verified: never run (`{command}` runs it, isolated).",
        "detail": None,
        "python": None,
        "checked_at": None,
        "exception": None,
        "message": None,
        "file": None,
        "line": None,
        "isolation": None,
    }


def _json(run: Verification) -> RunJson:
    return {
        "role": "fix" if run.role == "fix" else "trigger",
        "status": run.status,
        "beside": True,
        "text": _said(run),
        "detail": run.detail,
        "python": run.python,
        "checked_at": run.checked_at,
        "exception": run.exception,
        "message": run.message,
        "file": run.file,
        "line": run.line,
        "isolation": run.isolation,
    }
