"""Raise helpers: the message a caller writes for `self.fail(msg)` is a site at the helper's raise."""

from __future__ import annotations

import textwrap

import pytest

from errdex.extract import analyse_file, link
from errdex.model import Site, WrittenAt

PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/parser.py": textwrap.dedent(
        """
        class TemplateSyntaxError(Exception):
            pass

        class Parser:
            def fail(self, msg, lineno=None, exc=TemplateSyntaxError):
                if lineno is None:
                    lineno = 0
                raise exc(msg, lineno)

            def fail_eof(self, what, lineno=None):
                self.fail(what, lineno)

            def parse_tag(self, token):
                if token != "name":
                    self.fail(f"unexpected {token!r}", 3)
                self.fail_eof(what="end of template reached")

        class FilterParser(Parser):
            def parse_filter(self, name):
                if not name:
                    return self.fail("filter name expected")

        def error(message, category=UserWarning):
            import warnings
            warnings.warn(message, category)

        def old_api(x):
            if x:
                error("old_api is going away")
            error("new_api is not ready", category=FutureWarning)
        """
    ),
    "pkg/dates.py": textwrap.dedent(
        """
        import six
        from six import reraise

        class ParserError(ValueError):
            pass

        def parse(text):
            try:
                return int(text)
            except ValueError as e:
                six.raise_from(ParserError("cannot parse %s" % text), e)

        def again(tp, value, tb):
            reraise(tp, value, tb)
        """
    ),
    "pkg/quiet.py": textwrap.dedent(
        """
        def report(message):
            raise RuntimeError(message)

        def not_a_helper_call():
            print("this is not a helper")

        def caller_without_raise(n):
            report(f"{n} items are too many")
        """
    ),
    "pkg/limits.py": "LIMIT = 9\n",
    "pkg/users.py": textwrap.dedent(
        """
        from . import quiet
        from .parser import Parser
        from .quiet import report
        from .limits import LIMIT

        class Collector:
            def finalize(self, msg):
                raise ExceptionGroup(msg, [])

        class MacroParser(Parser):
            def parse_macro(self, args):
                if args is None:
                    raise ValueError("no args")
                if not args:
                    self.fail("macro needs arguments")

        def load(items):
            if items is None:
                raise TypeError("items is None")
            if len(items) > LIMIT:
                report(f"{len(items)} items: the limit is 9")
            if not items:
                quiet.report("nothing to load at all")
            collector = Collector()
            collector.finalize("invalid items found")
            Collector().finalize("invalid or unparsed items")

        def with_parser(parser: "Parser", name):
            if name == "raw":
                raise NotImplementedError("raw")
            parser.fail(f"unknown block {name!r}")

        def no_raise_here(items):
            report("a caller in code that raises nothing")
        """
    ),
}


def _link(files: dict[str, str], fast: bool = True) -> list[Site]:
    analyses = {path: analyse_file(path, text.encode(), fast=fast) for path, text in files.items()}
    sites, _ = link(analyses, lambda path: files.get(path))
    return sites


@pytest.fixture(scope="module")
def sites() -> dict[str, Site]:
    return {s.template: s for s in _link(PACKAGE) if s.template}


def test_method_helper_site_is_at_the_helpers_raise_with_the_callers_message(sites) -> None:
    site = sites["unexpected {}"]
    assert (site.file, site.line, site.function) == ("pkg/parser.py", 9, "Parser.fail")
    assert site.exception == "TemplateSyntaxError"  # the default of the `exc` parameter
    assert site.exception_bases == ("Exception",)
    assert site.condition == "token != 'name'"  # the caller's check, not the helper's
    assert site.message_source == "f'unexpected {token!r}'"
    assert site.written_at == WrittenAt("pkg/parser.py", 16, "Parser.parse_tag")


def test_the_helpers_own_site_stays() -> None:
    own = [s for s in _link(PACKAGE) if s.function == "Parser.fail" and s.written_at is None]
    assert [(s.template, s.line) for s in own] == [(None, 9)]


def test_a_subclass_calling_the_helper(sites) -> None:
    site = sites["filter name expected"]
    assert (site.line, site.function, site.condition) == (9, "Parser.fail", "not name")
    assert site.written_at.function == "FilterParser.parse_filter"


def test_a_chain_of_two_helpers_by_keyword(sites) -> None:
    site = sites["end of template reached"]
    assert (site.line, site.function) == (9, "Parser.fail")
    assert site.written_at == WrittenAt("pkg/parser.py", 17, "Parser.parse_tag")


def test_a_module_level_warning_helper(sites) -> None:
    site = sites["old_api is going away"]
    assert (site.kind, site.exception, site.line, site.function, site.condition) == (
        "warning",
        "UserWarning",
        26,
        "error",
        "x",
    )


def test_the_category_a_caller_gives_is_the_sites(sites) -> None:
    site = sites["new_api is not ready"]
    assert (site.kind, site.exception, site.line, site.function, site.condition) == (
        "warning",
        "FutureWarning",
        26,
        "error",
        None,
    )


def test_a_helper_called_from_code_without_a_raise_is_found_by_the_fast_path(sites) -> None:
    site = sites["{} items are too many"]
    assert (site.file, site.line, site.function) == ("pkg/quiet.py", 3, "report")
    assert "this is not a helper" not in sites


def test_six_raise_from_and_reraise_are_raises(sites) -> None:
    site = sites["cannot parse {}"]
    assert (site.exception, site.file, site.line, site.function) == ("ParserError", "pkg/dates.py", 12, "parse")
    again = [s for s in _link(PACKAGE) if s.function == "again"]
    assert [(s.exception, s.line) for s in again] == [("tp", 15)]


def test_an_imported_helper_and_a_helper_of_an_imported_module(sites) -> None:
    site = sites["{} items: the limit is 9"]
    assert (site.file, site.line, site.function, site.exception) == ("pkg/quiet.py", 3, "report", "RuntimeError")
    assert site.written_at == WrittenAt("pkg/users.py", 22, "load")
    assert site.condition == "len(items) > LIMIT" and site.resolved == {"LIMIT": 9}  # the caller's names, in its module
    assert site.resolved_from["LIMIT"] == "pkg/limits.py:1"
    assert sites["nothing to load at all"].file == "pkg/quiet.py"


def test_a_subclass_in_another_module(sites) -> None:
    site = sites["macro needs arguments"]
    assert (site.file, site.line, site.function, site.condition) == ("pkg/parser.py", 9, "Parser.fail", "not args")
    assert site.written_at.file == "pkg/users.py"


def test_a_method_of_an_instance_made_here(sites) -> None:
    for template in ("invalid items found", "invalid or unparsed items"):
        site = sites[template + " ({} sub-exception)"]  # as Python prints a group
        assert (site.exception, site.file, site.line, site.function) == (
            "ExceptionGroup",
            "pkg/users.py",
            9,
            "Collector.finalize",
        )


def test_a_parameter_annotated_with_the_helpers_class(sites) -> None:
    site = sites["unknown block {}"]
    assert (site.file, site.line, site.function) == ("pkg/parser.py", 9, "Parser.fail")
    assert site.written_at.function == "with_parser"


def test_an_exception_groups_message_has_the_count_python_adds(sites) -> None:
    assert sites["invalid items found ({} sub-exceptions)"].line == 9
    assert "invalid items found" not in sites


def test_other_modules_callers_are_read_only_in_functions_that_raise(sites) -> None:
    assert "a caller in code that raises nothing" not in sites  # the fast path does not read that function


def test_fast_path_equals_full_parse() -> None:
    for path, text in PACKAGE.items():
        assert analyse_file(path, text.encode()) == analyse_file(path, text.encode(), fast=False), path


def test_each_callers_message_is_its_own_error() -> None:
    from errdex.model import error_id

    ids = {
        error_id("pkg", s.kind, s.exception, s.template, s.message_source)
        for s in _link(PACKAGE)
        if s.function == "Parser.fail"
    }
    assert len(ids) == 6  # the helper's own site and five messages written by callers


def test_a_message_built_by_a_property_and_a_class_set_in_init() -> None:
    files = {
        "pkg/undefined.py": textwrap.dedent(
            """
            class UndefinedError(Exception):
                pass

            class Undefined:
                def __init__(self, name, exc=UndefinedError):
                    self._name = name
                    self._exc = exc

                @property
                def _message(self):
                    if self._name is None:
                        return "the value is undefined"
                    return f"{self._name!r} is undefined"

                def fail(self):
                    raise self._exc(self._message)
            """
        )
    }
    (site, *more) = [s for s in _link(files)]
    assert [(s.template, s.exception, s.function, s.line) for s in [site, *more]] == [
        ("the value is undefined", "UndefinedError", "Undefined.fail", 17),
        ("{} is undefined", "UndefinedError", "Undefined.fail", 17),
    ]  # the class is the default of the `__init__` parameter `self._exc` is set from
    analyse = files["pkg/undefined.py"].encode()
    assert analyse_file("pkg/undefined.py", analyse) == analyse_file("pkg/undefined.py", analyse, fast=False)


def test_messages_joined_from_a_list_that_grows() -> None:
    files = {
        "pkg/join.py": textwrap.dedent(
            """
            def check(name, stack, missing):
                words = [f"Unknown tag {name!r}."]
                if stack:
                    words.append(f"Looking for {stack}.")
                if name is None:
                    raise SyntaxError(" ".join(words))
                failed = []
                for m in missing:
                    failed.append(f"{m} (not installed)")
                if failed:
                    raise ImportError("Missing:\\n" + "\\n".join(failed))
            """
        )
    }
    assert [s.template for s in _link(files)] == [
        "Unknown tag {}.",
        "Unknown tag {}. Looking for {}.",
        "Missing:\n{}",
    ]  # the optional part left out first; a loop's appends are any number of items
