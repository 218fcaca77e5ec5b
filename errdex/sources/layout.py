"""Map the files of a wheel or a project tree to the paths their modules are imported as."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from errdex.model import RepoLayout, SourceKind, language_of

# Top-level folders of a project tree that hold no importable code of the release.
SKIP_ROOT_DIRS = frozenset({"tests", "test", "docs", "doc", "examples", "example", "benchmarks", "build", "dist"})
# Folders that hold the packages in a src-style layout (`package_dir={"": "src"}`); `lib` only
# counts when nothing at all is importable from the top level (it is often just a helper folder).
LAYOUT_ROOTS = ("src", "lib")
_SKIP_DIRS = frozenset({"__pycache__", "node_modules", "site-packages"})
_WHEEL_CODE_DIRS = ("purelib", "platlib")
# Folders (at any depth) of compiled sources that no release builds into its own error messages:
# test, benchmark (Rust's `benches`), example and sample (opencv's `samples`) and doc code.
COMPILED_SKIP_DIRS = frozenset(
    {"tests", "test", "testing", "benchmarks", "benches", "examples", "example", "samples", "docs", "doc"}
)
# Folders (at any depth) of third-party libraries vendored into a project tree: their errors are not the release's.
VENDORED_DIRS = frozenset(
    {"third_party", "thirdparty", "3rdparty", "vendored-meson", "subprojects", "vendor", "extern", "external"}
)
# The endings of compiled extension modules in a wheel (CPython's on Linux and macOS, Windows, macOS libraries).
EXTENSION_SUFFIXES = (".so", ".pyd", ".dylib")


def _skipped_anywhere(parts: list[str]) -> bool:
    """Files no release imports: conftest.py, and anything in hidden, cache or vendored-env folders."""
    if parts[-1] == "conftest.py":
        return True
    return any(d.startswith(".") or d in _SKIP_DIRS or d.endswith(".egg-info") for d in parts[:-1])


def is_compiled(path: str) -> bool:
    """Whether a file is a compiled source (C, C++, Cython, Rust) by its name."""
    return language_of(path) not in (None, "python")


def compiled_skipped(parts: list[str]) -> bool:
    """Whether a compiled source sits where no release's own code does: hidden, cache, test or vendored folders."""
    if _skipped_anywhere(parts):
        return True
    return any(d.lower() in COMPILED_SKIP_DIRS or d.lower() in VENDORED_DIRS for d in parts[:-1])


def _wheel_path(path: str) -> str | None:
    """The import path of a wheel member: as is, or from `*.data/purelib|platlib/`; None for metadata."""
    top, _, rest = path.partition("/")
    if top.endswith(".dist-info"):
        return None
    if top.endswith(".data"):
        kind, _, inner = rest.partition("/")
        return inner if kind in _WHEEL_CODE_DIRS and inner else None
    return path


def _layout_root(paths: list[list[str]]) -> str | None:
    """`src` or `lib` when the tree keeps its packages there and has no package at its top level."""
    top_packages = {p[0] for p in paths if len(p) == 2 and p[1] == "__init__.py"}
    if top_packages - set(LAYOUT_ROOTS):
        return None
    top_modules = any(len(p) == 1 for p in paths)
    for root in LAYOUT_ROOTS:
        under = [p for p in paths if len(p) > 1 and p[0] == root]
        if under and [root, "__init__.py"] not in under and not (root == "lib" and top_modules):
            return root
    return None


def import_paths(paths: Iterable[str], *, wheel: bool) -> list[tuple[str, str]]:
    """Sorted (import path, tree path) pairs of the Python files a release installs.

    A wheel is already laid out as installed; a project tree (sdist, folder, git commit) drops
    setup.py, test/doc/example folders and, in a src layout, everything outside `src/`.
    """
    found: dict[str, str] = {}
    if wheel:
        for path in paths:
            target = _wheel_path(path) if path.endswith(".py") else None
            if target and not _skipped_anywhere(target.split("/")) and target != "setup.py":
                found.setdefault(target, path)
        return sorted(found.items())
    split = [p.split("/") for p in paths if p.endswith(".py")]
    split = [p for p in split if not _skipped_anywhere(p) and p[0] not in SKIP_ROOT_DIRS and p != ["setup.py"]]
    root = _layout_root(split)
    for parts in split:
        if root is None:
            found["/".join(parts)] = "/".join(parts)
        elif parts[0] == root:
            found["/".join(parts[1:])] = "/".join(parts)
    return sorted(found.items())


def compiled_paths(paths: Iterable[str]) -> list[tuple[str, str]]:
    """Sorted (path, tree path) pairs of the compiled sources a project tree builds, each by its path in the tree.

    Unlike Python files they are not moved out of a src layout: `src/lib.rs` stays `src/lib.rs`.
    """
    found = []
    for path in paths:
        parts = path.split("/")
        if is_compiled(path) and parts[0] not in SKIP_ROOT_DIRS and not compiled_skipped(parts):
            found.append((path, path))
    return sorted(found)


def ships_extension_modules(members: Iterable[str]) -> bool:
    """Whether a wheel's members include a compiled extension module inside the installed tree."""
    return any((target := _wheel_path(path)) is not None and target.endswith(EXTENSION_SUFFIXES) for path in members)


def tree_prefix(imported: Iterable[str], tree_paths: Iterable[str]) -> str | None:
    """The folder under which most of a release's import paths sit in a project tree ("" at its root).

    Read from paths alone: `src/transformers/x.py` holds the import path `transformers/x.py` under
    `src`. None when no import path is in the tree (a wheel whose sdist has other files).
    """
    wanted = set(imported)
    counts: Counter[str] = Counter()
    for path in tree_paths:
        parts = path.split("/")
        for cut in range(len(parts)):
            if "/".join(parts[cut:]) in wanted:
                counts["/".join(parts[:cut])] += 1
    if not counts:
        return None
    return min(counts, key=lambda prefix: (-counts[prefix], prefix.count("/"), prefix))


def tree_layout(mapping: Sequence[tuple[str, str]], kind: SourceKind) -> RepoLayout | None:
    """The layout a project tree shows by where its mapped files sit (see `import_paths`)."""
    prefix = tree_prefix((imported for imported, _ in mapping), (path for _, path in mapping))
    return None if prefix is None else RepoLayout(prefix, kind)
