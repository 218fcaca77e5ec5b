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
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

from errdex.extract.records import HelperCall, ParamRef, RawSite, Template
from errdex.model import WrittenAt

if TYPE_CHECKING:
    from errdex.extract.package import Release

MAX_DEPTH = 3  # helpers passing their message on, followed this deep
MAX_BASES = 8


class Target(NamedTuple):
    """A function a call may reach: the file it is in and its qualified name."""

    path: str
    function: str


class Helper(NamedTuple):
    """A raise helper's site, and the parameter (of the helper, or of a function passing it on) carrying the message."""

    site: RawSite
    param: ParamRef


def caller_sites(release: Release, path: str) -> Iterator[RawSite]:
    """Raw sites at the raise of this file's helpers, one per caller (and template) that writes the message.

    Callers are looked for in this file and in the files whose recorded calls name one of its helpers.
    """
    helpers = _helpers(release, path)
    if not helpers:
        return
    names = {function.rsplit(".", 1)[-1] for function in helpers}
    seen: set[tuple[int, str, int, str]] = set()
    for caller in _caller_files(release, path, names):
        for call in release.analyses[caller].calls:
            if call.called not in names:
                continue
            for target in _targets(release, caller, call):
                for site, param in helpers.get(target.function, ()) if target.path == path else ():
                    for arg in call.args:
                        if not arg.templates or not param.takes(arg.key):
                            continue
                        fresh = [t for t in arg.templates if (site.line, caller, call.line, t.text) not in seen]
                        seen.update((site.line, caller, call.line, t.text) for t in fresh)
                        if fresh:
                            yield _written_by(site, call, tuple(fresh), arg.source or "", caller)


def _caller_files(release: Release, path: str, names: set[str]) -> list[str]:
    """This file, then the files whose calls name one of `names`."""
    return list(dict.fromkeys([path, *(p for name in sorted(names) for p in release.callers(name))]))


def _helpers(release: Release, path: str) -> dict[str, list[Helper]]:
    """Function qualname (in this file) -> the helper sites it ends in, with its parameter that carries the message."""
    analysis = release.analyses[path]
    out: dict[str, list[Helper]] = {}
    for site in analysis.sites:
        if site.message_param is not None and site.kind in ("error", "warning"):
            out.setdefault(site.function, []).append(Helper(site, site.message_param))
    forwarding = [c for c in analysis.calls if any(a.param for a in c.args)] if out else []
    for _ in range(MAX_DEPTH):
        grown = False
        for call in forwarding:
            passed = [(a.key, a.param) for a in call.args if a.param is not None]
            for target in _targets(release, path, call):
                for site, param in list(out.get(target.function, ())) if target.path == path else ():
                    for key, own in passed:
                        entry = Helper(site, own)
                        if param.takes(key) and entry not in out.get(call.function, []):
                            out.setdefault(call.function, []).append(entry)
                            grown = True
        if not grown:
            break
    return out


def _targets(release: Release, path: str, call: HelperCall) -> list[Target]:
    """The functions a call of file `path` may reach: `name(...)` (here or imported), `module.name(...)`,
    `self.name(...)` on the class or its bases, `Cls().name(...)` / `x = Cls(); x.name(...)`."""
    head, _, name = call.callee.rpartition(".")
    if call.receiver:
        return _methods(release, path, call.receiver, name)
    if head in ("self", "cls"):
        return _methods(release, path, call.owner, name) if call.owner else []
    imports = release.analyses[path].imports
    if not head:
        imported = imports.get(name)
        if imported is None:
            return [Target(path, name)]
        target = release.paths.get(imported.module) if imported.name else None
        return [Target(target, imported.name)] if target and imported.name else []
    first, _, rest = head.partition(".")
    if first not in imports:
        return []
    module, attr = imports[first]
    target = release.paths.get(".".join(p for p in (module, attr, rest) if p))
    return [Target(target, name)] if target else []


def _methods(release: Release, path: str, class_name: str, name: str) -> list[Target]:
    """`Class.name` and the same method on its bases, nearest first, wherever in the package they are defined."""
    found = release.find_class(path, class_name)
    queue = [found] if found else []
    out: list[Target] = []
    while queue and len(out) < MAX_BASES:
        cls_path, cls = queue.pop(0)
        out.append(Target(cls_path, f"{cls.qualname}.{name}"))
        for base in cls.bases:
            parent = release.find_class(cls_path, base)
            if parent is not None and Target(parent[0], f"{parent[1].qualname}.{name}") not in out:
                queue.append(parent)
    return out


def _written_by(site: RawSite, call: HelperCall, templates: tuple[Template, ...], source: str, path: str) -> RawSite:
    """The helper's site with the message, condition and values of the call that wrote it (in file `path`,
    whose names are the ones its values leave pending)."""
    chosen = site.exception_param
    exception = next((a.exception for a in call.args if a.exception and chosen and chosen.takes(a.key)), None)
    return replace(
        site,
        exception=exception or site.exception,
        templates=templates,
        reason=None,
        clauses=call.clauses,
        values=call.values,
        message_source=source,
        level=None,
        written_at=WrittenAt(path, call.line, call.function),
    )
