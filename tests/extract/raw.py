"""Reading a file's analysis in tests: the template texts of a raw site."""

from __future__ import annotations

from errdex.extract.records import RawSite


def texts(site: RawSite) -> list[str | None]:
    """The site's templates as text, `[None]` when it has none (its reason says why)."""
    return [t.text for t in site.templates] or [None]
