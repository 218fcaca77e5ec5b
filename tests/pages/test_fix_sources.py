"""Where an example fix takes its value: the values a parameter's docstring lists, never a value a call lists for
another argument, never a made-up string; and what a page says of a parameter bound again or read through a
property."""

from __future__ import annotations

from errdex.pages.documented import listed_options
from errdex.pages.model import CallBeforeJson
from errdex.pages.triggers import TriggerValue, listed_first
from tests.pages.conftest import Indexer, pages_of

FILES = {
    "embed/__init__.py": "from .tsne import TSNE\n",
    "embed/tsne.py": '''
        def validate(obj, X, accept_sparse=None):
            return X


        class TSNE:
            """Embed points.

            Parameters
            ----------
            metric : str, default="euclidean"
                The distance to use, or "precomputed".

            init : {"random", "pca"} or ndarray of shape (n_samples, n_components), default="pca"
                How to start. PCA cannot start from precomputed distances.
            """

            def __init__(self, metric="euclidean", init="pca"):
                self.metric = metric
                self.init = init

            def fit(self, X):
                X = validate(self, X, accept_sparse=["csr"])
                if self.metric == "precomputed" and isinstance(self.init, str) and self.init == "pca":
                    raise ValueError(f'The parameter init="{self.init}" cannot be used with metric="precomputed".')
                return self

            def fit_text(self, X):
                if not isinstance(self.init, str):
                    raise TypeError("init must be a string here")
                return self
    ''',
}


def test_the_values_a_docstring_lists_for_a_parameter() -> None:
    assert listed_options('{"random", "pca"} or ndarray, default="pca"\n\nHow to start.') == ["random", "pca"]
    assert listed_options("{'a', 1, None}\n\nText.") == ["a", 1, None]
    assert listed_options("{int, float}\n\nA number.") == []  # types, not values
    assert listed_options("str, default='a'\n\nText {'x'}.") == []  # only a type line that starts with the braces


def test_a_fix_takes_a_value_the_docstring_lists(indexed: Indexer) -> None:
    page_of = pages_of(indexed(FILES, name="embed"), "embed")
    fix = page_of('The parameter init="{}" cannot be used with metric="precomputed".')["example_fix"]
    # the message shows `init`, which changes first: its default fails the check, and `accept_sparse=["csr"]` lists
    # values for another argument
    assert fix is not None and fix["after"].endswith("TSNE(init='random')"), fix
    assert "(one of the values the docstring of `TSNE` lists for `init`, line 6)" in fix["note"]


def test_a_made_up_string_is_no_fix(indexed: Indexer) -> None:
    page_of = pages_of(indexed(FILES, name="embed"), "embed")
    fix = page_of("init must be a string here")["example_fix"]
    # any str passes `isinstance(self.init, str)`: the default is one the code gives, `'text'` one made up
    assert fix is not None and fix["after"].endswith("TSNE(init='pca')"), fix


def test_a_list_passed_with_the_object_is_no_value_for_its_attribute() -> None:
    call: CallBeforeJson = {"line": 3, "call": "validate(...)", "passes": ["self"], "listed": ["csr"]}
    assert listed_first([call], ["self.init"], {}) == {}  # `accept_sparse=["csr"]` is about `X`
    own: CallBeforeJson = {"line": 3, "call": "check(...)", "passes": ["self.init"], "listed": ["pca"]}
    assert listed_first([own], ["self.init"], {}) == {"self.init": [TriggerValue("pca", "listed")]}


PARTS = {
    "client/__init__.py": "from .api import Client, Query\n",
    "client/api.py": """
        class Client:
            def __init__(self, model=None):
                self.model = model

            def status(self, model=None):
                model = model or self.model
                if model.startswith("https://"):
                    raise NotImplementedError("status is only for model ids")
                return model


        class Query:
            @property
            def query(self):
                return self._query

            @query.setter
            def query(self, value):
                self._query = value

            def prefetch(self, name):
                if name in self.query:
                    raise ValueError(f"{name} is filtered")
    """,
}


def test_a_parameter_bound_again_is_said_so_and_a_property_is_its_getter(indexed: Indexer) -> None:
    page_of = pages_of(indexed(PARTS, name="client"), "client")
    status = page_of("status is only for model ids")
    # the check calls a method of `model`: it still reads the value bound at line 6, not the argument
    assert [(r["name"], r["line"]) for r in status["what_it_means"]["rebound"]] == [("model", 6)]
    assert (
        "`model` here is its value after line 6 (`model = model or self.model`)" in status["what_it_means"]["summary"]
    )
    summary = page_of("{} is filtered")["when_it_happens"]["summary"]
    assert "`self.query` is the property `Query.query` (line 14), computed when it is read" in summary
