"""Shapes of code on which the fast path once read differently from the whole-file parse (found on real wheels)."""

from __future__ import annotations

import textwrap

from errdex.extract import analyse_file
from errdex.extract.chunks import split_block
from errdex.extract.records import FileAnalysis
from tests.extract.raw import texts


def both(source: str, path: str = "pkg/mod.py") -> FileAnalysis:
    """The fast path's analysis, checked equal to the whole-file parse's."""
    data = textwrap.dedent(source).encode()
    fast = analyse_file(path, data)
    assert fast == analyse_file(path, data, fast=False)
    return fast


def attributes(result: FileAnalysis) -> dict[str, list[str]]:
    return {c.qualname: list(c.attributes) for c in result.classes}


def test_every_annotated_field_is_an_attribute_the_last_one_too() -> None:
    """A field with no default ends at its newline, which starts the next field; the last may end the text."""
    result = both(
        """
        @dataclass
        class Options:
            a: int
            b: str
            c: str
            d: bool = False
            e: float

            def check(self):
                if self.a < 0:
                    raise ValueError("a must be positive")
            f: int"""
    )
    assert attributes(result) == {"Options": ["a", "b", "c", "d", "e", "f"]}


def test_keywords_ending_in_a_colon_are_no_fields() -> None:
    result = both(
        """
        class Loader:
            def load(self):
                try:
                    x = 1
                finally:
                    pass
                if x:
                    raise ValueError("bad")
                else:
                    self.done = True
        """
    )
    assert attributes(result) == {"Loader": ["done"]}


def test_a_class_inside_a_class_has_its_own_attributes_not_its_owners() -> None:
    result = both(
        """
        class Column:
            def __init__(self, name):
                self.name = name
                if not name:
                    raise ValueError("a column needs a name")

            class Comparator:
                def __init__(self, expr):
                    self.expr = expr

            class Plain:
                pass
        """
    )
    assert attributes(result) == {"Column": ["name", "expr"], "Column.Comparator": [], "Column.Plain": []}


def test_a_class_is_read_from_its_class_line_to_its_last_statement() -> None:
    """Site words in its decorators or in the comments after it do not make a class one that may raise."""
    result = both(
        """
        @doc(\"\"\"
            .. warning:: experimental
        \"\"\")
        class Model:
            def __init__(self, config):
                self.config = config


        class Fields:
            size: int
            name: str

        # a warning about what follows, which raises
        LIMIT = 3
        """
    )
    assert attributes(result) == {"Model": [], "Fields": []}


def test_an_import_in_a_class_body_is_no_import_of_the_module() -> None:
    """It binds a class attribute (transformers' Trainer imports methods so)."""
    result = both(
        """
        class Trainer:
            from .helpers import log_metrics, save_metrics

            def train(self):
                raise RuntimeError("no model")
        """
    )
    assert result.imports == {}


def test_every_name_of_a_chained_assignment_is_a_constant() -> None:
    result = both(
        """
        Parser = Listener = None


        class Options:
            LOW = HIGH = 3

            def check(self, listener):
                if Listener is None or listener > self.HIGH:
                    raise ImportError("the parser needs antlr4")
        """
    )
    (site,) = result.sites
    assert site.values.checks == ("listener",)
    assert site.values.resolved == {"self.HIGH": 3}


def test_a_triple_quote_inside_a_string_does_not_hide_the_statements_after_it() -> None:
    """The split takes `'''` in `r".*'''"` for a docstring's start, and the statements up to the next `'''` for one
    chunk; the names and classes they define are found all the same."""
    result = both(
        """
        def read(line):
            mark = re.compile(r".*?\'\'\'")
            if not line:
                raise ValueError("empty line")
            return mark


        LIMIT = 3


        class Reader:
            def check(self, size):
                if size > LIMIT:
                    raise ValueError(f"size over {LIMIT}")


        def end():
            return "\'\'\'"
        """
    )
    assert [c.qualname for c in result.classes] == ["Reader"]
    assert result.sites[1].values.resolved == {"LIMIT": 3}


def test_a_field_whose_annotation_takes_several_lines_is_a_constant() -> None:
    """Its value is a class constant (fastapi's `data: Annotated[..., Doc(\"\"\"...\"\"\")] = None`)."""
    result = both(
        """
        class Event(BaseModel):
            data: Annotated[
                Any,
                Doc("The payload: `data=1` is sent as is (see [1])."),
            ] = None
            raw: Annotated[
                str | None,
                Doc("Sent as is."),
            ]

            def check(self):
                if self.data is not None and self.raw is not None:
                    raise ValueError("data and raw both set")
        """
    )
    (site,) = result.sites
    assert site.values.resolved == {"self.data": None}
    assert site.values.checks == ("raw",)


def test_a_site_outside_functions_knows_what_the_statements_before_it_bind() -> None:
    """Names bound in an `if` or a `try` before it, and messages written in the statement before it (numpy's
    `__init__.py`, pandas' `expr.py`)."""
    result = both(
        """
        try:
            __SETUP__
        except NameError:
            __SETUP__ = False

        both = supported & unsupported
        _msg = f"cannot both support and not support {both}"
        assert not both, _msg

        if not __SETUP__:
            raise ImportError("run from the source tree")
        """
    )
    assert [(texts(s), s.values.resolved) for s in result.sites] == [
        (["cannot both support and not support {}"], {}),
        (["run from the source tree"], {"__SETUP__": False}),
    ]


def test_a_decorated_class_in_a_class_is_not_its_own_member() -> None:
    """Its decorators are indented lines, which are not where its body starts (networkx's
    `@dataclass class Partition`)."""
    result = both(
        """
        class Iterator:
            @dataclass(order=True)
            class Partition:
                weight: float

            def check(self, weight):
                if weight < 0:
                    raise ValueError("negative weight")
        """
    )
    assert [c.qualname for c in result.classes] == ["Iterator", "Iterator.Partition"]


def test_brackets_in_a_comment_before_a_class_body_do_not_hide_its_members() -> None:
    """Fold markers (`# {{{`) once made the members up to the closing marker part of the class's header."""
    result = both(
        """
        class Homebrew:
            \"\"\"Manage packages.\"\"\"

            # validations ----------------------------------- {{{
            @property
            def path(self):
                return self._path

            @path.setter
            def path(self, path):
                if not path:
                    raise ValueError(f"Invalid path: {path}.")
                self._path = path
            # /validations ---------------------------------- }}}

            def run(self):
                pass
        """
    )
    assert [s.line for s in result.sites] == [13]


def test_an_annotation_with_a_comment_holding_an_equals_sign_is_no_constant() -> None:
    result = both(
        """
        IMPORT_ERROR: str | None  # pylint: disable=invalid-name

        def check():
            if IMPORT_ERROR is not None:
                raise ImportError("install requests")
        """
    )
    assert result.sites[0].values.checks == ("IMPORT_ERROR",)


def test_a_triple_quote_in_a_one_line_string_or_a_comment_opens_no_string() -> None:
    """A lexer's rules (pygments) hold `"'''"`; the classes after them were read as part of a string."""
    source = textwrap.dedent(
        """
        class PythonLexer(RegexLexer):
            tokens = {
                "string": [(r"\'\'\'", String, "#pop")],
            }


        class TurtleLexer(RegexLexer):
            name = "Turtle"


        class Broken(Exception):
            pass
        # a comment with \'\'\' in it
        """
    )
    chunks = split_block(source, "", 1)
    assert [c.name for c in chunks if c.kind == "class"] == ["PythonLexer", "TurtleLexer", "Broken"]
    assert [c.qualname for c in both(source).classes] == ["PythonLexer", "TurtleLexer", "Broken"]
