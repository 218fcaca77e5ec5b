"""Statement shapes the chunker must split like the parser does, so that the fast path needs no whole-file parse."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from errdex.extract.chunks import class_parts, split_block
from errdex.extract.file import (
    _FallBack,
    _parse_chunk,
    _register_chunk,
    analyse_file,
    decode,
)
from errdex.extract.records import ClassMessage
from errdex.extract.scope import ModuleScope
from errdex.sources import open_source

LAZY_INIT = textwrap.dedent(
    """
    from typing import TYPE_CHECKING

    if TYPE_CHECKING:
        from .configuration import WidgetConfig
    else:
        import sys
        sys.modules[__name__] = object()

    try:
        import numpy
    except ImportError:
        numpy = None
    finally:
        pass
    """
)

LONG_HEADER = textwrap.dedent(
    '''
    class WidgetModel(
        Base, MixinOne, MixinTwo  # a comment
    ):
        """Docstring with an unbalanced bracket: (see [1."""

        LIMIT = 3

        def check(self, size):
            if size > self.LIMIT:
                raise ValueError(f"size {size} over {self.LIMIT}")
    '''
)

DECORATED = textwrap.dedent(
    """
    @add_docstrings(
        "a long argument",
        other=True,
    )
    class WidgetError(
        ValueError,
    ):
        def __init__(self, what):
            super().__init__(f"bad widget {what}")

    @decorate(
        1,
    )
    def fail():
        raise WidgetError("x")
    """
)


def splits_without_fallback(text: str, module: ModuleScope) -> bool:
    """Whether the fast path can read `text` piece by piece: every piece it registers or visits parses on its own."""
    try:
        for chunk in split_block(text, "", 1):
            for piece, _ in _register_chunk(chunk, module, []):
                _parse_chunk(piece)
    except _FallBack:
        return False
    return True


def test_else_except_and_finally_stay_with_their_statement() -> None:
    chunks = split_block(LAZY_INIT, "", 1)
    assert [c.text.split("\n", 1)[0] for c in chunks if c.text.strip()] == [
        "from typing import TYPE_CHECKING",
        "if TYPE_CHECKING:",
        "try:",
    ]
    assert splits_without_fallback(LAZY_INIT, ModuleScope("pkg/__init__.py"))


def test_a_class_header_over_several_lines_is_one_header() -> None:
    (chunk,) = [c for c in split_block(LONG_HEADER, "", 1) if c.kind == "class"]
    parts = class_parts(chunk)
    assert parts is not None
    header, members = parts
    assert header.rstrip().endswith('[1."""')
    assert [(m.kind, m.name, m.line) for m in members] == [("assign", "LIMIT", 7), ("def", "check", 9)]
    module = ModuleScope("pkg/model.py")
    assert splits_without_fallback(LONG_HEADER, module)
    assert module.classes["WidgetModel"].bases == ("Base", "MixinOne", "MixinTwo")


def test_a_decorator_over_several_lines_keeps_its_definition() -> None:
    kinds = [(c.kind, c.name) for c in split_block(DECORATED, "", 1) if c.text.strip()]
    assert kinds == [("class", "WidgetError"), ("def", "fail")]


def test_these_shapes_analyse_as_the_full_parse_does() -> None:
    odd_header = LONG_HEADER.replace("# a comment", "# a comment (with a bracket")  # split wrong: only slower
    for text in (LAZY_INIT, LONG_HEADER, DECORATED, odd_header):
        assert analyse_file("pkg/widgets.py", text.encode()) == analyse_file(
            "pkg/widgets.py", text.encode(), fast=False
        )
    classes = analyse_file("pkg/widgets.py", DECORATED.encode()).classes
    # where the class puts the argument it is given is kept, for a site's own words (see templates.given_message)
    assert [(c.qualname, c.messages) for c in classes] == [("WidgetError", (ClassMessage(("bad widget ", "")),))]


@pytest.mark.network
def test_every_file_of_a_real_release_splits_into_chunks_that_parse(release_cache: Path) -> None:
    """No file of transformers needs the whole-file parse (its lazy `__init__.py` files and long class headers did)."""
    with open_source("transformers==5.17.0", cache_dir=release_cache) as source:
        files = [(f.path, f.data) for f in source.files()]
    needing_full_parse = []
    for path, data in files:
        text, _ = decode(data)
        if not splits_without_fallback(text or "", ModuleScope(path)):
            needing_full_parse.append(path)
    assert len(files) > 2000
    assert needing_full_parse == []
