"""Build the matcher corpus by running real libraries with bad inputs and recording the true raise sites.

Run: python benchmarks/make_cases.py --venv /tmp/casesenv
The venv must hold exactly the releases in VENV_REQUIREMENTS (benchmarks/cases/README.md says how).
The script re-runs itself inside that venv (``--worker``), one process per library, and imports nothing
of errdex. Same venv, same inputs -> byte-identical JSON.
"""

from __future__ import annotations

import argparse
import ast
import functools
import json
import os
import re
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "cases"

# ---------------------------------------------------------------------------------------------------------------------
# What the venv holds. Distribution names are PEP 503 normalised.
# ---------------------------------------------------------------------------------------------------------------------

VENV_REQUIREMENTS = (
    "transformers==5.16.0",
    "packaging==26.4",
    "click==8.5.1",
    "jinja2==3.1.6",
    "requests==2.34.2",
    "urllib3==2.8.0",
    "attrs==26.1.0",
    "sqlalchemy==2.1.9",
    "httpx==0.28.1",
    "botocore==1.44.5",
    "jsonschema==4.26.0",
    "networkx==3.6.1",
    "pyyaml==6.0.3",
    "python-dateutil==2.9.0.post0",
    "rich==15.0.0",
    "polars==2.1.0",
    "pandas==3.1.1",
    "pydantic==2.14.3",
    "marshmallow==4.4.0",
)

# Installed in the venv but deliberately left out of the index: their messages must make the matcher abstain.
NOT_INDEXED = frozenset({"marshmallow", "pydantic-core"})

# Statements that raise with a message written in the package's source.
RAISING_STATEMENTS = frozenset({"Raise", "Assert", "Expr:raise_from", "Expr:reraise"})  # six's helpers too

# Pseudo-package for errors raised by the interpreter or the standard library (no distribution owns them).
PYTHON = "python"

VERIFIED = "verified.json"  # the cases `errdex verify --corpus` observed (see cases/README.md)


# ---------------------------------------------------------------------------------------------------------------------
# The cases: one module per library in cases_src/, read (never imported) here. Its statements before the first case
# function are the setup; each case function's body, dedented, is one case's code.
# ---------------------------------------------------------------------------------------------------------------------

CASES_SRC = HERE / "cases_src"
# In this order: a package's cases are numbered in the order the libraries run.
LIBRARY_NAMES = (
    "transformers",
    "packaging",
    "click",
    "jinja2",
    "requests",
    "urllib3",
    "httpx",
    "attrs",
    "sqlalchemy",
    "botocore",
    "jsonschema",
    "networkx",
    "pyyaml",
    "python-dateutil",
    "rich",
    "polars",
    "pandas",
    "pydantic",
    "marshmallow",
    PYTHON,
)
CASE_FUNCTION = re.compile(r"(error|warning)_\d+")
INDENT = "    "


@dataclass(frozen=True)
class Library:
    """One library's cases: the setup code, and each case's kind ("error" or "warning") and code."""

    setup: str
    cases: tuple[tuple[str, str], ...]


@functools.cache
def load_library(name: str) -> Library:
    """Read cases_src/<name>.py: the setup, then `def error_<n>():` / `def warning_<n>():` cases."""
    path = CASES_SRC / f"{name.replace('-', '_')}.py"
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    body = ast.parse(text).body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    first = next((i for i, node in enumerate(body) if _case_kind(node)), len(body))
    setup, rest = body[:first], body[first:]
    cases = [(kind, node) for node in rest if isinstance(node, ast.FunctionDef) and (kind := _case_kind(node))]
    if not setup or not cases or len(cases) != len(rest):
        raise SystemExit(f"{path}: expected setup statements, then only error_<n>/warning_<n> functions")
    setup_text = "\n".join(lines[_first_line(setup[0]) - 1 : setup[-1].end_lineno]) + "\n"
    return Library(setup_text, tuple((kind, _case_code(lines, node, path)) for kind, node in cases))


def _case_kind(node: ast.stmt) -> str | None:
    """The kind of a case function ("error" or "warning"), else None."""
    found = CASE_FUNCTION.fullmatch(node.name) if isinstance(node, ast.FunctionDef) else None
    return found.group(1) if found else None


def _first_line(node: ast.stmt) -> int:
    """A statement's first line, its decorators included."""
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno] + [d.lineno for d in decorators])


def _case_code(lines: list[str], function: ast.FunctionDef, path: Path) -> str:
    """The function's body, dedented, up to the end of its last statement (a trailing `# noqa` is left out)."""
    first, last = function.body[0], function.body[-1]
    chunk = lines[_first_line(first) - 1 : last.end_lineno]
    end = chunk[-1].encode("utf-8")[: last.end_col_offset].decode("utf-8")  # ast counts columns in bytes
    chunk[-1] = end
    if first.col_offset != len(INDENT) or any(line and not line.startswith(INDENT) for line in chunk):
        raise SystemExit(f"{path}:{function.lineno}: indent the body of {function.name} by {len(INDENT)} spaces")
    return "\n".join(line[len(INDENT) :] for line in chunk)


# ---------------------------------------------------------------------------------------------------------------------
# Messages quoted in public issue threads. Their sites are checked against the release's wheel (read, never run) by
# verify_issue_case; the traceback stays null: the thread is the source, cited by its address.
# ---------------------------------------------------------------------------------------------------------------------


def _issue(
    package: str, version: str, exception: str, message: str, site: tuple[str, int, str], url: str, call: str
) -> dict:
    """One issue-thread case, shaped like a run case."""
    return {
        "package": package,
        "version": version,
        "kind": "error",
        "exception": exception,
        "message": message,
        "traceback": None,
        "expected": {"file": site[0], "line": site[1], "function": site[2]},
        "abstain": False,
        "why_abstain": None,
        "origin": url,
        "call": call,
        "callers": [],
    }


ISSUE_CASES: list[dict] = [
    _issue(
        "packaging",
        "24.1",
        "packaging.version.InvalidVersion",
        "Invalid version: '8.9p1-8'",
        ("packaging/version.py", 202, "Version.__init__"),
        "https://github.com/pypa/packaging/issues/815",
        "packaging.version.parse('8.9p1-8')",
    ),
    _issue(
        "packaging",
        "23.2",
        "packaging.version.InvalidVersion",
        "Invalid version: '6.7.8.9-10.el7'",
        ("packaging/version.py", 200, "Version.__init__"),
        "https://github.com/pypa/packaging/issues/749",
        "packaging.version.parse('6.7.8.9-10.el7')",
    ),
    _issue(
        "jinja2",
        "2.10",
        "jinja2.exceptions.TemplateSyntaxError",
        "Encountered unknown tag 'end'. Jinja was looking for the following tags: 'endfor' or 'else'. "
        "The innermost block that needs to be closed is 'for'.",
        ("jinja2/parser.py", 59, "Parser.fail"),
        "https://github.com/sphinx-doc/sphinx/issues/5493",
        "sphinx 'make gettext' compiling a template with {% end %} inside {% for %}",
    ),
]


# ---------------------------------------------------------------------------------------------------------------------
# Worker: runs inside the venv, one process per library.
# ---------------------------------------------------------------------------------------------------------------------


def _canon(name: str) -> str:
    """PEP 503 normalised distribution name."""
    return "-".join(part for part in name.lower().replace("_", "-").replace(".", "-").split("-") if part)


def _owner_table() -> dict[str, tuple[str, str, str]]:
    """Map each installed .py file (real path) to (distribution, version, release-relative posix path)."""
    import importlib.metadata as md

    table: dict[str, tuple[str, str, str]] = {}
    for dist in md.distributions():
        name, version = _canon(dist.metadata["Name"]), dist.version
        for file in dist.files or ():
            rel = file.as_posix()
            if rel.endswith(".py") and not rel.startswith(".."):
                table[os.path.realpath(dist.locate_file(file))] = (name, version, rel)
    return table


@functools.cache
def _statements(filename: str) -> tuple[ast.stmt, ...]:
    """Every statement of a source file (empty when it cannot be read or parsed)."""
    try:
        tree = ast.parse(Path(filename).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return ()
    return tuple(node for node in ast.walk(tree) if isinstance(node, ast.stmt))


def _statement_at(filename: str, line: int) -> str | None:
    """Kind of the innermost statement covering ``line``: 'Raise', 'Assert', 'Expr:raise_from', 'Assign', ..."""
    best = None
    for node in _statements(filename):
        if node.lineno <= line <= (node.end_lineno or node.lineno):
            if best is None or (node.end_lineno - node.lineno) <= (best.end_lineno - best.lineno):
                best = node
    if best is None:
        return None
    if isinstance(best, ast.Expr) and isinstance(best.value, ast.Call):
        func = best.value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return f"Expr:{name}"
    return type(best).__name__


def _site(owners: dict, filename: str, line: int, function: str) -> dict:
    """Describe one frame: where it is and which installed distribution owns it."""
    owner = owners.get(os.path.realpath(filename)) if not filename.startswith("<") else None
    return {
        "filename": filename,
        "line": line,
        "function": function,
        "owner": list(owner) if owner else None,
        "statement": _statement_at(filename, line) if owner else None,
    }


def _qualified(cls: type) -> str:
    """Exception type as it is printed: builtins bare, everything else module-qualified."""
    return cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"


def _run_error(exc: BaseException, origin: list | None, owners: dict) -> dict:
    """Record a caught exception: message, printed traceback and the stack that first raised it."""
    import traceback

    exc.__traceback__ = exc.__traceback__.tb_next  # drop the worker's own exec() frame
    printed = [
        (frame.f_code.co_filename, line, frame.f_code.co_qualname)
        for frame, line in traceback.walk_tb(exc.__traceback__)
    ][::-1]
    compiled = _compiled_frame(printed[0], owners) if printed else None
    if compiled is not None:  # raised inside a Cython module whose .py source ships beside it
        origin = [compiled] + printed[1:]
    elif origin is None:  # no trace event: fall back to the traceback's frames
        origin = printed
    return {
        "kind": "error",
        "exception": _qualified(type(exc)),
        "message": str(exc),
        "traceback": "".join(traceback.format_exception(exc)),
        "site": _site(owners, *origin[0]),
        "callers": [_site(owners, *frame) for frame in origin[1:]],
        "compiled": _compiled_file(printed[0]) if printed and compiled is None else None,
    }


def _stack(frame, depth: int = 12) -> list[tuple[str, int, str]]:
    """(file, line, qualname) of ``frame`` and its callers, innermost first."""
    stack = []
    while frame is not None and len(stack) < depth:
        stack.append((frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_qualname))
        frame = frame.f_back
    return stack


def _compiled_file(frame: tuple[str, int, str]) -> str | None:
    """Name of a compiled module's source (a Cython .pyx) when the traceback ends inside one."""
    filename = frame[0]
    return None if filename.startswith("<") or os.path.exists(filename) else filename


def _compiled_frame(frame: tuple[str, int, str], owners: dict) -> tuple[str, int, str] | None:
    """Map a Cython traceback entry ('lib/pkg/mod.py', line, 'pkg.mod.Class.func') to the installed .py file."""
    filename, line, name = frame
    if filename.startswith("<") or os.path.exists(filename):
        return None
    suffix = filename.replace(os.sep, "/")
    for real, (_dist, _version, rel) in owners.items():
        module = rel[:-3].replace("/", ".")
        if suffix.endswith("/" + rel) and name.startswith(module + "."):
            return (real, line, name[len(module) + 1 :])
    return None


class _RaiseTracer:
    """sys.settrace hook noting, per exception object, the frame where it was first raised.

    This is the innermost traceback frame, except when a library rewrites the traceback (jinja2 drops its
    internal frames and the compiler's), which is exactly when the printed traceback cannot be trusted.
    """

    def __init__(self) -> None:
        self.first: dict[int, tuple] = {}

    def __call__(self, frame, event, arg):
        if event == "call":
            frame.f_trace_lines = False
        elif event == "exception" and id(arg[1]) not in self.first:
            self.first[id(arg[1])] = (arg[1], _stack(frame))
        return self

    def origin(self, exc: BaseException) -> list | None:
        """The stack (innermost first) where ``exc`` was first raised, if a traced frame raised it."""
        seen = self.first.get(id(exc))
        return seen[1] if seen and seen[0] is exc else None


def _run_warning(caught: list, warn_calls: list, owners: dict) -> dict:
    """Record the first caught warning and the frame that called warnings.warn for it."""
    import linecache
    import warnings

    first = caught[0]
    text = str(first.message)
    call = next((c for c in warn_calls if c[0] == text), None)
    line = linecache.getline(first.filename, first.lineno)
    return {
        "kind": "warning",
        "exception": _qualified(first.category),
        "message": text,
        "traceback": warnings.formatwarning(first.message, first.category, first.filename, first.lineno, line),
        "site": _site(owners, *call[1][0]) if call else None,
        "callers": [_site(owners, *frame) for frame in call[1][1:]] if call else [],
    }


def _warning_text(message, category) -> str:
    """The text warnings will show: a str message is wrapped in its category first (which may reformat it)."""
    if isinstance(message, Warning):
        return str(message)
    try:
        return str((category or UserWarning)(message))
    except Exception:  # noqa: BLE001 - a category that cannot be built from the message keeps it as given
        return str(message)


def _install_warn_hook(warn_calls: list) -> None:
    """Wrap warnings.warn (before any library imports it) to learn the true calling frame of each warning."""
    import warnings

    original = warnings.warn

    def warn(message, category=None, stacklevel=1, source=None):
        warn_calls.append((_warning_text(message, category), _stack(sys._getframe(1))))
        return original(message, category, stacklevel + 1, source)

    warnings.warn = warn


def _run_case(kind: str, code: str, setup, owners: dict, warn_calls: list) -> dict:
    """Run one case in a fresh namespace and record what it raised or warned."""
    import linecache
    import warnings

    linecache.cache["<case>"] = (len(code), None, code.splitlines(True), "<case>")
    compiled = compile(code, "<case>", "exec", dont_inherit=True)
    warn_calls.clear()
    error = None
    tracer = _RaiseTracer()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sys.settrace(tracer)
        try:
            exec(compiled, _namespace(setup))
        except BaseException as exc:  # noqa: BLE001 - every failure is data here
            error = exc
        finally:
            sys.settrace(None)
    if kind == "warning":
        if not caught:
            return {"failure": f"no warning (raised {error!r})"}
        return _run_warning(caught, warn_calls, owners)
    if error is None:
        return {"failure": "did not raise"}
    return _run_error(error, tracer.origin(error), owners)


def _namespace(setup) -> dict:
    """A fresh namespace with the library's setup run in it, so no case sees another's changes."""
    namespace: dict = {"__name__": "__main__"}
    exec(setup, namespace)
    return namespace


def worker(request: Path, result: Path) -> None:
    """Run one library's cases (inside the venv) and write their raw records as JSON."""
    import platform

    warn_calls: list = []
    _install_warn_hook(warn_calls)
    spec = json.loads(request.read_text(encoding="utf-8"))
    setup = compile(spec["setup"], "<setup>", "exec", dont_inherit=True)
    _namespace(setup)  # import everything once, before the owner table is read
    owners = _owner_table()
    runs = [_run_case(kind, code, setup, owners, warn_calls) for kind, code in spec["cases"]]
    import importlib.metadata as md

    versions = {_canon(d.metadata["Name"]): d.version for d in md.distributions()}
    versions[PYTHON] = platform.python_version()
    result.write_text(json.dumps({"runs": runs, "versions": versions}), encoding="utf-8")


# ---------------------------------------------------------------------------------------------------------------------
# Driver: runs anywhere, launches the workers, labels the cases and writes benchmarks/cases/.
# ---------------------------------------------------------------------------------------------------------------------

HOME = Path("/tmp/errdex-cases-home")
ADDRESS = re.compile(r"0x[0-9a-fA-F]{8,16}\b|\b\d{12,}\b")  # memory addresses and id() values


def _worker_env() -> dict[str, str]:
    """A small fixed environment so messages do not depend on the caller's shell."""
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": str(HOME),
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TZ": "UTC",
        "COLUMNS": "100",
        "TERM": "dumb",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "AWS_CONFIG_FILE": "/nonexistent/aws-config",
        "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/aws-credentials",
        "AWS_EC2_METADATA_DISABLED": "true",
    }


def run_library(python: Path, library: str) -> dict:
    """Run one library's cases in a worker process of the venv."""
    cases = load_library(library)
    HOME.mkdir(parents=True, exist_ok=True)
    request, result = HOME / f"{library}.request.json", HOME / f"{library}.result.json"
    request.write_text(json.dumps({"setup": cases.setup, "cases": cases.cases}), encoding="utf-8")
    result.unlink(missing_ok=True)
    proc = subprocess.run(
        [str(python), str(Path(__file__).resolve()), "--worker", str(request), str(result)],
        cwd=HOME,
        env=_worker_env(),
        capture_output=True,
        text=True,
        timeout=900,
    )
    if proc.returncode != 0 or not result.exists():
        raise SystemExit(f"worker for {library} failed (exit {proc.returncode}):\n{proc.stderr[-4000:]}")
    return json.loads(result.read_text(encoding="utf-8"))


def label(library: str, kind: str, code: str, run: dict, versions: dict, indexed: frozenset) -> dict:
    """Turn a worker's raw run into a corpus record: expected site, or abstain with the reason."""
    if any(found not in code for found in ADDRESS.findall(run["message"] + (run["traceback"] or ""))):
        raise SystemExit(f"{library} case prints a memory address, so its text changes from run to run:\n{code}")
    frames = [run["site"]] + run["callers"] if run["site"] else []
    inner = _package_frame(frames)
    owner = frames[inner]["owner"] if inner is not None else None
    expected, why = None, None
    if run.get("compiled"):
        why = f"raised in compiled code ({run['compiled']}), where there is no Python raise statement"
    elif owner is None:
        where = Path(frames[0]["filename"]).name if frames else "no frame"
        why = f"raised by the interpreter or the standard library ({where}) in the caller's code, not in a package"
    elif owner[0] not in indexed:
        why = f"raised in {owner[0]}, which the benchmark does not index"
    elif kind == "error" and frames[inner]["statement"] not in RAISING_STATEMENTS:
        source = f"{owner[2]}:{frames[inner]['line']}"
        cause = (
            "by the interpreter or compiled code"
            if inner == 0
            else f"in the standard library ({Path(frames[0]['filename']).name})"
        )
        why = f"raised {cause} while running {source} ({frames[inner]['statement']}), not by a raise statement"
    else:
        expected = _where(frames[inner])
    return {
        "package": owner[0] if owner else library,
        "version": owner[1] if owner else versions[library],
        "kind": kind,
        "exception": run["exception"],
        "message": run["message"],
        "traceback": run["traceback"],
        "expected": expected,
        "abstain": expected is None,
        "why_abstain": why,
        "origin": "run",
        "call": code,
        "callers": _callers(frames[inner + 1 :], owner) if expected else [],
    }


def _package_frame(frames: list[dict]) -> int | None:
    """Index of the innermost frame inside an installed package, skipping standard-library and exec'd frames
    (six.raise_from runs in '<string>'), but never past the case's own code."""
    for index, frame in enumerate(frames):
        if frame["owner"]:
            return index
        if frame["filename"] == "<case>":
            return None
    return None


def _where(site: dict) -> dict:
    """A frame as the corpus records it: release-relative file, line, qualified function."""
    return {"file": site["owner"][2], "line": site["line"], "function": site["function"]}


def _callers(frames: list[dict], owner: list) -> list[dict]:
    """The raising frame's callers in the same package, innermost first, up to the first frame outside it."""
    callers = []
    for frame in frames:
        if not frame["owner"] or frame["owner"][0] != owner[0]:
            break
        callers.append(_where(frame))
    return callers


def _qualname_at(tree: ast.Module, line: int) -> str | None:
    """Qualified name of the innermost function around ``line`` (as co_qualname would spell it)."""
    best: tuple[int, str] | None = None

    def visit(node: ast.AST, prefix: str) -> None:
        nonlocal best
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                inside = child.lineno <= line <= child.end_lineno
                if inside and not isinstance(child, ast.ClassDef):
                    best = (child.lineno, name) if best is None or child.lineno >= best[0] else best
                tail = ".<locals>." if not isinstance(child, ast.ClassDef) else "."
                visit(child, name + tail)
            else:
                visit(child, prefix)

    visit(tree, "")
    return best[1] if best else None


def verify_issue_case(python: Path, wheels: Path, case: dict) -> None:
    """Check an issue case's expected site against the release's wheel, read as text and never run."""
    release = f"{case['package']}=={case['version']}"
    wheels.mkdir(parents=True, exist_ok=True)
    found = [w for w in wheels.glob("*.whl") if _wheel_matches(w.name, case["package"], case["version"])]
    if not found:
        subprocess.run(
            [
                str(python),
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--only-binary=:all:",
                release,
                "-d",
                str(wheels),
            ],
            check=True,
            env={**os.environ, "PIP_NO_INPUT": "1"},
        )
        found = [w for w in wheels.glob("*.whl") if _wheel_matches(w.name, case["package"], case["version"])]
    expected = case["expected"]
    with zipfile.ZipFile(found[0]) as wheel:
        source = wheel.read(expected["file"]).decode("utf-8")
    tree = ast.parse(source)
    statement = min(
        (n for n in ast.walk(tree) if isinstance(n, ast.stmt) and n.lineno <= expected["line"] <= n.end_lineno),
        key=lambda n: n.end_lineno - n.lineno,
    )
    if not isinstance(statement, ast.Raise) or statement.lineno != expected["line"]:
        raise SystemExit(f"{case['origin']}: {release} {expected['file']}:{expected['line']} is not a raise statement")
    if _qualname_at(tree, expected["line"]) != expected["function"]:
        raise SystemExit(f"{case['origin']}: {expected['function']} is not the function at {expected['line']}")


def _wheel_matches(filename: str, package: str, version: str) -> bool:
    """True when a wheel file name is for this distribution and version."""
    name, _, rest = filename.partition("-")
    return _canon(name) == package and rest.split("-", 1)[0] == version


def build(venv: Path, out: Path, only: str | None) -> list[dict]:
    """Run every library's cases, label them and write the corpus files."""
    python = venv / "bin" / "python"
    if not python.exists():
        raise SystemExit(f"--venv {venv}: no bin/python there; create it as benchmarks/cases/README.md says")
    indexed = frozenset(lib for lib in LIBRARY_NAMES if lib != PYTHON) - NOT_INDEXED
    records: list[dict] = []
    failures: list[str] = []
    versions: dict = {}
    for library in LIBRARY_NAMES:
        if only and library != only:
            continue
        result = run_library(python, library)
        versions = result["versions"]
        _check_versions(versions)
        for (kind, code), run in zip(load_library(library).cases, result["runs"], strict=True):
            if "failure" in run:
                failures.append(f"{library}: {run['failure']}: {code}")
            else:
                records.append(label(library, kind, code, run, versions, indexed))
    if failures:
        print("\n".join(failures), file=sys.stderr)
        if not only:
            raise SystemExit(f"{len(failures)} cases did not fail as written; fix them before writing the corpus")
    if only:
        return records
    for case in ISSUE_CASES:
        verify_issue_case(python, HOME / "wheels", case)
    _write(out, records + [dict(c) for c in ISSUE_CASES], indexed, versions)
    return records


def _check_versions(versions: dict) -> None:
    """Refuse a venv whose releases differ from the pins: the corpus would silently change."""
    for requirement in VENV_REQUIREMENTS:
        name, _, version = requirement.partition("==")
        if versions.get(_canon(name)) != version:
            raise SystemExit(f"venv has {name} {versions.get(_canon(name))}, the corpus needs {requirement}")


def _write(out: Path, records: list[dict], indexed: frozenset, versions: dict) -> None:
    """Write <package>.json files (ids numbered in order) and releases.txt."""
    out.mkdir(parents=True, exist_ok=True)
    by_package: dict[str, list[dict]] = {}
    for record in records:
        by_package.setdefault(record["package"], []).append(record)
    for old in out.glob("*.json"):
        if old.name != VERIFIED:  # written by `errdex verify --corpus`, not by this script
            old.unlink()
    for package, items in by_package.items():
        numbered = [
            {"id": f"{package}-{n}", **{k: v for k, v in r.items() if k != "id"}} for n, r in enumerate(items, 1)
        ]
        text = json.dumps(numbered, indent=1, ensure_ascii=False) + "\n"
        (out / f"{package}.json").write_text(text, encoding="utf-8")
    releases = {f"{name}=={versions[name]}" for name in indexed}
    releases |= {f"{c['package']}=={c['version']}" for c in ISSUE_CASES if not c["abstain"]}
    (out / "releases.txt").write_text("".join(f"{r}\n" for r in sorted(releases)), encoding="utf-8")


def _show(records: list[dict]) -> None:
    """Print one line per record, for writing and checking cases."""
    for r in records:
        where = (
            f"{r['expected']['file']}:{r['expected']['line']} {r['expected']['function']}"
            if r["expected"]
            else f"ABSTAIN {r['why_abstain']}"
        )
        print(f"{r['package']:<16} {r['exception'][-28:]:<28} {where}\n    {r['message'][:150]!r}")


def main(argv: list[str] | None = None) -> None:
    """Command line: build the corpus, or (internally) run as a worker inside the venv."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venv", type=Path, help="virtualenv holding VENV_REQUIREMENTS")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default: benchmarks/cases)")
    parser.add_argument("--only", help="run one library's cases and print them, writing nothing")
    parser.add_argument("--worker", nargs=2, type=Path, metavar=("REQUEST", "RESULT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(*args.worker)
        return
    if args.venv is None:
        parser.error("--venv is required")
    records = build(args.venv, args.out, args.only)
    if args.only:
        _show(records)
    else:
        print(f"wrote {len(records) + len(ISSUE_CASES)} cases to {args.out}")


if __name__ == "__main__":
    main()
