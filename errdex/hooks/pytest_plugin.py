"""`pytest --errdex` (or `-p errdex`): an "errdex" section in each failure raised by an installed package.

Registered under the `pytest11` entry point `errdex`, so pytest always loads it; it does nothing
unless `--errdex` or `-p errdex` is given. A failure whose frames run through an installed
(or indexed) distribution gets the errdex panel (or errdex's reason for having none) as a
report section; failures in the project's own test code get nothing.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

from errdex.hooks.safe import never_fails
from errdex.hooks.warming import warm_in_background

SECTION = "errdex"
PLUGIN_NAMES = frozenset({"errdex", "errdex.hooks.pytest_plugin"})


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("errdex", "errdex: explain errors raised by installed libraries")
    group.addoption(
        "--errdex",
        action="store_true",
        default=False,
        help="Add an errdex section to failures raised in installed packages.",
    )
    group.addoption(
        "--errdex-db",
        default=None,
        metavar="PATH",
        help="errdex index to use (default: ERRDEX_DB or the user's data folder).",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("errdex") or PLUGIN_NAMES & set(getattr(config.option, "plugins", None) or ()):
        config.pluginmanager.register(Reporter(config), "errdex-reporter")


class Reporter:
    """Adds the section to failed reports; its explainer is opened on the first failure, what it reads is loaded
    in the background from the start (errdex.hooks.warming)."""

    def __init__(self, config: pytest.Config) -> None:
        self._config = config
        self._explainer: Any = None
        self._notes: list[str] = []
        warm_in_background(config.getoption("errdex_db"))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
        report = yield
        exc = call.excinfo.value if call.excinfo is not None else None
        if report.failed and isinstance(exc, Exception):
            section = self.section(exc, str(item.path))
            if section:
                report.sections.append((SECTION, section))
        return report

    def section(self, exc: Exception, start: str | None = None) -> str | None:
        """The section text, or None when no installed package is involved; errdex's own failure is one line.

        `start` is the test's file: the frames before it are pytest's and its plugins', not the test's.
        """
        import io

        failure = io.StringIO()
        with never_fails("explain this failure", failure):
            from errdex.hooks.panel import renderable, to_text

            explanation = self._explain(exc, start)
            if explanation.candidate is None and not explanation.packages:
                return None
            notes, self._notes = self._notes, []
            return "".join(f"errdex: {n}\n" for n in notes) + to_text(renderable(explanation), width=self._width())
        return failure.getvalue() or None

    def _explain(self, exc: Exception, start: str | None) -> Any:
        if self._explainer is None:
            from errdex.hooks.explainer import Explainer
            from errdex.store import Store

            self._explainer = Explainer(Store(self._config.getoption("errdex_db")), on_index=self._noted)
        return self._explainer.exception(exc, start=start)

    def _width(self) -> int:
        try:
            return max(60, min(self._config.get_terminal_writer().fullwidth, 160))
        except Exception:  # noqa: BLE001 - no terminal writer (xdist workers, embedded runs)
            return 100

    def _noted(self, dist: str, version: str) -> None:
        self._notes.append(f"indexed {dist} {version} from its installed files (once)")
