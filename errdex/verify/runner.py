"""The child side of the sandbox: run one snippet, record what it raised, warned and logged, and what was blocked.

Run by `sandbox.py` in the target environment's interpreter as `python -I -B runner.py RESULT_FD CPU AS FSIZE NPROC CUT`
with the snippet on stdin. It imports the standard library only (errdex is not installed there) and writes its
record as JSON to RESULT_FD, an unlinked file the parent opened, so that the snippet has no path to forge it at.
"""

import _posixsubprocess
import faulthandler
import json
import linecache
import logging
import os
import re
import resource
import sys
import threading
import traceback
import types
import warnings

SNIPPET = "<snippet>"  # the snippet's file name in frames
RUNNER = __file__
MAX_EVENTS = 100  # warnings (log records) kept; a loop that warns forever must not fill the result
MAX_FRAMES = 100  # innermost frames kept of a traceback
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
PROC_SECRET = re.compile(r"/proc/(\d+)(?:/task/\d+)?/(environ|mem)")
PROCESS_EVENTS = {"os.exec", "os.fork", "os.forkpty", "os.posix_spawn", "os.spawn", "os.system", "subprocess.Popen"}
LOOKUP_EVENTS = {
    "socket.getaddrinfo",
    "socket.gethostbyname",
    "socket.gethostbyname_ex",
    "socket.gethostbyaddr",
    "socket.getnameinfo",
}
# event -> for each path it changes: (index of the path, index of its dir_fd or None, whether to follow a symlink)
CHANGES = {
    "os.remove": ((0, 1, False),),
    "os.rmdir": ((0, 1, False),),
    "os.mkdir": ((0, 2, False),),
    "os.rename": ((0, 2, False), (1, 3, False)),
    "os.link": ((0, 2, True), (1, 3, False)),
    "os.symlink": ((1, 2, False),),
    "os.chmod": ((0, 2, True),),
    "os.chown": ((0, 3, True),),
    "os.utime": ((0, 3, True),),
    "os.setxattr": ((0, None, True),),
    "os.removexattr": ((0, None, True),),
    "os.truncate": ((0, None, True),),
}


class Record:
    """What the snippet did, filled in as it runs."""

    def __init__(self, workdir, cut):
        self.workdir = workdir
        self.cut = cut
        self.stopped = None
        self.warned = []
        self.logged = []
        self.local = threading.local()  # .warning: inside our warn wrapper (its warning is recorded already)


def main():
    result_fd, cpu, memory, fsize, nproc, cut = (int(a) for a in sys.argv[1:7])
    code = sys.stdin.buffer.read().decode("utf-8")
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)  # the snippet reads an empty stdin
    sys.argv = [SNIPPET]
    _limit(cpu, memory, fsize, nproc)
    faulthandler.enable()  # a crash in a C extension still leaves a Python traceback on stderr
    record = Record(os.path.realpath(os.getcwd()), cut)
    _watch_warnings(record)
    _watch_logging(record)
    _patch_unaudited(record)
    sys.addaudithook(lambda event, args: _audit(record, event, args))
    raised = _run(code, record)
    _flush()
    _write(result_fd, {"stopped": record.stopped, "raised": raised, "warned": record.warned, "logged": record.logged})
    os._exit(0)  # no atexit handler or finalizer of the snippet runs after the record is written


def _limit(cpu, memory, fsize, nproc):
    """Lower the limits before any of the snippet's code runs (RLIMIT_NPROC binds only for a non-root user)."""
    _lower(resource.RLIMIT_CPU, cpu, cpu + 1)  # SIGXCPU at the soft limit, SIGKILL a second later
    _lower(resource.RLIMIT_AS, memory, memory)
    _lower(resource.RLIMIT_FSIZE, fsize, fsize)
    _lower(resource.RLIMIT_NPROC, nproc, nproc)


def _lower(which, soft, hard):
    """Set a limit, never above the hard limit already in force (raising it needs privileges)."""
    current = resource.getrlimit(which)[1]
    if current != resource.RLIM_INFINITY:
        soft, hard = min(soft, current), min(hard, current)
    resource.setrlimit(which, (soft, hard))


def _run(code, record):
    """Run the snippet as a fresh __main__ module; what escaped it, as a dict, or None."""
    module = types.ModuleType("__main__")
    sys.modules["__main__"] = module
    warnings.simplefilter("always")
    linecache.cache[SNIPPET] = (len(code), None, code.splitlines(True), SNIPPET)  # its lines in printed tracebacks
    reserve = bytearray(1 << 20)  # freed after a MemoryError, so that it can still be recorded
    try:
        exec(compile(code, SNIPPET, "exec"), module.__dict__)
    except BaseException as exc:  # SystemExit and KeyboardInterrupt are results too
        del reserve
        module.__dict__.clear()
        return _raised(exc, record.cut)
    return None


def _raised(exc, cut):
    exc.__traceback__ = _snippet_part(exc.__traceback__)
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        frames.append([code.co_filename, tb.tb_lineno or 0, code.co_name])
        tb = tb.tb_next
    cls = type(exc)
    raised = {"exception": _name(cls), "names": _names(cls), "message": _text(exc, cut), "frames": frames[-MAX_FRAMES:]}
    _print(exc)
    return raised


def _snippet_part(tb):
    """The traceback without the runner's frames: its exec() outermost, the audit hook's innermost."""
    while tb is not None and tb.tb_frame.f_code.co_filename == RUNNER:
        tb = tb.tb_next
    last = tb
    while last is not None and last.tb_next is not None:
        if last.tb_next.tb_frame.f_code.co_filename == RUNNER:
            last.tb_next = None
        else:
            last = last.tb_next
    return tb


def _print(exc):
    """Print the traceback to stderr as Python would, with the snippet's lines (a failure must not lose the record)."""
    try:
        traceback.print_exception(type(exc), exc, exc.__traceback__)
    except Exception:
        pass


def _name(cls):
    return f"{cls.__module__}.{cls.__qualname__}"


def _names(cls):
    return [_name(c) for c in cls.__mro__]


def _text(value, cut):
    try:
        return str(value)[:cut]
    except Exception:
        return f"<{type(value).__name__} with an unprintable message>"


def _frame(frame):
    return [frame.f_code.co_filename, frame.f_lineno or 0, frame.f_code.co_name]


def _watch_warnings(record):
    """Record every warning at the call of warn() or warn_explicit(), and those C code warns as they are shown."""
    warn, warn_explicit, showwarning = warnings.warn, warnings.warn_explicit, warnings.showwarning

    def watched_warn(message, category=None, stacklevel=1, *args, **kwargs):
        _note_warning(record, message, category, sys._getframe(1))
        # stacklevel counts from here: one more for this wrapper, one for _noted
        return _noted(record, warn, message, category, stacklevel + 2, *args, **kwargs)

    def watched_warn_explicit(message, category, *args, **kwargs):
        _note_warning(record, message, category, sys._getframe(1))
        return _noted(record, warn_explicit, message, category, *args, **kwargs)

    def watched_showwarning(message, category, filename, lineno, *args, **kwargs):
        if not getattr(record.local, "warning", False):
            _note_warning(record, message, category, _outside_warnings(sys._getframe(1)))
        return showwarning(message, category, filename, lineno, *args, **kwargs)

    warnings.warn, warnings.warn_explicit = watched_warn, watched_warn_explicit
    warnings.showwarning = watched_showwarning


def _noted(record, function, *args, **kwargs):
    """Call the real warn function with showwarning told that this warning is recorded already."""
    inside = getattr(record.local, "warning", False)
    record.local.warning = True
    try:
        return function(*args, **kwargs)
    finally:
        record.local.warning = inside


def _outside_warnings(frame):
    """The first frame outside the warnings module: the code that called the C function that warned."""
    while frame is not None and frame.f_code.co_filename in (warnings.__file__, RUNNER):
        frame = frame.f_back
    return frame


def _note_warning(record, message, category, frame):
    if isinstance(message, Warning):
        category = type(message)
    category = UserWarning if category is None else category
    if len(record.warned) >= MAX_EVENTS or not (isinstance(category, type) and issubclass(category, Warning)):
        return
    site = _frame(frame) if frame is not None else ["?", 0, "?"]
    note = {"category": _name(category), "names": _names(category), "message": _text(message, record.cut)}
    record.warned.append({**note, "frame": site})


def _watch_logging(record):
    """Record every record a logger handles, at the logger that made it, without changing any level or handler."""
    handle = logging.Logger.handle

    def watched_handle(self, log_record):
        _note_log(record, log_record)
        return handle(self, log_record)

    setattr(logging.Logger, "handle", watched_handle)  # noqa: B010 (a method replaced on the class)


def _note_log(record, log_record):
    if len(record.logged) >= MAX_EVENTS:
        return
    try:
        message = log_record.getMessage()[: record.cut]
    except Exception:  # arguments that do not fit the format: logging itself reports it when emitting
        message = _text(log_record.msg, record.cut)
    frame = [str(log_record.pathname), int(log_record.lineno or 0), str(log_record.funcName)]
    note = {"logger": str(log_record.name), "level": str(log_record.levelname), "message": message}
    record.logged.append({**note, "frame": frame})


def _patch_unaudited(record):
    """Block what raises no audit event: multiprocessing's _posixsubprocess.fork_exec, os.mkfifo and os.mknod."""

    def blocked(*args, **kwargs):
        _block(record, "started a process")

    _posixsubprocess.fork_exec = blocked
    for name in ("mkfifo", "mknod"):
        setattr(os, name, _checked(record, getattr(os, name)))


def _checked(record, make):
    def checked(path, *args, dir_fd=None, **kwargs):
        target = _resolve(path, dir_fd, False)
        if not _inside(record, target):
            _block(record, f"wrote outside its directory ({target})")
        return make(path, *args, dir_fd=dir_fd, **kwargs)

    return checked


def _audit(record, event, args):
    """The audit hook: block what a snippet must not do, whatever it catches (the first block is the result)."""
    if event == "open":
        reason = _open(record, args)
    elif event in CHANGES:
        reason = _changes(record, event, args)
    elif event in PROCESS_EVENTS:
        reason = "started a process"
    elif event.startswith("socket."):
        reason = _network(event, args)
    elif event in ("os.kill", "os.killpg"):
        reason = None if event == "os.kill" and args[0] == os.getpid() else "signalled another process"
    elif event in ("resource.setrlimit", "resource.prlimit"):
        reason = _rlimit(event, args)
    else:
        return
    if reason is not None:
        _block(record, reason)


def _block(record, reason):
    record.stopped = record.stopped or f"blocked: {reason}"
    raise PermissionError(f"errdex sandbox: {reason}")


def _open(record, args):
    path, mode, flags = args
    if isinstance(path, int):
        return None  # a descriptor already open
    target = _resolve(path, None, True)
    secret = PROC_SECRET.fullmatch(target)
    if secret and secret[2] == "mem":
        return f"read a process's memory ({target})"
    if secret and int(secret[1]) != os.getpid():
        return f"read another process's environment ({target})"
    writes = (flags or 0) & WRITE_FLAGS or any(c in (mode or "") for c in "wax+")
    if writes and not _inside(record, target):
        return f"wrote outside its directory ({target})"
    return None


def _changes(record, event, args):
    if event == "os.truncate" and isinstance(args[0], int):
        return None  # ftruncate needs a descriptor open for writing, and opening one was checked
    for index, dir_fd, follow in CHANGES[event]:
        target = _resolve(args[index], args[dir_fd] if dir_fd is not None else None, follow)
        if not _inside(record, target):
            return f"wrote outside its directory ({target})"
    return None


def _resolve(path, dir_fd, follow):
    """The absolute path an event acts on (a descriptor through /proc/self/fd); "" when it cannot be told."""
    try:
        if isinstance(path, int):
            return os.readlink(f"/proc/self/fd/{path}")
        path = os.fsdecode(path)
        if isinstance(dir_fd, int) and dir_fd >= 0 and not os.path.isabs(path):  # not None, not AT_FDCWD
            path = os.path.join(os.readlink(f"/proc/self/fd/{dir_fd}"), path)
        if follow:
            return os.path.realpath(path)
        head, tail = os.path.split(os.path.abspath(path))
        return os.path.join(os.path.realpath(head), tail)
    except (OSError, TypeError, ValueError):
        return ""


def _inside(record, target):
    return target == os.devnull or target == record.workdir or target.startswith(record.workdir + os.sep)


def _network(event, args):
    """A socket may be made, and bound to the loopback (imports probe what the system supports: urllib3 binds
    `::1` to learn whether IPv6 works); nothing may look up a host, connect, send or bind elsewhere."""
    if event in LOOKUP_EVENTS:
        return f"looked up a host ({args[0]})"
    if event in ("socket.connect", "socket.sendto") or (event == "socket.sendmsg" and args[1] is not None):
        return f"connected a socket ({args[1]})"
    if event == "socket.bind" and not _loopback(args[1]):
        return f"bound a socket ({args[1]})"
    return None


def _loopback(address):
    host = address[0] if isinstance(address, tuple) and address else None
    return host in ("127.0.0.1", "::1", "localhost") or (isinstance(host, str) and host.startswith("127."))


def _rlimit(event, args):
    """Lowering a limit is fine; raising one above its hard limit would undo the sandbox's."""
    if event == "resource.prlimit":
        pid, which, limits = args
        if limits is None:
            return None
        if pid not in (0, os.getpid()):
            return "changed another process's limits"
    else:
        which, limits = args
    hard = resource.getrlimit(which)[1]
    if hard != resource.RLIM_INFINITY and any(v == resource.RLIM_INFINITY or v > hard for v in limits):
        return "raised a resource limit"
    return None


def _flush():
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            if stream is not None:
                stream.flush()
        except Exception:
            pass


def _write(fd, result):
    """Replace whatever is in the result file (the snippet may have found the descriptor) with the record."""
    data = json.dumps(result).encode()
    os.lseek(fd, 0, os.SEEK_SET)
    os.ftruncate(fd, 0)
    while data:
        data = data[os.write(fd, data) :]


if __name__ == "__main__":
    main()
