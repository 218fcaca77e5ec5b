"""The fast path's readers without a parser: import statements and class headers, checked against `ast`."""

from __future__ import annotations

import ast
import textwrap

import pytest

from errdex.extract import analyse_file
from errdex.extract.chunks import (
    SITE_WORDS,
    class_header,
    is_interesting,
    simple_import,
    split_block,
)


@pytest.mark.parametrize(
    "text",
    [
        "import os\n",
        "import a.b as c, d\n",
        "from . import (a,\n    b as c,\n)\n",
        "from ..pkg.mod import *\n",
        "from x import (a, b)  # why\n\n# a comment line\n",
        "from x import y  # noqa",
        "from .. import x",
    ],
)
def test_simple_import_is_the_node_the_parser_gives(text: str) -> None:
    (node,) = ast.parse(text).body
    assert ast.dump(simple_import(text)) == ast.dump(node)


@pytest.mark.parametrize(
    "text",
    [
        "from x import a,\n",  # does not parse: left to the parser, which says so
        "import (a)\n",
        "from x import if\n",
        "from x import ()\n",
        "from x import (a  # a comment inside\n)\n",
        "import a; import b\n",
        "from x import \\\n  a\n",
        "from . x import y\n",
        "from x import y\nz = 1\n",
    ],
)
def test_other_imports_are_left_to_the_parser(text: str) -> None:
    assert simple_import(text) is None


CLASSES = textwrap.dedent(
    """
    @dataclass
    @other(1)

    class Plain(Base, mod.Mixin,):  # a comment
        x = 1

    class Wrapped(
        Base,
        abc.ABC,
    ):
        pass

    class Empty():
        pass
    """
)


def test_class_header_reads_line_and_bases_as_the_parser_does() -> None:
    chunks = [c for c in split_block(CLASSES, "", 1) if c.kind == "class"]
    nodes = [n for n in ast.parse(CLASSES).body if isinstance(n, ast.ClassDef)]
    assert [class_header(c) for c in chunks] == [(n.lineno, tuple(ast.unparse(b) for b in n.bases)) for n in nodes]


@pytest.mark.parametrize(
    "text",
    [
        "class A(Generic[T]):\n    pass\n",
        "class A(B, metaclass=M):\n    pass\n",
        "class A: pass\n",
        "class A(B  # c\n):\n    pass\n",
    ],
)
def test_other_class_headers_are_left_to_the_parser(text: str) -> None:
    (chunk,) = split_block(text, "", 1)
    assert class_header(chunk) is None


UNREAD_BODIES = textwrap.dedent(
    """
    class Base:
        KINDS = ("a", "b")

        def kinds(self):
            return self.KINDS

    class Outer:
        class Inner:
            LIMIT = 3

    class Thing(Base):
        def check(self, kind):
            if kind not in self.KINDS:
                raise ValueError(f"kind must be one of {self.KINDS}")
    """
)


def test_constants_of_a_class_whose_body_is_read_late_resolve() -> None:
    fast = analyse_file("pkg/things.py", UNREAD_BODIES.encode())
    assert fast == analyse_file("pkg/things.py", UNREAD_BODIES.encode(), fast=False)
    assert [c.qualname for c in fast.classes] == ["Base", "Outer", "Outer.Inner", "Thing"]
    (site,) = fast.sites
    assert site.values.resolved == {"self.KINDS": ["a", "b"]}


def test_a_call_after_the_last_raise_is_read_as_the_full_parse_reads_it() -> None:
    """Its message may be raised by a helper of another module, which only linking knows."""
    source = textwrap.dedent(
        """
        from .helpers import fail


        def use(x):
            if x:
                raise TypeError("bad x")
            msg = f"user wrote {x}"
            fail(msg)
        """
    )
    fast = analyse_file("pkg/user.py", source.encode())
    assert fast == analyse_file("pkg/user.py", source.encode(), fast=False)
    assert [call.callee for call in fast.calls] == ["fail"]


@pytest.mark.parametrize(
    "spelling", ["def \\\n        finish", "def\tfinish", "def \ufb01nish"]
)  # \ufb01: "fi" in one letter
def test_a_helper_is_found_however_its_def_is_spelled(spelling: str) -> None:
    """Calls are kept only when they may call a function of the file: its names are read from the text, as
    the parser reads them (line continuations, names it normalises to NFKC)."""
    source = textwrap.dedent(
        f"""
        def use(x):
            if x:
                raise TypeError("bad x")
            finish(f"user wrote {{x}}")


        {spelling}(msg):
            raise ValueError(msg)
        """
    )
    for fast in (True, False):
        calls = analyse_file("pkg/user.py", source.encode(), fast=fast).calls
        assert [(call.callee, [t.text for t in call.args[0].templates]) for call in calls] == [
            ("finish", ["user wrote {}"])
        ]


def test_is_interesting_knows_every_site_word() -> None:
    assert all(is_interesting(f"x = y{word}z") for word in SITE_WORDS)
    assert not is_interesting("x = y.err + warm(z) or rise")
