"""The JSON form of an indexed error: the facts the store holds about it in one release."""

from __future__ import annotations

from typing import Any

from errdex.model import ErrorRecord, Related, Site, WrittenAt


def site_json(site: Site) -> dict[str, Any]:
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
        "checks": list(site.checks),
        "message_source": site.message_source,
        "level": site.level,
    }


def written_at_json(written: WrittenAt | None) -> dict[str, Any] | None:
    """Where a helper site's message was written ({file, line, function}), or None for any other site."""
    return None if written is None else {"file": written.file, "line": written.line, "function": written.function}


def related_json(related: Related) -> dict[str, Any]:
    return {
        "id": related.id,
        "template": related.template,
        "exception": related.exception,
        "file": related.file,
        "line": related.line,
        "function": related.function,
        "relation": related.relation,
    }


def record_json(record: ErrorRecord) -> dict[str, Any]:
    """The error's id and release, its first site's fields at top level, all its sites, related."""
    site = record.site
    return {
        "id": record.id,
        "package": record.release.package,
        "version": record.release.version,
        **site_json(site),
        "snippet": {"start": site.snippet.start, "end": site.snippet.end, "text": site.snippet.text},
        "sites": [
            {
                "file": s.file,
                "line": s.line,
                "end_line": s.end_line,
                "function": s.function,
                "written_at": written_at_json(s.written_at),
            }
            for s in record.sites
        ],
        "related": [related_json(r) for r in record.related],
        "repository_url": record.release.repository_url,
    }
