"""A parameter the function binds again before its check (`if s is None: s = ...`): a call that leaves it out gives
the check no value, so whether it reaches the check is not decided (a call unpacking `**options` may pass it)."""

from __future__ import annotations

from errdex.pages import build_page
from tests.pages.conftest import Indexer, error_id_of

FILES = {
    "plot/__init__.py": "",
    "plot/draw.py": """
        def draw(x, s=None):
            if s is None:
                s = default_size(x)
            if s < 0:
                raise ValueError("negative size")


        def default_size(x):
            return x


        def leaves_out():
            draw(1)


        def passes():
            draw(1, s=-1)


        def unpacks(options):
            draw(1, **options)
    """,
}


def test_a_call_leaving_out_a_parameter_the_function_computes_is_not_said_to_depend_on_what_it_passes(
    indexed: Indexer,
) -> None:
    store = indexed(FILES, name="plot")
    summary = build_page(store, error_id_of(store, "plot", "negative size"))["when_it_happens"]["summary"]
    assert (
        "`draw` is called from `passes`, `unpacks`; whether these calls can reach the check is not decided from what"
        " they pass." in summary
    )
    assert (
        "`leaves_out` leaves out `s`, which `draw` binds again before the check (`s = default_size(x)`, line 3):"
        " whether this call reaches it is not decided from what it passes." in summary
    )
    assert "no way to this error" not in summary
