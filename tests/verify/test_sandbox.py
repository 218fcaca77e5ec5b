"""The sandbox holds: a snippet that uses the network, writes outside its directory, reads a secret, forks or
allocates without end is stopped and reported, and the next snippet runs as if nothing happened.

Real processes with this interpreter as the target; each test runs once with the namespaces this machine allows
and once with the audit hook alone (the sandbox on a machine that allows no namespace).
"""

from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path

import pytest

from errdex.verify import sandbox
from errdex.verify.sandbox import (
    IN_INTERPRETER,
    NAMESPACE,
    SNIPPET,
    Frame,
    Limits,
    Logged,
    Observed,
    isolation_available,
    run_snippet,
)

SMALL = Limits(cpu_seconds=1, wall_seconds=30, memory_bytes=512 * 1024**2)
# filling memory takes CPU time too, more on a busy machine: only the memory limit may stop it here
MEMORY = Limits(cpu_seconds=60, wall_seconds=60, memory_bytes=512 * 1024**2)
PYTHON = Path(sys.executable)
SECRET = "s3cret"
SOCKET = 'import socket\nsocket.socket(socket.AF_INET).connect(("1.1.1.1", 80))'
FORK_BOMB = "import os\nwhile True:\n    os.fork()"
ALLOCATE = "chunks = []\nwhile True:\n    chunks.append(bytearray(10**8))"
READ_SECRETS = """\
import os
print(sorted(os.environ.items()))
pids = [p for p in os.listdir("/proc") if p.isdigit()]
for path in [f"/proc/{os.getppid()}/environ", *(f"/proc/{p}/environ" for p in pids)]:
    try:
        with open(path, "rb") as file:
            print(path, file.read())
    except OSError as exc:
        print(path, exc)
"""


@pytest.fixture(params=[NAMESPACE, IN_INTERPRETER])
def isolation(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test under each isolation: the namespaces (where this machine allows them), or the hook alone."""
    if request.param == IN_INTERPRETER:
        monkeypatch.setattr(sandbox, "_isolation", lambda: (IN_INTERPRETER, ()))
    elif isolation_available() != NAMESPACE:
        pytest.skip("this machine allows no network namespace")
    return str(request.param)


def run(code: str, limits: Limits = SMALL) -> Observed:
    return run_snippet(PYTHON, code, limits)


def test_the_isolation_is_reported(isolation: str) -> None:
    observed = run("pass")
    assert (observed.outcome, observed.stopped, observed.isolation) == ("returned", None, isolation)
    assert observed.raised is None and observed.seconds > 0


def test_a_socket_is_stopped(isolation: str) -> None:
    observed = run(SOCKET)
    assert (observed.outcome, observed.stopped) == ("stopped", "blocked: connected a socket (('1.1.1.1', 80))")
    assert observed.raised is not None and observed.raised.exception == "builtins.PermissionError"


def test_a_probe_of_the_loopback_runs_and_a_bind_elsewhere_is_stopped(isolation: str) -> None:
    """urllib3 binds `::1` at import to learn whether IPv6 works: an import that probes must run."""
    probe = run("import socket\ns = socket.socket(socket.AF_INET)\ns.bind(('127.0.0.1', 0))\ns.close()")
    assert (probe.outcome, probe.stopped) == ("returned", None)
    wide = run("import socket\nsocket.socket(socket.AF_INET).bind(('0.0.0.0', 0))")
    assert (wide.outcome, wide.stopped) == ("stopped", "blocked: bound a socket (('0.0.0.0', 0))")


def test_a_host_name_lookup_is_stopped(isolation: str) -> None:
    observed = run('import socket\nsocket.create_connection(("example.com", 80), timeout=1)')
    assert (observed.outcome, observed.stopped) == ("stopped", "blocked: looked up a host (example.com)")


def test_a_caught_block_still_stops_it(isolation: str) -> None:
    observed = run(f"try:\n    {SOCKET.replace(chr(10), '; ')}\nexcept PermissionError:\n    pass")
    assert (observed.outcome, observed.stopped, observed.raised) == (
        "stopped",
        "blocked: connected a socket (('1.1.1.1', 80))",
        None,
    )


@pytest.mark.skipif(isolation_available() != NAMESPACE, reason="this machine allows no network namespace")
def test_the_namespace_cuts_the_network_past_the_hook() -> None:
    """A C call the audit hook never sees finds no network to connect to."""
    code = """\
import ctypes, socket, struct
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.socket(socket.AF_INET, socket.SOCK_STREAM, 0)
address = struct.pack("=H", socket.AF_INET) + struct.pack("!H", 80) + socket.inet_aton("1.1.1.1") + bytes(8)
print(fd >= 0, libc.connect(fd, address, len(address)), ctypes.get_errno())
"""
    observed = run(code)
    assert observed.outcome == "returned"
    assert observed.stdout == "True -1 101\n"  # ENETUNREACH: no interface but a loopback that is down


def test_a_write_outside_its_directory_is_stopped(isolation: str, tmp_path: Path) -> None:
    target = tmp_path.resolve() / "outside.txt"
    observed = run(f"open({str(target)!r}, 'w').write('x')")
    assert (observed.outcome, observed.stopped) == ("stopped", f"blocked: wrote outside its directory ({target})")
    assert not target.exists()


@pytest.mark.parametrize(
    "code",
    [
        "import os\nos.mkdir('/errdex-sandbox-test')",
        "import os\nos.symlink('/etc', 'etc')\nopen('etc/errdex-sandbox-test', 'w')",
        "import os\nos.link('/etc/hostname', 'hostname')",
        "import os\nos.truncate('/etc/hostname', 0)",
        "import os\nos.mkfifo('/errdex-sandbox-test')",
    ],
    ids=["mkdir", "through a symlink", "hard link", "truncate", "mkfifo"],
)
def test_other_ways_out_of_its_directory_are_stopped(isolation: str, code: str) -> None:
    observed = run(code)
    assert observed.outcome == "stopped"
    assert observed.stopped is not None and observed.stopped.startswith("blocked: wrote outside its directory (")


def test_it_writes_freely_inside_its_directory(isolation: str) -> None:
    code = """\
import os, pathlib, tempfile
pathlib.Path("here.txt").write_text("x")
os.makedirs(pathlib.Path.home() / ".cache" / "pkg")
with tempfile.NamedTemporaryFile("w") as file:
    file.write("x")
os.truncate("here.txt", 0)
os.mkfifo("fifo")
os.rename("here.txt", "there.txt")
os.remove("there.txt")
with open(os.devnull, "w") as file:
    print(file.write("x"))
"""
    observed = run(code)
    assert (observed.outcome, observed.stopped, observed.stdout) == ("returned", None, "1\n")


def test_a_secret_in_the_environment_is_out_of_reach(isolation: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRDEX_TEST_SECRET", SECRET)
    observed = run(READ_SECRETS)
    assert observed.stdout.startswith("[('HOME', ")
    assert SECRET not in repr(observed)
    assert observed.outcome == "stopped"
    assert observed.stopped is not None and observed.stopped.startswith("blocked: read another process's environment")


def test_its_environment_is_built_from_nothing(isolation: str) -> None:
    observed = run("import os\nprint(sorted(os.environ))")
    assert observed.stdout == "['HOME', 'LANG', 'PATH', 'TMPDIR']\n"


@pytest.mark.parametrize(
    "code",
    [
        FORK_BOMB,
        "import subprocess\nsubprocess.run(['true'])",
        "import os\nos.system('true')",
        "import multiprocessing\nmultiprocessing.get_context('spawn').Process(target=print).start()",
    ],
    ids=["fork", "subprocess", "system", "multiprocessing"],
)
def test_a_new_process_is_stopped(isolation: str, code: str) -> None:
    observed = run(code)
    assert (observed.outcome, observed.stopped) == ("stopped", "blocked: started a process")


def test_allocating_without_end_is_stopped(isolation: str) -> None:
    observed = run(ALLOCATE, MEMORY)
    assert (observed.outcome, observed.stopped) == ("stopped", "memory limit (512 MiB)")


def test_spinning_is_stopped_by_the_cpu_limit(isolation: str) -> None:
    observed = run("while True:\n    pass")
    assert (observed.outcome, observed.stopped) == ("stopped", "CPU time limit (1 s)")


def test_sleeping_runs_out_of_wall_time(isolation: str) -> None:
    observed = run("import time\ntime.sleep(100)", Limits(wall_seconds=2))
    assert (observed.outcome, observed.stopped) == ("timed out", "wall time (2 s)")
    assert observed.seconds < 5


ORPHAN = """\
import ctypes, time
libc = ctypes.CDLL(None)
if libc.fork() == 0:  # in C: the audit hook does not see it
    libc.prctl(15, b"errdex-orphan", 0, 0, 0)  # PR_SET_NAME
    time.sleep(100)
time.sleep(0.3)
"""


@pytest.mark.parametrize("end", ["returns", "times out"])
def test_what_it_left_running_dies_with_it(isolation: str, end: str) -> None:
    code, limits = (ORPHAN + "time.sleep(100)", Limits(wall_seconds=0.5)) if end == "times out" else (ORPHAN, SMALL)
    observed = run(code, limits)
    assert observed.outcome == ("returned" if end == "returns" else "timed out")
    assert not _running("errdex-orphan")


def _running(name: str) -> list[str]:
    """The processes (not zombies) of this name, once those killed a moment ago have had time to go."""
    deadline = time.monotonic() + 2
    while True:
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError):
                text = stat.read_text()
                if f"({name})" in text and text.rsplit(")", 1)[1].split()[0] != "Z":
                    found.append(stat.parent.name)
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def test_errdex_goes_on_after_the_bad_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRDEX_TEST_SECRET", SECRET)
    write = f"open({str(tmp_path / 'x')!r}, 'w')"
    bad = [run(code) for code in (SOCKET, write, READ_SECRETS, FORK_BOMB, ALLOCATE)]
    assert [o.outcome for o in bad] == ["stopped"] * 5
    good = run('raise ValueError("x")')
    assert good.outcome == "raised" and good.stopped is None
    assert good.raised is not None and (good.raised.exception, good.raised.message) == ("builtins.ValueError", "x")


def test_a_raise_has_its_classes_and_frames() -> None:
    code = 'import json\ndef parse(text):\n    return json.loads(text)\nparse("{")'
    observed = run(code)
    raised = observed.raised
    assert observed.outcome == "raised" and raised is not None
    assert raised.exception == "json.decoder.JSONDecodeError"
    assert raised.names[0] == raised.exception and raised.names[-3:] == (
        "builtins.Exception",
        "builtins.BaseException",
        "builtins.object",
    )
    assert "builtins.ValueError" in raised.names
    assert raised.message.startswith("Expecting property name")
    assert raised.frames[:2] == (Frame(SNIPPET, 4, "<module>"), Frame(SNIPPET, 3, "parse"))
    innermost = raised.frames[-1]
    assert Path(innermost.file).is_absolute() and innermost.file.endswith("json/decoder.py")
    assert 'File "<snippet>", line 3, in parse\n    return json.loads(text)' in observed.stderr


@pytest.mark.parametrize("code", ["raise SystemExit(3)", "raise KeyboardInterrupt"])
def test_exit_and_interrupt_are_raised(code: str) -> None:
    observed = run(code)
    assert observed.outcome == "raised" and observed.raised is not None
    assert observed.raised.exception.removeprefix("builtins.") in code


def test_a_warning_has_its_warn_call_site() -> None:
    code = """\
import warnings
def old():
    warnings.warn("old", DeprecationWarning, stacklevel=2)
for _ in range(2):
    old()
compile("'\\\\d'", "<inner>", "exec")
"""
    observed = run(code)
    assert observed.outcome == "returned"
    first, second, compiled = observed.warned
    assert first == second  # the same warning twice: none is hidden as seen before
    assert (first.category, first.message, first.frame) == (
        "builtins.DeprecationWarning",
        "old",
        Frame(SNIPPET, 3, "old"),
    )
    assert first.names[:2] == ("builtins.DeprecationWarning", "builtins.Warning")
    assert "<snippet>:5: DeprecationWarning: old" in observed.stderr  # still shown where its stacklevel points
    # warned by C code (the compiler): its site is the Python code that called it
    assert "builtins.Warning" in compiled.names and compiled.frame == Frame(SNIPPET, 6, "<module>")


def test_a_log_record_has_its_logging_call_site() -> None:
    code = """\
import logging
log = logging.getLogger("pkg.sub")
def load():
    log.warning("careful with %s", "x")
    log.debug("not enabled")
load()
"""
    observed = run(code)
    assert observed.outcome == "returned"
    assert observed.logged == (Logged("pkg.sub", "WARNING", "careful with x", Frame(SNIPPET, 4, "load")),)
    assert observed.stderr == "careful with x\n"  # logging's last resort prints it as without the sandbox


def test_output_and_messages_are_cut() -> None:
    observed = run('print("x" * 50_000)\nraise ValueError("y" * 50_000)', Limits(output_bytes=1000))
    assert observed.stdout == "x" * 1000
    assert observed.raised is not None and observed.raised.message == "y" * 1000


FORGE = """\
import os
for fd in map(int, os.listdir("/proc/self/fd")):
    if fd > 2:
        try:
            os.write(fd, b"{not json")
        except OSError:
            pass
"""


def test_a_forged_result_is_overwritten() -> None:
    observed = run(FORGE)
    assert (observed.outcome, observed.stopped) == ("returned", None)


def test_a_forged_result_left_alone_is_reported_as_a_crash() -> None:
    observed = run(FORGE + "os._exit(0)")
    assert observed.outcome == "crashed"
    assert observed.stopped is not None and observed.stopped.startswith("malformed result: ")


def test_an_interpreter_that_does_not_start_is_a_crash(isolation: str, tmp_path: Path) -> None:
    observed = run_snippet(tmp_path / "no-python", "pass", SMALL)
    assert observed.outcome == "crashed" and observed.stopped is not None


def test_an_exit_without_a_result_is_a_crash() -> None:
    observed = run("import os\nos._exit(3)")
    assert (observed.outcome, observed.stopped) == ("crashed", "exited with status 3 without a result")
