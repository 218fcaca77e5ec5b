"""`analyse_changed` gives exactly what `analyse_file` gives, on real release pairs and on small edits."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.extract.file import analyse_file
from errdex.extract.incremental import analyse_changed
from errdex.sources import open_source

BASE = '''"""A module."""
import os
from .errors import BaseError

LIMIT = 10
NAME = "widget"


class WidgetError(BaseError):
    def __init__(self, what):
        super().__init__(f"bad widget {what}")


class Widget(Base):
    KIND = "round"

    def check(self, size):
        if size > LIMIT:
            raise ValueError(f"{NAME} too big: {size} > {LIMIT}")

    def kind(self):
        if self.KIND != "round":
            raise TypeError(f"kind {self.KIND}")


def load(path):
    where = os.path.join(path, NAME)
    if not where:
        raise FileNotFoundError(f"no {where}")
    raise WidgetError(path)
'''

EDITS = {
    "lines inserted at the top": lambda t: t.replace('"""A module."""\n', '"""A module."""\n\n\n# note\n'),
    "lines deleted above a site": lambda t: t.replace('NAME = "widget"\n\n\n', 'NAME = "widget"\n'),
    "a constant a message uses changed": lambda t: t.replace("LIMIT = 10", "LIMIT = 12"),
    "an import changed": lambda t: t.replace("import os\n", "import os.path as os\n"),
    "a class base changed": lambda t: t.replace("class Widget(Base):", "class Widget(Other):"),
    "a class constant changed": lambda t: t.replace('KIND = "round"', 'KIND = "square"'),
    "a function body changed": lambda t: t.replace("too big", "far too big"),
    "a function inserted above another": lambda t: t.replace("def load(", "def other():\n    raise KeyError('x')\n\n\ndef load("),
    "an exception message changed": lambda t: t.replace("bad widget", "broken widget"),
    "a function removed": lambda t: t.split("\n\ndef load(")[0] + "\n",
    "a local assignment moved": lambda t: t.replace("    where = os.path", "\n\n    where = os.path"),
    "a constant moved down": lambda t: t.replace('LIMIT = 10\n', '').replace("class WidgetError", "LIMIT = 10\n\n\nclass WidgetError"),
    "a syntax error": lambda t: t.replace("def kind(self):", "def kind(self:"),
}


@pytest.mark.parametrize("edit", list(EDITS))
def test_an_edit_gives_the_fresh_analysis(edit: str) -> None:
    path = "pkg/widgets.py"
    old, new = BASE.encode(), EDITS[edit](BASE).encode()
    assert new != old
    assert analyse_changed(path, new, old, analyse_file(path, old)) == analyse_file(path, new)


@pytest.mark.parametrize("first", list(EDITS))
def test_two_edits_in_a_row_give_the_fresh_analysis(first: str) -> None:
    path = "pkg/widgets.py"
    middle = EDITS[first](BASE)
    for second in EDITS.values():
        old, new = middle.encode(), second(middle).encode()
        assert analyse_changed(path, new, old, analyse_file(path, old)) == analyse_file(path, new)


def test_without_a_usable_previous_version_the_file_is_analysed_whole() -> None:
    path = "pkg/widgets.py"
    fresh = analyse_file(path, BASE.encode())
    assert analyse_changed(path, BASE.encode(), None, None) == fresh
    assert analyse_changed(path, BASE.encode(), b"\x00", {"skip": "contains NUL bytes", "sites": []}) == fresh


@pytest.mark.network
def test_every_changed_file_of_a_real_release(release_cache: Path) -> None:
    old = _files("transformers==5.16.0", release_cache)
    new = _files("transformers==5.17.0", release_cache)
    changed = [path for path in new if path in old and old[path] != new[path]]
    assert len(changed) > 200
    for path in changed:
        previous = analyse_file(path, old[path])
        assert analyse_changed(path, new[path], old[path], previous) == analyse_file(path, new[path]), path


def _files(spec: str, cache: Path) -> dict[str, bytes]:
    with open_source(spec, cache_dir=cache) as source:
        return {f.path: f.data for f in source.files()}
