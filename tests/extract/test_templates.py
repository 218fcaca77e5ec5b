"""Each way of writing a message gives the template a user's message can be matched against."""

from __future__ import annotations

import json
import textwrap

import pytest

from errdex.extract import analyse_file
from errdex.extract.records import ClassMessage, FileAnalysis, RawSite
from tests.extract.raw import texts


def sites_of(source: str, path: str = "pkg/mod.py", fast: bool = True) -> tuple[RawSite, ...]:
    result = analyse_file(path, textwrap.dedent(source).encode(), fast=fast)
    assert result.skip is None, result.skip
    # linking gets a new file's analysis as made, and a known file's as stored (JSON): they must be equal
    assert FileAnalysis.from_json(json.loads(json.dumps(result.to_json()))) == result
    return result.sites


def only_templates(source: str) -> list[str | None]:
    sites = sites_of(source)
    assert len(sites) == 1, sites
    return texts(sites[0])


CASES = [
    ("plain", 'raise ValueError("no such thing")', ["no such thing"]),
    ("f-string", 'raise ValueError(f"bad {x!r} in {y:>10}")', ["bad {} in {}"]),
    ("f-string nested spec", 'raise ValueError(f"{v:{width}.{prec}f} is too wide")', ["{} is too wide"]),
    ("percent positional", 'raise ValueError("bad %s (%d%%) at %.2f" % (a, b, c))', ["bad {} ({}%) at {}"]),
    (
        "percent named",
        'raise KeyError("missing %(name)s in %(where)r" % {"name": n, "where": w})',
        ["missing {} in {}"],
    ),
    ("format positional", 'raise ValueError("expected {} got {0!r:>3}".format(a, b))', ["expected {} got {}"]),
    ("format named", 'raise ValueError("use {name} not {{literal}}".format(name=n))', ["use {} not {literal}"]),
    ("concatenation", 'raise ValueError("a " + str(x) + " b")', ["a {} b"]),
    (
        "implicit concatenation",
        'raise ValueError(\n    "first part, "\n    f"then {x} "\n    "and the end"\n)',
        ["first part, then {} and the end"],
    ),
    ("keyword message", 'raise ValueError(msg="keyword form")', ["keyword form"]),
    ("dedent", 'raise ValueError(textwrap.dedent("""\n    indented text\n    """))', ["\nindented text\n"]),
    ("no message", "raise ValueError", [None]),
    ("only a value", "raise ValueError(x)", [None]),
]


@pytest.mark.parametrize("source, expected", [(c[1], c[2]) for c in CASES], ids=[c[0] for c in CASES])
def test_template_forms(source: str, expected: list[str | None]) -> None:
    assert only_templates(source) == expected


def test_message_variable_and_augmented_assignment() -> None:
    templates = only_templates(
        """
        def check(x):
            msg = f"bad value {x}"
            msg += ", expected a number"
            raise TypeError(msg)
        """
    )
    assert templates == ["bad value {}, expected a number"]


def test_branches_give_several_templates() -> None:
    templates = only_templates(
        """
        def check(x, strict):
            if strict:
                msg = "strict mode rejects " + repr(x)
            else:
                msg = "lenient mode rejects %s" % x
            raise ValueError(msg)
        """
    )
    assert sorted(templates) == ["lenient mode rejects {}", "strict mode rejects {}"]


def test_conditional_expression_gives_both() -> None:
    templates = only_templates('raise ValueError("too big" if x > 3 else "too small")')
    assert sorted(templates) == ["too big", "too small"]


def test_module_constant_message_with_percent() -> None:
    sites = sites_of(
        """
        ERROR = "cannot open %s: %s"

        def f(path, why):
            raise OSError(ERROR % (path, why))
        """
    )
    assert texts(sites[0]) == ["cannot open {}: {}"]


def test_unresolvable_message_is_kept_with_a_reason() -> None:
    sites = sites_of(
        """
        def f(build):
            raise ValueError(build())
        """
    )
    assert texts(sites[0]) == [None]
    assert sites[0].reason == "message is built at run time"
    assert sites[0].message_source == "build()"


def test_warnings_and_logs() -> None:
    sites = sites_of(
        """
        import warnings, logging
        logger = logging.getLogger(__name__)

        def f(x):
            warnings.warn(f"{x} is deprecated", FutureWarning, stacklevel=2)
            logger.warning("value %s ignored", x)
            logger.warning_once("only once")
            logging.error("module-level logger %d", 3)
            self_log = 1
        """
    )
    found = [(s.kind, s.exception, s.level, texts(s)) for s in sites]
    assert found == [
        ("warning", "FutureWarning", None, ["{} is deprecated"]),
        ("log", None, "warning", ["value {} ignored"]),
        ("log", None, "warning_once", ["only once"]),
        ("log", None, "error", ["module-level logger {}"]),
    ]


def test_assert_with_message_is_a_site() -> None:
    sites = sites_of("def f(x):\n    assert x > 0, f'x must be positive, got {x}'\n")
    assert sites[0].exception == "AssertionError"
    assert sites[0].clauses == ("not (x > 0)",)
    assert texts(sites[0]) == ["x must be positive, got {}"]


def test_bare_reraise_is_not_a_site() -> None:
    assert sites_of("try:\n    f()\nexcept KeyError:\n    raise\n") == ()


@pytest.mark.parametrize("fast", [True, False])
def test_exception_class_building_its_own_message(fast: bool) -> None:
    result = analyse_file(
        "pkg/errors.py",
        textwrap.dedent(
            """
            class ConfigError(ValueError):
                def __init__(self, key, allowed):
                    super().__init__(f"unknown key {key!r}; allowed: {allowed}")

            class ParamError(Exception):
                fmt = "Parameter validation failed:\\n{report}"
            """
        ).encode(),
        fast=fast,
    )
    classes = {c.qualname: c for c in result.classes}
    assert classes["ConfigError"].messages == (ClassMessage(("unknown key {}; allowed: {}",)),)
    assert classes["ConfigError"].bases == ("ValueError",)
    assert classes["ParamError"].messages == (ClassMessage(("Parameter validation failed:\n{}",)),)


def test_augmented_assignment_after_an_opaque_value() -> None:
    templates = only_templates(
        """
        def report(issues):
            text = "\\n".join(issues)
            text += "\\nSee the docs."
            raise ValueError("Invalid: \\n" + text)
        """
    )
    assert templates == ["Invalid: \n{}\nSee the docs."]


HOLES = [
    ("f-string", 'raise ValueError(f"bad {x!r} in {str(y)}")', [["x"], ["y"]]),
    ("percent tuple", 'raise KeyError("wrong mode %r for %r" % (mode, backend))', [["mode"], ["backend"]]),
    ("percent one", 'raise KeyError("wrong mode %s" % mode)', [["mode"]]),
    ("percent star", 'raise KeyError("%*d items of %s" % (width, n, kind))', [["n"], ["kind"]]),
    ("percent keys", 'raise KeyError("%(a)s then %(b)r" % {"b": y, "a": x})', [["x"], ["y"]]),
    ("percent percent", 'raise KeyError("%d%% of %s" % (share, whole))', [["share"], ["whole"]]),
    ("format", 'raise KeyError("{} then {k} and {0}".format(x, k=y))', [["x"], ["y"], ["x"]]),
    ("concatenation", 'raise KeyError("value " + repr(x) + " is bad")', [["x"]]),
    ("merged", 'raise KeyError(f"{a}{b} is bad")', [["a", "b"]]),
    ("unknown", 'raise KeyError("%s is bad" % args[0] if args else "bad")', [["args[0]"]]),
]


@pytest.mark.parametrize("source, expected", [c[1:] for c in HOLES], ids=[c[0] for c in HOLES])
def test_holes_show_the_expression_each_takes(source: str, expected: list[list[str]]) -> None:
    (site,) = sites_of(f"def f(mode, backend, x, y, a, b, n, width, kind, share, whole, *args):\n    {source}\n")
    assert [list(h) for h in site.templates[0].holes] == expected
