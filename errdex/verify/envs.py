"""One virtual environment per (package, version, Python), with the exact release installed from binary wheels only.

pip installs what the release asks for through the user's own pip (`pip --python`); a release or dependency with
no wheel for this Python would need a build, which errdex never does: it reports that instead.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import venv
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from errdex.errors import CannotVerify
from errdex.model import normalize_name

MARKER = "errdex-env.json"  # written last: a folder without it is an install that did not finish
PIP_SECONDS = 1800


@dataclass(frozen=True)
class Environment:
    """An installed release: the interpreter that runs its snippets, and where its files are."""

    package: str
    version: str
    python: str  # "3.11"
    root: Path
    interpreter: Path
    site_packages: tuple[Path, ...]  # purelib and platlib (one folder on most systems)


def python_version() -> str:
    """This interpreter's version as environments are keyed by: "3.11"."""
    return f"{sys.version_info[0]}.{sys.version_info[1]}"


def envs_dir() -> Path:
    """Where the environments live (the user's cache; `errdex verify --clean` removes them)."""
    return Path(platformdirs.user_cache_dir("errdex")) / "verify"


def environment(package: str, version: str, base: Path | None = None) -> Environment:
    """The environment of `package==version` for this Python: the cached one, or a new one installed now."""
    root = (base or envs_dir()) / f"{normalize_name(package)}-{version}-py{python_version()}"
    marker = root / MARKER
    if marker.is_file():
        return _read(marker, package, version)
    if root.exists():
        shutil.rmtree(root)  # an install that stopped half-way
    try:
        venv.EnvBuilder(with_pip=False, symlinks=sys.platform != "win32").create(root)
        interpreter = _interpreter(root)
        _install(interpreter, f"{package}=={version}")
        paths = _site_packages(interpreter)
    except CannotVerify:
        shutil.rmtree(root, ignore_errors=True)
        raise
    marker.write_text(
        json.dumps({"python": python_version(), "interpreter": str(interpreter), "site_packages": paths}, indent=1)
    )
    return _read(marker, package, version)


def clean(base: Path | None = None) -> int:
    """Remove every environment; how many there were."""
    folder = base or envs_dir()
    if not folder.is_dir():
        return 0
    found = [p for p in folder.iterdir() if p.is_dir()]
    for path in found:
        shutil.rmtree(path, ignore_errors=True)
    return len(found)


def _read(marker: Path, package: str, version: str) -> Environment:
    data = json.loads(marker.read_text())
    return Environment(
        package=package,
        version=version,
        python=str(data["python"]),
        root=marker.parent,
        interpreter=Path(data["interpreter"]),
        site_packages=tuple(Path(p) for p in data["site_packages"]),
    )


def _interpreter(root: Path) -> Path:
    for candidate in (root / "bin" / "python", root / "Scripts" / "python.exe"):
        if candidate.exists():
            return candidate
    raise CannotVerify(f"the new environment {root} has no interpreter")


def _install(interpreter: Path, requirement: str) -> None:
    """`pip install` with wheels only; a failure is reported with pip's own last words."""
    args = [sys.executable, "-m", "pip", "--python", str(interpreter), "install", "--only-binary=:all:"]
    args += ["--no-input", "--disable-pip-version-check", "--progress-bar", "off", "--quiet", requirement]
    try:
        proc = subprocess.run(args, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=PIP_SECONDS)
    except subprocess.TimeoutExpired:
        raise CannotVerify(f"cannot verify here: installing {requirement} took more than {PIP_SECONDS} s") from None
    if proc.returncode != 0:
        wheels = f"from wheels for Python {python_version()}"
        raise CannotVerify(f"cannot verify here: pip cannot install {requirement} {wheels}: {_why(proc)}")


def _why(proc: subprocess.CompletedProcess[str]) -> str:
    """pip's error lines, without the list of every version it knows; a wheel it could not find is a release (or a
    dependency) that would need a build."""
    lines = [line.strip() for line in proc.stderr.splitlines() if line.strip()]
    errors = [
        re.sub(r" \(from versions: [^)]*\)", "", line.removeprefix("ERROR: "))
        for line in lines
        if line.startswith("ERROR:")
    ]
    said = " ".join(errors or lines[-2:])[:500] or f"pip exited with {proc.returncode}"
    if "No matching distribution found" in said:
        return f"no wheel for this Python, and errdex builds none ({said})"
    return said


def _site_packages(interpreter: Path) -> list[str]:
    code = "import json, sysconfig; p = sysconfig.get_paths(); print(json.dumps(sorted({p['purelib'], p['platlib']})))"
    proc = subprocess.run([str(interpreter), "-I", "-c", code], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise CannotVerify(f"{interpreter} does not run: {proc.stderr.strip()[-300:]}")
    return [str(p) for p in json.loads(proc.stdout)]
