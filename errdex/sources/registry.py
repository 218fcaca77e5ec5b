"""Fetch a release file through the user's own pip, never building it, and keep it in a cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import TypedDict, cast

from packaging.requirements import Requirement
from packaging.utils import canonicalize_version
from packaging.version import InvalidVersion, Version

from errdex.errors import SourceError
from errdex.model import normalize_name

from .archive import ARCHIVE_SUFFIXES, open_archive_source

FetchProgress = Callable[[str], None]
# Platforms whose wheels carry the same .py files as any other; tried when no wheel suits this Python.
# pip widens manylinux2014 to manylinux2010 and manylinux1. macOS tags are left out: pip widens
# each to hundreds of tags, which makes every attempt slow, and macOS-only releases are rare.
_PLATFORMS = ("manylinux_2_34_x86_64", "manylinux_2_28_x86_64", "manylinux2014_x86_64", "win_amd64")
_OTHER_PYTHONS = ((3, 14), (3, 13), (3, 12), (3, 11), (3, 10), (3, 9), (3, 8), (3, 7), (3, 6), (3, 5))
_FINDER_SCRIPT = Path(__file__).with_name("pip_finder.py")
SDIST_ONLY = ["--no-binary=:all:"]  # the finder's options that select a release's source archive
_SAFE_KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_+!")


def pip_spec(requirement: Requirement) -> str:
    """The requirement as pip gets it: name and version specifier, no extras or markers."""
    return f"{requirement.name}{requirement.specifier}"


def exact_version(requirement: Requirement) -> str | None:
    """The version a requirement pins with a single `==X` or `===X`, else None."""
    specs = list(requirement.specifier)
    if len(specs) == 1 and specs[0].operator in ("==", "===") and "*" not in specs[0].version:
        return specs[0].version
    return None


def _cache_key(value: str, what: str) -> str:
    """A cache folder name made from metadata, refusing anything that is not a plain name or version."""
    if not value or not set(value) <= _SAFE_KEY_CHARS or value.startswith(".") or len(value) > 200:
        raise SourceError(f"The release's {what} {value[:100]!r} cannot name a cache folder; it is not a valid {what}")
    return value


def _version_key(version: str) -> str:
    try:
        return _cache_key(canonicalize_version(Version(version)), "version")
    except InvalidVersion:
        return _cache_key(version, "version")


def release_dir(cache_dir: Path, name: str, version: str) -> Path:
    """Where one release's file is kept: CACHE/<normalised name>/<canonical version>/."""
    return cache_dir / _cache_key(normalize_name(name), "name") / _version_key(version)


def cached_file(cache_dir: Path, name: str, version: str) -> Path | None:
    """The release file kept for NAME==VERSION, a wheel before an sdist, or None."""
    folder = release_dir(cache_dir, name, version)
    if not folder.is_dir():
        return None
    files = sorted(p for p in folder.iterdir() if p.is_file() and p.name.lower().endswith(ARCHIVE_SUFFIXES))
    files.sort(key=lambda p: not p.name.lower().endswith(".whl"))
    return files[0] if files else None


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    """Run this interpreter with pip's flags; a missing pip is the user's to fix."""
    proc = subprocess.run([sys.executable, "-P", *args], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if "No module named pip" in proc.stderr:
        raise SourceError(f"pip is not installed for {sys.executable}; install it to fetch releases by name")
    return proc


def _download_wheel(spec: str, dest: Path) -> Path | None:
    """`pip download` of a wheel for this Python; None when pip has none (or fails)."""
    proc = _run(
        [
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--ignore-requires-python",
            "--no-input",
            "--progress-bar",
            "off",
            "--disable-pip-version-check",
            "-d",
            str(dest),
            spec,
        ]
    )
    files = [p for p in dest.iterdir() if p.is_file()]
    return files[0] if proc.returncode == 0 and len(files) == 1 else None


def _finder_attempts() -> list[list[str]]:
    """Wheels for other Pythons (nearest first, then older), then the source archive."""
    here = sys.version_info[:2]
    pythons = sorted(_OTHER_PYTHONS, key=lambda v: (abs(v[1] - here[1]), -v[1]))
    attempts = []
    for major, minor in pythons:
        abis = [f"cp{major}{minor}"] + ([f"cp{major}{minor}m"] if minor <= 7 else [])
        args = ["--only-binary=:all:", "--python-version", f"{major}.{minor}", "--implementation", "cp"]
        args += [a for abi in abis for a in ("--abi", abi)]
        args += [a for platform in _PLATFORMS for a in ("--platform", platform)]
        attempts.append(args)
    attempts.append(SDIST_ONLY)
    return attempts


def _newest(versions: list[str]) -> str:
    def key(v: str) -> tuple[int, Version | str]:
        try:
            return (1, Version(v))
        except InvalidVersion:
            return (0, v)

    return max(versions, key=key)


class FinderResult(TypedDict, total=False):
    """The last line pip_finder.py prints: the file it saved, or why it saved none."""

    file: str
    name: str
    version: str
    error: str  # not_found | download | internals
    detail: str
    versions: list[str]
    unreachable: bool  # with not_found: some index page could not be read, so the answer may be wrong


def run_finder(requirement: Requirement, dest: Path, attempts: list[list[str]]) -> tuple[FinderResult, str]:
    """pip's finder, in pip's own interpreter, downloading the best file the attempts select into dest;
    its answer, and the last line of pip's error output."""
    script = _FINDER_SCRIPT.read_text(encoding="utf-8")
    proc = _run(["-c", script, pip_spec(requirement), str(dest), json.dumps(attempts)])
    lines = proc.stdout.strip().splitlines()
    try:
        result = cast(FinderResult, json.loads(lines[-1])) if lines else FinderResult()
    except ValueError:
        result = FinderResult()
    return result, (proc.stderr.strip().splitlines() or ["no output"])[-1]


def _find_and_fetch(requirement: Requirement, dest: Path) -> Path:
    """Any wheel or the sdist, chosen and downloaded by pip's finder in pip's own interpreter."""
    spec = pip_spec(requirement)
    result, tail = run_finder(requirement, dest, _finder_attempts())
    if "file" in result:
        return Path(result["file"])
    error = result.get("error")
    if error == "not_found" and result.get("versions"):
        raise SourceError(
            f"No release of '{requirement.name}' matches '{requirement.specifier}' "
            f"(pip sees versions up to {_newest(result['versions'])}; check the version)"
        )
    if error == "not_found":
        raise SourceError(
            f"No release of '{requirement.name}' found by pip (check the name, or your pip index settings)"
        )
    if error == "download":
        raise SourceError(f"pip found '{spec}' but could not download it ({result.get('detail')}); try again")
    if error == "internals":
        raise SourceError(
            f"No wheel of '{spec}' for this Python, and this pip's internals changed so errdex cannot "
            f"fetch another file ({result.get('detail')}); download the release file and pass its path"
        )
    raise SourceError(f"pip failed while looking for '{spec}' ({tail})")


def _store(downloaded: Path, cache_dir: Path) -> Path:
    """Move a downloaded file into the cache under the name and version its own metadata gives."""
    with ExitStack() as stack:
        info = open_archive_source(downloaded, downloaded.name, stack).info
    folder = release_dir(cache_dir, info.package, info.version)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / downloaded.name
    os.replace(downloaded, target)
    return target


def fetch_release(requirement: Requirement, cache_dir: Path, progress: FetchProgress) -> Path:
    """The release file for a requirement: from the cache for an exact pin, else through pip."""
    pinned = exact_version(requirement)
    if pinned is not None:
        hit = cached_file(cache_dir, requirement.name, pinned)
        if hit is not None:
            progress(f"using cached {hit.name}")
            return hit
    spec = pip_spec(requirement)
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SourceError(f"Cannot create the release cache '{cache_dir}' ({exc.strerror}); set ERRDEX_CACHE") from exc
    with tempfile.TemporaryDirectory(dir=cache_dir, prefix=".download-") as tmp:
        progress(f"downloading {spec}")
        got = _download_wheel(spec, Path(tmp))
        if got is None:
            progress(f"no wheel of {spec} for this Python; looking for other wheels or the source archive")
            got = _find_and_fetch(requirement, Path(tmp))
        stored = _store(got, cache_dir)
    progress(f"saved {stored.name}")
    return stored
