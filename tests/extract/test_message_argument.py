"""Which argument of a raise is its message, and when the exception class's own message wins."""

from __future__ import annotations

import textwrap

from errdex.extract import analyse_file, link

PACKAGE = {
    "cli/__init__.py": "",
    "cli/errors.py": textwrap.dedent(
        """
        class UsageError(Exception):
            def __init__(self, option, message):
                super().__init__(message)
                self.option = option

        class PoolError(Exception):
            def __init__(self, pool, message):
                super().__init__(f"{pool}: {message}")

        class ReaderError(Exception):
            def __init__(self, name, position, reason):
                self.name, self.position, self.reason = name, position, reason

            def __str__(self):
                return "unacceptable character: %s\\n  in %r, position %d" % (self.reason, self.name, self.position)
        """
    ),
    "cli/parser.py": textwrap.dedent(
        """
        from gettext import gettext as _, ngettext
        from .errors import PoolError, ReaderError, UsageError


        def take_value(opt, explicit):
            if explicit is not None:
                raise UsageError(opt, _("Option {name!r} does not take a value.").format(name=opt))


        def take_arguments(option_name, nargs, given):
            if given < nargs:
                raise UsageError(
                    option_name,
                    ngettext(
                        "Option {name!r} requires an argument.",
                        "Option {name!r} requires {nargs} arguments.",
                        nargs,
                    )
                    .format(name=option_name, nargs=nargs),
                )


        def sample(k, kmax):
            if k > kmax:
                msg = f"Number of random pairs k>kmax ({k}>{kmax}) "
                raise UsageError(msg, "Increase kmax")


        def get(pool):
            if pool is None:
                raise PoolError(pool, "Pool is closed.")


        def check(self, text):
            if "\\x07" in text:
                raise ReaderError(self.name, 0, "special characters are not allowed")


        def construct(node):
            if node.kind != "mapping":
                raise UsageError(None, "expected a mapping node, but found %s" % node.kind)
        """
    ),
}


def _templates() -> dict[str, list[str | None]]:
    analyses = {path: analyse_file(path, text.encode()) for path, text in PACKAGE.items()}
    sites, _ = link(analyses, PACKAGE.get)
    out: dict[str, list[str | None]] = {}
    for site in sites:
        out.setdefault(site.function, []).append(site.template)
    return out


def test_the_words_after_a_name_are_the_message() -> None:
    """`UsageError(opt, _("...").format(...))`: the option is what the message is about."""
    assert _templates()["take_value"] == ["Option {} does not take a value."]


def test_both_forms_of_ngettext_are_templates() -> None:
    assert _templates()["take_arguments"] == ["Option {} requires an argument.", "Option {} requires {} arguments."]


def test_the_words_after_a_first_argument_of_none_are_the_message() -> None:
    """PyYAML raises `ConstructorError(None, None, "expected a mapping node, ...", node.start_mark)`."""
    assert _templates()["construct"] == ["expected a mapping node, but found {}"]


def test_a_name_bound_to_a_message_stays_the_message() -> None:
    """networkx raises `NetworkXError(msg, "Increase kmax or epsilon")` with `msg` written just before."""
    assert _templates()["sample"] == ["Number of random pairs k>kmax ({}>{}) "]


def test_a_class_that_only_frames_its_arguments_gives_way_to_the_words() -> None:
    """urllib3's pool errors print `{pool}: {message}`: the site's own words say more."""
    assert _templates()["get"] == ["Pool is closed."]


def test_a_class_that_writes_its_own_message_keeps_it() -> None:
    """PyYAML's ReaderError prints its own sentence around the reason it is given."""
    assert _templates()["check"] == ["unacceptable character: {}\n  in {}, position {}"]


def test_a_message_kept_in_another_modules_constant_is_the_template() -> None:
    """pandas warns with `_chained_assignment_msg`, a constant of `pandas.errors.cow`: linking resolves it."""
    files = {
        "frames/__init__.py": "",
        "frames/messages.py": 'COPY_MSG = "A value is being set on a copy of a frame.\\nSee the user guide."\n',
        "frames/frame.py": textwrap.dedent(
            """
            import warnings
            from .messages import COPY_MSG

            def set_item(frame, key, value):
                if frame.is_copy:
                    warnings.warn(COPY_MSG, UserWarning, stacklevel=2)
            """
        ),
    }
    analyses = {path: analyse_file(path, text.encode()) for path, text in files.items()}
    sites, _ = link(analyses, files.get)
    (site,) = sites
    assert site.template == "A value is being set on a copy of a frame.\nSee the user guide." and site.reason is None


WRAPPING = {
    "net/__init__.py": "",
    "net/errors.py": textwrap.dedent(
        """
        class LocationParseError(ValueError):
            def __init__(self, location):
                message = f"Failed to parse: {location}"
                super().__init__(message)


        class OldAPIWarning(DeprecationWarning):
            def __init__(self, message, *args, since):
                super().__init__(message, *args)
                self.message = message.rstrip(".")
                self.since = since

            def __str__(self):
                return f"{self.message}. Deprecated since V{self.since[0]}."


        class OldSince2(OldAPIWarning):
            def __init__(self, message, *args):
                super().__init__(message, *args, since=(2, 0))
        """
    ),
    "net/url.py": textwrap.dedent(
        """
        import warnings
        from .errors import LocationParseError, OldSince2


        def parse(host, ok):
            if not ok:
                raise LocationParseError(f"{host} is not a valid host")


        def fetch(url):
            warnings.warn("`fetch` is deprecated; use `get` instead.", OldSince2, stacklevel=2)
        """
    ),
}


def _linked(files: dict[str, str], fast: bool = True) -> dict[str, list[str | None]]:
    analyses = {path: analyse_file(path, text.encode(), fast=fast) for path, text in files.items()}
    out: dict[str, list[str | None]] = {}
    for site in link(analyses, files.get)[0]:
        out.setdefault(site.function, []).append(site.template)
    return out


def test_a_class_that_writes_its_message_around_its_argument_gets_the_sites_words_there() -> None:
    """urllib3's LocationParseError prints `Failed to parse: ` and what it is given."""
    assert _linked(WRAPPING)["parse"] == ["Failed to parse: {} is not a valid host"]


def test_a_warning_category_that_prints_its_message_its_own_way() -> None:
    """pydantic's deprecation warnings: `__str__` prints the message kept (its last `.` stripped) and more;
    a subclass that passes the message on leaves the printing to its base."""
    assert _linked(WRAPPING)["fetch"] == ["`fetch` is deprecated; use `get` instead. Deprecated since V{}."]
    assert _linked(WRAPPING) == _linked(WRAPPING, fast=False)


CODES = {
    "forms/__init__.py": "",
    "forms/errors.py": textwrap.dedent(
        """
        class CustomError(ValueError):
            def __init__(self, error_type, message_template, context=None):
                self.error_type, self.message_template, self.context = error_type, message_template, context


        class KnownError(ValueError):
            def __init__(self, error_type, context=None):
                self.error_type, self.context = error_type, context
        """
    ),
    "forms/checks.py": textwrap.dedent(
        """
        from .errors import CustomError, KnownError


        def parent(path):
            if not path.parent.exists():
                raise CustomError('parent_does_not_exist', 'Parent directory does not exist')


        def byte_unit(unit, brand, length):
            if unit not in UNITS:
                raise CustomError('byte_size_unit', 'could not interpret byte unit: {unit}', {'unit': unit})
            if length < 12:
                raise CustomError(
                    'payment_card_number_brand',
                    'Length for a {brand} card must be {required_length}',
                    {'brand': brand, 'required_length': 12},
                )


        def partly_given(value):
            raise CustomError('color_error', 'color values must be in the range 0 to {max_val}', {'other': value})


        def known(value, gt):
            if not value > gt:
                raise KnownError('greater_than', {'gt': gt})


        def not_codes(args, pair):
            if pair:
                raise KeyError('two words', 'and more words')
            if args:
                raise nargs_error('pcolorfast', '1 or 3', len(args))
            raise ValueError('Overflow')
        """
    ),
}


def test_the_message_a_class_is_given_after_a_code_is_the_template() -> None:
    """pydantic raises `PydanticCustomError('parent_does_not_exist', 'Parent directory does not exist')`: users see
    the message (the code only in `[type=...]` after it)."""
    assert _linked(CODES)["parent"] == ["Parent directory does not exist"]


def test_the_fields_a_code_first_message_is_given_are_holes() -> None:
    analyses = {path: analyse_file(path, text.encode()) for path, text in CODES.items()}
    found = {(s.template, s.holes, s.message_source) for s in link(analyses, CODES.get)[0] if s.function == "byte_unit"}
    assert found == {
        ("could not interpret byte unit: {}", (("unit",),), "'could not interpret byte unit: {unit}'"),
        (
            "Length for a {} card must be {}",
            (("brand",), ("12",)),
            "'Length for a {brand} card must be {required_length}'",
        ),
    }


def test_fields_not_given_stay_as_written() -> None:
    assert _linked(CODES)["partly_given"] == ["color values must be in the range 0 to {max_val}"]


def test_a_code_with_no_message_after_it_stays_the_template() -> None:
    """`PydanticKnownError('greater_than', {'gt': gt})`: its message is written elsewhere (in compiled code)."""
    assert _linked(CODES)["known"] == ["greater_than"]


def test_a_first_argument_that_is_words_or_a_functions_stays_the_message() -> None:
    """Only a one-token literal given to a class is a code: `nargs_error` is a function building an error."""
    assert _linked(CODES)["not_codes"] == ["two words", "pcolorfast", "Overflow"]
    assert _linked(CODES) == _linked(CODES, fast=False)
