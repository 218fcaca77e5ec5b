"""Hostile archives not covered in tests/sources/test_archive.py: escapes, links out, duplicates, a setup.py trap."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from errdex.cli import main
from errdex.errors import SourceError
from errdex.sources import open_source
from tests.sources.conftest import core_metadata, write_sdist, write_tar

TRAP = "import pathlib\npathlib.Path({marker!r}).write_text('setup.py ran')\nraise SystemExit('ran')\n"


def read_all(spec: Path) -> dict[str, bytes]:
    with open_source(str(spec)) as source:
        return {f.path: f.data for f in source.files()}


@pytest.mark.parametrize(
    "name", ["/abs/evil.py", "C:/evil.py", "C:\\evil.py", "ok/../../evil.py", "\\\\host\\share\\evil.py"]
)
def test_zip_members_that_escape_are_refused(tmp_path: Path, name: str) -> None:
    path = tmp_path / "esc-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("esc/__init__.py", "")
        zf.writestr(name, "raise SystemExit\n")
    with pytest.raises(SourceError, match=r"esc-1\.0-py3-none-any\.whl.*unsafe path"):
        read_all(path)


def test_tar_member_with_dotdot_is_refused(tmp_path: Path) -> None:
    tarball = write_tar(tmp_path / "up-1.0.tar.gz", {"up-1.0/up.py": "", "up-1.0/../../../tmp/evil.py": ""})
    with pytest.raises(SourceError, match=r"up-1\.0\.tar\.gz.*unsafe path"):
        read_all(tarball)


def test_tar_hard_and_soft_links_pointing_outside_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "secret.py"
    outside.write_text("SECRET = 'must never be read'\n")
    tarball = tmp_path / "ln-1.0.tar"
    with tarfile.open(tarball, "w") as tar:
        for name, kind in (("ln-1.0/ln/hard.py", tarfile.LNKTYPE), ("ln-1.0/ln/soft.py", tarfile.SYMTYPE)):
            info = tarfile.TarInfo(name)
            info.type, info.linkname = kind, str(outside)
            tar.addfile(info)
        data = b"OK = 1\n"
        info = tarfile.TarInfo("ln-1.0/ln/__init__.py")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    assert read_all(tarball) == {"ln/__init__.py": b"OK = 1\n"}


def test_duplicate_member_names_are_read_once_the_last_winning_as_an_installer_would(
    tmp_path: Path, db_url: str
) -> None:
    path = tmp_path / "dup-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as zf, pytest.warns(UserWarning, match="Duplicate name"):
        zf.writestr("dup/__init__.py", "raise ValueError('first copy')\n")
        zf.writestr("dup/__init__.py", "raise ValueError('second copy')\n")
        zf.writestr("dup-1.0.dist-info/METADATA", core_metadata("dup", "1.0"))
    tarball = tmp_path / "dup-1.0.tar.gz"
    with tarfile.open(tarball, "w:gz") as tar:
        for text in (b"A = 1\n", b"A = 2\n"):
            info = tarfile.TarInfo("dup-1.0/dup/__init__.py")
            info.size = len(text)
            tar.addfile(info, io.BytesIO(text))
    assert read_all(path) == {"dup/__init__.py": b"raise ValueError('second copy')\n"}
    assert read_all(tarball) == {"dup/__init__.py": b"A = 2\n"}
    result = CliRunner().invoke(main, ["index", str(path), "--json", "--db", db_url])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)[0]["files"] == 1


def test_setup_py_is_never_run(tmp_path: Path, db_url: str) -> None:
    marker = tmp_path / "MARKER"
    trap = TRAP.format(marker=str(marker))
    sdist = write_sdist(
        tmp_path, "trap", "1.0", {"setup.py": trap, "trap/__init__.py": "raise ValueError('trap ready')\n"}
    )
    result = CliRunner().invoke(main, ["index", str(sdist), "--json", "--db", db_url])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)[0]["errors"] == 1
    assert not marker.exists()
    # The trap is real: running that setup.py (which errdex must never do) writes the marker.
    subprocess.run([sys.executable, "-c", trap], cwd=tmp_path, check=False, capture_output=True)
    assert marker.read_text() == "setup.py ran"
