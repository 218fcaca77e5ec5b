"""Data flows one way: each module imports only the stages before it (read with `ast`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import errdex

ROOT = Path(errdex.__file__).parent

# stage -> the errdex stages it may import (besides itself)
ALLOWED: dict[str, set[str]] = {
    "model": set(),
    "blobs": set(),
    "jsontext": set(),
    "errors": set(),
    "caches": set(),
    "sources": {"model", "errors"},
    "extract": {"model", "errors", "caches"},
    "store": {"model", "errors", "blobs", "jsontext"},
    "indexing": {"model", "errors", "caches", "blobs", "jsontext", "sources", "extract", "store"},
    "match": {"model", "errors", "caches", "sources", "extract", "store", "indexing"},
    "pages": {"model", "errors", "caches", "sources", "extract", "store", "indexing"},
    "terminal": {"model", "errors", "store", "indexing", "match", "pages"},
    # running a page's snippets: after the pages (it runs what they show), before the command line
    "verify": {"model", "errors", "caches", "sources", "extract", "store", "indexing", "match", "pages"},
    # the command line is the entry point: it may start the web server and the hooks' runners
    "cli": {
        "model",
        "errors",
        "sources",
        "extract",
        "store",
        "indexing",
        "match",
        "pages",
        "terminal",
        "web",
        "hooks",
        "verify",
    },
    "web": {"model", "errors", "store", "indexing", "match", "pages"},
    "hooks": {"model", "errors", "store", "indexing", "match", "pages", "terminal"},
    "__main__": {"cli"},
}
# third-party libraries that belong to the top layer only
TOP_ONLY = {
    "click": {"cli"},
    "rich": {"terminal", "cli", "hooks"},
    "fastapi": {"web"},
    "starlette": {"web"},
    "jinja2": {"web"},
    "uvicorn": {"web", "cli"},
}


def stage_of(path: Path) -> str:
    """The stage a module belongs to: its top-level package or module."""
    return path.relative_to(ROOT).parts[0].removesuffix(".py")


def imports_of(path: Path) -> set[str]:
    """Top-level names of what a module imports (errdex.x -> 'errdex.x', 'click' -> 'click')."""
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    package = ".".join(("errdex", *path.relative_to(ROOT).parts[:-1]))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                names.add(".".join([*base, node.module] if node.module else base))
            elif node.module:
                names.add(node.module)
    return names


MODULES = sorted(p for p in ROOT.rglob("*.py") if p.name != "__init__.py" or p.parent != ROOT)


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ROOT)) for p in MODULES])
def test_module_imports_only_earlier_stages(path: Path) -> None:
    stage = stage_of(path)
    assert stage in ALLOWED, f"{stage} is not in the stage table: add it"
    for name in imports_of(path):
        parts = name.split(".")
        if parts[0] == "errdex" and len(parts) > 1:
            target = parts[1]
            assert target == stage or target in ALLOWED[stage], f"{path.relative_to(ROOT)} imports {name}"
        elif parts[0] in TOP_ONLY:
            assert stage in TOP_ONLY[parts[0]], f"{path.relative_to(ROOT)} imports {parts[0]}"


def test_public_api_is_explicit() -> None:
    assert isinstance(errdex.__all__, list) and errdex.__all__
    for name in errdex.__all__:
        assert getattr(errdex, name) is not None, name
