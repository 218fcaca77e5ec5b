"""Every ```python block of docs/*.md and the README runs, in order, as one program per file.

Each file's blocks run in a fresh interpreter in an empty folder, with the default index in that
folder and no network (sockets refuse to connect, pip has no index, no LLM endpoint), so an
example can neither reach out nor touch the user's own index.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_architecture import ALLOWED

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

RUNNER = """
import json, socket, sys

def refuse(self, address):
    raise OSError(f"documentation examples must not reach the network ({address!r})")

socket.socket.connect = refuse
socket.socket.connect_ex = refuse
document, blocks = json.load(sys.stdin)
namespace = {"__name__": "__main__"}
for first_line, code in blocks:
    # padded so that a traceback names the line of the Markdown file
    exec(compile("\\n" * (first_line - 1) + code, document, "exec"), namespace)
"""


def python_blocks(text: str) -> list[tuple[int, str]]:
    """(line of the block's first line of code, code) of each ```python fence, in order."""
    blocks: list[tuple[int, str]] = []
    lines = text.splitlines()
    start: int | None = None
    for number, line in enumerate(lines, 1):
        if start is None and line.strip() == "```python":
            start = number + 1
        elif start is not None and line.strip() == "```":
            blocks.append((start, "\n".join(lines[start - 1 : number - 1]) + "\n"))
            start = None
    assert start is None, f"a ```python block opened at line {start - 1} is never closed"
    return blocks


def test_the_api_document_has_examples() -> None:
    blocks = python_blocks((ROOT / "docs" / "api.md").read_text(encoding="utf-8"))
    assert len(blocks) >= 5 and any("errdex.explain(" in code for _, code in blocks)


def test_blocks_are_found_with_their_lines() -> None:
    text = "# t\n\n```python\nx = 1\ny = 2\n```\n\n```sh\nls\n```\n```python\nz = 3\n```\n"
    assert python_blocks(text) == [(4, "x = 1\ny = 2\n"), (12, "z = 3\n")]


@pytest.mark.parametrize("document", DOCUMENTS, ids=[str(p.relative_to(ROOT)) for p in DOCUMENTS])
def test_examples_run(document: Path, tmp_path: Path) -> None:
    blocks = python_blocks(document.read_text(encoding="utf-8"))
    if not blocks:
        pytest.skip(f"{document.name} has no python examples")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ERRDEX_", "PIP_"))}
    env.update(ERRDEX_DB=str(tmp_path / "default.db"), ERRDEX_CACHE=str(tmp_path / "cache"), PIP_NO_INDEX="1")
    done = subprocess.run(
        [sys.executable, "-c", RUNNER],
        input=json.dumps([str(document), blocks]),
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-4000:]


def readme_layout() -> list[set[str]]:
    """The stages the README's Development section lists, in groups separated by arrows."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Development\n", 1)[1].split("\n## ", 1)[0]
    layout = section.split("Layout:", 1)[1].split("(", 1)[0]
    return [set(re.findall(r"`errdex/(\w+)`", group)) for group in layout.split("→")]


def test_the_readme_layout_is_the_folders_and_the_layering_test() -> None:
    groups = readme_layout()
    folders = {p.parent.name for p in (ROOT / "errdex").glob("*/__init__.py")}
    assert set().union(*groups) == folders
    for position, group in enumerate(groups):
        later = set().union(*groups[position + 1 :])
        for stage in group:
            assert not ALLOWED[stage] & later, f"{stage} may import {ALLOWED[stage] & later}, listed after it"
