"""`errdex mcp`: explain, show, search and api as Model Context Protocol tools, for coding agents.

Served over stdio with the official `mcp` SDK (an optional dependency). Every answer is compact
JSON text; an errdex error (nothing indexed, an unknown id, an unusable paste) comes back as a
tool error whose message says what to do. Nothing is downloaded: the agent works from the index.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypedDict

from errdex.errors import ErrdexError
from errdex.hooks.warming import warm_in_background
from errdex.model import FileLine
from errdex.store import Store

if TYPE_CHECKING:  # the pages are loaded by the tools that build one
    from errdex.pages.model import ExampleFix, Page, Solution, UserInput

MAX_LIMIT = 20
MAX_QUERY_WORDS = 12
MAX_WORD = 100
INSTRUCTIONS = (
    "errdex knows every error the indexed Python libraries can raise, read from their source. "
    "Call `explain` with a whole traceback or error message to get the raise site, the check that "
    "fired, the values it saw and ranked fixes; `show` gives the full page of an error id; `search` "
    "finds errors by words of their message; `api` shows a package's API, or a symbol's signature and history, "
    "across the indexed releases (for `unexpected keyword argument`, `has no attribute`, `cannot import name`)."
)


def compact(data: Any) -> str:
    """JSON with no spaces: what an agent reads costs tokens."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False, default=str)


class Tools:
    """The four tools over one index; one call at a time uses the SQLite connection."""

    def __init__(self, db: str | None = None) -> None:
        self._db = db
        self._store: Store | None = None
        self._lock = threading.Lock()

    @contextmanager
    def store(self) -> Iterator[Store]:
        with self._lock:
            if self._store is None:
                self._store = Store(self._db)
            yield self._store

    def explain(self, text: str, limit: int = 3) -> str:
        """Explain a Python error: paste the whole traceback or message; get the raise site, the check, fixes."""
        from errdex.match import explain
        from errdex.match.drift_text import drift_text
        from errdex.pages import build_page
        from errdex.pages.statement import statement_for
        from errdex.pages.statement_render import statement_lines

        with self.store() as store:
            result = explain(text, store=store, auto_index=True, limit=_bounded(limit))
            found = result.to_json()
            answer: dict[str, object] = {  # not what was parsed of the paste
                "abstain": found["abstain"],
                # nor each match's allowed values: the page lists the accepted values once, in its solutions
                "matches": [{k: v for k, v in match.items() if k != "allowed"} for match in found["matches"]],
                "hint": found["hint"],
            }
            if result.api is not None:  # an interpreter's error about an API: which release changed it, the fix
                answer["api"] = {**result.api.to_json(), "words": drift_text(result.api).to_json()}
            if not result.answered and result.parsed.frames:
                failed = statement_for(store, result.parsed)  # an interpreter's error inside a library
                answer["statement"] = statement_lines(failed) if failed is not None else None
            best = result.best
            if best is not None:
                # The paste's frame shows the place.
                site = FileLine(best.file, best.line) if "frame line" in best.evidence else None
                page = build_page(
                    store, best.id, best.version, list(best.values), best.suggestions, site, result.parsed.frames
                )
                answer["page"] = summary_page(page)
        return compact(answer)

    def show(self, error_id: str, version: str | None = None) -> str:
        """The full page of one error id (from `explain` or `search`), in the newest indexed release or `version`."""
        from errdex.pages import build_page

        with self.store() as store:
            return compact(build_page(store, error_id.strip(), version))

    def api(self, package: str, symbol: str | None = None, version: str | None = None) -> str:
        """The public API of an indexed release of `package`, or `symbol` (e.g. `TrainingArguments`,
        `DataFrame.append`) with its signature, deprecations and which indexed releases have it."""
        from errdex.match.api_view import api_view

        with self.store() as store:
            return compact(api_view(store, package.strip(), version, symbol.strip() if symbol else None).to_json())

    def search(self, query: str, package: str | None = None, limit: int = 10) -> str:
        """Errors whose message contains all the words of `query`, optionally in one package."""
        words = [w[:MAX_WORD] for w in query.split()[:MAX_QUERY_WORDS]]
        limit = _bounded(limit)
        with self.store() as store:
            ids = store.search_templates(words, limit=limit * 5 if package else limit)
            rows = [_row(store, error_id) for error_id in ids]
        if package:
            wanted = package.strip().lower().replace("_", "-")
            rows = [r for r in rows if r["package"].lower().replace("_", "-") == wanted]
        return compact({"query": query, "results": rows[:limit]})


class PageSummary(TypedDict):
    """The part of a page `explain` answers with."""

    id: str
    site: str
    places: str | None
    function: str
    condition: str | None
    means: str
    happens: str
    solutions: list[dict[str, str]]  # kind, text and (for `install`) code
    example_fix: ExampleFix | None
    user_input: UserInput | None
    source_url: str | None


def summary_page(page: Page) -> PageSummary:
    """What an agent needs from a page to fix the error; `show` gives the rest."""
    return {
        "id": page["id"],
        "site": f"{page['file']}:{page['line']}",
        "places": page["site_scope"]["text"],
        "function": page["function"],
        "condition": page["condition"],
        "means": page["what_it_means"]["summary"],
        "happens": page["when_it_happens"]["summary"],
        "solutions": [_brief(s) for s in page["solutions"][:3]],
        "example_fix": page["example_fix"],
        "user_input": page["user_input"],
        "source_url": page["source_url"],
    }


def _brief(solution: Solution) -> dict[str, str]:
    """A solution's kind, text and code (the keys it has and are not empty)."""
    shown = (("kind", solution["kind"]), ("text", solution["text"]), ("code", solution.get("code")))
    return {key: value for key, value in shown if value}


class SearchRow(TypedDict):
    """One error `search` finds: where it is raised, in the newest indexed release that has it."""

    id: str
    package: str
    version: str
    exception: str | None
    template: str | None
    site: str
    function: str


def _row(store: Store, error_id: str) -> SearchRow:
    record = store.error(error_id)
    site = record.site
    return {
        "id": error_id,
        "package": record.release.package,
        "version": record.release.version,
        "exception": site.exception or site.level,
        "template": site.template,
        "site": f"{site.file}:{site.line}",
        "function": site.function,
    }


def _bounded(limit: int) -> int:
    return max(1, min(int(limit), MAX_LIMIT))


def create_server(db: str | None = None) -> Any:
    """The MCP server with errdex's tools registered (an `mcp.server.mcpserver.MCPServer`)."""
    from mcp.server.mcpserver import MCPServer

    tools = Tools(db)
    server = MCPServer("errdex", instructions=INSTRUCTIONS, log_level="WARNING")
    for method in (tools.explain, tools.show, tools.search, tools.api):
        server.add_tool(_reporting(method), name=method.__name__, description=method.__doc__, structured_output=False)
    return server


def _reporting(method: Callable[..., str]) -> Callable[..., str]:
    """Turn errdex's own errors into tool errors with their one-line message."""
    from functools import wraps

    from mcp.server.mcpserver.exceptions import ToolError

    @wraps(method)
    def tool(*args: Any, **kwargs: Any) -> str:
        try:
            return method(*args, **kwargs)
        except ErrdexError as exc:
            raise ToolError(str(exc)) from exc

    return tool


def serve(db: str | None = None) -> None:
    """Serve the tools on stdin/stdout until the client disconnects; what the first answers read is loaded in the
    background meanwhile (errdex.hooks.warming)."""
    server = create_server(db)
    warm_in_background(db)
    server.run("stdio")
