"""attrs: the cases of benchmarks/make_cases.py (this file's format: benchmarks/cases/README.md)."""
# The case code is recorded verbatim in the corpus, so it is never reformatted; it calls the library wrongly
# on purpose, so it is not type-checked.
# fmt: off
# mypy: ignore-errors

import re

import attrs
from attrs import converters, define, field, frozen, setters
from attrs import validators as v


@define
class Point:
    x: int = field(validator=v.instance_of(int))
    y: int = field(default=0, validator=[v.ge(0), v.lt(100)])

@define
class Opts:
    mode: str = field(default='a', validator=v.in_(['a', 'b']))
    name: str = field(default='ok', validator=v.matches_re(r'[a-z]+'))
    tags: list = field(factory=list, validator=v.deep_iterable(v.instance_of(str), v.instance_of(list)))
    meta: dict = field(factory=dict, validator=v.deep_mapping(v.instance_of(str), v.instance_of(int)))
    short: str = field(default='', validator=v.max_len(3))
    longer: str = field(default='xx', validator=v.min_len(2))
    maybe: object = field(default=None, validator=v.optional(v.instance_of(int)))
    cb: object = field(default=print, validator=v.is_callable())
    either: object = field(default=1, validator=v.or_(v.instance_of(int), v.instance_of(float)))
    neg: int = field(default=-1, validator=v.not_(v.ge(0)))
    lo: int = field(default=5, validator=v.gt(0))
    hi: int = field(default=5, validator=v.le(10))
    sub: type = field(default=int, validator=v.is_callable())

@frozen
class Frozen:
    a: int = 1

@define
class OnSet:
    a: int = field(default=1, on_setattr=setters.frozen)


# The cases: each function's body runs after the setup above, in a fresh namespace, and must raise (error_*) or
# warn (warning_*).

def error_1():
    Point('1')

def error_2():
    Point(1, -3)

def error_3():
    Point(1, 100)

def error_4():
    Opts(mode='c')

def error_5():
    Opts(name='ABC')

def error_6():
    Opts(tags=['a', 2])

def error_7():
    Opts(tags=('a',))

def error_8():
    Opts(meta={'a': 'one'})

def error_9():
    Opts(meta={1: 1})

def error_10():
    Opts(short='toolong')

def error_11():
    Opts(longer='x')

def error_12():
    Opts(maybe='1')

def error_13():
    Opts(cb=3)

def error_14():
    Opts(either='1')

def error_15():
    Opts(neg=3)

def error_16():
    Opts(lo=0)

def error_17():
    Opts(hi=11)

def error_18():
    Frozen().a = 2

def error_19():
    del Frozen().a

def error_20():
    OnSet().a = 2

def error_21():
    attrs.fields(int)

def error_22():
    attrs.fields(Point())

def error_23():
    attrs.fields_dict(dict)

def error_24():
    attrs.evolve(Point(1), z=3)

def error_25():
    attrs.asdict(object())

def error_26():
    attrs.make_class('C', {'a': attrs.field(default=1), 'b': attrs.field()})

def error_27():
    attrs.make_class('C', ['a'], bases=(int,), slots=True, weakref_slot=True, cache_hash=True, hash=False)

def error_28():
    attrs.make_class('C', ['a'], frozen=True, on_setattr=setters.validate)

def error_29():
    attrs.field(default=1, factory=list)

def error_30():
    attrs.validators.instance_of(int)(None, attrs.fields(Point).x, 'oops')

def error_31():
    attrs.validators.matches_re('a', func=len)

def error_32():
    attrs.validators.matches_re(re.compile('a'), flags=re.I)

def error_33():
    converters.to_bool('perhaps')

def error_34():
    converters.pipe(int, str)('x')

def error_35():
    attrs.make_class('C', {'a': attrs.field(kw_only=True, default=1)}, kw_only=False)(1)

def error_36():
    attrs.define(slots=True, weakref_slot=False, auto_detect=True, order=True, eq=False)(type('C', (), {}))

def error_37():
    attrs.define(cache_hash=True, unsafe_hash=False)(type('C', (), {}))

def error_38():
    attrs.setters.pipe(setters.validate, setters.frozen)(Point(1), attrs.fields(Point).x, 2)
