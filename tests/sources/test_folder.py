"""Local project folders: naming from metadata, layouts, pruning, symlinks and the files digest."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from errdex.errors import SourceError
from errdex.sources import open_source
from errdex.sources.folder import open_folder_source
from errdex.sources.tree import SourceLimits

from .conftest import core_metadata, write_tree


def read_folder(root: Path, **kw: object) -> tuple[object, dict[str, bytes]]:
    with open_source(str(root), **kw) as source:  # type: ignore[arg-type]
        return source.info, {f.path: f.data for f in source.files()}


def test_flat_folder_named_by_pyproject(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "checkout",
        {
            "pyproject.toml": '[project]\nname = "flat-pkg"\nversion = "0.7"\n[project.urls]\nSource = "https://github.com/o/flat"\n',
            "flat/__init__.py": "",
            "flat/errors.py": "class E(Exception): pass\n",
            "tests/test_flat.py": "",
            "docs/conf.py": "",
            "setup.py": "",
            "conftest.py": "",
            ".venv/lib/site.py": "",
            "flat/__pycache__/x.py": "",
            "notes.txt": "",
        },
    )
    info, files = read_folder(root)
    assert list(files) == ["flat/__init__.py", "flat/errors.py"]
    assert (info.package, info.version, info.source_kind) == ("flat-pkg", "0.7", "folder")
    assert info.repository_url == "https://github.com/o/flat"


def test_src_layout_folder_named_by_setup_cfg(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "proj",
        {
            "setup.cfg": "[metadata]\nname = cfgpkg\nversion = attr: cfgpkg.__version__\nurl = https://bitbucket.org/team/cfgpkg/src\n",
            "src/cfgpkg/__init__.py": "",
            "src/cfgpkg/deep/mod.py": "",
            "noxfile.py": "",
        },
    )
    info, files = read_folder(root)
    assert list(files) == ["cfgpkg/__init__.py", "cfgpkg/deep/mod.py"]
    assert (info.package, info.version) == ("cfgpkg", "0+local")
    assert info.repository_url == "https://bitbucket.org/team/cfgpkg"


def test_folder_named_by_pkg_info(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "unpacked", {"PKG-INFO": core_metadata("Unpacked", "4.5"), "unpacked.py": ""})
    info, files = read_folder(root)
    assert (info.package, info.version) == ("Unpacked", "4.5")
    assert list(files) == ["unpacked.py"]


def test_setup_py_only_folder_is_named_after_the_folder_and_setup_py_never_runs(tmp_path: Path) -> None:
    marker = tmp_path / "MARKER"
    root = write_tree(
        tmp_path / "legacy_thing",
        {"setup.py": f"open({str(marker)!r}, 'w').write('ran')\n", "legacy/__init__.py": ""},
    )
    info, files = read_folder(root)
    assert (info.package, info.version) == ("legacy_thing", "0+local")
    assert list(files) == ["legacy/__init__.py"]
    assert not marker.exists()


def test_name_and_version_overrides(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "x", {"x.py": ""})
    info, _ = read_folder(root, name="custom", version="1.0")
    assert (info.package, info.version) == ("custom", "1.0")


def test_digest_is_over_paths_and_file_hashes(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "d", {"b.py": "B", "a/__init__.py": "A"})
    info, _ = read_folder(root)
    expected = "".join(
        f"{p}\t{hashlib.sha256(d).hexdigest()}\n" for p, d in sorted({"a/__init__.py": b"A", "b.py": b"B"}.items())
    )
    assert info.digest == hashlib.sha256(expected.encode()).hexdigest()
    (root / "b.py").write_text("changed")
    assert read_folder(root)[0].digest != info.digest


def test_symlinks_are_not_followed(tmp_path: Path) -> None:
    outside = write_tree(tmp_path / "outside", {"secret.py": "S = 1\n", "pkg/__init__.py": ""})
    root = write_tree(tmp_path / "proj", {"mine/__init__.py": ""})
    os.symlink(outside / "secret.py", root / "mine" / "secret.py")
    os.symlink(outside / "pkg", root / "linked_pkg")
    _, files = read_folder(root)
    assert list(files) == ["mine/__init__.py"]


def test_fifo_is_skipped_not_opened(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "f", {"f.py": ""})
    os.mkfifo(root / "pipe.py")
    _, files = read_folder(root)
    assert list(files) == ["f.py"]


def test_virtualenv_inside_folder_is_skipped(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "p",
        {"p/__init__.py": "", "env/pyvenv.cfg": "", "env/lib/python3.11/site-packages/dep/__init__.py": ""},
    )
    _, files = read_folder(root)
    assert list(files) == ["p/__init__.py"]


def test_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="No such file or folder: .*nope"):
        read_folder(tmp_path / "nope")


def test_broken_pyproject_falls_back_to_folder_name(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "broken", {"pyproject.toml": "[project\nname=", "b.py": ""})
    info, _ = read_folder(root)
    assert info.package == "broken"


def test_a_file_over_the_cap_is_refused_and_one_at_the_cap_is_read_whole(tmp_path: Path) -> None:
    cap = 4096
    at_cap = b"x = 1\n" + b"#" * (cap - 7) + b"\n"
    root = write_tree(tmp_path / "capped", {"capped/__init__.py": "", "capped/big.py": at_cap.decode()})
    source = open_folder_source(root, str(root), SourceLimits(file_bytes=cap))
    assert {f.path: f.data for f in source.files()}["capped/big.py"] == at_cap
    (root / "capped" / "big.py").write_bytes(at_cap + b"y = 2\n")
    with pytest.raises(SourceError, match=r"'capped/big.py' is larger than 4 KiB"):
        open_folder_source(root, str(root), SourceLimits(file_bytes=cap))
