"""Which releases a batch means: version ranges, the newest N releases, requirements files.

Versions are listed by the user's own pip (`pip index versions`), so every pip setting applies;
ranges are PEP 440 specifiers, matched with `packaging` as pip would.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from errdex.errors import InputError, SourceError
from errdex.sources.spec import PipSpec, parse_spec

MAX_LIST_BYTES = 1_000_000
MAX_LIST_LINES = 10_000
MAX_OUTPUT_VERSIONS = 20_000
_AVAILABLE = "Available versions:"


def expand(specs: list[str], versions: str | None = None, latest: int | None = None) -> list[str]:
    """Each spec as the releases it means: with `versions` or `latest`, a requirement becomes
    NAME==V for every matching version (oldest first, so each release reuses the one before);
    paths and git revisions stay as they are."""
    wanted = _specifier(versions) if versions is not None else None
    out: list[str] = []
    for spec in specs:
        parsed = parse_spec(spec) if (wanted is not None or latest is not None) else None
        if not isinstance(parsed, PipSpec):
            out.append(spec)
            continue
        requirement = parsed.requirement
        specifier = requirement.specifier & wanted if wanted is not None else requirement.specifier
        chosen = choose(available_versions(requirement.name), specifier, latest)
        if not chosen:
            raise SourceError(
                f"No release of '{requirement.name}' matches '{specifier}'{_latest_text(latest)} (check the range)"
            )
        out.extend(f"{requirement.name}=={v}" for v in chosen)
    return out


def choose(available: list[str], specifier: SpecifierSet, latest: int | None) -> list[str]:
    """The versions a specifier allows (pre-releases only if it names one), the newest `latest`, oldest first."""
    parsed = []
    for text in available:
        try:
            parsed.append(Version(text))
        except InvalidVersion:
            continue
    chosen = sorted(specifier.filter(parsed))
    if latest is not None:
        chosen = chosen[-latest:] if latest > 0 else []
    return [str(v) for v in chosen]


def available_versions(name: str) -> list[str]:
    """Every version of a distribution the user's pip can see, as pip lists them."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "index",
            "versions",
            name,
            "--pre",
            "--ignore-requires-python",
            "--disable-pip-version-check",
            "--no-input",
        ],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    if "No module named pip" in proc.stderr:
        raise SourceError(f"pip is not installed for {sys.executable}; install it to list releases by name")
    if "unknown command" in proc.stderr:
        raise SourceError("this pip has no 'pip index versions'; upgrade pip, or name each release as NAME==VERSION")
    line = next((each for each in proc.stdout.splitlines() if each.startswith(_AVAILABLE)), None)
    if proc.returncode != 0 or line is None:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise SourceError(f"pip lists no releases of '{name}' ({tail}); check the name or your pip index settings")
    return [v.strip() for v in line[len(_AVAILABLE) :].split(",") if v.strip()][:MAX_OUTPUT_VERSIONS]


def read_list(path: Path) -> list[str]:
    """The specs of a list file: one a line; blank lines and `#` comments are ignored."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_LIST_BYTES + 1)
    except OSError as exc:
        raise InputError(f"Cannot read the list '{path}' ({exc.strerror}); check the path") from None
    if len(data) > MAX_LIST_BYTES:
        raise InputError(f"The list '{path}' is larger than {MAX_LIST_BYTES // 1_000_000} MB; split it")
    lines = data.decode("utf-8", "replace").splitlines()
    if len(lines) > MAX_LIST_LINES:
        raise InputError(f"The list '{path}' has more than {MAX_LIST_LINES} lines; split it")
    specs = []
    for number, raw in enumerate(lines, 1):
        text = _without_comment(raw).strip()
        if text.startswith("-"):
            raise InputError(f"{path}:{number}: pip options are not read here; write one package spec a line")
        if text:
            specs.append(text)
    return specs


def _without_comment(line: str) -> str:
    """The line before a `#` that starts it or follows white space (as pip reads requirements)."""
    for i, ch in enumerate(line):
        if ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


def _specifier(text: str) -> SpecifierSet:
    try:
        return SpecifierSet(text)
    except InvalidSpecifier:
        raise InputError(f"--versions {text!r} is not a PEP 440 version range; write e.g. '>=5.10,<=5.16'") from None


def _latest_text(latest: int | None) -> str:
    return f" (newest {latest})" if latest is not None else ""
