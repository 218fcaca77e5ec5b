"""The fast path's readers without a parser: import statements and class headers, checked against `ast`."""

from __future__ import annotations

import ast
import textwrap

import pytest

from errdex.extract import analyse_file
from errdex.extract.chunks import SITE_WORDS, class_header, is_interesting, simple_import, split_block, without_tail


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
    ["class A(Generic[T]):\n    pass\n", "class A(B, metaclass=M):\n    pass\n", "class A: pass\n", "class A(B  # c\n):\n    pass\n"],
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
    assert [c["qualname"] for c in fast["classes"]] == ["Base", "Outer", "Outer.Inner", "Thing"]
    (site,) = fast["sites"]
    assert site["resolved"] == {"self.KINDS": ["a", "b"]}


TAILS = textwrap.dedent(
    '''
    def check(x):
        """Raises when x is bad."""
        if x is None:
            raise ValueError("x is required")
        try:
            y = int(x)
        except TypeError:
            raise TypeError(f"x must be a number, got {x!r}")
        else:
            y += 1
        total = y * 2
        return total
    '''
)


def test_a_function_is_cut_after_the_statement_of_its_last_site() -> None:
    (chunk,) = [c for c in split_block(TAILS, "", 1) if c.kind == "def"]
    assert without_tail(chunk).text == TAILS[TAILS.index("def") : TAILS.index("    total = y")]


def test_a_call_given_a_message_after_the_last_site_is_kept() -> None:
    text = "def use(x):\n    if x:\n        raise TypeError('bad x')\n    fail(\n        f'user wrote {x}'\n    )\n    y = 1\n    return y\n"
    (chunk,) = split_block(text, "", 1)
    assert without_tail(chunk).text == text[: text.index("    y = 1")]  # a helper of another module may raise it


@pytest.mark.parametrize(
    "text",
    [
        "def f():\n    # may raise\n    x = 1\n    return x\n",  # the word before the first statement: keep that one
        "def f(\n    a,\n) -> int:\n    return a\n",  # a signature over lines is not the body
        "def raise_it():\n    return 1\n",
        "def f():\n    @app.exception_handler(E)\n    def g():\n        pass\n    return g\n",  # no decorator left dangling
    ],
)
def test_a_cut_function_still_parses(text: str) -> None:
    (chunk,) = split_block(text, "", 1)
    cut = without_tail(chunk).text
    assert text.startswith(cut)
    ast.parse(cut)


def test_cutting_functions_keeps_the_analysis() -> None:
    source = TAILS + textwrap.dedent(
        """
        class Box:
            def put(self, item):
                for thing in item:
                    if thing is None:
                        self.log.warning("empty %s", thing)
                    thing.put()
                self.items = item
        """
    )
    assert analyse_file("pkg/tails.py", source.encode()) == analyse_file("pkg/tails.py", source.encode(), fast=False)


def test_is_interesting_knows_every_site_word() -> None:
    assert all(is_interesting(f"x = y{word}z") for word in SITE_WORDS)
    assert not is_interesting("x = y.err + warm(z) or rise")
