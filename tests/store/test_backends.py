"""Choosing the backend: a postgresql:// URL opens PostgreSQL, anything else a SQLite file;
failures are one clear line."""

from __future__ import annotations

import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from errdex.errors import StoreError
from errdex.model import error_id
from errdex.store import Store, default_path, postgres_schema, schema
from errdex.store.postgres_db import redacted
from tests.backends import connect, is_postgres, postgres
from tests.fixtures import write_tree


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_both_backends_have_the_same_numbered_migrations() -> None:
    assert len(postgres_schema.MIGRATIONS) == len(schema.MIGRATIONS)


def test_a_server_that_does_not_answer_is_one_line_without_the_password() -> None:
    url = f"postgresql://errdex:s3cret-pw@127.0.0.1:{closed_port()}/errdex?sslmode=disable"
    with pytest.raises(StoreError) as info:
        Store(url)
    message = str(info.value)
    assert message.startswith("cannot open the PostgreSQL index postgresql://errdex@127.0.0.1:")
    assert "check the URL and that the server is running" in message
    assert "s3cret-pw" not in message and "\n" not in message


def test_a_url_that_is_not_one_is_refused_clearly() -> None:
    with pytest.raises(StoreError, match="cannot open the PostgreSQL index"):
        Store("postgresql://errdex@127.0.0.1:1/errdex?no_such_option=1")


def test_redacted_keeps_what_names_the_database() -> None:
    assert redacted("postgres://u:p@db.example.org:6543/idx?password=q") == "postgres://u@db.example.org:6543/idx"
    assert redacted("postgresql:///errdex") == "postgresql:///errdex"


def test_errdex_db_may_be_a_url_and_a_file_is_still_a_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ERRDEX_DB", "postgresql://u@db.example.org/errdex")
    assert default_path() == "postgresql://u@db.example.org/errdex"
    monkeypatch.setenv("ERRDEX_DB", str(tmp_path / "x.db"))
    assert default_path() == tmp_path / "x.db"


def test_sqlite_never_imports_psycopg(tmp_path: Path) -> None:
    code = "import sys; from errdex.store import Store; Store(sys.argv[1]).close(); print('psycopg' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "x.db")], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "False"


def test_without_psycopg_a_url_says_what_to_install() -> None:
    code = textwrap.dedent(
        """
        import sys
        sys.modules["psycopg"] = None  # as if it were not installed
        from errdex.errors import StoreError
        from errdex.store import Store
        try:
            Store("postgresql://u:pw@127.0.0.1:1/errdex")
        except StoreError as exc:
            print(exc)
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "needs psycopg: pip install 'errdex[postgres]'" in done.stdout and "pw" not in done.stdout


TEXTS = {
    "pyproject.toml": '[project]\nname = "words"\nversion = "1.0"\n',
    "words/__init__.py": textwrap.dedent(
        """
        def check(self, cache_implementation, path):
            if cache_implementation not in ("static", "dynamic"):
                raise ValueError(f"Invalid `cache_implementation` ({cache_implementation}). Choose one of: static")
            if not path.endswith(".py"):
                raise ValueError(f"{path}: self.mode needs a file.py, not a café")
            raise KeyError("x-y is reserved")
        """
    ),
}
INVALID = error_id("words", "error", "ValueError", "Invalid `cache_implementation` ({}). Choose one of: static", "")
FILE = error_id("words", "error", "ValueError", "{}: self.mode needs a file.py, not a café", "")
RESERVED = error_id("words", "error", "KeyError", "x-y is reserved", "")


@pytest.mark.parametrize(
    ("words", "found"),
    [
        (["cache"], {INVALID}),
        (["cache_implementation"], {INVALID}),
        (["CHOOSE", "one"], {INVALID}),
        (["mode"], {FILE}),
        (["self.mode"], {FILE}),
        (["file.py"], {FILE}),
        (["py"], {FILE}),
        (["café"], {FILE}),
        (["x-y"], {RESERVED}),
        (["y"], {RESERVED}),
        (["is", "reserved"], {RESERVED}),
        (["one", "reserved"], set()),
        (["mod"], set()),
        (["needs a"], {FILE}),
        (["a needs"], set()),
        ([""], set()),
        (["'", "*"], set()),
    ],
)
def test_search_cuts_text_into_the_same_words_on_both_backends(
    db_url: str, tmp_path: Path, words: list[str], found: set[str]
) -> None:
    from errdex.indexing import index

    with Store(db_url) as store:
        index(str(write_tree(tmp_path / "words", TEXTS)), store)
        assert set(store.search_templates(words)) == found


def test_a_dropped_postgres_connection_is_opened_again(tmp_path: Path) -> None:
    """A server restart must not leave a running `errdex serve` with a dead connection."""
    from errdex.indexing import index

    url = postgres().database()
    with Store(url) as store:
        index(str(write_tree(tmp_path / "words", TEXTS)), store)
        with connect(url) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (store.db.conn.info.backend_pid,))
        assert len(store.errors("words")) == 3  # a read: on a new connection
        with connect(url) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (store.db.conn.info.backend_pid,))
        index(str(write_tree(tmp_path / "words", TEXTS)), store)  # a write: on a new connection
        assert store.generation() == 2


def test_a_nul_character_in_a_message_is_stored(db_url: str, tmp_path: Path) -> None:
    """PostgreSQL text cannot hold NUL: there it is stored as U+FFFD, and the release is indexed all the same."""
    from errdex.indexing import index

    files = {"nul/__init__.py": 'def f(x):\n    raise ValueError(f"bad\\x00value {x}")\n'}
    with Store(db_url) as store:
        result = index(str(write_tree(tmp_path / "nul", files)), store, name="nul", version="1.0")
        (error,) = store.errors("nul")
        site = error.site
    assert result.release.error_count == 1
    assert site.template == ("bad\ufffdvalue {}" if is_postgres(db_url) else "bad\x00value {}")


def test_a_postgres_index_may_live_in_its_own_schema(tmp_path: Path) -> None:
    """Sharing a database with other tables: the URL's search_path decides where errdex's go."""
    from errdex.indexing import index

    url = postgres().database()
    with connect(url) as admin:
        admin.execute("CREATE SCHEMA errdex_here")
        admin.execute("CREATE TABLE public.packages (unrelated INTEGER)")  # another application's table
    with Store(url + "?options=-csearch_path%3Derrdex_here") as store:
        index(str(write_tree(tmp_path / "words", TEXTS)), store)
        assert len(store.errors("words")) == 3
    with connect(url) as admin:
        assert admin.execute("SELECT COUNT(*) FROM errdex_here.errors").fetchone()[0] == 3
