"""Golden tests on real releases: interpreter errors about an API, answered with the release that changed it.

The five changes users hit most, each read from the code of the releases on both sides of it (and, for
transformers, of the release that first warned): the answer names the change, the releases, the replacement
and the warning, as the code of those releases says.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.match import explain
from errdex.match.drift import ApiAnswer
from errdex.store import Store
from tests.indexes import cached_index

pytestmark = pytest.mark.network

RELEASES = """
markupsafe==2.0.1
markupsafe==2.1.0
numpy==1.23.5
numpy==1.24.0
pandas==1.5.3
pandas==2.0.0
scikit-learn==0.22.2.post1
scikit-learn==0.23.0
transformers==4.40.2
transformers==4.41.0
transformers==4.50.0
transformers==4.51.0
"""


@pytest.fixture(scope="module")
def store(release_cache: Path) -> Iterator[Store]:
    with Store(cached_index(release_cache, "drift-golden", RELEASES.strip())) as opened:
        yield opened


def answered(store: Store, paste: str) -> ApiAnswer:
    result = explain(paste, store=store)
    assert result.api is not None, paste
    return result.api


def test_transformers_evaluation_strategy_was_renamed_and_removed_in_4_51(store: Store) -> None:
    got = answered(
        store,
        "Traceback (most recent call last):\n"
        '  File "/content/train.py", line 9, in <module>\n'
        '    training_args = TrainingArguments(output_dir="out", evaluation_strategy="epoch")\n'
        "TypeError: __init__() got an unexpected keyword argument 'evaluation_strategy'",
    )
    assert (got.package, got.subject, got.parameter) == ("transformers", "TrainingArguments", "evaluation_strategy")
    change = got.change
    assert change is not None
    assert (change.kind, change.last_with, change.first_without) == ("renamed", "4.50.0", "4.51.0")
    assert (change.deprecated_in, change.warned_before, change.replacement) == ("4.41.0", True, "eval_strategy")
    assert change.warning is not None and "Use `eval_strategy` instead" in change.warning
    assert [(f.kind, f.old, f.new) for f in got.fix][0] == ("rename", "evaluation_strategy", "eval_strategy")


def test_numpy_float_warned_in_1_23_and_is_gone_in_1_24(store: Store) -> None:
    got = answered(store, "AttributeError: module 'numpy' has no attribute 'float'")
    change = got.change
    assert change is not None
    assert (change.kind, change.last_with, change.first_without) == ("removed", "1.23.5", "1.24.0")
    assert change.warning is not None and change.warning.startswith("`np.float` is a deprecated alias for the builtin")
    assert [s.state for s in got.states] == ["deprecated", "absent"]  # 1.24.0's star imports were followed


def test_markupsafe_soft_unicode_was_renamed_to_soft_str_in_2_1(store: Store) -> None:
    got = answered(
        store,
        "ImportError: cannot import name 'soft_unicode' from 'markupsafe'"
        " (/venv/lib/python3.9/site-packages/markupsafe/__init__.py)",
    )
    change = got.change
    assert change is not None
    assert (change.kind, change.replacement, change.last_with, change.first_without) == (
        "renamed",
        "soft_str",
        "2.0.1",
        "2.1.0",
    )


def test_pandas_dataframe_append_is_gone_in_2_0_with_concat_named_instead(store: Store) -> None:
    got = answered(store, "AttributeError: 'DataFrame' object has no attribute 'append'. Did you mean: '_append'?")
    change = got.change
    assert got.package == "pandas"
    assert change is not None
    assert (change.kind, change.replacement, change.last_with, change.first_without) == (
        "removed",
        "pandas.concat",
        "1.5.3",
        "2.0.0",
    )
    assert got.states[0].file == "pandas/core/frame.py"


def test_sklearn_externals_joblib_is_gone_in_0_23(store: Store) -> None:
    got = answered(store, "ModuleNotFoundError: No module named 'sklearn.externals.joblib'")
    assert got.package == "scikit-learn"
    change = got.change
    assert change is not None
    assert (change.kind, change.last_with, change.first_without) == ("removed", "0.22.2.post1", "0.23.0")
    assert change.warning is not None and change.warning.startswith("sklearn.externals.joblib is deprecated in 0.21")
