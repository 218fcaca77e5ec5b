"""Which of a page's snippets can run as written: never one with a value the page does not know."""

from __future__ import annotations

import pytest

from errdex.verify.snippets import whole


@pytest.mark.parametrize(
    "code",
    [
        "from transformers import GenerationConfig\n\nGenerationConfig(cache_implementation='flash')",
        "import requests\n\nrequests.get('localhost:8000')",
        "from packaging.version import Version\n\nVersion(str(1.5))",
    ],
)
def test_a_whole_call_runs(code: str) -> None:
    assert whole(code) is None


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("from pandas import cut\n\ncut(x=..., bins=3)", "it has `...` for a value the page does not know"),
        ("generation_config.update(cache_implementation='x')", "it uses `generation_config`, which it does not make"),
        ("from a import b\n\nb(c=d)", "it uses `d`, which it does not make"),
        ("def (:", "it is not Python (invalid syntax)"),
    ],
)
def test_a_call_with_holes_does_not(code: str, why: str) -> None:
    assert whole(code) == why
