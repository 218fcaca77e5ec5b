"""Raise helpers: functions that raise (or warn) a message their callers write.

`def fail(self, msg, exc=TemplateSyntaxError): raise exc(msg, ...)` has no template of its own;
each `self.fail(f"unexpected {token!r}")` does. The file analysis records the helpers (a site
whose message is a parameter, `message_param`) and the calls that pass a message, or a parameter
of their own, to a function of the file (`calls`). Linking turns every such call into a site AT
THE HELPER'S RAISE (the place a traceback ends), with the caller's template, condition and
values, and where the message was written kept under `VIA` in `resolved_from`; an exception class (or warning category) the caller passes for the helper's
class parameter is the site's exception. A helper that
passes its parameter on to another (`fail_eof` -> `fail`) is a helper too, to a small depth.

Only callers in the helper's own file are followed: a site's rows are stored and reused per file,
so a site of one file cannot come from linking another.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

MAX_DEPTH = 3  # helpers passing their message on, followed this deep
MAX_BASES = 8
VIA = "<via>"  # key of `resolved_from` naming where a helper's message was written: "path:line function"

Raw = dict[str, Any]
Param = tuple[str, "int | None"]  # the parameter carrying the message: name, position in a call
FindClass = Callable[[str, str], "tuple[str, Any] | None"]


def caller_sites(path: str, analysis: dict[str, Any], find_class: FindClass) -> Iterator[Raw]:
    """Raw sites at the raise of this file's helpers, one per caller (and template) that writes the message."""
    calls: list[Raw] = analysis.get("calls") or []
    if not calls:
        return
    helpers = _helpers(analysis["sites"], calls, path, analysis, find_class)
    seen: set[tuple[int, int, str]] = set()
    for call in calls:
        for function in _targets(call, path, analysis, find_class):
            for site, param in helpers.get(function, ()):
                for key, found, _, source in call["args"]:
                    if found is None or key not in param:
                        continue
                    fresh = [t for t in found if (site["line"], call["line"], t) not in seen]
                    seen.update((site["line"], call["line"], t) for t in fresh)
                    if fresh:
                        yield _written_by(site, call, fresh, source, path)


def _helpers(sites: list[Raw], calls: list[Raw], path: str, analysis: dict[str, Any], find_class: FindClass) -> dict[str, list[tuple[Raw, Param]]]:
    """Function qualname -> (the helper site it ends in, its parameter that carries the message)."""
    out: dict[str, list[tuple[Raw, Param]]] = {}
    for site in sites:
        if site.get("message_param") and site["kind"] in ("error", "warning"):
            out.setdefault(site["function"], []).append((site, tuple(site["message_param"])))
    for _ in range(MAX_DEPTH):
        grown = False
        for call in calls:
            passed = [(key, tuple(param)) for key, _, param, _ in call["args"] if param]
            if not passed:
                continue
            for function in _targets(call, path, analysis, find_class):
                for site, param in list(out.get(function, ())):
                    for key, own in passed:
                        entry = (site, own)
                        if key in param and entry not in out.get(call["function"], []):
                            out.setdefault(call["function"], []).append(entry)
                            grown = True
        if not grown:
            break
    return out


def _targets(call: Raw, path: str, analysis: dict[str, Any], find_class: FindClass) -> list[str]:
    """Qualnames, in this file, of the function a call may reach: `name(...)`, or `self.name(...)` on the class or its bases."""
    head, _, name = call["callee"].rpartition(".")
    if not head:
        return [name]
    if head not in ("self", "cls") or not call["class"]:
        return []
    out: list[str] = []
    queue = [call["class"]]
    while queue and len(out) < MAX_BASES:
        qualname = queue.pop(0)
        out.append(f"{qualname}.{name}")
        cls = next((c for c in analysis["classes"] if c["qualname"] == qualname), None)
        for base in cls["bases"] if cls else ():
            found = find_class(path, base)
            if found is not None and found[0] == path and found[1]["qualname"] not in out:
                queue.append(found[1]["qualname"])
    return out


def _written_by(site: Raw, call: Raw, templates: list[str], source: str, path: str) -> Raw:
    """The helper's site with the message, condition and values of the call that wrote it."""
    via = f"{path}:{call['line']} {call['function']}"
    chosen = site.get("exception_param") or ()
    exception = next((a[3] for a in call["args"] if a[3] and a[1] is None and a[2] is None and a[0] in chosen), None)
    return {
        **site,
        "exception": exception or site["exception"],
        "templates": templates,
        "reason": None,
        "condition": call["condition"],
        "resolved": call["resolved"],
        "resolved_from": {**call["resolved_from"], VIA: via},
        "pending": call["pending"],
        "checks": call["checks"],
        "message_source": source,
        "level": None,
    }


def written_at(resolved_from: dict[str, str]) -> dict[str, Any] | None:
    """Where a helper site's message was written ({file, line, function}), or None for any other site."""
    via = resolved_from.get(VIA)
    if not via:
        return None
    place, _, function = via.partition(" ")
    file, _, line = place.rpartition(":")
    return {"file": file, "line": int(line) if line.isdigit() else None, "function": function}
