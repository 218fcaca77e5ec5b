"""A raise in an `except` block: it needs its `try` body to raise, whatever the `if` around it says."""

from __future__ import annotations

from errdex.pages import build_page
from errdex.pages.model import WhatItMeans
from tests.pages.conftest import Indexer, error_id_of

PACKAGE = {
    "lib/__init__.py": "",
    "lib/stream.py": """
        import time

        MODES = ("fast", "slow")


        class StreamError(Exception):
            pass


        def read_all(raw, size):
            if hasattr(raw, "stream"):
                try:
                    for chunk in raw.stream(size):
                        print(chunk)
                except ValueError as e:
                    raise StreamError(f"stream failed: {e}")


        def max_age(morsel):
            if morsel["max-age"]:
                try:
                    return int(time.time() + int(morsel["max-age"]))
                except (ValueError, OverflowError):
                    raise TypeError(f"max-age: {morsel['max-age']} must be integer")


        def pick(mode):
            if mode not in MODES:
                try:
                    return int(mode)
                except ValueError:
                    raise KeyError(f"no mode {mode}")


        def close(handle):
            try:
                handle.flush()
            except:
                raise RuntimeError("could not close the handle")


        def check_size(size):
            if size < 0:
                raise ValueError(f"size {size} is negative")


        def check_offline():
            pass


        def fetch(hub, revision):
            try:
                check_offline()
                hub.download(revision)
            except LookupError:
                raise ValueError(f"revision {revision} not found")
    """,
    "lib/plugin.py": """
        try:
            __import__("other-stubs")
        except ImportError:
            pass
        else:
            raise ImportError("uninstall other-stubs")
    """,
    "lib/load.py": """
        class NotFound(Exception):
            pass


        def load(path, cache):
            try:
                if not path:
                    raise NotFound(f"no dataset {path}")
                return open(path)
            except Exception as e1:
                try:
                    return cache[path]
                except KeyError:
                    if isinstance(e1, NotFound):
                        raise e1 from None
                    raise


        def quiet(path):
            try:
                if not path:
                    raise NotFound(f"quiet {path}")
            except NotFound:
                return None
            return path


        def other(path):
            try:
                if not path:
                    raise NotFound(f"other {path}")
            except KeyError:
                return None
            return path
    """,
}


def _meaning(indexed: Indexer, template: str) -> WhatItMeans:
    store = indexed(PACKAGE, name="lib")
    return build_page(store, error_id_of(store, "lib", template))["what_it_means"]


def test_the_summary_says_the_try_body_must_raise_first(indexed: Indexer) -> None:
    meaning = _meaning(indexed, "max-age: {} must be integer")
    assert meaning["summary"] == (
        "`max_age` raises TypeError when the code in the `try` at line 22"
        " (`return int(time.time() + int(morsel['max-age']))`) raises `ValueError` or `OverflowError`,"
        " and `morsel['max-age']` is true."
    )
    assert meaning["handler"] == {
        "exceptions": ["ValueError", "OverflowError"],
        "try_line": 22,
        "try_end": 22,
        "statement": "return int(time.time() + int(morsel['max-age']))",
        "block": "except",
    }
    assert meaning["condition"] == "morsel['max-age']"  # the check the matcher reads is unchanged
    assert [c["code"] for c in meaning["clauses"]] == ["morsel['max-age']"]


def test_a_try_body_of_several_statements_is_named_by_its_lines_only(indexed: Indexer) -> None:
    """Any statement of the body may be the one that raised: naming its first one would point at the wrong call."""
    store = indexed(PACKAGE, name="lib")
    page = build_page(store, error_id_of(store, "lib", "stream failed: {}"))
    summary = page["what_it_means"]["summary"]
    assert "the code in the `try` at lines 13–14 raises `ValueError`" in summary
    assert "for chunk" not in summary
    assert page["what_it_means"]["handler"] is not None and page["what_it_means"]["handler"]["statement"] is None
    assert summary.endswith("and `raw` has an attribute `stream`.")
    meaning = _meaning(indexed, "revision {} not found")
    assert "the code in the `try` at lines 53–54 raises `LookupError`" in meaning["summary"]
    assert "check_offline" not in meaning["summary"]


def test_no_solution_tells_to_avoid_only_the_if(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    for template in ("stream failed: {}", "max-age: {} must be integer", "no mode {}"):
        page = build_page(store, error_id_of(store, "lib", template))
        assert not any(s["kind"] == "use_allowed_value" for s in page["solutions"]), template
        assert page["triggers"] == [] and page["example_fix"] is None, template
    plain = build_page(store, error_id_of(store, "lib", "size {} is negative"))
    assert plain["what_it_means"]["handler"] is None
    assert plain["solutions"] == []
    assert plain["triggers"]


def test_a_user_value_that_passes_the_if_is_not_said_to_raise(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    page = build_page(store, error_id_of(store, "lib", "no mode {}"), values=["'fats'"])
    assert page["user_input"] is not None
    assert [c["result"] for c in page["user_input"]["checked"]] == ["unknown"]


def test_an_unguarded_raise_in_a_bare_except(indexed: Indexer) -> None:
    meaning = _meaning(indexed, "could not close the handle")
    assert meaning["summary"] == (
        "`close` raises RuntimeError when the code in the `try` at line 37 (`handle.flush()`) raises an exception"
        " (no `if` in `close` guards line 39)."
    )
    assert meaning["context"] == "it is raised while handling any exception from the `try` block at line 36"


def test_a_raise_in_a_try_else_block_needs_the_body_to_complete(indexed: Indexer) -> None:
    """`try: __import__(x) except ImportError: pass else: raise ...`: importing the module raises only when x can be
    imported, never 'whenever the line runs'."""
    store = indexed(PACKAGE, name="lib")
    page = build_page(store, error_id_of(store, "lib", "uninstall other-stubs"))
    meaning = page["what_it_means"]
    assert meaning["summary"] == (
        "Module-level code raises ImportError when the code in the `try` at line 2 (`__import__('other-stubs')`)"
        " completes without raising, which runs its `else:` block (no `if` in the module's code guards line 6);"
        " it runs when the module is imported."
    )
    assert meaning["handler"] == {
        "exceptions": [],
        "try_line": 2,
        "try_end": 2,
        "statement": "__import__('other-stubs')",
        "block": "else",
    }
    assert page["when_it_happens"]["summary"] == (
        "It happens when the module is imported, and only when the code in the `try` at line 2"
        " (`__import__('other-stubs')`) completes without raising, which runs its `else:` block."
    )


def test_a_raise_its_own_function_catches_says_what_the_handler_does(indexed: Indexer) -> None:
    store = indexed(PACKAGE, name="lib")
    page = build_page(store, error_id_of(store, "lib", "no dataset {}"))
    meaning = page["what_it_means"]
    assert meaning["summary"].endswith(
        " Line 8 is in the body of the `try` at line 6, whose `except Exception as e1` (line 10) catches it: the"
        " error leaves `load` from there only when that block raises it again (line 15); that block can also"
        " return (line 12)."
    )
    assert meaning["caught_by"] == {
        "try_line": 6,
        "line": 10,
        "header": "except Exception as e1",
        "returns": [12],
        "reraises": [15],  # the bare `raise` at 16 re-raises the KeyError of the nested `try`
        "kept": [],  # `isinstance(e1, NotFound)` only tests it
    }
    assert page["triggers"] == []
    quiet = _meaning(indexed, "quiet {}")
    assert quiet["caught_by"] is not None and quiet["caught_by"]["reraises"] == []
    assert quiet["summary"].endswith(
        "and never raises the caught error again (it can return, at line 24): this raise does not reach the"
        " caller of `quiet`."
    )
    other = build_page(store, error_id_of(store, "lib", "other {}"))
    assert other["what_it_means"]["caught_by"] is None  # `except KeyError` does not catch NotFound
    assert other["triggers"]
