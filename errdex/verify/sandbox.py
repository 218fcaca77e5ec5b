"""Run a snippet in another environment's interpreter, cut off from the network and the user's files and secrets.

Each snippet runs in its own process (`python -I -B runner.py`) in a fresh working directory with an environment
built from nothing, under limits on CPU time, memory, file size and processes. The network is cut by a network
namespace where the system allows one (with a PID namespace, so that other processes cannot be seen); an audit
hook in the child also blocks sockets, writes outside the working directory, new processes and reads of other
processes' environments. The child reports through an unlinked file the parent parses, trusting none of it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import IO, Literal, TypeVar

RUNNER = Path(__file__).with_name("runner.py")
SNIPPET = "<snippet>"  # the file name frames in the snippet itself have (as runner.py names it)
NAMESPACE = "network namespace"
IN_INTERPRETER = "sockets blocked in the interpreter"
# From the most to the least isolated: a user namespace lets a non-root user make the others, and takes away a
# root user's privileges outside them; the PID namespace hides other processes and dies with its first process.
NAMESPACES = (
    ("--user", "--map-root-user", "--net", "--pid", "--fork", "--kill-child", "--mount-proc"),
    ("--net", "--pid", "--fork", "--kill-child", "--mount-proc"),
    ("--user", "--map-root-user", "--net"),
    ("--net",),
)
# The first process of a PID namespace ignores signals it has no handler for (SIGXCPU among them), so the
# interpreter runs under a shell (which must not add PWD to its environment); the shell reports a signal that
# killed it as 128 + its number.
SHELL = ("/bin/sh", "-c", 'unset PWD; "$@"; exit $?', "sh")
MEMORY_SIGNS = ("MemoryError", "Cannot allocate memory", "std::bad_alloc", "out of memory")

Outcome = Literal["raised", "returned", "stopped", "timed out", "crashed"]
T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    """What one snippet may use."""

    cpu_seconds: int = 60
    wall_seconds: float = 120.0
    memory_bytes: int = 4 * 1024**3  # RLIMIT_AS
    file_bytes: int = 64 * 1024**2  # RLIMIT_FSIZE
    processes: int = 64  # RLIMIT_NPROC: binds only for a non-root user (root's forks are stopped by the audit hook)
    output_bytes: int = 16_000  # stdout, stderr and each message are cut to this


@dataclass(frozen=True)
class Frame:
    file: str  # absolute, as the child saw it ("<snippet>" for the snippet's own lines)
    line: int
    function: str


@dataclass(frozen=True)
class Raised:
    """The exception that escaped the snippet."""

    exception: str  # qualified: "builtins.ValueError"
    names: tuple[str, ...]  # the qualified names of its classes, its MRO from itself to builtins.object
    message: str
    frames: tuple[Frame, ...]  # innermost last


@dataclass(frozen=True)
class Warned:
    category: str
    names: tuple[str, ...]
    message: str
    frame: Frame  # the code that called warn() (not the frame its stacklevel points at)


@dataclass(frozen=True)
class Logged:
    logger: str
    level: str
    message: str
    frame: Frame  # the logging call


@dataclass(frozen=True)
class Observed:
    """What a snippet did; `stopped` says in words why the sandbox stopped it, or why it crashed."""

    outcome: Outcome
    raised: Raised | None
    warned: tuple[Warned, ...]
    logged: tuple[Logged, ...]
    stopped: str | None
    stdout: str
    stderr: str
    isolation: str  # what cut the network: NAMESPACE or IN_INTERPRETER
    seconds: float


@dataclass(frozen=True)
class _Result:
    """The child's record, checked."""

    stopped: str | None
    raised: Raised | None
    warned: tuple[Warned, ...]
    logged: tuple[Logged, ...]


class _Malformed(ValueError):
    """The child's record is not what runner.py writes."""


def isolation_available() -> str:
    """How this machine cuts a snippet off the network: NAMESPACE or IN_INTERPRETER."""
    return _isolation()[0]


@cache
def _isolation() -> tuple[str, tuple[str, ...]]:
    """The isolation and the command prefix that gives it, probed once."""
    unshare, true = shutil.which("unshare"), shutil.which("true")
    if unshare is None or true is None:
        return IN_INTERPRETER, ()
    for flags in NAMESPACES:
        try:
            probe = subprocess.run([unshare, *flags, true], capture_output=True, timeout=10, check=False)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if probe.returncode == 0:
            prefix = (unshare, *flags, *SHELL) if "--pid" in flags else (unshare, *flags)
            return NAMESPACE, prefix
    return IN_INTERPRETER, ()


def run_snippet(python: Path, code: str, limits: Limits = Limits()) -> Observed:  # noqa: B008
    """Run `code` in `python` (another environment's interpreter) in the sandbox; what it did."""
    isolation, prefix = _isolation()
    started = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="errdex-verify-")).resolve()
    try:
        with (
            tempfile.TemporaryFile() as stdin,
            tempfile.TemporaryFile() as stdout,
            tempfile.TemporaryFile() as stderr,
            tempfile.TemporaryFile() as result,
        ):
            stdin.write(code.encode())
            stdin.seek(0)
            try:
                proc = subprocess.Popen(
                    _command(prefix, python, result.fileno(), limits),
                    stdin=stdin,
                    stdout=stdout,
                    stderr=stderr,
                    cwd=workdir,
                    env=_environment(workdir),
                    pass_fds=(result.fileno(),),
                    start_new_session=True,
                )
            except OSError as exc:
                return _not_started(f"cannot start {python}: {exc}", isolation, started)
            status, cpu = _wait(proc, limits.wall_seconds)
            record, problem = _read_result(result, status)
            out, err = _head(stdout, limits.output_bytes), _head(stderr, limits.output_bytes)
    finally:
        _remove(workdir)
    outcome, stopped = _outcome(status, cpu, record, problem, err, limits, wrapped="--pid" in prefix)
    return Observed(
        outcome=outcome,
        raised=record.raised if record else None,
        warned=record.warned if record else (),
        logged=record.logged if record else (),
        stopped=stopped,
        stdout=out,
        stderr=err,
        isolation=isolation,
        seconds=time.monotonic() - started,
    )


def _not_started(reason: str, isolation: str, started: float) -> Observed:
    return Observed("crashed", None, (), (), reason, "", "", isolation, time.monotonic() - started)


def _command(prefix: tuple[str, ...], python: Path, result_fd: int, limits: Limits) -> list[str]:
    numbers = (result_fd, limits.cpu_seconds, limits.memory_bytes, limits.file_bytes, limits.processes)
    return [*prefix, str(python), "-I", "-B", str(RUNNER), *map(str, numbers), str(limits.output_bytes)]


def _environment(workdir: Path) -> dict[str, str]:
    """Built from nothing: no variable of the user's (tokens, proxies, PYTHONPATH) reaches the snippet.

    PYTHONHASHSEED would be ignored: -I ignores every PYTHON* variable.
    """
    home, tmp = workdir / "home", workdir / "tmp"
    home.mkdir()
    tmp.mkdir()
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), "TMPDIR": str(tmp), "LANG": "C.UTF-8"}


def _wait(proc: subprocess.Popen[bytes], wall: float) -> tuple[int | None, float]:
    """The wait status and CPU seconds of the whole tree; status None when the wall time ran out and it was killed."""
    deadline = time.monotonic() + wall
    delay = 0.002
    while (ended := os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)) is None:
        if time.monotonic() >= deadline:
            break
        time.sleep(delay)
        delay = min(delay * 2, 0.05)
    _kill(proc.pid)  # the tree, or what it left running: before reaping, while the pid cannot be another process's
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return (status if ended is not None else None), usage.ru_utime + usage.ru_stime


def _kill(pid: int) -> None:
    """Kill the process group the sandbox started (and, without a PID namespace, its first process by itself)."""
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _head(file: IO[bytes], size: int) -> str:
    file.seek(0)
    return file.read(size).decode("utf-8", "replace")[:size]


def _remove(workdir: Path) -> None:
    """Remove the working directory whatever modes the snippet gave its folders."""
    for root, dirs, _ in os.walk(workdir):
        for name in dirs:
            path = os.path.join(root, name)
            if not os.path.islink(path):
                with contextlib.suppress(OSError):
                    os.chmod(path, 0o700)
    shutil.rmtree(workdir, ignore_errors=True)


def _read_result(file: IO[bytes], status: int | None) -> tuple[_Result | None, str | None]:
    """The child's record, or why there is none: it must have exited 0 after writing one that parses."""
    if status is None:
        return None, None
    code = os.waitstatus_to_exitcode(status)
    file.seek(0)
    data = file.read()
    if code != 0 or not data:
        return None, f"exited with status {code} without a result"
    try:
        return _result(json.loads(data)), None
    except (_Malformed, ValueError, RecursionError) as exc:
        return None, f"malformed result: {str(exc)[:200]}"


def _outcome(
    status: int | None,
    cpu: float,
    record: _Result | None,
    problem: str | None,
    stderr: str,
    limits: Limits,
    *,
    wrapped: bool,
) -> tuple[Outcome, str | None]:
    """The outcome and the reason it was stopped (or crashed), from the exit status first and the record second."""
    if status is None:
        return "timed out", f"wall time ({limits.wall_seconds:g} s)"
    killed = _signal(status, wrapped)
    if killed == signal.SIGXCPU or (killed == signal.SIGKILL and cpu >= limits.cpu_seconds):
        return "stopped", f"CPU time limit ({limits.cpu_seconds} s)"
    memory = f"memory limit ({_size(limits.memory_bytes)})"
    if record is not None:
        if record.stopped is not None:
            return "stopped", record.stopped
        if record.raised is not None and "builtins.MemoryError" in record.raised.names:
            return "stopped", memory
        return ("raised" if record.raised is not None else "returned"), None
    if any(sign in stderr for sign in MEMORY_SIGNS):
        return "stopped", memory
    if killed is not None:
        return "crashed", f"killed by signal {killed} ({signal.Signals(killed).name})"
    return "crashed", problem


def _signal(status: int, wrapped: bool) -> int | None:
    """The signal that killed the interpreter: from the status, or (under the shell) from its 128 + N exit code."""
    if os.WIFSIGNALED(status):
        return os.WTERMSIG(status)
    code = os.WEXITSTATUS(status)
    if wrapped and 128 < code < 128 + signal.NSIG:
        return code - 128
    return None


def _size(n: int) -> str:
    for unit, name in ((1024**3, "GiB"), (1024**2, "MiB"), (1024, "KiB")):
        if n >= unit:
            return f"{n / unit:g} {name}"
    return f"{n} bytes"


def _result(data: object) -> _Result:
    record = _dict(data)
    raised = record.get("raised")
    return _Result(
        stopped=None if record.get("stopped") is None else _get(record, "stopped", str),
        raised=None if raised is None else _raised(_dict(raised)),
        warned=tuple(_warned(_dict(w)) for w in _get(record, "warned", list)),
        logged=tuple(_logged(_dict(r)) for r in _get(record, "logged", list)),
    )


def _raised(data: dict[str, object]) -> Raised:
    return Raised(
        exception=_get(data, "exception", str),
        names=_strings(_get(data, "names", list)),
        message=_get(data, "message", str),
        frames=tuple(_frame(f) for f in _get(data, "frames", list)),
    )


def _warned(data: dict[str, object]) -> Warned:
    return Warned(
        category=_get(data, "category", str),
        names=_strings(_get(data, "names", list)),
        message=_get(data, "message", str),
        frame=_frame(data.get("frame")),
    )


def _logged(data: dict[str, object]) -> Logged:
    return Logged(
        logger=_get(data, "logger", str),
        level=_get(data, "level", str),
        message=_get(data, "message", str),
        frame=_frame(data.get("frame")),
    )


def _frame(data: object) -> Frame:
    if not isinstance(data, list) or len(data) != 3:
        raise _Malformed(f"a frame is not [file, line, function]: {data!r:.100}")
    file, line, function = data
    if not isinstance(file, str) or type(line) is not int or not isinstance(function, str):
        raise _Malformed(f"a frame is not [file, line, function]: {data!r:.100}")
    return Frame(file, line, function)


def _dict(data: object) -> dict[str, object]:
    if not isinstance(data, dict):
        raise _Malformed(f"not an object: {data!r:.100}")
    return data


def _strings(data: list[object]) -> tuple[str, ...]:
    if not all(isinstance(s, str) for s in data):
        raise _Malformed(f"not a list of strings: {data!r:.100}")
    return tuple(str(s) for s in data)


def _get(data: dict[str, object], key: str, kind: type[T]) -> T:
    value = data.get(key)
    if not isinstance(value, kind):
        raise _Malformed(f"{key} is not a {kind.__name__}: {value!r:.100}")
    return value
