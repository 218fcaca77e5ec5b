"""Which callers catch the page's error: a call inside a `try` whose handler catches the raised class never lets
the error reach the user, so such a caller is shown apart, never as a way the error happens.

A handler catches the error when it names the raised class or one of its bases (as the extractor resolved
them; a builtin's bases are Python's own), `Exception` (unless the class derives only from `BaseException`),
`BaseException`, or it is a bare `except:`. Names are compared by their last part, as written.
"""

from __future__ import annotations

import builtins

from errdex.pages.model import Caller, Caught, PageCaller, SiteJson, TryAround

_BASE_ONLY = frozenset({"SystemExit", "KeyboardInterrupt", "GeneratorExit", "BaseExceptionGroup"})


def page_callers(callers: list[Caller], site: SiteJson) -> list[PageCaller]:
    """The callers, each with the `try` around it that catches the site's error (None when none does)."""
    raised = raised_names(site)
    return [{**c, "caught": caught(c["inside_try"], raised)} for c in callers]


def raised_names(site: SiteJson) -> frozenset[str] | None:
    """The raised class and its bases, by last name; None for a warning or a log (nothing is raised to catch)."""
    if site["kind"] != "error":
        return None
    written = [n.rsplit(".", 1)[-1] for n in [site["exception"] or "", *site["exception_bases"]] if n]
    names = set(written)
    for name in written:
        builtin = getattr(builtins, name, None)
        if isinstance(builtin, type) and issubclass(builtin, BaseException):
            names.update(cls.__name__ for cls in builtin.__mro__ if cls is not object)
    return frozenset(names)


def caught(tries: list[TryAround], raised: frozenset[str] | None) -> Caught | None:
    """The innermost `try` whose handlers catch the raised class (known by `raised`), if any."""
    if raised is None:
        return None
    for around in tries:
        for written in around["catches"]:
            if catches(written, raised):
                return {"try_line": around["line"], "catches": written}
        if around["bare"]:
            return {"try_line": around["line"], "catches": None}
    return None


def catches(written: str | None, raised: frozenset[str] | None) -> bool:
    """Whether a handler's class as written (None for a bare `except:`) certainly catches a class named `raised`."""
    if raised is None:
        return False
    if written is None:
        return True
    exception_only = "Exception" in raised or not (raised & _BASE_ONLY or raised == {"BaseException"})
    name = written.rsplit(".", 1)[-1]
    return name in raised or name == "BaseException" or (name == "Exception" and exception_only and bool(raised))
