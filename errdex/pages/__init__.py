"""Explanations: an error id (and optionally a user's captured values) → a page of plain data.

The page says what the error means, when it happens, how to fix it and what else is near it,
each fact derived from the code of the release and traced to where it comes from. No HTML and
no ANSI here: the CLI, the web and the hooks render the same `Page` (a TypedDict, see docs/page.md). `prebuild` builds a
release's pages ahead of the first request.
"""

from errdex.pages.model import Page
from errdex.pages.page import PAGE_CODE, build_page
from errdex.pages.prebuild import prebuild

__all__ = ["PAGE_CODE", "Page", "build_page", "prebuild"]
