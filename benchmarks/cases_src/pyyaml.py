"""pyyaml: the cases of benchmarks/make_cases.py (this file's format: benchmarks/cases/README.md)."""
# The case code is recorded verbatim in the corpus, so it is never reformatted; it calls the library wrongly
# on purpose, so it is not type-checked.
# fmt: off
# mypy: ignore-errors

import yaml

# The cases: each function's body runs after the setup above, in a fresh namespace, and must raise (error_*) or
# warn (warning_*).

def error_1():
    yaml.safe_load('a: b: c')

def error_2():
    yaml.safe_load('key: [1, 2')

def error_3():
    yaml.safe_load('{a: 1')

def error_4():
    yaml.safe_load('- a\nb: c')

def error_5():
    yaml.safe_load('a: 1\n  b: 2')

def error_6():
    yaml.safe_load('x: "unterminated')

def error_7():
    yaml.safe_load('x: *undefined')

def error_8():
    yaml.safe_load('x: !!python/object:os.system {}')

def error_9():
    yaml.safe_load('x: !custom 1')

def error_10():
    yaml.safe_load('\t- tab')

def error_11():
    yaml.safe_load('%YAML 2.0\n--- x')

def error_12():
    yaml.safe_load('%YAML 1.1\n%YAML 1.1\n--- x')

def error_13():
    yaml.safe_load('%TAG ! tag:a,\n%TAG ! tag:b,\n--- x')

def error_14():
    yaml.safe_load('x: !<tag:yaml.org,2002:int> abc')

def error_15():
    yaml.safe_load('x: !!timestamp nope')

def error_16():
    yaml.safe_load('? [a]\n: 1')

def error_17():
    yaml.safe_load('a: 1\n---\nb: 2')

def error_18():
    yaml.safe_load('x: &anc 1\ny: &anc')

def error_19():
    yaml.safe_load('a: |\n  ok\n bad')

def error_20():
    yaml.safe_load('\x07')

def error_21():
    yaml.safe_load('x: @bad')

def error_22():
    yaml.safe_load('a: !!map [1]')

def error_23():
    yaml.safe_load('a: !!seq {x: 1}')

def error_24():
    yaml.safe_load('a: !!str {x: 1}')

def error_25():
    yaml.safe_load('!!omap [a, b]')

def error_26():
    yaml.safe_load('!!set [a]')

def error_27():
    yaml.safe_load('{[1]: 2}')

def error_28():
    yaml.safe_load('<<: 5')

def error_29():
    yaml.safe_load('x: "\\q"')

def error_30():
    yaml.safe_load('x: "\\xZZ"')

def error_31():
    yaml.safe_load(b'\xff\xfe\x00')

def error_32():
    yaml.load('a: 1')

def error_33():
    yaml.safe_dump({'a': 1}, Dumper=yaml.Dumper)

def error_34():
    yaml.emit([yaml.StreamStartEvent(), yaml.ScalarEvent(None, None, (True, True), 'x')])

def error_35():
    yaml.emit([yaml.ScalarEvent(None, None, (True, True), 'x')])

def error_36():
    yaml.serialize(yaml.ScalarNode('tag:yaml.org,2002:str', 'x'), stream=None, version=(2, 0))

def error_37():
    yaml.safe_load(5)
