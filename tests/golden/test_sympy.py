"""Golden test on the real sympy 1.14.0 wheel: all of it indexes, its hardest file included.

Indexing sympy used to never finish: resolving one condition of integrals/prde.py looped forever.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.indexing import index
from errdex.store import Store

pytestmark = pytest.mark.network


def test_sympy_indexes_whole_with_the_errors_of_its_hardest_file(db_url: str, release_cache: Path) -> None:
    with Store(db_url) as store:
        result = index("sympy==1.14.0", store, cache_dir=release_cache)
        found = {(e.site.file, e.site.line, e.site.template, e.site.clauses[-1:]) for e in store.errors("sympy")}
    assert result.skipped == 0
    # (its own check; the clauses before it are the early returns of the function, which it is reached past)
    assert ("sympy/integrals/prde.py", 1330, "Inexact division", ("common_denom != n * m",)) in found
    assert (
        "sympy/core/evalf.py",
        377,
        "Cannot get integer part of Complex Infinity",
        ("result is S.ComplexInfinity",),
    ) in found
