"""`%load_ext errdex`: the errdex panel under IPython's tracebacks, and the `%errdex` magic.

The panel is shown after IPython printed its own traceback (the `post_run_cell` event), so
IPython's output is untouched. It is published as a display bundle with text and HTML: the
terminal shows the text, a notebook shows the HTML. `%errdex` explains the last exception on
demand; `%errdex --full` shows its whole page.
"""

from __future__ import annotations

import sys
from typing import Any

from errdex.hooks.safe import never_fails
from errdex.hooks.warming import warm_in_background

_callbacks: dict[int, Any] = {}  # id(shell) -> its post_run_cell callback


def load_ipython_extension(ipython: Any) -> None:
    """Register the panel after failed cells and the `%errdex` line magic; load what the first panel reads in the
    background (errdex.hooks.warming)."""
    if id(ipython) in _callbacks:
        return

    def after_cell(result: Any) -> None:
        exc = getattr(result, "error_in_exec", None)
        if isinstance(exc, Exception):
            show(exc)

    ipython.events.register("post_run_cell", after_cell)
    ipython.register_magic_function(errdex_magic, magic_kind="line", magic_name="errdex")
    _callbacks[id(ipython)] = after_cell
    warm_in_background()


def unload_ipython_extension(ipython: Any) -> None:
    """Stop adding panels (the `%errdex` magic stays available)."""
    callback = _callbacks.pop(id(ipython), None)
    if callback is not None:
        ipython.events.unregister("post_run_cell", callback)


def errdex_magic(line: str = "") -> None:
    """%errdex [--full]: explain the last exception (with --full, its whole errdex page)."""
    exc = getattr(sys, "last_value", None)
    if not isinstance(exc, BaseException):
        print("errdex: no exception to explain yet: run a cell that fails first.")
        return
    show(exc, full="--full" in line.split() or "-f" in line.split())


def show(exc: BaseException, full: bool = False) -> None:
    """Display the explanation of `exc` as text and HTML; never raises into the user's session."""
    with never_fails("explain this error", sys.stdout):
        from IPython.display import display

        from errdex.hooks.explainer import shared
        from errdex.hooks.panel import renderable, to_html, to_text

        explanation = shared().exception(exc)
        shown = renderable(explanation)
        if full and explanation.page is not None:
            from errdex.terminal import page_panel

            shown = page_panel(explanation.page)
        color = bool(getattr(sys.stdout, "isatty", lambda: False)())
        display({"text/plain": to_text(shown, color=color).rstrip("\n"), "text/html": to_html(shown)}, raw=True)
