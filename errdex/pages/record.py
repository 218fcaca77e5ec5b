"""The JSON form of an indexed error: the facts the store holds about it in one release."""

from __future__ import annotations

import ast

from errdex.model import ErrorRecord, Related, Site, WrittenAt
from errdex.pages.bindings import bindings_json
from errdex.pages.excerpt import excerpt_json
from errdex.pages.model import ErrorJson, RelatedError, SiteJson, WrittenAtJson
from errdex.pages.prior import prior_json
from errdex.pages.scope import place_checks


def site_json(site: Site) -> SiteJson:
    """One raise site as JSON: where it is, what guards it, what its names resolve to."""
    return {
        "kind": site.kind,
        "exception": site.exception,
        "exception_bases": list(site.exception_bases),
        "template": site.template,
        "reason": site.reason,
        "file": site.file,
        "line": site.line,
        "end_line": site.end_line,
        "function": site.function,
        "written_at": written_at_json(site.written_at),  # a raise helper's caller, who wrote the message
        "condition": site.condition,
        "resolved": site.resolved,
        "resolved_from": site.resolved_from,
        "bindings": {name: bindings_json(found, site.resolved_from.get(name)) for name, found in site.bindings.items()},
        "prior_checks": prior_json(site.prior_checks),
        "checks": list(site.checks),
        "message_source": site.message_source,
        "level": site.level,
    }


def written_at_json(written: WrittenAt | None) -> WrittenAtJson | None:
    """Where a helper site's message was written ({file, line, function}), or None for any other site."""
    return None if written is None else {"file": written.file, "line": written.line, "function": written.function}


def related_json(related: Related) -> RelatedError:
    return {
        "id": related.id,
        "template": related.template,
        "exception": related.exception,
        "file": related.file,
        "line": related.line,
        "function": related.function,
        "relation": related.relation,
    }


def record_json(record: ErrorRecord, source: str | None) -> ErrorJson:
    """The error's id and release, its first site's fields at top level, all its sites (with their checks), related;
    `source` is the text of the first site's file, which the excerpt is cut from."""
    site = record.site
    return {
        "id": record.id,
        "package": record.release.package,
        "version": record.release.version,
        **site_json(site),
        "snippet": excerpt_json(site.snippet, source, site.file),
        "sites": [
            {
                "file": s.file,
                "line": s.line,
                "end_line": s.end_line,
                "function": s.function,
                "written_at": written_at_json(s.written_at),
                "check": check,
            }
            for s, check in zip(record.sites, place_checks(record.sites), strict=True)
        ],
        "related": [related_json(r) for r in record.related],
        "repository_url": record.release.repository_url,
    }


UNPACKED_MESSAGE = "message not known statically: the call passes its arguments unpacked"


def unpacked_arguments(tree: ast.Module | None, line: int) -> bool:
    """Whether the raise or call statement at `line` passes `*args` or `**kwargs`: a message it carries there is
    not known from the code alone (`raise InvalidURL(*e.args)` passes one; it is not absent)."""
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, (ast.Raise, ast.Expr)) and node.lineno == line:
            call = node.exc if isinstance(node, ast.Raise) else node.value
            if isinstance(call, ast.Call):
                return any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords)
    return False
