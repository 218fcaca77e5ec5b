"""Calls the call graph must see as calls: a base method run through an override that calls `super()`, a method
bound to a local and called through it, a call beside a reference in one function, `C(...)(...)` of a
`__call__`; and calls whose default would pass the check, when the function rebinds the parameter first."""

from __future__ import annotations

from errdex.pages import build_page
from errdex.pages.callers import CalledFunction, callers
from errdex.store import Store
from tests.pages.conftest import Indexer, error_id_of

FILES = {
    "kit/__init__.py": "from kit.base import Generated, Plain\n",
    "kit/base.py": """
        class Builder:
            def download(self, mode="fast"):
                return self._split(mode)

            def stream(self):
                return self._split("slow")

            def _split(self, mode):
                return mode


        class Generated(Builder):
            def download(self, mode="fast"):
                return super().download(mode)


        class Plain(Builder):
            def download(self, mode="fast"):
                return mode
    """,
    "kit/folder.py": """
        import kit


        class Folder(kit.Generated):
            def _split(self, mode):
                if mode == "bad":
                    raise ValueError(f"bad split mode {mode}")
                return mode


        class PlainFolder(kit.Plain):
            def _split(self, mode):
                if mode == "worse":
                    raise ValueError(f"worse split mode {mode}")
                return mode
    """,
    "kit/api.py": """
        class Api:
            def __init__(self, token=None):
                self.default = token
                self.clone(None)

            def model_info(self, repo, expand=None):
                if expand == "bad":
                    raise ValueError(f"bad expand {expand}")
                return repo

            def dataset_info(self, repo, expand=None):
                return repo

            def repo_info(self, repo, kind=None, expand=None):
                if kind is None:
                    method = self.model_info
                else:
                    method = self.dataset_info
                return method(repo, expand=expand)

            def clone(self, token=None):
                token = token if isinstance(token, str) else self.default
                if token is not None and token.startswith("org"):
                    raise ValueError(f"organization token {token}")
                return token
    """,
    "kit/wrap.py": """
        def wrap(_cls=None, flag=True):
            def make(cls):
                if not flag:
                    raise TypeError(f"cannot wrap {cls}")
                return cls

            return make if _cls is None else make(_cls)
    """,
    "kit/predicate.py": """
        class Predicate:
            def __init__(self, spec):
                self.spec = spec

            def __call__(self, config):
                if config is None:
                    raise AssertionError(f"no config for {self.spec}")
                return True


        def excluded(spec, config):
            return Predicate(spec)(config)


        def held(spec, config):
            check = Predicate(spec)
            return check(config)
    """,
}


def _callers(store: Store, file: str, function: str) -> list[tuple[str, str, str]]:
    found = callers(store, store.release("kit"), CalledFunction(file, function))
    return [(c["function"], c["match"], c["use"]) for c in found["callers"]]


def test_a_base_method_runs_through_an_override_that_calls_super(indexed: Indexer) -> None:
    store = indexed(FILES, name="kit")
    got = _callers(store, "kit/folder.py", "Folder._split")  # the base is named through the package: `kit.Generated`
    assert ("Builder.download", "override", "call") in got  # Generated.download calls super().download
    assert ("Builder.stream", "override", "call") in got
    plain = _callers(store, "kit/folder.py", "PlainFolder._split")
    assert ("Builder.stream", "override", "call") in plain
    assert not any(f == "Builder.download" for f, _, _ in plain)  # Plain.download never runs Builder.download


def test_a_method_bound_to_a_local_and_called_through_it_is_called(indexed: Indexer) -> None:
    store = indexed(FILES, name="kit")
    found = callers(store, store.release("kit"), CalledFunction("kit/api.py", "Api.model_info"))
    (caller,) = [c for c in found["callers"] if c["function"] == "Api.repo_info"]
    assert (caller["use"], caller["line"], caller["call"]) == (
        "call",
        16,
        "method(repo, expand=expand)",
    )  # the line naming it
    assert caller["arguments"] == {
        "positional": ["repo"],
        "keywords": {"expand": "expand"},
        "unpacked": False,
        "constants": {},
    }
    summary = build_page(store, error_id_of(store, "kit", "bad expand {}"))["when_it_happens"]["summary"]
    assert "`Api.model_info` is called from `Api.repo_info`;" in summary
    assert "referenced" not in summary


def test_a_call_beside_a_reference_in_one_function_is_listed_as_a_call(indexed: Indexer) -> None:
    store = indexed(FILES, name="kit")
    assert _callers(store, "kit/wrap.py", "wrap.<locals>.make") == [("wrap", "local", "call")]


def test_a_call_of_what_a_constructor_returns_calls_dunder_call(indexed: Indexer) -> None:
    store = indexed(FILES, name="kit")
    found = callers(store, store.release("kit"), CalledFunction("kit/predicate.py", "Predicate.__call__"))
    got = {c["function"]: (c["match"], c["use"], c["arguments"]) for c in found["callers"]}
    passed = {"positional": ["config"], "keywords": {}, "unpacked": False, "constants": {}}
    assert got == {"excluded": ("typed", "call", passed), "held": ("typed", "call", passed)}
    init = callers(store, store.release("kit"), CalledFunction("kit/predicate.py", "Predicate.__init__"))
    assert {c["function"]: c["arguments"]["positional"] for c in init["callers"]} == {  # type: ignore[index]
        "excluded": ["spec"],
        "held": ["spec"],
    }


def test_a_parameter_rebound_before_the_check_takes_no_value_from_the_call(indexed: Indexer) -> None:
    store = indexed(FILES, name="kit")
    summary = build_page(store, error_id_of(store, "kit", "organization token {}"))["when_it_happens"]["summary"]
    assert "`Api.clone` is called from `Api.__init__`;" in summary  # `clone(None)` then `token = ... self.default`
    assert "values that make the check false" not in summary
