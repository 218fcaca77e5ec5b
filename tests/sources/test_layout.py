"""How files of wheels and project trees map to import paths."""

from __future__ import annotations

from errdex.sources.layout import import_paths


def test_wheel_paths_are_kept_and_data_dirs_mapped() -> None:
    paths = [
        "p/__init__.py",
        "p-1.dist-info/METADATA",
        "p-1.data/platlib/q.py",
        "p-1.data/headers/h.py",
        "tests/t.py",
        "setup.py",
    ]
    assert import_paths(paths, wheel=True) == [
        ("p/__init__.py", "p/__init__.py"),
        ("q.py", "p-1.data/platlib/q.py"),
        ("tests/t.py", "tests/t.py"),
    ]


def test_lib_layout_only_when_nothing_importable_at_top() -> None:
    assert import_paths(["lib/pkg/__init__.py", "setup.py"], wheel=False) == [
        ("pkg/__init__.py", "lib/pkg/__init__.py")
    ]
    flat = import_paths(["single.py", "lib/helper.py"], wheel=False)
    assert [p for p, _ in flat] == ["lib/helper.py", "single.py"]


def test_src_with_init_is_a_package_not_a_layout() -> None:
    got = import_paths(["src/__init__.py", "src/a.py"], wheel=False)
    assert [p for p, _ in got] == ["src/__init__.py", "src/a.py"]


def test_flat_package_next_to_src_folder_keeps_flat_layout() -> None:
    got = import_paths(["pkg/__init__.py", "src/tool.py"], wheel=False)
    assert [p for p, _ in got] == ["pkg/__init__.py", "src/tool.py"]


def test_tree_drops_hidden_egg_info_and_test_folders() -> None:
    got = import_paths(
        ["a/.hidden/x.py", "a.egg-info/b.py", "test/t.py", "benchmarks/b.py", "a/__init__.py", "a/tests/t.py"],
        wheel=False,
    )
    assert [p for p, _ in got] == ["a/__init__.py", "a/tests/t.py"]
