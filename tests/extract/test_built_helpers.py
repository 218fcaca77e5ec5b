"""Helpers that build their message around a parameter: each caller's message, put where the parameter goes, is
a site at the helper's raise, warning or log."""

from __future__ import annotations

import textwrap

import pytest

from errdex.model import Site, WrittenAt
from tests.extract.test_helpers import _link

PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/utils.py": textwrap.dedent(
        """
        import logging
        import warnings

        logger = logging.getLogger(__name__)

        class ConfigError(ValueError):
            pass

        def config_error(msg, key=None):
            raise ConfigError(f"Invalid configuration: {msg} (see the docs)")

        def deprecate(name, removal, message, standard_warn=True):
            warning = f"`{name}` is deprecated and will be removed in version {removal}."
            warning = warning + " " if standard_warn else ""
            warnings.warn(warning + message, FutureWarning)

        def log_failure(what, reason):
            logger.error("Could not %s: %s", what, reason)

        def shown_twice(msg):
            raise RuntimeError(f"{msg} -- {msg!s}")
        """
    ),
    "pkg/app.py": textwrap.dedent(
        """
        from .utils import config_error, deprecate, log_failure

        def load(config, n):
            if n < 0:
                raise ValueError("negative count")
            if not config:
                config_error(f"{n} sections is too few")
            message = "It is deprecated to pass a path to `load`."
            if n > 3:
                message += f" Pass at most {n} sections instead."
            deprecate("path-to-load", "1.0.0", message, standard_warn=False)
            log_failure("load the config", "the file is empty")
            config_error(n)
        """
    ),
}


RUN = """
from .utils import shown_twice

def run(job):
    if job is None:
        raise KeyError(job)
    shown_twice('no such job')
"""


@pytest.fixture(scope="module")
def sites() -> dict[str, Site]:
    return {s.template: s for s in _link(PACKAGE) if s.template and s.file == "pkg/utils.py"}


def test_the_callers_message_is_put_where_the_parameter_goes(sites) -> None:
    site = sites["Invalid configuration: {} sections is too few (see the docs)"]
    assert (site.file, site.line, site.function, site.exception) == ("pkg/utils.py", 11, "config_error", "ConfigError")
    assert site.written_at == WrittenAt("pkg/app.py", 8, "load")
    assert site.condition == "not config"
    assert site.holes == (("n",),)  # the caller's expression


def test_the_helpers_own_template_stays(sites) -> None:
    own = sites["Invalid configuration: {} (see the docs)"]
    assert (own.line, own.written_at, own.holes) == (11, None, (("msg",),))


def test_each_way_the_helper_builds_the_message(sites) -> None:
    """The helper prefixes its own words or not; the caller's message has two alternatives: four templates."""
    written = {t for t, s in sites.items() if s.function == "deprecate" and s.written_at is not None}
    assert written == {
        "It is deprecated to pass a path to `load`.",
        "It is deprecated to pass a path to `load`. Pass at most {} sections instead.",
        "`{}` is deprecated and will be removed in version {}. It is deprecated to pass a path to `load`.",
        "`{}` is deprecated and will be removed in version {}. It is deprecated to pass a path to `load`."
        " Pass at most {} sections instead.",
    }
    site = sites["It is deprecated to pass a path to `load`."]
    assert (site.kind, site.exception, site.line) == ("warning", "FutureWarning", 16)


def test_a_logging_helper(sites) -> None:
    site = sites["Could not {}: the file is empty"]
    assert (site.kind, site.line, site.function) == ("log", 19, "log_failure")
    assert site.written_at == WrittenAt("pkg/app.py", 13, "load")


def test_a_parameter_shown_twice_takes_the_message_twice() -> None:
    files = {**PACKAGE, "pkg/run.py": RUN}
    templates = {s.template for s in _link(files) if s.function == "shown_twice" and s.written_at is not None}
    assert templates == {"no such job -- no such job"}


def test_a_call_that_writes_no_message_makes_no_site(sites) -> None:
    assert not [s for s in sites.values() if s.written_at is not None and s.written_at.line == 14]


def test_fast_and_full_parse_agree() -> None:
    assert sorted(map(repr, _link(PACKAGE, fast=True))) == sorted(map(repr, _link(PACKAGE, fast=False)))
