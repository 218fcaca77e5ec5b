"""The command line as a user meets it: every source kind, --json, clear failures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import tomllib
from importlib import metadata
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from packaging.requirements import Requirement

from errdex.cli import COMMAND_MODULES, EXTRAS, main
from tests.fixtures import cart_module, shop, write_tree, write_wheel


@pytest.fixture
def db(db_url: str) -> str:
    """The --db of these tests: a file path or a postgresql:// URL (once per backend)."""
    return db_url


def run(*args: str, db: str, ok: bool = True) -> click.testing.Result:
    result = CliRunner().invoke(main, [*args, "--db", db])
    if ok:
        assert result.exit_code == 0, result.output
    return result


def indexed(db: str, spec: str, *extra: str) -> dict:
    result = run("index", spec, *extra, "--json", db=db)
    (entry,) = json.loads(result.stdout)
    return entry


def test_every_command_has_help() -> None:
    for name, command in main.commands.items():
        assert command.help, name
        result = CliRunner().invoke(main, [name, "--help"])
        assert result.exit_code == 0 and "Usage" in result.output


def test_folder_then_list_and_show(tmp_path: Path, db: str) -> None:
    root = write_tree(tmp_path / "src", shop())
    entry = indexed(db, str(root))
    assert (entry["package"], entry["version"], entry["source_kind"]) == ("shop", "1.0", "folder")
    assert entry["errors"] == 2
    errors = json.loads(run("list", "shop", "--json", db=db).stdout)
    assert {e["template"] for e in errors} == {"mode must be one of {}, got {}", "slow mode is not ready"}
    first = next(e for e in errors if e["template"].startswith("mode"))
    shown = json.loads(run("show", first["id"], "--json", db=db).stdout)
    for key in (
        "id",
        "package",
        "version",
        "kind",
        "exception",
        "exception_bases",
        "template",
        "file",
        "line",
        "end_line",
        "function",
        "condition",
        "resolved",
        "snippet",
        "related",
    ):
        assert key in shown, key
    assert shown["resolved"] == {"MODES": ["fast", "slow"]}
    assert shown["related"][0]["template"] == "slow mode is not ready"
    text = run("show", first["id"], db=db).stdout
    assert "shop/cart.py:11" in text and "--full" in text
    assert "self.mode not in MODES" in run("show", first["id"], "--full", db=db).stdout  # the check in detail


def test_list_filters_by_exception_and_kind(tmp_path: Path, db: str) -> None:
    indexed(db, str(write_tree(tmp_path / "src", shop())))
    only = json.loads(run("list", "shop", "--exception", "NotImplementedError", "--json", db=db).stdout)
    assert [e["exception"] for e in only] == ["NotImplementedError"]
    assert json.loads(run("list", "shop", "--kind", "warning", "--json", db=db).stdout) == []


def test_wheel_and_sdist_are_named_from_their_metadata(tmp_path: Path, db: str) -> None:
    wheel = write_wheel(tmp_path, "shop", "3.0", shop("3.0"))
    assert indexed(db, str(wheel))["version"] == "3.0"
    sdist = tmp_path / "shop-4.0.tar.gz"
    src = write_tree(
        tmp_path / "sd" / "shop-4.0", {**shop("4.0"), "PKG-INFO": "Metadata-Version: 2.1\nName: shop\nVersion: 4.0\n"}
    )
    with tarfile.open(sdist, "w:gz") as tar:
        tar.add(src, arcname="shop-4.0")
    entry = indexed(db, str(sdist))
    assert (entry["version"], entry["source_kind"], entry["errors"]) == ("4.0", "sdist", 2)
    assert {p["version"] for p in [indexed(db, str(wheel))]} == {"3.0"}
    versions = json.loads(run("packages", "--json", db=db).stdout)[0]["versions"]
    assert versions == ["3.0", "4.0"]


def test_git_commit_is_read_without_checkout(tmp_path: Path, db: str) -> None:
    repo = write_tree(tmp_path / "repo", shop("5.0"))
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    (repo / "shop" / "cart.py").write_text("raise ValueError('uncommitted change')\n")
    entry = indexed(db, f"git+{repo}@HEAD")
    assert (entry["version"], entry["source_kind"], entry["errors"]) == ("5.0", "git", 2)
    assert len(entry["digest"]) == 40


def test_installed_distribution(db: str) -> None:
    entry = indexed(db, "click", "--installed")
    assert entry["package"].lower() == "click" and entry["version"] == metadata.version("click")
    assert entry["errors"] > 20


def test_name_and_version_override(tmp_path: Path, db: str) -> None:
    root = write_tree(tmp_path / "plain", {"lib/__init__.py": "raise ImportError('no')\n"})
    entry = indexed(db, str(root), "--name", "mylib", "--version", "0.1")
    assert (entry["package"], entry["version"]) == ("mylib", "0.1")


def test_bad_specs_fail_clearly_and_keep_what_was_indexed(tmp_path: Path, db: str) -> None:
    indexed(db, str(write_tree(tmp_path / "src", shop())))
    broken = tmp_path / "broken-1.0.tar.gz"
    broken.write_bytes(b"\x1f\x8b\x08 this is not gzip")
    result = run(
        "index", str(tmp_path / "missing"), str(broken), str(write_tree(tmp_path / "ok", shop("6.0"))), db=db, ok=False
    )
    assert result.exit_code == 1
    assert "missing" in result.stderr and "broken-1.0.tar.gz" in result.stderr
    assert "Traceback" not in result.output
    versions = json.loads(run("packages", "--json", db=db).stdout)[0]["versions"]
    assert versions == ["1.0", "6.0"]


def test_unknown_id_and_package(db: str) -> None:
    result = run("show", "ffffffffffffffff", db=db, ok=False)
    assert result.exit_code == 1 and "no error with id 'ffffffffffffffff'" in result.stderr
    result = run("list", "nothing-here", db=db, ok=False)
    assert result.exit_code == 1 and "errdex index nothing-here" in result.stderr


def test_folder_with_a_file_that_does_not_parse(tmp_path: Path, db: str) -> None:
    root = write_tree(
        tmp_path / "src", {**shop(), "shop/legacy.py": "print 'python 2'\nraise ValueError, 'old style'\n"}
    )
    entry = indexed(db, str(root))
    assert entry["skipped"] == 1 and entry["errors"] == 2
    (skipped,) = entry["skipped_files"]
    assert skipped["path"] == "shop/legacy.py" and skipped["reason"].startswith("does not parse: ")
    shown = " ".join(run("index", str(root), "--force", db=db).stdout.split())  # as wrapped to the width
    assert "1 skipped) in" in shown and f"skipped shop/legacy.py: {skipped['reason']}" in shown


def test_a_long_list_of_skipped_files_is_cut_in_the_text_and_whole_in_json(tmp_path: Path, db: str) -> None:
    not_python = {f"shop/blob{n:02}.py": "x = 1\x00\n" for n in range(13)}  # a NUL byte: not Python
    root = write_tree(tmp_path / "src", {**shop(), **not_python})
    entry = indexed(db, str(root))
    assert [f["path"] for f in entry["skipped_files"]] == sorted(not_python)
    lines = run("index", str(root), "--force", db=db).stdout.splitlines()
    assert sum(line.startswith("  skipped shop/blob") for line in lines) == 10
    assert lines[-1] == "  and 3 more skipped; --json lists them all"


def test_a_name_that_is_also_a_folder_here_is_fetched_with_a_hint(
    tmp_path: Path, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tree(tmp_path / "errdex-no-such-pkg", {"cart.py": cart_module()})  # no project file: read as a name
    monkeypatch.chdir(tmp_path)
    for key in [key for key in os.environ if key.startswith("PIP_")]:
        monkeypatch.delenv(key)
    pip_offline = {"PIP_CONFIG_FILE": os.devnull, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(tmp_path)}
    result = CliRunner().invoke(
        main, ["index", "errdex-no-such-pkg", "--json", "--db", db], env={**pip_offline, "ERRDEX_CACHE": "cache"}
    )
    hint = "./errdex-no-such-pkg is a folder here; to index it, run errdex index ./errdex-no-such-pkg"
    assert result.exit_code == 1 and f"hint: {hint}" in " ".join(result.stderr.split())
    (entry,) = json.loads(result.stdout)
    assert entry["status"] == "failed" and entry["hint"] == hint
    assert "hint" not in indexed(db, "./errdex-no-such-pkg")


def test_errdex_db_names_the_index_without_db(tmp_path: Path, db: str) -> None:
    root = write_tree(tmp_path / "src", shop())
    env = {"ERRDEX_DB": db}
    assert CliRunner().invoke(main, ["index", str(root), "--json"], env=env).exit_code == 0
    listed = CliRunner().invoke(main, ["list", "shop", "--json"], env=env)
    assert listed.exit_code == 0 and len(json.loads(listed.stdout)) == 2


def test_every_command_is_found_in_its_module() -> None:
    context = click.Context(main)
    for name in COMMAND_MODULES:
        command = main.get_command(context, name)
        assert command is not None and command.name == name
    assert set(main.commands) == set(COMMAND_MODULES)  # no module defines a command the table does not name


def test_explain_does_not_load_the_indexer_or_the_web_server() -> None:
    code = (
        "import sys\nfrom errdex.cli import main\n"
        "main(['explain', '--help'], standalone_mode=False)\n"
        "print(sorted(m for m in sys.modules if m.startswith(("
        "'errdex.web', 'errdex.indexing', 'errdex.indexing.bulk', 'uvicorn'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize(
    ("command", "missing", "extra"),
    [(["serve", "--port", "0"], "uvicorn", "web"), (["export-site", "site"], "jinja2", "web"), (["mcp"], "mcp", "mcp")],
)
def test_a_command_whose_extra_is_not_installed_says_what_to_install(
    tmp_path: Path, command: list[str], missing: str, extra: str
) -> None:
    code = f"import sys; sys.modules[{missing!r}] = None; from errdex.cli import main; main()"  # None: not importable
    proc = subprocess.run(
        [sys.executable, "-c", code, *command, "--db", str(tmp_path / "errdex.db")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    said = f"error: errdex {command[0]} needs {missing} (not installed here): pip install 'errdex[{extra}]'"
    assert (proc.returncode, " ".join(proc.stderr.split())) == (1, said)


def test_the_extras_commands_check_are_the_extras_of_pyproject() -> None:
    with open(Path(__file__).resolve().parents[1] / "pyproject.toml", "rb") as f:
        extras = tomllib.load(f)["project"]["optional-dependencies"]
    for extra, modules in EXTRAS.items():
        assert {Requirement(r).name.lower() for r in extras[extra]} == set(modules), extra


HELPER_PACKAGE = {
    "pyproject.toml": '[project]\nname = "tpl"\nversion = "1.0"\n',
    "tpl/__init__.py": "",
    "tpl/parser.py": (
        "class TemplateSyntaxError(Exception):\n"
        "    pass\n"
        "\n"
        "\n"
        "class Parser:\n"
        "    def fail(self, msg, exc=TemplateSyntaxError):\n"
        "        raise exc(msg)\n"
        "\n"
        "    def parse_statement(self, token):\n"
        "        if token not in ('if', 'for'):\n"
        "            self.fail(f'Encountered unknown tag {token!r}.')\n"
    ),
}


def test_list_and_show_json_say_where_a_helper_message_was_written_outside_resolved_from(
    tmp_path: Path, db: str
) -> None:
    indexed(db, str(write_tree(tmp_path / "tpl", HELPER_PACKAGE)))
    (error,) = [e for e in json.loads(run("list", "tpl", "--json", db=db).stdout) if e["template"]]
    shown = json.loads(run("show", error["id"], "--json", db=db).stdout)
    written = {"file": "tpl/parser.py", "line": 11, "function": "Parser.parse_statement"}
    for entry in (error, shown):
        assert entry["written_at"] == written
        assert all(not name.startswith("<") for name in entry["resolved_from"]), entry["resolved_from"]
    assert shown["sites"][0]["written_at"] == written


def test_show_at_a_place_gives_that_places_page_and_says_how(tmp_path: Path, db: str) -> None:
    """An error raised at places with different checks: the page for all of them names the command for one."""
    root = write_tree(
        tmp_path / "src",
        {
            "twice/__init__.py": """
def low(x):
    if x < 0:
        raise ValueError("out of range")


def high(x):
    if x > 9:
        raise ValueError("out of range")
""",
        },
    )
    indexed(db, str(root), "--name", "twice", "--version", "1.0")
    (error,) = json.loads(run("list", "twice", "--json", db=db).stdout)
    whole = run("show", error["id"], db=db).output
    assert "--at twice/__init__.py:4" in whole and "places:" in whole
    one = json.loads(run("show", error["id"], "--at", "twice/__init__.py:9", "--json", db=db).stdout)
    assert (one["line"], one["site_scope"]["site"]) == (9, "twice/__init__.py:9")
    assert "`x` is at most 9" in one["what_it_means"]["plain"]
    bad = run("show", error["id"], "--at", "nowhere", db=db, ok=False)
    assert bad.exit_code != 0 and "is no FILE:LINE" in bad.output
