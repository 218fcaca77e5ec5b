"""Interpreter errors about an API, answered from the indexed releases: which release changed it, what replaced it.

The fixture package `tablekit` comes in two releases: 1.0 deprecates a dataclass field, a method, a function and
a module, each with a warning; 2.0 removes them and adds a function.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from errdex.cli import main
from errdex.indexing import index
from errdex.match import explain
from errdex.match.drift import ApiAnswer
from errdex.match.drift_text import drift_text
from errdex.store import Store
from tests.fixtures import write_tree

FRAME_1 = """
import warnings
from dataclasses import dataclass


@dataclass
class Options:
    path: str
    eval_mode: str = "no"
    evaluation_mode: str = None

    def __post_init__(self):
        if self.evaluation_mode is not None:
            warnings.warn("`evaluation_mode` is deprecated. Use `eval_mode` instead", FutureWarning)
            self.eval_mode = self.evaluation_mode


class Frame:
    def append(self, other):
        warnings.warn("Frame.append is deprecated. Use tablekit.concat instead.", FutureWarning)
        return concat([self, other])

    def head(self, n=5):
        return self


def concat(frames):
    return frames[0]


def load(path, **kwargs):
    return Frame()
"""

FRAME_2 = """
from dataclasses import dataclass


@dataclass
class Options:
    path: str
    eval_mode: str = "no"


class Frame:
    def head(self, n=5):
        return self


def concat(frames):
    return frames[0]


def pivot(frame):
    return frame


def load(path, **kwargs):
    return Frame()
"""

TEXT_1 = """
import warnings


def soft_str(s):
    return str(s)


def soft_text(s):
    warnings.warn("'soft_text' has been renamed to 'soft_str'.", DeprecationWarning, stacklevel=2)
    return soft_str(s)
"""


def write_tablekit(root: Path, version: str) -> Path:
    first = version == "1.0"
    files = {
        "pyproject.toml": f'[project]\nname = "tablekit"\nversion = "{version}"\n',
        "tablekit/__init__.py": "from .frame import *\nfrom .text import *\n",
        "tablekit/frame.py": textwrap.dedent(FRAME_1 if first else FRAME_2),
        "tablekit/text.py": textwrap.dedent(TEXT_1 if first else "def soft_str(s):\n    return str(s)\n"),
    }
    if first:
        files["tablekit/legacy/__init__.py"] = (
            'import warnings\nwarnings.warn("tablekit.legacy is deprecated", FutureWarning)\n'
        )
    return write_tree(root / f"tablekit-{version}", files)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    root = tmp_path_factory.mktemp("drift")
    with Store(root / "index.db") as opened:
        for version in ("1.0", "2.0"):
            index(str(write_tablekit(root, version)), opened)
        yield opened


def answer(store: Store, text: str) -> ApiAnswer:
    result = explain(text, store=store)
    assert result.best is None  # the interpreter wrote it: no raise site of tablekit's
    assert result.api is not None, text
    return result.api


def test_a_renamed_dataclass_field_is_named_with_its_releases_and_the_rename(store: Store) -> None:
    got = answer(store, "TypeError: Options.__init__() got an unexpected keyword argument 'evaluation_mode'")
    assert (got.package, got.subject, got.parameter) == ("tablekit", "Options", "evaluation_mode")
    assert [(s.version, s.state) for s in got.states] == [("1.0", "deprecated"), ("2.0", "absent")]
    change = got.change
    assert change is not None
    assert (change.kind, change.last_with, change.first_without) == ("renamed", "1.0", "2.0")
    assert (change.replacement, change.deprecated_in) == ("eval_mode", "1.0")
    assert change.warning == "`evaluation_mode` is deprecated. Use `eval_mode` instead"
    assert [(f.kind, f.old, f.new, f.spec) for f in got.fix] == [
        ("rename", "evaluation_mode", "eval_mode", None),
        ("pin", None, None, "tablekit<2.0"),
    ]


def test_a_message_that_names_only_init_takes_the_class_from_the_users_call(store: Store) -> None:
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/home/me/train.py", line 4, in <module>\n'
        '    opts = tablekit.Options(path="x", evaluation_mode="fast")\n'
        "TypeError: __init__() got an unexpected keyword argument 'evaluation_mode'"
    )
    got = answer(store, paste)
    assert (got.subject, got.change and got.change.kind) == ("Options", "renamed")


def test_a_removed_method_names_what_its_warning_said_to_use_instead(store: Store) -> None:
    got = answer(store, "AttributeError: 'Frame' object has no attribute 'append'")
    change = got.change
    assert change is not None
    assert (change.kind, change.replacement) == ("removed", "tablekit.concat")  # another function: not a rename
    assert [f.kind for f in got.fix] == ["replace", "pin"]


def test_a_renamed_function_imported_from_the_package(store: Store) -> None:
    got = answer(store, "ImportError: cannot import name 'soft_text' from 'tablekit' (/venv/tablekit/__init__.py)")
    change = got.change
    assert change is not None
    assert (change.kind, change.replacement, change.last_with, change.first_without) == (
        "renamed",
        "soft_str",
        "1.0",
        "2.0",
    )


def test_a_removed_module_that_warned_on_import(store: Store) -> None:
    got = answer(store, "ModuleNotFoundError: No module named 'tablekit.legacy'")
    assert [(s.version, s.state) for s in got.states] == [("1.0", "deprecated"), ("2.0", "absent")]
    assert got.change is not None and got.change.warning == "tablekit.legacy is deprecated"


def test_code_newer_than_the_users_release_is_told_to_upgrade(store: Store) -> None:
    got = answer(store, "I run tablekit==1.0\nAttributeError: module 'tablekit' has no attribute 'pivot'")
    change = got.change
    assert change is not None and (change.kind, change.first_with) == ("added", "2.0")
    assert (got.user_version, got.relation) == ("1.0", "before")
    assert [(f.kind, f.spec) for f in got.fix] == [("upgrade", "tablekit>=2.0")]


def test_the_users_release_after_the_change_says_the_code_is_older(store: Store) -> None:
    got = answer(
        store,
        "tablekit version: 2.0\nTypeError: Options.__init__() got an unexpected keyword argument 'evaluation_mode'",
    )
    assert (got.user_version, got.relation) == ("2.0", "after")


def test_a_name_no_release_has_gets_the_closest_names_and_no_change(store: Store) -> None:
    got = answer(store, "AttributeError: module 'tablekit' has no attribute 'cncat'")
    assert got.change is None and not got.found
    assert got.closest == ("concat",)


def test_a_keyword_a_function_may_take_through_kwargs_is_not_called_absent(store: Store) -> None:
    got = answer(store, "TypeError: load() got an unexpected keyword argument 'sheet'")
    assert {s.state for s in got.states} == {"unknown"}
    assert got.states[0].reason == "it accepts **kwargs"
    assert got.change is None and got.fix == ()


def test_explain_json_and_text_carry_the_answer(store: Store) -> None:
    paste = "TypeError: Options.__init__() got an unexpected keyword argument 'evaluation_mode'"
    runner = CliRunner()
    out = runner.invoke(main, ["explain", "--db", str(store.path), "--json", paste])
    assert out.exit_code == 0, out.output
    api = json.loads(out.output)["api"]
    assert api["change"]["kind"] == "renamed" and api["change"]["replacement"] == "eval_mode"
    assert [s["state"] for s in api["states"]] == ["deprecated", "absent"]
    text = " ".join(runner.invoke(main, ["explain", "--db", str(store.path), paste]).output.replace("│", " ").split())
    assert "is in tablekit 1.0 and gone in 2.0: renamed to `eval_mode`" in text
    assert "Pass `eval_mode=` instead of `evaluation_mode=`." in text
    assert "pip install 'tablekit<2.0'" in text


def test_a_message_the_interpreter_did_not_write_gets_no_api_answer(store: Store) -> None:
    assert explain("ValueError: Options.__init__() got an unexpected keyword argument 'x'", store=store).api is None
    assert explain("TypeError: something else entirely", store=store).api is None


def test_errdex_api_shows_a_symbols_signature_deprecations_and_history(store: Store) -> None:
    runner = CliRunner()
    out = runner.invoke(main, ["api", "tablekit", "Options", "--version", "1.0", "--db", str(store.path), "--json"])
    assert out.exit_code == 0, out.output
    view = json.loads(out.output)
    (found,) = view["found"]
    assert (found["path"], found["file"]) == ("tablekit.frame.Options", "tablekit/frame.py")
    assert [p["name"] for p in found["symbol"]["params"]] == ["path", "eval_mode", "evaluation_mode"]
    assert [(s["version"], s["state"]) for s in found["history"]] == [("1.0", "present"), ("2.0", "present")]
    text = runner.invoke(main, ["api", "tablekit", "Frame.append", "--db", str(store.path)]).output
    assert "tablekit 2.0" in text and "not in tablekit 2.0" in text
    text = runner.invoke(main, ["api", "tablekit", "Frame.append", "--version", "1.0", "--db", str(store.path)]).output
    assert "deprecated: append → tablekit.concat" in text
    listed = json.loads(runner.invoke(main, ["api", "tablekit", "--db", str(store.path), "--json"]).output)
    assert listed["versions"] == ["1.0", "2.0"] and listed["found"] == []


def test_errdex_api_refuses_what_is_no_python_name(store: Store) -> None:
    out = CliRunner().invoke(main, ["api", "tablekit", "Frame;drop", "--db", str(store.path)])
    assert out.exit_code != 0
    assert "no dotted Python name" in out.output


def test_a_module_every_release_has_is_missing_from_the_environment(store: Store) -> None:
    got = answer(store, "ModuleNotFoundError: No module named 'tablekit.text'")
    assert got.change is None and got.found
    assert [(f.kind, f.spec) for f in got.fix] == [("install", "tablekit")]


def test_an_interpreter_error_inside_the_library_names_the_failing_statement(store: Store) -> None:
    line = textwrap.dedent(FRAME_2).splitlines().index("    return frames[0]") + 1
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/home/me/report.py", line 3, in <module>\n'
        "    tablekit.concat(None)\n"
        f'  File "/venv/lib/python3.11/site-packages/tablekit/frame.py", line {line}, in concat\n'
        "    return frames[0]\n"
        "TypeError: 'NoneType' object is not subscriptable"
    )
    runner = CliRunner()
    out = runner.invoke(main, ["explain", "--db", str(store.path), "--json", paste])
    assert out.exit_code == 0, out.output
    statement = json.loads(out.output)["statement"]
    assert (statement["file"], statement["line"], statement["version"]) == ("tablekit/frame.py", line, "2.0")
    text = " ".join(runner.invoke(main, ["explain", "--db", str(store.path), paste]).output.replace("│", " ").split())
    assert "where the interpreter failed" in text and "return frames[0]" in text


def test_a_raise_at_the_frames_line_in_a_release_the_frames_rule_out_is_no_answer(tmp_path: Path) -> None:
    """gauge 1.0 raises at read.py:3; in 2.0 that line reads the attribute the interpreter failed on. The traceback
    prints 2.0's line, so 1.0's raise there is another release's code at that number, not the source."""
    one = (
        "def read(value):\n    if not hasattr(value, 'strip'):\n        raise AttributeError\n"
        "    return value.strip()\n"
    )
    two = "def read(value):\n    if value:\n        return value.strip()\n    return ''\n"
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/home/me/app.py", line 2, in <module>\n'
        "    gauge.read.read(3)\n"
        '  File "/venv/lib/python3.11/site-packages/gauge/read.py", line 3, in read\n'
        "    return value.strip()\n"
        "AttributeError: 'int' object has no attribute 'strip'"
    )
    with Store(tmp_path / "index.db") as store:
        for version, code in (("1.0", one), ("2.0", two)):
            folder = write_tree(
                tmp_path / f"gauge-{version}",
                {
                    "pyproject.toml": f'[project]\nname = "gauge"\nversion = "{version}"\n',
                    "gauge/__init__.py": "",
                    "gauge/read.py": code,
                },
            )
            index(str(folder), store)
        result = explain(paste, store=store)
        assert result.best is None, result.best
        out = CliRunner().invoke(main, ["explain", "--db", str(tmp_path / "index.db"), "--json", paste])
        statement = json.loads(out.output)["statement"]
        assert (statement["version"], statement["line"]) == ("2.0", 3)


def test_errdex_diff_lists_the_public_api_changes_beside_the_errors(store: Store) -> None:
    out = CliRunner().invoke(main, ["diff", "tablekit", "1.0", "2.0", "--db", str(store.path), "--json"])
    assert out.exit_code == 0, out.output
    changes = {(e["change"], e["path"]): e["details"] for e in json.loads(out.output)["api"]}
    assert ("removed", "tablekit.frame.Frame.append") in changes
    assert ("removed", "tablekit.text.soft_text") in changes
    assert ("added", "tablekit.frame.pivot") in changes
    assert changes[("signature", "tablekit.frame.Options")] == ["parameter `evaluation_mode` removed"]


def test_a_version_the_message_itself_names_is_not_the_users(store: Store) -> None:
    got = answer(
        store,
        "TypeError: Options.__init__() got an unexpected keyword argument 'evaluation_mode'"
        " (tablekit 1.0 deprecated it)",
    )
    assert got.user_version is None


def test_a_lazy_table_serves_its_names_and_a_getattr_read_no_further_is_not_called_absent(tmp_path: Path) -> None:
    def lazykit(version: str, names: list[str]) -> Path:
        init = (
            "def _attach(name, submod_attrs):\n    ...\n\n\n"
            f"__getattr__, __dir__, __all__ = _attach(__name__, submod_attrs={{'core': {names!r}}})\n"
        )
        return write_tree(
            tmp_path / f"lazykit-{version}",
            {
                "pyproject.toml": f'[project]\nname = "lazykit"\nversion = "{version}"\n',
                "lazykit/__init__.py": init,
                "lazykit/core.py": "".join(f"def {n}():\n    pass\n" for n in names),
            },
        )

    opaque = write_tree(
        tmp_path / "opaque",
        {
            "pyproject.toml": '[project]\nname = "opaque"\nversion = "1.0"\n',
            "opaque/__init__.py": "from ._loader import make\n__getattr__ = make(__name__)\n",
            "opaque/_loader.py": "def make(name):\n    return None\n",
        },
    )
    with Store(tmp_path / "index.db") as store:
        for folder in (lazykit("1.0", ["old", "new"]), lazykit("2.0", ["new"]), opaque):
            index(str(folder), store)
        got = answer(store, "ImportError: cannot import name 'old' from 'lazykit'")
        assert got.change is not None and (got.change.last_with, got.change.first_without) == ("1.0", "2.0")
        unread = answer(store, "AttributeError: module 'opaque' has no attribute 'thing'")
        assert [s.state for s in unread.states] == ["unknown"]
        assert unread.states[0].reason == "the module's `__getattr__` may provide names not read statically"


def test_a_module_several_indexed_distributions_provide_names_them_all(tmp_path: Path) -> None:
    with Store(tmp_path / "index.db") as store:
        for dist in ("vision-python", "vision-python-headless"):
            folder = write_tree(
                tmp_path / dist,
                {"pyproject.toml": f'[project]\nname = "{dist}"\nversion = "4.0"\n', "cv/__init__.py": "X = 1\n"},
            )
            index(str(folder), store)
        got = answer(store, "ModuleNotFoundError: No module named 'cv'")
        assert sorted(f.spec or "" for f in got.fix if f.kind == "install") == [
            "vision-python",
            "vision-python-headless",
        ]
        out = CliRunner().invoke(
            main, ["explain", "--db", str(tmp_path / "index.db"), "ModuleNotFoundError: No module named 'cv'"]
        )
        text = " ".join(out.output.replace("│", " ").split())
        assert "Where `cv` comes from" in text and "Install one of the indexed distributions that provide it" in text


def test_a_name_its_module_lost_but_another_module_defines_says_where_to_import_it_from(tmp_path: Path) -> None:
    def movekit(version: str, utils: str, helpers: str) -> Path:
        return write_tree(
            tmp_path / f"movekit-{version}",
            {
                "pyproject.toml": f'[project]\nname = "movekit"\nversion = "{version}"\n',
                "movekit/__init__.py": "",
                "movekit/utils.py": utils,
                "movekit/helpers.py": helpers,
            },
        )

    with Store(tmp_path / "index.db") as store:
        index(str(movekit("1.0", "def prune(x):\n    return x\n", "")), store)
        index(str(movekit("2.0", "", "def prune(x):\n    return x\n")), store)
        got = answer(store, "ImportError: cannot import name 'prune' from 'movekit.utils'")
        assert got.change is not None and (got.change.last_with, got.change.first_without) == ("1.0", "2.0")
        assert got.elsewhere == ("movekit.helpers",)
        assert (got.fix[0].kind, got.fix[0].old, got.fix[0].new) == ("import", "movekit.utils", "movekit.helpers.prune")
        text = " ".join(drift_text(got).fixes)
        assert "`from movekit.helpers import prune`" in text
