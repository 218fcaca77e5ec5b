"""A bound on the work of analysing one file, counted in steps rather than seconds.

Static resolution can explode on some inputs (names whose values repeat each other, huge
generated expressions), and one such file must not hang a whole index. A step is one unit of
cheap work: a node evaluated, a name looked up, a node of a message or condition walked.
Counting steps needs no clock, signal or thread, and gives the same result on every machine,
which matters because analyses are cached by content.
"""

from __future__ import annotations

from errdex.extract.resolve import Unresolved

FILE_STEPS = 1_000_000  # the costliest file of transformers 5.16.0 and sympy 1.14.0 needs about 30,000
SITE_STEPS = 50_000  # their costliest site about 1,200


class TooMuchWork(Unresolved):
    """Resolving this name would cost more than the site (or the file) may spend: leave it open."""


class OverBudget(Exception):
    """The file has used all its steps: stop analysing it and keep what was found so far."""


class Budget:
    """Steps left for one file, and for the site being analysed now."""

    def __init__(self, steps: float = FILE_STEPS, per_site: float = SITE_STEPS) -> None:
        self.steps = steps
        self.per_site = per_site
        self.used = 0
        self.site_used = 0

    @classmethod
    def unlimited(cls) -> Budget:
        """No bound (linking a release: its lookups are memoised per module instead)."""
        return cls(float("inf"), float("inf"))

    @property
    def exhausted(self) -> bool:
        return self.used > self.steps

    def charge(self, steps: int) -> None:
        """Count work already done toward the file's total (walks, branches); `check` stops the file."""
        self.used += steps

    def spend(self, steps: int = 1) -> None:
        """Count work about to be done; raise TooMuchWork when the site or the file is out of steps."""
        self.used += steps
        self.site_used += steps
        if self.site_used > self.per_site or self.used > self.steps:
            raise TooMuchWork("too much work to resolve")

    def check(self) -> None:
        """Raise OverBudget when the file has no steps left (at cheap points between statements)."""
        if self.exhausted:
            raise OverBudget(f"analysis took too long (more than {self.steps:,} steps)")

    def start_site(self) -> None:
        """A new site begins: it gets its own allowance, unless the file has none left."""
        self.check()
        self.site_used = 0
