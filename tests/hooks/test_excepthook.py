"""errdex.install(): real programs, real installed libraries, and what the user sees on stderr."""

from __future__ import annotations

import re
import sys
import threading
import warnings

from errdex.hooks import install, uninstall
from tests.backends import break_index
from tests.hooks.conftest import PANEL_TOP, Runner

INVALID_VERSION = """
from packaging.version import Version
Version("1.0.x")
"""


def after_traceback(run: Runner, body: str, *args: str) -> tuple[str, str]:
    """(the baseline traceback, what errdex printed after it), checking the traceback is unchanged."""
    plain = run(body, *args, install=False)
    explained = run(body, *args)
    assert explained.stderr.startswith(plain.stderr), "errdex changed the traceback"
    assert (explained.returncode, explained.stdout) == (plain.returncode, plain.stdout)
    return plain.stderr, explained.stderr[len(plain.stderr) :]


def test_invalid_version_panel_follows_the_unchanged_traceback(run_program: Runner) -> None:
    traceback, added = after_traceback(run_program, INVALID_VERSION)
    raise_line = re.findall(r'packaging/version\.py", line (\d+)', traceback)[-1]
    assert traceback.rstrip().endswith("packaging.version.InvalidVersion: Invalid version: '1.0.x'")
    panel = added[added.index(PANEL_TOP) :]
    assert "packaging" in panel.splitlines()[0] and "InvalidVersion" in panel.splitlines()[0]
    assert f"packaging/version.py:{raise_line} in Version.__init__" in panel
    assert "'1.0.x'" in panel
    assert re.search(r"full page +errdex show [0-9a-f]{16}", panel)


def test_the_first_error_indexes_from_disk_and_later_runs_reuse_it(run_program: Runner) -> None:
    first = run_program(INVALID_VERSION)
    second = run_program(INVALID_VERSION)
    assert re.search(r"errdex: indexing packaging \S+ from its installed files", first.stderr)
    assert "indexing" not in second.stderr
    assert first.panel == second.panel != ""


def test_no_network_is_needed(run_program: Runner) -> None:
    body = """
    import socket
    def refuse(*args, **kwargs):
        raise OSError("network used")
    socket.socket.connect = refuse
    socket.create_connection = refuse
    from packaging.version import Version
    Version("1.0.x")
    """
    shown = run_program(body)
    assert "network used" not in shown.stderr
    assert "packaging/version.py" in shown.panel


def test_click_usage_error(run_program: Runner) -> None:
    body = """
    import click

    @click.command()
    @click.option("--count", type=int)
    def cli(count):
        pass

    cli.main(["--cuont", "3"], standalone_mode=False)
    """
    traceback, added = after_traceback(run_program, body)
    assert "click.exceptions.NoSuchOption: No such option '--cuont'." in traceback
    panel = added[added.index(PANEL_TOP) :]
    assert "click" in panel.splitlines()[0] and "NoSuchOption" in panel.splitlines()[0]
    assert "click/parser.py:" in panel and "_match_long_opt" in panel
    assert "'--cuont'" in panel
    assert "opt not in self._long_opt" in panel


def test_jinja2_template_syntax_error(run_program: Runner) -> None:
    body = """
    import jinja2
    jinja2.Environment().from_string("Hello {{ user name }}!")
    """
    traceback, added = after_traceback(run_program, body)
    assert "TemplateSyntaxError: expected token 'end of print statement', got 'name'" in traceback
    panel = added[added.index(PANEL_TOP) :]
    assert "Jinja2" in panel.splitlines()[0] and "TemplateSyntaxError" in panel.splitlines()[0]
    assert "jinja2/lexer.py:" in panel and "TokenStream.expect" in panel
    assert "'end of print statement'" in panel


def test_jinja2_missing_template(run_program: Runner) -> None:
    body = """
    import jinja2
    jinja2.Environment(loader=jinja2.DictLoader({})).get_template("missing.html")
    """
    shown = run_program(body)
    assert "jinja2.exceptions.TemplateNotFound: missing.html" in shown.stderr
    assert "TemplateNotFound" in shown.panel and "jinja2/loaders.py:" in shown.panel


def test_pydantic_message_from_compiled_code_abstains(run_program: Runner) -> None:
    body = """
    import pydantic

    class Model(pydantic.BaseModel):
        x: int

    Model(x="not a number")
    """
    traceback, added = after_traceback(run_program, body)
    assert "1 validation error for Model" in traceback
    assert PANEL_TOP not in added and "errdex show" not in added
    said = " ".join(added.split())
    assert "errdex: the traceback ends at a call in pydantic/main.py:" in said
    assert "compiled code" in said


def test_own_code_error_says_errdex_does_not_index_it(run_program: Runner) -> None:
    _, added = after_traceback(run_program, 'raise ValueError("my own check failed")')
    assert PANEL_TOP not in added
    assert "raised outside installed packages" in " ".join(added.split())  # (a `raise` line: no compiled code)


def test_chained_explains_the_last_raised_and_mentions_the_others(run_program: Runner) -> None:
    body = """
    from packaging.version import Version
    try:
        {}["missing"]
    except KeyError:
        Version("2.y")
    """
    traceback, added = after_traceback(run_program, body)
    assert "During handling of the above exception" in traceback
    panel = added[added.index(PANEL_TOP) :]
    assert "'2.y'" in panel and "InvalidVersion" in panel
    assert re.search(r"also raised +KeyError: 'missing'", panel)


def test_wrapped_error_explains_the_library_error_inside(run_program: Runner) -> None:
    body = """
    from packaging.version import Version
    try:
        Version("3.z")
    except ValueError as exc:
        raise RuntimeError("could not read the version") from exc
    """
    shown = run_program(body)
    assert "raised earlier in this chain" in shown.panel and "'3.z'" in shown.panel
    assert re.search(r"also raised +RuntimeError: could not read the version", shown.panel)


def test_panel_shows_no_frame_locals(run_program: Runner) -> None:
    body = """
    from packaging.version import Version

    def release(tag):
        api_token = "s3cr3t-t0ken"
        build = {"password": "hunter22"}
        return Version(tag)

    release("v1.0-final-x")
    """
    shown = run_program(body)
    assert shown.panel
    assert "s3cr3t-t0ken" not in shown.stderr and "hunter22" not in shown.stderr
    assert "'v1.0-final-x'" in shown.panel


def test_a_broken_index_costs_one_line_and_keeps_the_traceback_and_exit_code(run_program: Runner, errdex_db) -> None:
    break_index(errdex_db)
    plain = run_program(INVALID_VERSION, install=False)
    shown = run_program(INVALID_VERSION)
    assert shown.stderr.startswith(plain.stderr)
    added = shown.stderr[len(plain.stderr) :].splitlines()
    assert len(added) == 1 and added[0].startswith("errdex: could not explain this error (StoreError:")
    assert shown.returncode == plain.returncode == 1


def test_an_exception_whose_str_fails_is_left_to_python(run_program: Runner) -> None:
    body = """
    class Odd(Exception):
        def __str__(self):
            raise RuntimeError("no text")

    raise Odd()
    """
    traceback, added = after_traceback(run_program, body)
    assert "Odd: <exception str() failed>" in traceback
    assert len(added.strip().splitlines()) <= 3 and "Traceback" not in added


def test_exit_codes_and_ctrl_c_are_untouched(run_program: Runner) -> None:
    exits = run_program("import sys\nsys.exit(3)")
    assert (exits.returncode, exits.stderr) == (3, "")
    interrupted, plain = run_program("raise KeyboardInterrupt"), run_program("raise KeyboardInterrupt", install=False)
    assert (interrupted.returncode, interrupted.stderr) == (plain.returncode, plain.stderr)


def test_an_error_in_a_thread_is_explained(run_program: Runner) -> None:
    body = """
    import threading
    from packaging.version import Version
    worker = threading.Thread(target=Version, args=("4.q",), name="worker")
    worker.start()
    worker.join()
    print("main thread goes on")
    """
    shown = run_program(body)
    assert shown.returncode == 0 and shown.stdout == "main thread goes on\n"
    assert "Exception in thread worker" in shown.stderr
    assert "'4.q'" in shown.panel


def test_warnings_are_explained_once_per_raise_site(run_program: Runner) -> None:
    body = """
    import errdex.hooks
    import click
    errdex.hooks.install(warnings=True)

    @click.command()
    @click.option("--name")
    @click.option("--name", "other")
    def cli(name, other):
        pass

    for _ in range(3):
        cli.main(["--name", "x"], standalone_mode=False)
    """
    shown = run_program(body, options=("-W", "always"))
    assert shown.returncode == 0
    assert shown.stderr.count("UserWarning: The parameter --name is used more than once.") >= 3
    assert shown.stderr.count(PANEL_TOP) == 1
    assert "click/core.py:" in shown.panel and "UserWarning" in shown.panel


def test_warnings_are_not_explained_unless_asked(run_program: Runner) -> None:
    body = """
    import warnings
    import click

    @click.command()
    @click.option("--name")
    @click.option("--name", "other")
    def cli(name, other):
        pass

    cli.main(["--name", "x"], standalone_mode=False)
    """
    shown = run_program(body, options=("-W", "always"))
    assert "used more than once" in shown.stderr and PANEL_TOP not in shown.stderr


def test_uninstall_restores_the_hooks_that_were_there() -> None:
    def mine(*args: object) -> None:
        pass

    saved = sys.excepthook, threading.excepthook, warnings.showwarning
    sys.excepthook, threading.excepthook = mine, mine
    try:
        install(warnings=True)
        assert sys.excepthook is not mine and threading.excepthook is not mine
        assert warnings.showwarning is not saved[2]
        install(warnings=True)  # a second install changes nothing
        uninstall()
        assert sys.excepthook is mine and threading.excepthook is mine
        assert warnings.showwarning is saved[2]
        uninstall()  # a second uninstall changes nothing
        assert sys.excepthook is mine
    finally:
        sys.excepthook, threading.excepthook, warnings.showwarning = saved


def test_uninstall_keeps_a_hook_installed_after_errdex() -> None:
    def later(*args: object) -> None:
        pass

    saved = sys.excepthook
    try:
        install()
        sys.excepthook = later
        uninstall()
        assert sys.excepthook is later
    finally:
        uninstall()
        sys.excepthook = saved


ODDLIB = """
import warnings

PATTERN = "\\d+"  # an invalid escape: parsing this file warns


def old(x):
    if x < 0:
        warnings.warn(f"negative values like {x} are deprecated", FutureWarning, stacklevel=2)
    return x
"""


def test_warnings_raised_by_errdex_itself_neither_hang_nor_show(run_program: Runner, tmp_path) -> None:
    site = tmp_path / "site"
    (site / "oddlib").mkdir(parents=True)
    (site / "oddlib" / "__init__.py").write_text(ODDLIB)
    info = site / "oddlib-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: oddlib\nVersion: 1.0\n")
    (info / "RECORD").write_text("oddlib/__init__.py,,\n")
    body = """
    import errdex.hooks
    import oddlib
    errdex.hooks.install(warnings=True)
    oddlib.old(-1)
    print("done")
    """
    shown = run_program(body, env={"PYTHONPATH": str(site)}, options=("-W", "always"))
    assert shown.returncode == 0 and shown.stdout == "done\n"
    assert "FutureWarning: negative values like -1 are deprecated" in shown.stderr
    assert "oddlib/__init__.py:" in shown.panel and "x < 0" in shown.panel
    assert "<unknown>" not in shown.stderr
