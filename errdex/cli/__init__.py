"""The `errdex` command: a thin click layer over the library; rich for what people read.

Every command takes `--json` for programs and `--db` (or ERRDEX_DB) for the index to use. An
ErrdexError becomes one clear line on stderr and a non-zero exit code, never a traceback.
Each group of commands lives in its own module and registers itself on `main` when imported
at the bottom of this file.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.text import Text

from errdex.errors import ErrdexError

F = TypeVar("F", bound=Callable[..., Any])
console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)

db_option = click.option(
    "--db", "db_path", envvar="ERRDEX_DB", type=click.Path(dir_okay=False), help="Index database (default: in your data folder; env ERRDEX_DB)."
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


def reports_errors(func: F) -> F:
    """Turn errdex's own errors into one line and exit code 1."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except ErrdexError as exc:
            fail(str(exc))
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


def fail(message: str) -> None:
    """Print one error line on stderr (the message is shown as text, never as markup)."""
    err_console.print(Text.assemble(("error: ", "bold red"), message))


def print_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="errdex")
def main() -> None:
    """errdex: where a Python library's error comes from, what it means, how to fix it."""


from errdex.cli import browse, diff, explain, indexing, mcp, run, serve  # noqa: E402,F401  (register their commands)
