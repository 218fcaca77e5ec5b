"""The `errdex` command: a thin click layer over the library; rich for what people read.

Every command takes `--json` for programs and `--db` (or ERRDEX_DB) for the index to use. An
ErrdexError becomes one clear line on stderr and a non-zero exit code, never a traceback.
Each group of commands lives in its own module and registers itself on `main` when imported;
a module is imported only when one of its commands runs (or help lists them), so that
`errdex explain` does not pay for the web server's or the indexer's imports.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, ParamSpec, TypeVar

import click
from rich.console import Console
from rich.text import Text

from errdex.errors import ErrdexError

P = ParamSpec("P")
R = TypeVar("R")
console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)

db_option = click.option(
    "--db",
    "db_path",
    envvar="ERRDEX_DB",
    type=click.Path(dir_okay=False),
    help="Index database (default: in your data folder; env ERRDEX_DB).",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
full_option = click.option(
    "--full", is_flag=True, help="Print the whole page, not only the answer that fits one screen (--json has it all)."
)


def reports_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn errdex's own errors into one line and exit code 1."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except ErrdexError as exc:
            fail(str(exc))
            sys.exit(1)

    return wrapper


def fail(message: str) -> None:
    """Print one error line on stderr (the message is shown as text, never as markup)."""
    err_console.print(Text.assemble(("error: ", "bold red"), message))


# each optional extra a command needs -> the modules of the distributions it installs (pyproject.toml)
EXTRAS = {
    "web": ("fastapi", "starlette", "uvicorn", "jinja2", "pygments"),
    "mcp": ("mcp",),
}


def require_extra(extra: str, command: str) -> None:
    """Say which module of an optional extra is missing before importing it would end in a traceback; the
    extras stay optional so that errdex is small in the environments its hooks run in."""
    missing = [module for module in EXTRAS[extra] if importlib.util.find_spec(module) is None]
    if missing:
        raise ErrdexError(
            f"errdex {command} needs {', '.join(missing)} (not installed here): pip install 'errdex[{extra}]'"
        )


def print_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


# command name -> the module of errdex.cli that defines it
COMMAND_MODULES = {
    "api": "api",
    "diff": "diff",
    "explain": "explain",
    "export-site": "serve",
    "index": "indexing",
    "list": "browse",
    "mcp": "mcp",
    "packages": "browse",
    "run": "run",
    "serve": "serve",
    "show": "browse",
    "verify": "verify",
}


class LazyGroup(click.Group):
    """A group that imports a command's module when the command is asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMAND_MODULES)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in COMMAND_MODULES:
            importlib.import_module(f"errdex.cli.{COMMAND_MODULES[name]}")
        return self.commands.get(name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="errdex")
def main() -> None:
    """errdex: where a Python library's error comes from, what it means, how to fix it."""
