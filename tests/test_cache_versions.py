"""A cache's version changes whenever the code whose output it keeps changes (errdex/caches.py)."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from errdex.caches import CACHES, MATCH_TABLES, PAGES, Cache
from tests.cache_versions import ROOT, UPDATE, Recorded, current, files_of, fingerprint, problems, recorded
from tests.test_architecture import MODULES, imports_of

# what caches are computed from rather than how: the shared bottom modules, the registry, the store
SHARED = {"model.py", "errors.py", "blobs.py", "jsontext.py", "caches.py"}


def test_the_snapshot_agrees_with_the_code() -> None:
    found = problems(recorded(), current())
    if found:
        pytest.fail("\n".join(found), pytrace=False)


def test_changed_code_without_a_bump_and_a_bump_without_a_refresh_fail_with_what_to_do() -> None:
    was = {"trace": Recorded(version=3, code={"indexing/link.py": "aaaa", "extract/file.py": "bbbb"})}
    edited = {"trace": Recorded(version=3, code={"indexing/link.py": "aaaa", "extract/file.py": "cccc"})}
    bumped = {"trace": Recorded(version=4, code=edited["trace"]["code"])}
    assert problems(was, was) == []
    [message] = problems(was, edited)
    assert "'trace'" in message and "errdex/extract/file.py" in message and "link.py" not in message
    assert "Bump the version of Cache('trace') in errdex/caches.py to 4" in message and UPDATE in message
    [message] = problems(was, bumped)
    assert "version 4 in errdex/caches.py but 3" in message and UPDATE in message
    assert problems(bumped, bumped) == []
    assert "not in tests/cache_versions.json" in problems({}, was)[0]
    assert "not in errdex/caches.py" in problems(was, {})[0]


def test_fingerprints_ignore_docstrings_comments_and_layout_but_not_code(tmp_path: Path) -> None:
    code = 'def f(x):\n    """Why."""\n    return x + 1  # one more\n'
    variants = {
        "same.py": code,
        "docs.py": '"""A module."""\n\n\ndef f(x):\n    """Why, said otherwise."""\n    return (x\n            + 1)\n',
        "code.py": code.replace("x + 1", "x + 2"),
    }
    for name, text in variants.items():
        (tmp_path / name).write_text(text)
    same, docs, changed = (fingerprint(tmp_path / name) for name in variants)
    assert same == docs != changed


def test_keys_carry_the_versions_of_the_cache_and_of_what_it_builds_on() -> None:
    key = PAGES.key("abc", "1.0", "pkg/mod.py", 12)
    assert key.startswith(f"page-v{PAGES.version}:callers-v") and key.endswith(":abc:1.0:pkg/mod.py:12")
    callers_bumped = dataclasses.replace(PAGES.builds_on[0], version=PAGES.builds_on[0].version + 1)
    assert dataclasses.replace(PAGES, builds_on=(callers_bumped,)).key("abc") != PAGES.key("abc")
    assert dataclasses.replace(MATCH_TABLES, version=MATCH_TABLES.version + 1).key("core") != MATCH_TABLES.key("core")
    assert len({c.name for c in CACHES}) == len(CACHES)


def _built_on(cache: Cache) -> list[Cache]:
    return [c for below in cache.builds_on for c in (below, *_built_on(below))]


def _module_file(name: str) -> str:
    """`errdex.pages.source` -> `pages/source.py` (or the package's `__init__.py`)."""
    path = Path(*name.split(".")[1:])
    return (path.with_suffix(".py") if (ROOT / path.with_suffix(".py")).exists() else path / "__init__.py").as_posix()


def test_each_cache_lists_the_errdex_modules_its_code_imports() -> None:
    """A module imported by a cache's code shapes what it keeps unless it is listed as not doing so."""
    missing = []
    for cache in CACHES:
        covered = {f for c in (cache, *_built_on(cache)) for f in files_of(c)} | set(cache.ignores)
        imported = {_module_file(n) for f in files_of(cache) for n in imports_of(ROOT / f) if n.startswith("errdex.")}
        for target in sorted(imported - covered - SHARED):
            if not target.startswith("store/"):
                missing.append(f"{cache.name}: its code imports errdex/{target}: list it in code or ignores")
        missing += [
            f"{cache.name}: its code does not import {f}: drop it from ignores"
            for f in cache.ignores
            if f not in imported
        ]
    assert not missing, "\n".join(missing)


def test_every_cache_key_is_made_by_the_registry() -> None:
    """No module writes or reads the store's caches under a key spelled out in place."""
    wrong = []
    for path in MODULES:
        tree = ast.parse(path.read_text())
        calls = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("cache_get", "cache_put")
            and not path.is_relative_to(ROOT / "store")
        ]
        spelled = [c.lineno for c in calls if c.args and isinstance(c.args[0], ast.Constant | ast.JoinedStr)]
        if spelled or (calls and "errdex.caches" not in imports_of(path)):
            wrong.append(f"{path.relative_to(ROOT)}: keys not made with errdex.caches (lines {spelled})")
    assert not wrong, "\n".join(wrong)
