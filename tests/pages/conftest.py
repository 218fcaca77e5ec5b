"""Fixture packages for explanation tests: written into tmp_path, indexed into a real store."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from errdex.indexing import index
from errdex.pages import build_page
from errdex.store import Store
from tests.fixtures import write_tree

Indexer = Callable[..., Store]


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """An empty index (a file under tmp_path, or a PostgreSQL database)."""
    with Store(db_url) as s:
        yield s


@pytest.fixture
def indexed(store: Store, tmp_path: Path) -> Indexer:
    """Write a package (path -> source, dedented) and index it as NAME==VERSION into `store`."""

    def write_and_index(
        files: dict[str, str], name: str = "pkg", version: str = "1.0", url: str | None = None
    ) -> Store:
        root = tmp_path / f"{name}-{version}"
        sources = {path: textwrap.dedent(text).lstrip("\n") for path, text in files.items()}
        if url:
            sources["pyproject.toml"] = (
                f'[project]\nname = "{name}"\nversion = "{version}"\n[project.urls]\nSource = "{url}"\n'
            )
        write_tree(root, sources)
        index(str(root), store, name=name, version=version, workers=1)
        return store

    return write_and_index


def pages_of(store: Store, package: str) -> Callable[..., Any]:
    """A page builder for one indexed package: the page of its error whose template is given (keywords go on to
    `build_page`)."""
    return lambda template, **kwargs: build_page(store, error_id_of(store, package, template), **kwargs)


def error_id_of(store: Store, package: str, template: str, version: str | None = None) -> str:
    """The id of the error of a release whose template is `template`."""
    for error in store.errors(package, version):
        if error.site.template == template:
            return error.error_id
    raise AssertionError(f"no error {template!r} in {package}")


def strings(value: Any) -> Iterator[str]:
    """Every string anywhere in a page."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def said(summary: str, condition: str) -> bool:
    """Whether a page's summary states `condition` whole: it ends there, or the checks before it follow."""
    return (
        summary.endswith(f"{condition}.")
        or f"{condition}, once the `raise` statements before it in this function do not fire" in summary
    )
