"""What a `raise` of a name raises: a caught exception raised again is no new error; an instance made
earlier is; a class made from a caught exception is the one its `except` names."""

from __future__ import annotations

import textwrap

from errdex.extract import analyse_file, link

PACKAGE = {
    "tok/__init__.py": "",
    "tok/load.py": textwrap.dedent(
        """
        import six


        def read_vocab(path):
            try:
                return open(path).read()
            except FileNotFoundError as fnfe:
                if path.endswith(".txt"):
                    raise fnfe
                raise fnfe.with_traceback(None) from None


        def first_that_loads(loaders):
            initial_exception = None
            for loader in loaders:
                try:
                    return loader()
                except Exception as e:
                    initial_exception = e
            if initial_exception is not None:
                raise initial_exception


        def stored(step):
            try:
                step()
            except ValueError as exc:
                error = exc
                raise error


        def with_six(step):
            try:
                step()
            except KeyError as err:
                six.reraise(type(err), err, None)


        def tokenizer(name):
            try:
                import fugashi
            except ModuleNotFoundError as error:
                raise error.__class__("You need to install fugashi to use MecabTokenizer.")
            try:
                return fugashi.Tagger(name)
            except (TypeError, ValueError) as err:
                raise type(err)(f"cannot build a tagger for {name}") from err
            except Exception as e:
                raise e.__class__("the tagger failed")
        """
    ),
    "tok/made.py": textwrap.dedent(
        """
        def check(size, strict):
            exc = ValueError(f"size {size} is not a multiple of 8")
            if strict:
                exc = ValueError("size must be given")
            raise exc


        def built_elsewhere(code):
            err = make_error(code)
            raise err


        def rebound(table, key):
            try:
                return table[key]
            except KeyError as e:
                pass
            e = KeyError("the key is gone")
            raise e
        """
    ),
}


def _sites(fast: bool = True) -> dict[str, list[tuple[str | None, str | None]]]:
    """(exception, template) of each site, by function."""
    analyses = {path: analyse_file(path, text.encode(), fast=fast) for path, text in PACKAGE.items()}
    out: dict[str, list[tuple[str | None, str | None]]] = {}
    for site in link(analyses, PACKAGE.get)[0]:
        out.setdefault(site.function, []).append((site.exception, site.template))
    return out


def test_a_caught_exception_raised_again_is_no_error_of_its_own() -> None:
    """transformers listed `fnfe`, `err`, `e`, `initial_exception` as exception classes: each only raised again
    what an `except` caught (directly, with its traceback, after storing it, through six)."""
    sites = _sites()
    for function in ("read_vocab", "first_that_loads", "stored", "with_six"):
        assert function not in sites


def test_the_class_of_a_caught_exception_is_the_one_its_except_names() -> None:
    """transformers' `raise error.__class__("You need to install fugashi ...")`; a tuple or a broad `except`
    leaves the class unknown (not the variable's name)."""
    assert _sites()["tokenizer"] == [
        ("ModuleNotFoundError", "You need to install fugashi to use MecabTokenizer."),
        (None, "cannot build a tagger for {}"),
        (None, "the tagger failed"),
    ]


def test_a_name_holding_a_new_instance_raises_its_message() -> None:
    assert _sites()["check"] == [
        ("ValueError", "size {} is not a multiple of 8"),
        ("ValueError", "size must be given"),
    ]


def test_a_name_bound_again_after_its_except_is_a_new_error() -> None:
    assert _sites()["rebound"] == [("KeyError", "the key is gone")]


def test_an_instance_built_by_a_function_is_still_raised_here() -> None:
    """Its traceback's innermost frame is this `raise`: the site stays, its class and message unknown here."""
    assert _sites()["built_elsewhere"] == [("err", None)]


def test_the_fast_path_sees_the_same() -> None:
    assert _sites() == _sites(fast=False)


def test_a_function_that_raises_again_still_passes_its_message_to_a_helper() -> None:
    """torch's FSDP calls `_p_assert(False, f"Got exception in the catch-all reshard for {handle}: {e}")` (a helper
    of another module) and then `raise e`: raising again still makes the function one whose calls are kept."""
    files = {
        "run/__init__.py": "",
        "run/checks.py": "def fail(message):\n    raise AssertionError(message)\n",
        "run/steps.py": textwrap.dedent(
            """
            from .checks import fail


            def reshard(handle):
                try:
                    handle.reshard()
                except Exception as e:
                    fail(f"Got exception in the catch-all reshard for {handle}: {e}")
                    raise e
            """
        ),
    }
    analyses = {path: analyse_file(path, text.encode()) for path, text in files.items()}
    written = [s.template for s in link(analyses, files.get)[0] if s.written_at is not None]
    assert written == ["Got exception in the catch-all reshard for {}: {}"]
