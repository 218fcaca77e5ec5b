"""%load_ext: a real IPython terminal shell in a subprocess, and a shell publishing display data like a kernel."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from tests.hooks.conftest import PANEL_TOP, environment, run_command

pytest.importorskip("IPython")

SESSION = """\
from packaging.version import Version
%load_ext errdex.hooks
%errdex
Version("1.0.x")
%errdex
%errdex --full
%unload_ext errdex.hooks
Version("2.y")
"""


def ipython(tmp_path: Path, db: Path, session: str) -> str:
    args = [
        sys.executable,
        "-m",
        "IPython",
        "--simple-prompt",
        "--no-banner",
        "--colors=nocolor",
        "--HistoryManager.enabled=False",
    ]
    return run_command(args, tmp_path, environment(db), stdin=session).stdout


def test_terminal_shell_shows_the_panel_under_the_traceback_and_on_demand(tmp_path: Path, errdex_db: Path) -> None:
    out = ipython(tmp_path, errdex_db, SESSION)
    assert "errdex: no exception to explain yet" in out
    first = out.index("InvalidVersion: Invalid version: '1.0.x'")
    panels = [i for i in range(len(out)) if out.startswith(PANEL_TOP, i)]
    assert len(panels) == 2  # under the traceback, and again for %errdex
    assert first < panels[0]
    assert "packaging/version.py:" in out[panels[0] :] and "'1.0.x'" in out[panels[0] : panels[1]]
    full = out.index("Provenance", panels[1])  # %errdex --full prints the whole page
    after_unload = out.index("InvalidVersion: Invalid version: '2.y'")
    assert full < after_unload and PANEL_TOP not in out[after_unload:]


def test_load_ext_errdex_once_the_package_exports_the_extension(tmp_path: Path, errdex_db: Path) -> None:
    import errdex

    if not hasattr(errdex, "load_ipython_extension"):
        pytest.skip("errdex/__init__.py does not export load_ipython_extension yet (errdex.hooks does)")
    out = ipython(tmp_path, errdex_db, "from packaging.version import Version\n%load_ext errdex\nVersion('1.0.x')\n")
    assert out.index("InvalidVersion: Invalid version: '1.0.x'") < out.index(PANEL_TOP)


def test_terminal_shell_abstains_for_pydantic(tmp_path: Path, errdex_db: Path) -> None:
    session = "import pydantic\n%load_ext errdex.hooks\nclass M(pydantic.BaseModel):\n    x: int\n\nM(x='a')\n"
    out = ipython(tmp_path, errdex_db, session)
    assert "1 validation error for M" in out
    assert PANEL_TOP not in out and "compiled code" in " ".join(out.split())


KERNEL_LIKE = """
import json
from IPython.core.displaypub import CapturingDisplayPublisher
from IPython.core.interactiveshell import InteractiveShell

shell = InteractiveShell.instance(display_pub_class=CapturingDisplayPublisher)
shell.run_cell("%load_ext errdex.hooks")
shell.run_cell("from packaging.version import Version")
shell.run_cell('Version("1.0.x")')
print(json.dumps(shell.display_pub.outputs))
"""


def test_notebook_gets_an_html_panel(tmp_path: Path, errdex_db: Path) -> None:
    (tmp_path / "kernel_like.py").write_text(textwrap.dedent(KERNEL_LIKE))
    shown = run_command([sys.executable, "kernel_like.py"], tmp_path, environment(errdex_db))
    outputs = json.loads(shown.stdout.strip().splitlines()[-1])
    assert len(outputs) == 1
    data = outputs[0]["data"]
    assert set(data) == {"text/plain", "text/html"}
    assert data["text/html"].startswith('<pre class="errdex"') and "<span" in data["text/html"]
    assert "packaging/version.py:" in data["text/html"] and "&#x27;1.0.x&#x27;" in data["text/html"]
    assert "\x1b[" not in data["text/plain"] and "'1.0.x'" in data["text/plain"]
