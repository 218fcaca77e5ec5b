"""python-dateutil: the cases of benchmarks/make_cases.py (this file's format: benchmarks/cases/README.md)."""
# The case code is recorded verbatim in the corpus, so it is never reformatted; it calls the library wrongly
# on purpose, so it is not type-checked.
# fmt: off
# mypy: ignore-errors

import datetime

from dateutil import easter, parser, relativedelta, rrule, tz

# The cases: each function's body runs after the setup above, in a fresh namespace, and must raise (error_*) or
# warn (warning_*).

def error_1():
    parser.parse('not a date')

def error_2():
    parser.parse('2024-13-45')

def error_3():
    parser.parse('')

def error_4():
    parser.parse('31/02/2024', dayfirst=True)

def error_5():
    parser.parse('10:61')

def error_6():
    parser.parse('2024-01-01 25:00')

def error_7():
    parser.parse('99999999999999999999')

def error_8():
    parser.parse(20240101)

def error_9():
    parser.parse('2024-01-01', default='yesterday')

def error_10():
    parser.parse('Jan 1 2024', parserinfo=parser.parserinfo(dayfirst=True), tzinfos=5)

def error_11():
    parser.isoparse('2024-01-01T')

def error_12():
    parser.isoparse('2024-1-1')

def error_13():
    parser.isoparse('2024-01-01T25:00')

def error_14():
    parser.isoparse('2024-01-01T12:00+2500')

def error_15():
    parser.isoparse('2024-W60')

def error_16():
    parser.isoparse('20240101T1200Zjunk')

def error_17():
    parser.isoparse(b'\xff')

def error_18():
    parser.isoparser(sep='ab')

def error_19():
    parser.isoparser().parse_isotime('12:00:00.')

def error_20():
    parser.isoparser().parse_tzstr('+99:00')

def error_21():
    relativedelta.relativedelta(months=1.5)

def error_22():
    relativedelta.relativedelta(weekday=9, yearday=400)

def error_23():
    relativedelta.relativedelta(dt1=datetime.date(2024, 1, 1), dt2='2024-01-01')

def error_24():
    relativedelta.relativedelta(nlyearday=500)

def error_25():
    relativedelta.relativedelta(days=1) + 'x'

def error_26():
    relativedelta.relativedelta(days=1) * 'x'

def error_27():
    rrule.rrule(rrule.DAILY, dtstart=datetime.datetime(2024, 1, 1, tzinfo=tz.UTC), until=datetime.datetime(2024, 2, 1))

def error_28():
    rrule.rrule(rrule.DAILY, dtstart=datetime.datetime(2024, 1, 1), byhour=25, count=1)[0]

def error_29():
    rrule.rrule(rrule.DAILY, dtstart=datetime.datetime(2024, 1, 1), bysetpos=0)

def error_30():
    rrule.rrulestr('FREQ=SOMETIMES')

def error_31():
    rrule.rrulestr('FREQ=DAILY;NOPE=1')

def error_32():
    rrule.rrulestr('FREQ=DAILY;BYDAY=XX')

def error_33():
    rrule.rrulestr('DTSTART:20240101\nBOGUS:1', forceset=True)

def error_34():
    rrule.rrulestr('')

def error_35():
    rrule.rrule(rrule.DAILY, count=2, dtstart=datetime.datetime(2024, 1, 1))[5]

def error_36():
    tz.tzfile('/etc/hostname')

def error_37():
    tz.tzrange('EST', stdoffset='x')

def error_38():
    easter.easter(2024, method=9)

def error_39():
    datetime.datetime(2024, 1, 1, tzinfo=tz.gettz('UTC')).astimezone(tz.tzical)
