"""Read a git commit's files through git's object store: no checkout, no work tree, no hooks."""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlsplit

from errdex.errors import SourceError
from errdex.model import ReleaseInfo

from .layout import compiled_paths, import_paths, is_compiled, tree_layout
from .metadata import normalize_repository, repository_url
from .tree import (
    DEFAULT_LIMITS,
    Mapped,
    SourceLimits,
    TreeSource,
    file_too_big,
    is_wanted,
    read_meta,
    too_many_compiled,
)

_REGULAR_MODES = frozenset({"100644", "100755"})  # symlinks (120000) and submodules (160000) are skipped


def _git_env(repo: Path | None) -> dict[str, str]:
    """Git's environment: never prompt, never climb from the given folder into an enclosing repository."""
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}
    if repo is not None:
        env["GIT_CEILING_DIRECTORIES"] = str(repo.parent)
    return env


def _run_git(args: list[str], repo: Path | None, what: str) -> bytes:
    """Run one git command and return its stdout; its failure becomes a SourceError about `what`."""
    cmd = ["git", *(["-C", str(repo)] if repo else []), *args]
    try:
        proc = subprocess.run(cmd, capture_output=True, env=_git_env(repo), stdin=subprocess.DEVNULL)
    except FileNotFoundError as exc:
        raise SourceError("git is not installed or not on PATH; install git to read git+ sources") from exc
    if proc.returncode != 0:
        detail = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise SourceError(f"{what}; git said: {detail[-1]}" if detail else what)
    return proc.stdout


class _CatFile:
    """One `git cat-file --batch` process that hands back blobs one at a time."""

    def __init__(self, repo: Path) -> None:
        self._proc = subprocess.Popen(
            ["git", "-C", str(repo), "cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=_git_env(repo),
        )

    def blob(self, oid: str) -> bytes:
        assert self._proc.stdin and self._proc.stdout
        self._proc.stdin.write(oid.encode("ascii") + b"\n")
        self._proc.stdin.flush()
        header = self._proc.stdout.readline().split()
        if len(header) != 3 or header[1] != b"blob":
            raise SourceError(f"git could not read object {oid} ({b' '.join(header).decode('ascii', 'replace')})")
        data = self._proc.stdout.read(int(header[2]))
        self._proc.stdout.read(1)  # the newline after each object
        return data

    def close(self) -> None:
        if self._proc.stdin:
            self._proc.stdin.close()
        if self._proc.stdout:
            self._proc.stdout.close()
        self._proc.wait()


class GitTree:
    """The wanted files of one commit, listed by `git ls-tree` and read by `git cat-file`."""

    def __init__(self, repo: Path, commit: str, label: str, limits: SourceLimits) -> None:
        self.label = label
        self._limits = limits
        self._blobs = self._list(repo, commit)
        self._cat = _CatFile(repo)

    def _list(self, repo: Path, commit: str) -> dict[str, tuple[str, int]]:
        out = _run_git(["ls-tree", "-r", "-l", "-z", "--full-tree", commit], repo, f"Cannot list {self.label}")
        blobs: dict[str, tuple[str, int]] = {}
        for record in out.split(b"\0"):
            head, _, raw_path = record.partition(b"\t")
            fields = head.split()
            if len(fields) != 4 or fields[1] != b"blob" or fields[0].decode() not in _REGULAR_MODES:
                continue
            path = raw_path.decode("utf-8", "surrogateescape")
            if is_wanted(path, int(fields[3]), self._limits):
                blobs[path] = (fields[2].decode("ascii"), int(fields[3]))
        if sum(map(is_compiled, blobs)) > self._limits.compiled_files:
            raise too_many_compiled(self.label, self._limits)
        return blobs

    def paths(self) -> Sequence[str]:
        return list(self._blobs)

    def read(self, path: str) -> bytes:
        oid, size = self._blobs[path]
        if size > self._limits.file_bytes:
            raise file_too_big(self.label, path, self._limits)
        return self._cat.blob(oid)

    def close(self) -> None:
        self._cat.close()


def _local_repo(location: str) -> Path | None:
    """The folder of a local repository (path or file:// URL); None for a remote URL."""
    if "://" not in location:
        return Path(os.path.expanduser(location))  # "~nobody" stays as written
    parts = urlsplit(location)
    return Path(parts.path) if parts.scheme == "file" else None


def _clone(url: str, stack: ExitStack, progress: Callable[[str], None]) -> Path:
    """A bare clone of a remote repository into a temporary folder the stack removes."""
    if url.startswith("-"):
        raise SourceError(f"'{url}' is not a git URL")
    target = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="errdex-git-"))) / "repo.git"
    progress(f"cloning {url}")
    _run_git(
        ["clone", "--bare", "--quiet", "--", url, str(target)],
        None,
        f"Cannot clone '{url}' (check the URL and your access)",
    )
    return target


def _release_name(location: str) -> str:
    """A repository's name from its path or URL: '/src/foo.git' -> 'foo'."""
    tail = location.rstrip("/").replace(":", "/").rsplit("/", 1)[-1]
    return tail.removesuffix(".git") or "repository"


def open_git_source(
    location: str,
    rev: str | None,
    spec: str,
    stack: ExitStack,
    progress: Callable[[str], None],
    limits: SourceLimits = DEFAULT_LIMITS,
) -> TreeSource:
    """Open one commit of a git repository (local path, bare or not, or remote URL) as a Source."""
    local = _local_repo(location)
    if local is not None and not local.exists():
        raise SourceError(f"No such git repository: '{local}' (check the path)")
    repo = local.resolve() if local is not None else _clone(location, stack, progress)
    revision = rev or "HEAD"
    if revision.startswith("-"):
        raise SourceError(f"'{revision}' is not a git revision")
    sha = (
        _run_git(
            ["rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"],
            repo,
            f"No commit '{revision}' in git repository '{location}' (check the branch, tag or sha)",
        )
        .decode("ascii")
        .strip()
    )
    tree = GitTree(repo, sha, f"git commit {sha[:12]} of '{location}'", limits)
    stack.callback(tree.close)
    meta = read_meta(tree, ("pyproject.toml", "setup.cfg"))
    origin = location if local is None else _origin_url(repo)
    mapping = import_paths(tree.paths(), wheel=False)
    info = ReleaseInfo(
        package=meta.name or _release_name(location if local is None else str(repo)),
        version=meta.version or f"0+g{sha[:7]}",
        spec=spec,
        source_kind="git",
        digest=sha,
        repository_url=repository_url(meta.urls) or (normalize_repository(origin) if origin else None),
        layout=tree_layout(mapping, "git"),
    )
    return TreeSource(info, tree, mapping, (Mapped(tree, tuple(compiled_paths(tree.paths()))),))


def _origin_url(repo: Path) -> str | None:
    """The `origin` remote a local repository was cloned from, if it has one."""
    try:
        out = _run_git(["config", "--get", "remote.origin.url"], repo, "no origin")
    except SourceError:
        return None
    return out.decode("utf-8", "replace").strip() or None
