"""`errdex run script.py [args]`: run a program as `python script.py` would, with errdex explaining its errors.

The program gets its own argv, `__main__` and `sys.path[0]`; its traceback shows only its own
frames (not errdex's or runpy's), the errdex panel follows, and its exit code is the one Python
would have given: its own `sys.exit`, 1 for an uncaught exception, SIGINT for Ctrl-C.
"""

from __future__ import annotations

import builtins
import importlib.machinery
import os
import runpy
import signal
import sys
import types
from pathlib import Path
from types import TracebackType

import click

from errdex.cli import db_option, fail, main
from errdex.hooks import install

_OWN_MODULES = {__name__, "runpy"}


@main.command(context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.option("-m", "as_module", is_flag=True, help="TARGET is a module name, run as with `python -m`.")
@click.option("--warnings", is_flag=True, help="Also explain each warning site once.")
@db_option
@click.argument("target")
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def run(as_module: bool, warnings: bool, db_path: str | None, target: str, args: tuple[str, ...]) -> None:
    """Run TARGET (a script, or a module with -m) with ARGS; explain its uncaught errors under the traceback."""
    if not as_module and not Path(target).exists():
        fail(f"cannot run '{target}': no such file (give a Python script, or -m MODULE)")
        sys.exit(2)
    install(warnings=warnings, db=db_path)
    sys.argv = [target, *args]
    sys.path[0] = os.getcwd() if as_module else os.path.dirname(os.path.abspath(target))
    try:
        if as_module:
            runpy.run_module(target, run_name="__main__", alter_sys=True)
        elif Path(target).is_file():
            _run_file(target)
        else:
            runpy.run_path(target, run_name="__main__")  # a folder or zip with a __main__.py
    except SystemExit:
        raise
    except BaseException as exc:  # noqa: BLE001 - the program's own error: report it as Python would
        _report(exc)


def _run_file(path: str) -> None:
    """Run a script as `python path` does: a fresh `__main__` module, compiled under its absolute path."""
    full = os.path.abspath(path)
    with open(full, "rb") as f:
        source = f.read()
    module = types.ModuleType("__main__")
    module.__dict__.update(
        __file__=full,
        __cached__=None,
        __builtins__=builtins,
        __loader__=importlib.machinery.SourceFileLoader("__main__", full),
    )
    sys.modules["__main__"] = module
    exec(compile(source, full, "exec", dont_inherit=True), module.__dict__)  # noqa: S102 - running the user's program is the point


def _report(exc: BaseException) -> None:
    tb = _program_frames(exc.__traceback__)
    sys.excepthook(type(exc), exc.with_traceback(tb), tb)
    if isinstance(exc, KeyboardInterrupt):
        _die_of_sigint()
    sys.exit(1)


def _program_frames(tb: TracebackType | None) -> TracebackType | None:
    """The traceback from the program's first frame on: errdex's and runpy's frames are dropped."""
    while tb is not None and tb.tb_frame.f_globals.get("__name__") in _OWN_MODULES:
        tb = tb.tb_next
    return tb


def _die_of_sigint() -> None:
    """Exit the way Python does after an uncaught KeyboardInterrupt: killed by SIGINT."""
    sys.stdout.flush()
    sys.stderr.flush()
    if hasattr(signal, "SIGINT") and hasattr(os, "kill"):
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    sys.exit(130)
