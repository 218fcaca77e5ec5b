"""What a run proves: the error as indexed at one of its places, not the same message raised from another."""

from __future__ import annotations

from pathlib import Path

from errdex.verify.judge import Expected, Place, judge
from errdex.verify.sandbox import Frame, Observed, Raised

ROOT = Path("/env/lib/python3.11/site-packages")
EXPECTED = Expected("error", "ValueError", "mode must be one of {}", (Place("shop/cart.py", 5, 6),))


def _raised_at(line: int) -> Observed:
    frames = (Frame("<snippet>", 3, "<module>"), Frame(str(ROOT / "shop/cart.py"), line, "check"))
    raised = Raised("builtins.ValueError", ("builtins.ValueError",), "mode must be one of ('a',)", frames)
    return Observed("raised", raised, (), (), None, "", "", "network namespace", 0.1)


def test_a_trigger_is_verified_at_its_place_and_disproved_elsewhere() -> None:
    assert judge("trigger", EXPECTED, _raised_at(5), (ROOT,)).status == "verified"
    elsewhere = judge("trigger", EXPECTED, _raised_at(40), (ROOT,))
    assert (elsewhere.status, elsewhere.detail) == ("disproved", "it raised this message at shop/cart.py:40, not here")


def test_a_fix_that_raises_the_message_elsewhere_says_where() -> None:
    fixed = judge("fix", EXPECTED, _raised_at(40), (ROOT,))
    assert (fixed.status, fixed.detail) == (
        "verified",
        "it ran without this error here; it raised it at shop/cart.py:40",
    )
    assert judge("fix", EXPECTED, _raised_at(5), (ROOT,)).status == "disproved"
