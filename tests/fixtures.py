"""Small fixture packages that tests write into a temporary folder."""

from __future__ import annotations

import textwrap
import zipfile
from pathlib import Path

MODE_MESSAGE = 'f"mode must be one of {MODES}, got {self.mode!r}"'
MODE_TEMPLATE = "mode must be one of {}, got {}"


def cart_module(modes: tuple[str, ...] = ("fast", "slow"), message: str = MODE_MESSAGE) -> str:
    """shop/cart.py: a mode checked against a module constant (the `raise ValueError` is on line 11)."""
    return textwrap.dedent(
        f"""\
        MODES = {modes!r}


        class Cart:
            def __init__(self, mode="fast"):
                self.mode = mode
                self.validate()

            def validate(self):
                if self.mode not in MODES:
                    raise ValueError({message})
                if self.mode == "slow":
                    raise NotImplementedError("slow mode is not ready")
        """
    )


def shop(version: str = "1.0", modes: tuple[str, ...] = ("fast", "slow")) -> dict[str, str]:
    """The shop package at a version, with its allowed modes."""
    return {
        "pyproject.toml": f'[project]\nname = "shop"\nversion = "{version}"\n[project.urls]\nSource = "https://github.com/example/shop"\n',
        "shop/__init__.py": "",
        "shop/cart.py": cart_module(modes),
    }


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def write_wheel(folder: Path, name: str, version: str, files: dict[str, str]) -> Path:
    """A wheel of the .py files; the same files always give the same bytes (no timestamps)."""
    path = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as zf:
        for rel, text in files.items():
            if rel.endswith(".py"):
                zf.writestr(_member(rel), text)
        zf.writestr(
            _member(f"{name}-{version}.dist-info/METADATA"),
            f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        )
    return path


def _member(name: str) -> zipfile.ZipInfo:
    return zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
