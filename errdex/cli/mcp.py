"""`errdex mcp`: serve explain, show and search to coding agents over MCP (stdio)."""

from __future__ import annotations

from errdex.cli import db_option, main, reports_errors, require_extra


@main.command()
@db_option
@reports_errors
def mcp(db_path: str | None) -> None:
    """Serve explain, show and search as MCP tools on stdin/stdout (for coding agents)."""
    require_extra("mcp", "mcp")
    from errdex.hooks.mcp_server import serve

    serve(db_path)
