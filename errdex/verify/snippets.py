"""The snippets of a page that can run as written: its trigger and its example fix, at the public API.

A snippet runs only when it is whole: no `...` for a value the page does not know, and every name it reads made by
its own imports or a builtin (`generation_config.update(...)` needs an object the snippet never makes).
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass

from errdex.pages.model import Page

TRIGGER = "trigger"
CANDIDATE = "candidate"  # a call worth running where the page has no certain trigger (`derive.candidate_calls`)
FIX = "fix"


@dataclass(frozen=True)
class Snippet:
    role: str  # trigger | candidate | fix
    code: str


@dataclass(frozen=True)
class Snippets:
    """What of a page can run, and why the rest cannot."""

    runnable: tuple[Snippet, ...]
    not_runnable: tuple[tuple[Snippet, str], ...]  # a snippet and why it cannot run as written
    missing: str | None  # why the page has no trigger to run (None: it has one)


def page_snippets(page: Page) -> Snippets:
    """The page's trigger (the first, which the page shows first), else its calls worth trying, and its fix's
    "after"."""
    found: list[Snippet] = []
    missing = None
    trigger = page["triggers"][0] if page["triggers"] else None
    tried = [c["code"] for c in page["candidates"]]  # one a run raised the error before leads `triggers`: run it again
    if trigger is not None and trigger["code"] is not None and trigger["code"] not in tried:
        found.append(Snippet(TRIGGER, trigger["code"]))
    if page["candidates"]:
        found += [Snippet(CANDIDATE, c["code"]) for c in page["candidates"] if c["code"] is not None]
    elif trigger is None:
        missing = "the page gives no trigger and no call to try"
    elif trigger["code"] is None:
        missing = "the page's trigger names values, not one call that sets them all"
    if page["example_fix"] is not None:
        found.append(Snippet(FIX, page["example_fix"]["after"]))
    whys = [(s, whole(s.code)) for s in found]
    runnable = tuple(s for s, why in whys if why is None)
    return Snippets(runnable, tuple((s, why) for s, why in whys if why is not None), missing)


def whole(code: str) -> str | None:
    """None when the snippet runs as written, else why not."""
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        return f"it is not Python ({exc.msg})"
    if any(isinstance(n, ast.Constant) and n.value is Ellipsis for n in ast.walk(tree)):
        return "it has `...` for a value the page does not know"
    made = set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            made.update((a.asname or a.name).split(".", 1)[0] for a in node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            made.add(node.id)
    unknown = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id not in made})
    if unknown:
        return f"it uses {', '.join(f'`{u}`' for u in unknown)}, which it does not make"
    return None


def public_value(page: Page) -> bool:
    """Whether the page's check tests a value a public call passes (a way in imported from the package)."""
    for item in page["when_it_happens"]["inputs"]:
        ways = [*item["ways_in"], *(w for source in item["computed_from"] for w in source["ways_in"])]
        if any(w["import_from"] and w["keyword"] for w in ways):
            return True
    return False
