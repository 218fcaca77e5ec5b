"""The panel from real explanations: a small package written to tmp_path, indexed, imported and made to fail."""

from __future__ import annotations

import importlib
import sys
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from errdex.hooks.explainer import Explainer, Explanation
from errdex.hooks.panel import renderable, to_html, to_text
from errdex.indexing import index
from errdex.store import Store

KITCHEN = """
MODES = ("bake", "boil", "steam")


class Oven:
    def __init__(self, mode="bake"):
        if mode not in MODES:
            raise ValueError(f"Unknown mode {mode!r}. Choose one of: {MODES}")
        self.mode = mode

    def switch(self, mode):
        if mode == self.mode:
            raise ValueError(f"Unknown mode {mode!r}. Choose one of: {MODES}")
        self.mode = mode
"""


@pytest.fixture
def kitchen(tmp_path: Path, db_url: str) -> Iterator[tuple[Explainer, object]]:
    """The `kitchen` package indexed from its folder and importable; an explainer over that index."""
    folder = tmp_path / "kitchen-src"
    (folder / "kitchen").mkdir(parents=True)
    (folder / "pyproject.toml").write_text('[project]\nname = "kitchen"\nversion = "1.0"\n')
    (folder / "kitchen" / "__init__.py").write_text("")
    (folder / "kitchen" / "oven.py").write_text(textwrap.dedent(KITCHEN))
    store = Store(db_url)
    index(str(folder), store)
    sys.path.insert(0, str(folder))
    try:
        yield Explainer(store, auto_index=False), importlib.import_module("kitchen.oven")
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == "kitchen" or m.startswith("kitchen.")]:
            del sys.modules[name]
        store.close()


def explained(explainer: Explainer, call: Callable[[], object]) -> Explanation:
    with pytest.raises(ValueError) as info:
        call()
    return explainer.exception(info.value)


def test_panel_names_the_site_the_check_the_value_and_the_closest_allowed_one(
    kitchen: tuple[Explainer, object],
) -> None:
    explainer, oven = kitchen
    e = explained(explainer, lambda: oven.Oven("baek"))  # type: ignore[attr-defined]
    text = to_text(renderable(e), width=120)
    assert text.splitlines()[0].startswith("╭─ errdex · kitchen 1.0 · ValueError")
    assert "kitchen/oven.py:8 in Oven.__init__" in text
    assert "mode not in MODES" in text
    assert "'baek'" in text and "'bake'" in text
    assert "mode              'baek'" in text  # each value named by the code that filled its hole, as the CLI names it
    assert "did you mean      mode = 'bake'" in text
    assert f"errdex show {e.candidate.id}" in text  # type: ignore[union-attr]


def test_an_error_raised_at_its_second_site_gets_that_site_s_page(kitchen: tuple[Explainer, object]) -> None:
    explainer, oven = kitchen
    e = explained(explainer, lambda: oven.Oven("boil").switch("boil"))  # type: ignore[attr-defined]
    text = " ".join(to_text(renderable(e), width=120).split())
    assert "kitchen/oven.py:13 in Oven.switch" in text
    assert "check that fired mode == self.mode" in text
    assert "did you mean" not in text and "accepted by this check" not in text and "mode not in MODES" not in text
    head = text.split("full page")[0]
    assert " fix " not in head  # the negation of `mode == self.mode` is no fix; no advice is padded in
    assert " try " not in head  # no call of `switch` certainly raises: no example


def test_user_text_is_shown_as_written_never_as_markup(kitchen: tuple[Explainer, object]) -> None:
    explainer, oven = kitchen
    e = explained(explainer, lambda: oven.Oven("[bold red]x[/]"))  # type: ignore[attr-defined]
    assert "[bold red]x[/]" in to_text(renderable(e), width=120)
    html = to_html(renderable(e))
    assert html.startswith('<pre class="errdex"') and "[bold red]x[/]" in html and "<script" not in html


def test_an_abstention_is_one_line(kitchen: tuple[Explainer, object]) -> None:
    explainer, _ = kitchen
    e = explained(explainer, lambda: int("not a number"))
    assert e.candidate is None
    text = to_text(renderable(e), width=200)
    assert text.startswith("errdex: ") and text.strip().count("\n") == 0 and "╭" not in text


def test_the_page_is_about_the_place_the_frames_show(kitchen: tuple[Explainer, object]) -> None:
    explainer, oven = kitchen
    first = explained(explainer, lambda: oven.Oven("baek"))  # type: ignore[attr-defined]
    second = explained(explainer, lambda: oven.Oven("boil").switch("boil"))  # type: ignore[attr-defined]
    assert first.candidate.id == second.candidate.id  # type: ignore[union-attr]
    assert first.page is not None and second.page is not None
    assert first.page["site_scope"]["site"] == "kitchen/oven.py:8" and first.check == "mode not in MODES"
    assert second.page["site_scope"]["site"] == "kitchen/oven.py:13" and second.check == "mode == self.mode"


def test_the_panel_says_how_sure_in_the_cli_s_words(kitchen: tuple[Explainer, object]) -> None:
    """A candidate found by its exception class alone is said to be so, not merely approximate (as `errdex explain`)."""
    explainer, oven = kitchen
    e = explained(explainer, lambda: oven.Oven("baek"))  # type: ignore[attr-defined]
    assert e.candidate is not None
    assert "approximate" not in to_text(renderable(e), width=120)
    by_class = replace(e, candidate=replace(e.candidate, approximate=True, evidence=("exception class",)))
    title = to_text(renderable(by_class), width=120).splitlines()[0]
    assert "· found by its exception class alone (" in title
    reworded = replace(e, candidate=replace(e.candidate, approximate=True, evidence=("message words",)))
    assert "· approximate (" in to_text(renderable(reworded), width=120).splitlines()[0]


OVEN_2 = """
class Oven:
    def __init__(self, mode="bake", heat=180):
        self.mode = mode
        self.heat = heat
"""


def test_an_interpreter_error_about_a_changed_api_gets_the_change_in_the_panel(tmp_path: Path, db_url: str) -> None:
    """kitchen 2.0 renamed `temperature=` (1.0, warned) to `heat=`; the code that runs 2.0 still passes the old name."""
    old = tmp_path / "kitchen-1.0"
    new = tmp_path / "kitchen-2.0"
    one = (
        "import warnings\n\n\nclass Oven:\n    def __init__(self, mode='bake', temperature=None, heat=180):\n"
        "        if temperature is not None:\n"
        "            warnings.warn('`temperature` is deprecated, use `heat` instead', FutureWarning)\n"
    )
    for folder, version, oven in ((old, "1.0", one), (new, "2.0", textwrap.dedent(OVEN_2))):
        (folder / "kitchen").mkdir(parents=True)
        (folder / "pyproject.toml").write_text(f'[project]\nname = "kitchen"\nversion = "{version}"\n')
        (folder / "kitchen" / "__init__.py").write_text("")
        (folder / "kitchen" / "oven.py").write_text(oven)
    with Store(db_url) as store:
        index(str(old), store)
        index(str(new), store)
        sys.path.insert(0, str(new))
        try:
            module = importlib.import_module("kitchen.oven")
            with pytest.raises(TypeError) as info:
                module.Oven(temperature=200)
            e = Explainer(store, auto_index=False).exception(info.value)
        finally:
            sys.path.remove(str(new))
            for name in [m for m in sys.modules if m == "kitchen" or m.startswith("kitchen.")]:
                del sys.modules[name]
    assert e.candidate is None and e.api is not None
    text = " ".join(to_text(renderable(e), width=120).replace("│", " ").split())
    assert "is in kitchen 1.0 and gone in 2.0: renamed to `heat`" in text
    assert "Pass `heat=` instead of `temperature=`." in text
    assert e.to_json()["api"] is not None


def test_an_interpreter_error_inside_the_library_shows_the_statement_it_failed_at(tmp_path: Path, db_url: str) -> None:
    folder = tmp_path / "kitchen-src"
    (folder / "kitchen").mkdir(parents=True)
    (folder / "pyproject.toml").write_text('[project]\nname = "kitchen"\nversion = "1.0"\n')
    (folder / "kitchen" / "__init__.py").write_text("")
    (folder / "kitchen" / "timer.py").write_text(
        "class Timer:\n    def __init__(self, clock=None):\n        self.clock = clock\n\n"
        "    def start(self):\n        return self.clock.now()\n"
    )
    with Store(db_url) as store:
        index(str(folder), store)
        sys.path.insert(0, str(folder))
        try:
            module = importlib.import_module("kitchen.timer")
            with pytest.raises(AttributeError) as info:
                module.Timer().start()
            e = Explainer(store, auto_index=False).exception(info.value)
        finally:
            sys.path.remove(str(folder))
            for name in [m for m in sys.modules if m == "kitchen" or m.startswith("kitchen.")]:
                del sys.modules[name]
    assert e.candidate is None and e.statement is not None
    assert (e.statement.file, e.statement.line) == ("kitchen/timer.py", 6)
    text = " ".join(to_text(renderable(e), width=120).replace("│", " ").split())
    assert "where the interpreter failed" in text and "return self.clock.now()" in text
    assert e.to_json()["statement"] is not None
