"""packaging: the cases of benchmarks/make_cases.py (this file's format: benchmarks/cases/README.md)."""
# The case code is recorded verbatim in the corpus, so it is never reformatted; it calls the library wrongly
# on purpose, so it is not type-checked.
# fmt: off
# mypy: ignore-errors

import copy

from packaging.licenses import canonicalize_license_expression
from packaging.markers import Marker
from packaging.metadata import Metadata
from packaging.requirements import Requirement
from packaging.specifiers import Specifier, SpecifierSet
from packaging.tags import parse_tag
from packaging.utils import canonicalize_name, parse_sdist_filename, parse_wheel_filename
from packaging.version import Version, parse

# The cases: each function's body runs after the setup above, in a fresh namespace, and must raise (error_*) or
# warn (warning_*).

def error_1():
    Version('1.0.x')

def error_2():
    Version('')

def error_3():
    Version('1..2')

def error_4():
    parse('latest')

def error_5():
    Version(None)

def error_6():
    Version.from_parts(epoch=-1)

def error_7():
    Version.from_parts(release=())

def error_8():
    Version.from_parts(release=(1,), pre=('z', 1))

def error_9():
    Version.from_parts(release=(1,), post=-2)

def error_10():
    Version.from_parts(release=(1,), dev='x')

def error_11():
    Version.from_parts(release=(1,), local='a b')

def error_12():
    Version('1.0') < '2.0'  # noqa: B015

def error_13():
    Specifier('>=1.0,<2')

def error_14():
    Specifier('=>1.0')

def error_15():
    SpecifierSet('>=1.0, ~=2')

def error_16():
    SpecifierSet('>=1', prereleases=True) & SpecifierSet('<2', prereleases=False)

def error_17():
    SpecifierSet('>=1').is_subset('<2')

def error_18():
    Requirement('requests >= 2.0 ; python_version >')

def error_19():
    Requirement('requests[security')

def error_20():
    Requirement('name @ ')

def error_21():
    Requirement('foo ==1.0.*.*')

def error_22():
    Requirement('-foo')

def error_23():
    Marker('python_version >= "3.8" and')

def error_24():
    Marker('os_name = "posix"')

def error_25():
    Marker('nonsense_var == "1"')

def error_26():
    Marker('python_version < "3"').evaluate({'python_version': None})

def error_27():
    canonicalize_name('not a name!', validate=True)

def error_28():
    parse_wheel_filename('foo-1.0.tar.gz')

def error_29():
    parse_wheel_filename('foo-1.0-py3-none.whl')

def error_30():
    parse_wheel_filename('foo__bar-1.0-py3-none-any.whl')

def error_31():
    parse_wheel_filename('foo-1.0.x-py3-none-any.whl')

def error_32():
    parse_wheel_filename('foo-1.0-abc-py3-none-any.whl')

def error_33():
    parse_wheel_filename('foo-1.0-py3-none-any..x.whl')

def error_34():
    parse_sdist_filename('foo.tar.gz')

def error_35():
    parse_sdist_filename('foo-bar.tar.gz')

def error_36():
    parse_tag('py3-none')

def error_37():
    parse_tag('py3..py2-none-any')

def error_38():
    parse_tag('py3.py2-none-any', validate_order=True)

def error_39():
    parse_tag('py2.py3-none-any', limit=-1)

def error_40():
    parse_tag('py2.py3-cp3.none-linux.win', limit=3)

def error_41():
    parse_tag('3py-none-any')

def error_42():
    canonicalize_license_expression('MIT AND')

def error_43():
    canonicalize_license_expression('Apache-2.0 WITH Nonsense-exception')

def error_44():
    canonicalize_license_expression('Not-A-License-1.0')

def error_45():
    canonicalize_license_expression('LicenseRef-café')

def error_46():
    Metadata.from_raw({'metadata_version': '9.9', 'name': 'x', 'version': '1.0'})

def error_47():
    Metadata.from_raw({'metadata_version': '2.1', 'version': '1.0'})

def error_48():
    Metadata.from_raw({'metadata_version': '2.1', 'name': 'x', 'version': '1.x'}).version  # noqa: B018

def error_49():
    Metadata.from_email('Metadata-Version: 2.1\nName: x\nVersion: 1.0\nDynamic: Name\n')

def error_50():
    Metadata.from_raw({'metadata_version': '2.1', 'name': 'x', 'version': '1.0', 'requires_dist': ['bad req ==']}, validate=False).requires_dist  # noqa: B018, E501

def error_51():
    copy.copy(Version('1.0')).__setstate__(42)
