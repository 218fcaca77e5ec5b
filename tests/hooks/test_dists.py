"""From live frames to installed distributions: dist-info folders written into tmp_path and put on sys.path."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import pytest

from errdex.hooks.dists import Catalog, Installed, LazyIndex, traceback_frames
from errdex.store import Store


def dist_info(folder: Path, name: str, version: str, files: dict[str, str]) -> Path:
    info = folder / f"{name.lower().replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n\nlong description\n")
    for path, text in files.items():
        (info / path).write_text(text)
    return info


def module(folder: Path, dotted: str, body: str = "def fail():\n    raise ValueError('boom')\n") -> None:
    parts = dotted.split(".")
    for i in range(1, len(parts)):
        package = folder.joinpath(*parts[:i])
        package.mkdir(exist_ok=True)
        (package / "__init__.py").touch()
    folder.joinpath(*parts[:-1], parts[-1] + ".py").write_text(body)


@pytest.fixture
def on_path(tmp_path: Path) -> Iterator[Path]:
    site = tmp_path / "site"
    site.mkdir()
    sys.path.insert(0, str(site))
    names = set(sys.modules)
    try:
        yield site
    finally:
        sys.path.remove(str(site))
        for name in set(sys.modules) - names:
            del sys.modules[name]


def innermost(dotted: str) -> FrameType:
    with pytest.raises(ValueError) as info:
        importlib.import_module(dotted).fail()
    return traceback_frames(info.value.__traceback__)[-1]


def test_found_by_its_name_and_top_level(on_path: Path) -> None:
    dist_info(on_path, "Shop", "1.2", {"top_level.txt": "shop\n"})
    module(on_path, "shop.cart")
    assert Catalog().find("shop.cart", innermost("shop.cart").f_code.co_filename) == Installed(
        "Shop", "1.2", str(on_path / "shop-1.2.dist-info")
    )


def test_found_by_record_when_the_import_name_differs(on_path: Path) -> None:
    dist_info(on_path, "Shop-Tools", "0.3", {"RECORD": "tools_of_shop/__init__.py,,\ntools_of_shop/kit.py,,\n"})
    module(on_path, "tools_of_shop.kit")
    found = Catalog().find("tools_of_shop.kit", innermost("tools_of_shop.kit").f_code.co_filename)
    assert found is not None and (found.name, found.version) == ("Shop-Tools", "0.3")


def test_editable_install_is_found_through_direct_url(on_path: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    module(project, "mine.core")
    sys.path.append(str(project))
    try:
        url = {"url": project.as_uri(), "dir_info": {"editable": True}}
        dist_info(on_path, "mine", "0.1.dev0", {"direct_url.json": json.dumps(url)})
        found = Catalog().find("mine.core", innermost("mine.core").f_code.co_filename)
    finally:
        sys.path.remove(str(project))
    assert found is not None and (found.name, found.version) == ("mine", "0.1.dev0")


def test_an_editable_project_s_tests_are_not_its_package(on_path: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    module(project, "mine.core")
    module(project, "tests_of_mine.test_core")
    url = {"url": project.as_uri(), "dir_info": {"editable": True}}
    dist_info(on_path, "mine", "0.1", {"direct_url.json": json.dumps(url), "top_level.txt": "mine\n"})
    sys.path.append(str(project))
    try:
        catalog = Catalog()
        assert catalog.find("mine.core", innermost("mine.core").f_code.co_filename) is not None
        assert catalog.find("tests_of_mine.test_core", innermost("tests_of_mine.test_core").f_code.co_filename) is None
    finally:
        sys.path.remove(str(project))


def test_stdlib_scripts_and_unknown_code_have_no_distribution(on_path: Path) -> None:
    module(on_path, "loose.helpers")
    catalog = Catalog()
    assert catalog.find("loose.helpers", innermost("loose.helpers").f_code.co_filename) is None
    assert catalog.find("json.decoder", importlib.import_module("json.decoder").__file__) is None
    assert catalog.find("__main__", "/somewhere/script.py") is None
    assert catalog.find("template", "<template>") is None


def test_lazy_index_indexes_an_installed_release_once(db_url: str) -> None:
    import packaging

    frame_module = Catalog().find("packaging.version", str(Path(packaging.__file__).parent / "version.py"))
    assert frame_module is not None and frame_module.name == "packaging"
    announced: list[tuple[str, str]] = []
    with Store(db_url) as store:
        lazy = LazyIndex(store, lambda name, version: announced.append((name, version)))
        assert lazy.ensure([frame_module]) == [f"packaging {frame_module.version}"]
        assert lazy.ensure([frame_module]) == []
        assert LazyIndex(store).ensure([frame_module]) == []  # indexed already: another process reuses it
        assert [r.version for r in store.releases("packaging")] == [frame_module.version]
    assert announced == [("packaging", frame_module.version)]
