"""Compiled sources of project trees (folders, sdists, git commits): which are read, by what path, under what caps."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

import pytest

from errdex.errors import SourceError
from errdex.model import RepoLayout
from errdex.sources import open_source
from errdex.sources.archive import open_archive_source
from errdex.sources.folder import open_folder_source
from errdex.sources.layout import compiled_paths, ships_extension_modules
from errdex.sources.tree import SourceLimits

from .conftest import commit_all, write_sdist, write_tree, write_wheel

# A src-layout project with C, Cython and Rust sources, and the same kinds of file where no release builds them.
PROJECT = {
    "pyproject.toml": '[project]\nname = "fastpkg"\nversion = "1.0"\n',
    "src/fastpkg/__init__.py": "",
    "src/fastpkg/tests/test_core.py": "",  # a Python file under tests/ below the top is kept, as always
    "src/fastpkg/_speedups.c": 'PyErr_SetString(PyExc_ValueError, "bad");\n',
    "src/fastpkg/_core.pyx": 'raise ValueError("bad")\n',
    "src/fastpkg/_core.pxd": "",
    "src/fastpkg/include/fast.h": "",
    "src/fastpkg/_loops.c.src": "",
    "src/lib.rs": "",
    "src/errors/types.rs": "",
    "crates/fast-core/src/frame/mod.rs": "",
    "README.md": "",
    # left out: tests, docs, benchmarks and examples at any depth; vendored trees; hidden and build folders
    "tests/test_speedups.c": "",
    "src/fastpkg/tests/helper.c": "",
    "crates/fast-core/tests/it.rs": "",
    "crates/fast-core/benchmarks/bench.rs": "",
    "crates/fast-core/benches/frame.rs": "",
    "src/fastpkg/samples/sample.cpp": "",
    "src/fastpkg/testing/fake.c": "",
    "docs/example.c": "",
    "src/fastpkg/examples/demo.cpp": "",
    "third_party/zlib/inflate.c": "",
    "src/fastpkg/3rdparty/lib.c": "",
    "vendored-meson/meson/x.c": "",
    "subprojects/x/y.c": "",
    "crates/fast-core/vendor/dep/lib.rs": "",
    "src/extern/z.h": "",
    "src/external/z.cpp": "",
    ".github/x.c": "",
    "build/temp/x.c": "",
    "src/fastpkg.egg-info/x.c": "",
    "node_modules/x/y.c": "",
}
PYTHON = ["fastpkg/__init__.py", "fastpkg/tests/test_core.py"]
COMPILED = [
    "crates/fast-core/src/frame/mod.rs",
    "src/errors/types.rs",
    "src/fastpkg/_core.pxd",
    "src/fastpkg/_core.pyx",
    "src/fastpkg/_loops.c.src",
    "src/fastpkg/_speedups.c",
    "src/fastpkg/include/fast.h",
    "src/lib.rs",
]


def read(spec: str) -> tuple[RepoLayout | None, dict[str, bytes]]:
    with open_source(spec) as source:
        return source.info.layout, {f.path: f.data for f in source.files()}


def test_a_folder_yields_its_python_then_its_compiled_sources_by_their_tree_paths(tmp_path: Path) -> None:
    layout, files = read(str(write_tree(tmp_path / "fastpkg", PROJECT)))
    assert list(files) == PYTHON + COMPILED
    assert files["src/fastpkg/_speedups.c"] == PROJECT["src/fastpkg/_speedups.c"].encode()
    assert layout == RepoLayout("src", "folder")  # read from the Python files alone, as before


def test_an_sdist_yields_the_same_files_as_its_folder(tmp_path: Path) -> None:
    sdist = write_sdist(tmp_path, "fastpkg", "1.0", PROJECT)
    layout, files = read(str(sdist))
    assert list(files) == PYTHON + COMPILED
    assert layout == RepoLayout("src", "sdist")


def test_a_git_commit_yields_the_same_files_as_its_folder(git_repo: Path) -> None:
    write_tree(git_repo, PROJECT)
    commit_all(git_repo, "one")
    layout, files = read(f"git+{git_repo}")
    assert list(files) == PYTHON + COMPILED
    assert layout == RepoLayout("src", "git")


def test_a_wheel_yields_only_its_python_files(tmp_path: Path) -> None:
    wheel = write_wheel(tmp_path, "fastpkg", "1.0", {"fastpkg/__init__.py": "", "fastpkg/include/fast.h": ""})
    _, files = read(str(wheel))
    assert list(files) == ["fastpkg/__init__.py"]


def test_compiled_paths_from_paths_alone() -> None:
    paths = ["src/x.rs", "lib/a.py", "TESTS/x.c", "a/Third_Party/b.c", "a/B.CPP", "a/b.cu", "a/b.pyx.in", "a/b.so"]
    assert compiled_paths(paths) == [
        ("a/B.CPP", "a/B.CPP"),
        ("a/b.cu", "a/b.cu"),
        ("a/b.pyx.in", "a/b.pyx.in"),
        ("src/x.rs", "src/x.rs"),
    ]


def test_a_wheel_ships_extension_modules_when_its_package_holds_one() -> None:
    assert ships_extension_modules(["m/__init__.py", "m/_speedups.cpython-312-x86_64-linux-gnu.so"])
    assert ships_extension_modules(["m/_speedups.cp312-win_amd64.pyd"])
    assert ships_extension_modules(["m-1.data/platlib/m/_x.so"])
    assert not ships_extension_modules(["m/__init__.py", "m-1.dist-info/x.so", "m-1.data/data/x.so", "m/x.c"])


def test_a_compiled_source_over_the_file_cap_is_left_out_where_a_python_file_refuses_the_tree(tmp_path: Path) -> None:
    cap = 4096
    root = write_tree(tmp_path / "capped", {"capped/__init__.py": "", "capped/amalgamation.c": "x" * (cap + 1)})
    limits = SourceLimits(file_bytes=cap)
    assert [f.path for f in open_folder_source(root, str(root), limits).files()] == ["capped/__init__.py"]
    sdist = write_sdist(tmp_path, "capped", "1.0", {"capped/__init__.py": "", "capped/amalgamation.c": "x" * (cap + 1)})
    with ExitStack() as stack:
        assert [f.path for f in open_archive_source(sdist, "x", stack, limits).files()] == ["capped/__init__.py"]
    (root / "capped" / "big.py").write_text("x" * (cap + 1))
    with pytest.raises(SourceError, match=r"'capped/big.py' is larger than 4 KiB"):
        open_folder_source(root, str(root), limits)


def test_compiled_sources_are_counted_apart_from_python_files(tmp_path: Path) -> None:
    files = {"many/__init__.py": "", **{f"many/m{i}.c": "" for i in range(8)}}
    root = write_tree(tmp_path / "many", files)
    got = open_folder_source(root, str(root), SourceLimits(members=5, compiled_files=8))
    assert len(list(got.files())) == 9  # eight C files do not count against five Python files
    with pytest.raises(SourceError, match=r"more than 7 C, C\+\+, Cython or Rust files"):
        open_folder_source(root, str(root), SourceLimits(compiled_files=7))
