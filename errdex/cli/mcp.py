"""`errdex mcp`: serve explain, show and search to coding agents over MCP (stdio)."""

from __future__ import annotations

import importlib.util
import sys

from errdex.cli import db_option, fail, main


@main.command()
@db_option
def mcp(db_path: str | None) -> None:
    """Serve explain, show and search as MCP tools on stdin/stdout (for coding agents)."""
    if importlib.util.find_spec("mcp") is None:
        fail("errdex mcp needs the MCP SDK: pip install 'errdex[mcp]' (or pip install mcp)")
        sys.exit(1)
    from errdex.hooks.mcp_server import serve

    serve(db_path)
