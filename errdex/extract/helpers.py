"""Raise helpers: functions that raise (or warn) a message their callers write.

`def fail(self, msg, exc=TemplateSyntaxError): raise exc(msg, ...)` has no template of its own;
each `self.fail(f"unexpected {token!r}")` does. The file analysis records the helpers (a site
whose message is a parameter, `message_param`) and the calls that pass a message, or a parameter
of their own, to a function of the file (`calls`). Linking turns every such call into a site AT
THE HELPER'S RAISE (the place a traceback ends), with the caller's template, condition and
values, and where the message was written kept as `written_at`; an exception
class (or warning category) the caller passes for the helper's class parameter is the site's
exception. A helper that passes its parameter on to another of its module (`fail_eof` -> `fail`)
is a helper too, to a small depth. Each template is its own error, as any site's.

The sites are made when the HELPER's file is linked (a site's rows are stored and reused per file):
its callers are found in its own calls and in those of the files whose calls name the helper; the
fast path keeps other modules' calls only in functions that raise something themselves (see
`SiteVisitor.helper_calls`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

MAX_DEPTH = 3  # helpers passing their message on, followed this deep
MAX_BASES = 8

Raw = dict[str, Any]
Param = tuple[str, "int | None"]  # the parameter carrying the message: name, position in a call
Target = tuple[str, str]  # (path, function qualname)


def called_name(call: Raw) -> str:
    """The last part of what a recorded call calls (`fail` for `self.parser.fail`)."""
    return call["callee"].rsplit(".", 1)[-1]


def callee_names(analysis: dict[str, Any]) -> list[str]:
    """The names a file's recorded calls call (last part): which files may call a helper of that name."""
    if "callees" in analysis:  # a stand-in that knows only this (see `indexing.link`)
        return list(analysis["callees"])
    return sorted({called_name(c) for c in analysis.get("calls") or ()})


def caller_sites(release: Any, path: str) -> Iterator[Raw]:
    """Raw sites at the raise of this file's helpers, one per caller (and template) that writes the message.

    `release` is an `errdex.extract.package.Release`: callers are looked for in this file and in the
    files whose recorded calls name one of its helpers.
    """
    helpers = _helpers(release, path)
    if not helpers:
        return
    names = {function.rsplit(".", 1)[-1] for function in helpers}
    seen: set[tuple[int, str, int, str]] = set()
    for caller in _caller_files(release, path, names):
        for call in release.analyses[caller].get("calls") or ():
            if called_name(call) not in names:
                continue
            for target_path, function in _targets(release, caller, call):
                for site, param in helpers.get(function, ()) if target_path == path else ():
                    for key, found, _, source, *holes in call["args"]:
                        if found is None or key not in param:
                            continue
                        fresh = [t for t in found if (site["line"], caller, call["line"], t) not in seen]
                        seen.update((site["line"], caller, call["line"], t) for t in fresh)
                        if fresh:
                            written = dict(zip(found, holes[0]))
                            yield _written_by(site, call, fresh, [written[t] for t in fresh], source, caller)


def _caller_files(release: Any, path: str, names: set[str]) -> list[str]:
    """This file, then the files whose calls name one of `names`."""
    return list(dict.fromkeys([path, *(p for name in sorted(names) for p in release.callers(name))]))


def _helpers(release: Any, path: str) -> dict[str, list[tuple[Raw, Param]]]:
    """Function qualname (in this file) -> (the helper site it ends in, its parameter that carries the message)."""
    analysis = release.analyses[path]
    out: dict[str, list[tuple[Raw, Param]]] = {}
    for site in analysis["sites"]:
        if site.get("message_param") and site["kind"] in ("error", "warning"):
            out.setdefault(site["function"], []).append((site, tuple(site["message_param"])))
    forwarding = [c for c in analysis.get("calls") or () if any(a[2] for a in c["args"])] if out else []
    for _ in range(MAX_DEPTH):
        grown = False
        for call in forwarding:
            passed = [(key, tuple(param)) for key, _, param, *_ in call["args"] if param]
            for target_path, function in _targets(release, path, call):
                for site, param in list(out.get(function, ())) if target_path == path else ():
                    for key, own in passed:
                        entry = (site, own)
                        if key in param and entry not in out.get(call["function"], []):
                            out.setdefault(call["function"], []).append(entry)
                            grown = True
        if not grown:
            break
    return out


def _targets(release: Any, path: str, call: Raw) -> list[Target]:
    """The functions a call of file `path` may reach: `name(...)` (here or imported), `module.name(...)`,
    `self.name(...)` on the class or its bases, `Cls().name(...)` / `x = Cls(); x.name(...)`."""
    head, _, name = call["callee"].rpartition(".")
    if call.get("receiver"):
        return _methods(release, path, call["receiver"], name)
    if head in ("self", "cls"):
        return _methods(release, path, call["class"], name) if call["class"] else []
    imports = release.analyses[path]["imports"]
    if not head:
        module, attr = imports.get(name) or (None, None)
        target = release.paths.get(module) if module and attr else None
        return [(target, attr)] if target else [] if module else [(path, name)]
    first, _, rest = head.partition(".")
    if first not in imports:
        return []
    module, attr = imports[first]
    target = release.paths.get(".".join(p for p in (module, attr, rest) if p))
    return [(target, name)] if target else []


def _methods(release: Any, path: str, class_name: str, name: str) -> list[Target]:
    """`Class.name` and the same method on its bases, nearest first, wherever in the package they are defined."""
    found = release.find_class(path, class_name)
    queue = [found] if found else []
    out: list[Target] = []
    while queue and len(out) < MAX_BASES:
        cls_path, cls = queue.pop(0)
        out.append((cls_path, f"{cls['qualname']}.{name}"))
        for base in cls["bases"]:
            parent = release.find_class(cls_path, base)
            if parent is not None and (parent[0], f"{parent[1]['qualname']}.{name}") not in out:
                queue.append(parent)
    return out


def _written_by(site: Raw, call: Raw, templates: list[str], holes: list[Any], source: str, path: str) -> Raw:
    """The helper's site with the message, condition and values of the call that wrote it."""
    chosen = site.get("exception_param") or ()
    exception = next((a[3] for a in call["args"] if a[3] and a[1] is None and a[2] is None and a[0] in chosen), None)
    return {
        **site,
        "exception": exception or site["exception"],
        "templates": templates,
        "holes": holes,
        "reason": None,
        "clauses": call["clauses"],
        "resolved": call["resolved"],
        "resolved_from": call["resolved_from"],
        "written_at": [path, call["line"], call["function"]],  # the caller's file is the one `pending` names are of
        "pending": call["pending"],
        "checks": call["checks"],
        "message_source": source,
        "level": None,
    }
