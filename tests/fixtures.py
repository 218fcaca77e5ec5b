"""Small fixture packages that tests write into a temporary folder."""

from __future__ import annotations

import textwrap
import zipfile
from pathlib import Path

SHOP_V1 = {
    "pyproject.toml": '[project]\nname = "shop"\nversion = "1.0"\n[project.urls]\nSource = "https://github.com/example/shop"\n',
    "shop/__init__.py": "",
    "shop/cart.py": textwrap.dedent(
        """
        MODES = ("fast", "slow")

        class Cart:
            def __init__(self, mode="fast"):
                self.mode = mode
                self.validate()

            def validate(self):
                if self.mode not in MODES:
                    raise ValueError(f"mode must be one of {MODES}, got {self.mode!r}")
                if self.mode == "slow":
                    raise NotImplementedError("slow mode is not ready")
        """
    ),
}


def shop(version: str = "1.0", modes: tuple[str, ...] = ("fast", "slow")) -> dict[str, str]:
    """The shop package at a version, with its allowed modes."""
    files = dict(SHOP_V1)
    files["pyproject.toml"] = files["pyproject.toml"].replace('"1.0"', f'"{version}"')
    files["shop/cart.py"] = files["shop/cart.py"].replace('("fast", "slow")', repr(tuple(modes)))
    return files


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def write_wheel(folder: Path, name: str, version: str, files: dict[str, str]) -> Path:
    path = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as zf:
        for rel, text in files.items():
            if rel.endswith(".py"):
                zf.writestr(rel, text)
        zf.writestr(f"{name}-{version}.dist-info/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    return path
