"""The public calls that lead to a raise: chains of resolved calls from what users import from the package's top
level down to the raising function; constructors and functions nothing in the package calls first; tests, guesses
by name and callers whose arguments cannot reach the check are no step."""

from __future__ import annotations

from errdex.pages import build_page
from errdex.pages.entries import entry_line
from errdex.store import Store
from tests.pages.conftest import Indexer, error_id_of

PACKAGE = {
    "net/__init__.py": "from net._prep import offline, safe\nfrom net.api import get\nfrom net.session import *\n",
    "net/api.py": """
        from net.session import Session


        def get(url):
            return Session().request("GET", url)


        def head(url):
            return Session().request("HEAD", "https://" + url)
    """,
    "net/session.py": """
        from net._prep import _prepare


        __all__ = ["Session"]


        class Session:
            def __init__(self, base="https://"):
                self.base = base

            def request(self, method, url):
                return _prepare(url)
    """,
    "net/_prep.py": """
        def _prepare(url):
            if "://" not in url:
                raise ValueError(f"no scheme in {url}")
            return url


        def offline():
            return _prepare("https://localhost")


        def safe(url):
            try:
                return _prepare(url)
            except ValueError:
                return None
    """,
    "net/tests/test_prep.py": """
        from net._prep import _prepare


        def test_prepare():
            _prepare("x")
    """,
}


def _entries(store: Store, template: str, package: str = "net") -> list[str]:
    page = build_page(store, error_id_of(store, package, template))
    return [entry_line(e, page["function"]) for e in page["when_it_happens"]["entries"]]


def test_the_public_calls_down_to_a_private_check(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="net")
    # `net.head` is in a public module but not exported from the top level: no entry. `Session.request` is, and the
    # package calls it. `net.offline` passes a URL with a scheme (the check is false for it), `net.safe` catches the
    # error, and a test is no way in.
    assert _entries(store, "no scheme in {}") == [
        "`net.get` (no call of it found in the release) → `Session.request` (net/api.py:5) → `_prepare`"
        " (net/session.py:12)",
        "`net.Session.request` → `_prepare` (net/session.py:12)",
    ]


def test_the_raising_function_itself_when_users_import_it(indexed: Indexer) -> None:
    files = {
        "lib/__init__.py": "from lib.core import check\n",
        "lib/core.py": "def check(x):\n    if x < 0:\n        raise ValueError('negative')\n",
    }
    store = indexed(files, name="lib")
    assert _entries(store, "negative", "lib") == [
        "`lib.check` (no call of it found in the release) (the function itself)"
    ]


def test_a_function_whose_only_caller_catches_its_error_is_no_root(indexed: Indexer) -> None:
    files = {
        "lib/__init__.py": "from lib.core import Response\n",
        "lib/core.py": """
            class Response:
                def raise_for_status(self):
                    if self.status >= 400:
                        raise ValueError("bad status")

                @property
                def ok(self):
                    try:
                        self.raise_for_status()
                    except ValueError:
                        return False
                    return True
        """,
    }
    store = indexed(files, name="lib")
    assert _entries(store, "bad status", "lib") == ["`lib.Response.raise_for_status` (the function itself)"]


def test_a_use_guessed_by_name_is_no_step_but_no_root_either(indexed: Indexer) -> None:
    files = {
        "lib/__init__.py": "from lib.core import Config\n",
        "lib/core.py": """
            class Config:
                def validate(self):
                    if self.mode is None:
                        raise ValueError("no mode")


            def _run(config):
                config.validate()
        """,
    }
    store = indexed(files, name="lib")
    page = build_page(store, error_id_of(store, "lib", "no mode"))
    assert [c["match"] for c in page["callers"]] == ["receiver"]
    assert _entries(store, "no mode", "lib") == ["`lib.Config.validate` (the function itself)"]


def test_a_function_whose_one_use_cannot_reach_the_check_is_no_root(indexed: Indexer) -> None:
    files = {
        "lib/__init__.py": "from lib.core import checked\n",
        "lib/core.py": """
            def checked(field, whole=None, each=False):
                if whole is not None and each:
                    raise ValueError("whole needs fields")
                return lambda f: f
        """,
        "lib/use.py": """
            from lib.core import checked


            def make():
                class Model:
                    x = checked("a")

                return Model
        """,
    }
    store = indexed(files, name="lib")
    # its one use cannot reach the check (no `whole`), and yet "no call of it found" would be false
    assert _entries(store, "whole needs fields", "lib") == ["`lib.checked` (the function itself)"]


def test_a_function_whose_name_is_used_on_unknown_objects_is_no_root(indexed: Indexer) -> None:
    files = {
        "lib/__init__.py": "from lib.core import Audio\n",
        "lib/core.py": """
            class Audio:
                def cast_storage(self, storage):
                    if storage is None:
                        raise ValueError("no storage")
                    return storage


            def _cast(feature, storage):
                return feature.cast_storage(storage)
        """,
    }
    store = indexed(files, name="lib")
    # `feature.cast_storage(...)` may be a call of it: the search did not examine it, so none is said to be found
    assert _entries(store, "no storage", "lib") == ["`lib.Audio.cast_storage` (the function itself)"]
