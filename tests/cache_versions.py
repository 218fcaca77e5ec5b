"""The snapshot of each cache's version and code; `python -m tests.cache_versions --update` refreshes it.

`tests/test_cache_versions.py` compares it with the code: a cache whose code changed needs a new
version in `errdex/caches.py`, then a refreshed snapshot. It lives with the tests rather than in the
package because only development needs it. Code is compared as its syntax tree without docstrings,
so that comments, docstrings and formatting do not count.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
from pathlib import Path
from typing import TypedDict

import errdex
from errdex.caches import CACHES, Cache

ROOT = Path(errdex.__file__).parent
SNAPSHOT = Path(__file__).with_name("cache_versions.json")
UPDATE = "python -m tests.cache_versions --update"
_DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


class Recorded(TypedDict):
    """A cache's version and the fingerprint of each file of its code (relative to the errdex package)."""

    version: int
    code: dict[str, str]


def files_of(cache: Cache, root: Path = ROOT) -> list[str]:
    """The files a cache's code patterns name, relative to `root`; a pattern that names none is an error."""
    found: list[str] = []
    for pattern in cache.code:
        paths = sorted(p.relative_to(root).as_posix() for p in root.glob(pattern))
        if not paths:
            raise ValueError(f"cache '{cache.name}': '{pattern}' names no file under {root}")
        found += paths
    return list(dict.fromkeys(found))


def fingerprint(path: Path) -> str:
    """A digest of the file's syntax tree without docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, _DOCUMENTED) and node.body and _is_docstring(node.body[0]):
            node.body = node.body[1:]
    return hashlib.sha256(_shape(tree).encode()).hexdigest()[:16]


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def _shape(node: object) -> str:
    """The tree as text without positions or empty fields, so that Python versions that add fields agree."""
    if isinstance(node, ast.AST):
        fields = (
            f"{name}={_shape(value)}" for name, value in ast.iter_fields(node) if value is not None and value != []
        )
        return f"{type(node).__name__}({', '.join(fields)})"
    if isinstance(node, list):
        return f"[{', '.join(map(_shape, node))}]"
    return repr(node)


def current(caches: tuple[Cache, ...] = CACHES, root: Path = ROOT) -> dict[str, Recorded]:
    """Each cache's version and code as they are now."""
    return {
        c.name: Recorded(version=c.version, code={f: fingerprint(root / f) for f in files_of(c, root)}) for c in caches
    }


def recorded() -> dict[str, Recorded]:
    """The snapshot as committed."""
    data: dict[str, Recorded] = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    return data


def problems(was: dict[str, Recorded], now: dict[str, Recorded]) -> list[str]:
    """What disagrees between the snapshot and the code, each with what to do about it."""
    out = [
        f"cache '{name}' is in {SNAPSHOT.name} but not in errdex/caches.py: run `{UPDATE}`" for name in was.keys() - now
    ]
    for name, entry in now.items():
        before, version = was.get(name), entry["version"]
        if before is None:
            out.append(f"cache '{name}' is not in tests/{SNAPSHOT.name}: run `{UPDATE}` and commit the file")
        elif before["version"] != version:
            out.append(
                f"cache '{name}' is at version {version} in errdex/caches.py but {before['version']} in"
                f" tests/{SNAPSHOT.name}: run `{UPDATE}` to record the bump, and commit the file"
            )
        elif changed := sorted(
            f for f in before["code"].keys() | entry["code"] if before["code"].get(f) != entry["code"].get(f)
        ):
            out.append(
                f"cache '{name}': the code whose output it keeps changed ({', '.join('errdex/' + f for f in changed)})"
                f" but its version is still {version}. Bump the version of Cache('{name}') in errdex/caches.py to"
                f" {version + 1}, then run `{UPDATE}` and commit tests/{SNAPSHOT.name}"
            )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--update", action="store_true", help=f"write the code's versions and fingerprints to {SNAPSHOT}"
    )
    args = parser.parse_args()
    if args.update:
        SNAPSHOT.write_text(json.dumps(current(), indent=2, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {SNAPSHOT}")
        return
    found = problems(recorded(), current())
    print("\n".join(found) or f"{SNAPSHOT.name} agrees with the code")
    raise SystemExit(1 if found else 0)


if __name__ == "__main__":
    main()
