"""What a page claims of a raise's condition, kind of code by kind of code: `in` tests, earlier exits, parameters
bound again before the check, several places, `except` blocks nested in `except` blocks."""

from __future__ import annotations

from errdex.pages import build_page
from errdex.pages.model import Page
from errdex.store import Store
from tests.pages.conftest import Indexer, error_id_of

PACKAGE = {
    "cond/__init__.py": "",
    "cond/checks.py": """
        import logging
        import os
        import warnings

        logger = logging.getLogger(__name__)
        MODES = ["fast", "slow"]


        def load(path):
            try:
                return open(path)
            except ImportError as e:
                if "bad magic number" in str(e):
                    raise ImportError(f"stale file {path}")


        def tagged(url_path, tag):
            if tag in url_path:
                raise ValueError(f"tag {tag} found")


        def literal(kind):
            if kind not in ("a", "b"):
                raise ValueError(f"kind {kind} unknown")


        def formatted(word, name):
            if word not in f"<{name}>":
                raise ValueError(f"word {word} not in the name")


        class Batch:
            def words(self):
                if not self._encodings:
                    raise ValueError("words() needs a fast tokenizer")
                warnings.warn("words() is deprecated", FutureWarning)
                return self._encodings


        def to_handle(fname):
            if isinstance(fname, os.PathLike):
                fname = os.fspath(fname)
            if not isinstance(fname, str) and not hasattr(fname, "seek"):
                raise ValueError(f"fname must be a path or a file handle, not {fname}")
            return fname


        def pick(mode):
            if isinstance(mode, str):
                mode = mode.lower()
            if mode not in MODES:
                raise ValueError(f"mode {mode} is not allowed")
            return mode


        def plain(size):
            if size < 0:
                raise ValueError(f"size {size} is negative")


        def first_cache(paths):
            if paths.exists():
                try:
                    return paths.read()
                except Exception:
                    try:
                        paths.unlink()
                    except Exception:
                        logger.warning("could not remove the cache file")


        def second_cache(paths):
            try:
                data = paths.read_bytes()
            except OSError:
                try:
                    os.remove(paths.name)
                except FileNotFoundError:
                    logger.warning("could not remove the cache file")
                return None
            return data


        def by_key(store, key):
            if key not in store:
                raise KeyError(f"no entry {key}")


        def by_name(entries, name):
            for entry in entries:
                if entry.name == name:
                    return entry
            raise KeyError(f"no entry {name}")
    """,
}


def _page(indexed: Indexer, template: str) -> Page:
    store: Store = indexed(PACKAGE, name="cond")
    return build_page(store, error_id_of(store, "cond", template))


def test_in_a_string_is_said_as_contains(indexed: Indexer) -> None:
    summary = _page(indexed, "stale file {}")["what_it_means"]["summary"]
    assert "`str(e)` contains `'bad magic number'`" in summary
    assert "is one of" not in summary
    formatted = _page(indexed, "word {} not in the name")["what_it_means"]
    assert formatted["clauses"][0]["text"] == "`f'<{name}>'` does not contain `word`"


def test_in_a_name_not_known_to_be_a_collection_is_neutral(indexed: Indexer) -> None:
    meaning = _page(indexed, "tag {} found")["what_it_means"]
    assert meaning["clauses"][0]["text"] == "`tag` is in `url_path`"
    assert meaning["clauses"][0]["negated"] == "`tag` is not in `url_path`"


def test_in_a_collection_is_said_as_one_of(indexed: Indexer) -> None:
    assert _page(indexed, "kind {} unknown")["what_it_means"]["clauses"][0]["text"] == (
        "`kind` is not one of `('a', 'b')`"
    )
    assert (
        "`mode` is not one of `MODES` (2 values)"
        in _page(indexed, "mode {} is not allowed")["what_it_means"]["summary"]
    )


def test_an_unguarded_line_keeps_the_earlier_raise_and_claims_no_more(indexed: Indexer) -> None:
    summary = _page(indexed, "words() is deprecated")["what_it_means"]["summary"]
    assert summary.startswith(
        "`Batch.words` warns (FutureWarning) whenever line 36 runs (no `if` in `Batch.words` guards line 36),"
        " once the `raise` statements before it in this function do not fire (line 34): an earlier raise fires first"
        " when `self._encodings` is empty, zero, False or None (line 34)."
    )
    assert "nothing more can be derived" not in summary


def test_a_parameter_bound_again_is_said_to_be_the_new_value(indexed: Indexer) -> None:
    meaning = _page(indexed, "fname must be a path or a file handle, not {}")["what_it_means"]
    assert meaning["rebound"] == [
        {
            "name": "fname",
            "line": 42,
            "code": "fname = os.fspath(fname)",
            "when": "isinstance(fname, os.PathLike)",
            "at": 44,
        }
    ]
    assert meaning["summary"].endswith(
        " `fname` here is its value after line 42 (`fname = os.fspath(fname)` when"
        " `isinstance(fname, os.PathLike)` is true), not necessarily the argument as passed."
    )
    assert _page(indexed, "size {} is negative")["what_it_means"]["rebound"] == []


def test_allowed_values_of_a_rebound_parameter_say_so(indexed: Indexer) -> None:
    page = _page(indexed, "mode {} is not allowed")
    assert [r["line"] for r in page["what_it_means"]["rebound"]] == [50]
    (listed,) = [s for s in page["solutions"] if s["kind"] == "use_allowed_value"]
    assert listed["text"].endswith(
        "The check reads `mode` as line 50 of the function may have bound it again, not as passed:"
        " these are the values it must have after that."
    )


def test_an_except_in_an_except_needs_both_try_bodies_to_raise(indexed: Indexer) -> None:
    store: Store = indexed(PACKAGE, name="cond")
    eid = error_id_of(store, "cond", "could not remove the cache file")
    one = build_page(store, eid, site=("cond/checks.py", 69))["what_it_means"]["summary"]
    assert one == (
        "`first_cache` logs at level warning when the code in the `try` at line 64 (`return paths.read()`) raises"
        " `Exception`, and then, in its `except` block, the code in the `try` at line 67 (`paths.unlink()`) raises"
        " `Exception`, and `paths.exists()` returns a true value."
    )
    both = build_page(store, eid)["what_it_means"]["summary"]
    assert " At cond/checks.py:69 it runs only when the code in the `try` at line 64" in both
    assert (
        " At cond/checks.py:79 it runs only when the code in the `try` at line 74 (`data = paths.read_bytes()`) raises"
        " `OSError`, and then, in its `except` block, the code in the `try` at line 77 (`os.remove(paths.name)`) raises"
        " `FileNotFoundError`."
    ) in both


def test_places_with_their_own_checks_claim_no_difference(indexed: Indexer) -> None:
    store: Store = indexed(PACKAGE, name="cond")
    summary = build_page(store, error_id_of(store, "cond", "no entry {}"))["what_it_means"]["summary"]
    assert (
        summary == "Each of its 2 places raises KeyError; each place has its own check: ask for the page of one place."
    )


def test_earlier_returns_are_said_as_exits(indexed: Indexer) -> None:
    store: Store = indexed(PACKAGE, name="cond")
    eid = error_id_of(store, "cond", "no entry {}")
    loop = build_page(store, eid, site=("cond/checks.py", 93))["what_it_means"]["summary"]
    assert loop.endswith(
        " `by_name` can also return before line 93, at line 92 (in the `for` loop at line 90, when `entry.name == name`"
        " holds): line 93 runs only when none of them did."
    )
    guarded = build_page(store, eid, site=("cond/checks.py", 86))["what_it_means"]["summary"]
    assert "can also return" not in guarded
    handled = _page(indexed, "stale file {}")["what_it_means"]["summary"]
    assert "can also return" not in handled  # the `try` body's return: the handler already says it raised


def test_returns_the_condition_already_excludes_are_not_repeated(indexed: Indexer) -> None:
    store: Store = indexed(
        {
            "ex/__init__.py": """
                import re


                def kind_of(kind, strict):
                    if not strict:
                        return 0
                    if kind == "a":
                        return 1
                    elif kind == "b":
                        return 2
                    raise ValueError(f"unknown kind {kind}")


                def colour(text):
                    def lower(value):
                        return value.lower()

                    m = re.fullmatch("#[0-9a-f]{3}", lower(text))
                    if m:
                        return m.group(0)
                    m = re.fullmatch("#[0-9a-f]{6}", text)
                    if m:
                        return m.group(0)
                    raise ValueError(f"no colour {text}")
            """
        },
        name="ex",
    )
    plain = build_page(store, error_id_of(store, "ex", "unknown kind {}"))["what_it_means"]["summary"]
    assert plain == (
        "`kind_of` raises ValueError when `strict` is set to a true value (not empty, zero, False or None)"
        " and `kind` does not equal 'a' and `kind` does not equal 'b'."
    )
    rebound = build_page(store, error_id_of(store, "ex", "no colour {}"))["what_it_means"]["summary"]
    assert rebound.endswith(
        " `colour` can also return before line 24, at line 20 (when `m` holds): line 24 runs only when none of them"
        " did."
    )
