"""python: the cases of benchmarks/make_cases.py (this file's format: benchmarks/cases/README.md)."""
# The case code is recorded verbatim in the corpus, so it is never reformatted; it calls the library wrongly
# on purpose, so it is not type-checked.
# fmt: off
# mypy: ignore-errors

import datetime
import decimal
import json
import pathlib

# The cases: each function's body runs after the setup above, in a fresh namespace, and must raise (error_*) or
# warn (warning_*).

def error_1():
    1 / 0  # noqa: B018

def error_2():
    undefined_name + 1  # noqa: F821

def error_3():
    int('x')

def error_4():
    float('one point five')

def error_5():
    [1, 2, 3][10]

def error_6():
    {'a': 1}['b']

def error_7():
    None.attribute  # noqa: B018

def error_8():
    'abc' + 1  # noqa: B018

def error_9():
    len(5)

def error_10():
    import no_such_module_anywhere  # noqa: F401

def error_11():
    json.loads('{"a": 1,')

def error_12():
    json.loads('')

def error_13():
    json.loads('{"a" 1}')

def error_14():
    json.dumps({'a': object})

def error_15():
    datetime.datetime(2024, 13, 1)

def error_16():
    datetime.datetime.strptime('2024-01-01', '%d/%m/%Y')

def error_17():
    decimal.Decimal('abc')

def error_18():
    pathlib.Path('/nonexistent/file.txt').read_text()

def error_19():
    open('/etc')

def error_20():
    '{} {}'.format(1)  # noqa: F524

def error_21():
    dict(a=1).pop('b')

def error_22():
    tuple()[0]

def error_23():
    int('9' * 5000)

def error_24():
    [].pop()

def error_25():
    object().__setattr__('x', 1)

def warning_26():
    import warnings
    warnings.warn('user code warned', UserWarning)  # noqa: B028
