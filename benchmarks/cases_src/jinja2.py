"""jinja2: the cases of benchmarks/make_cases.py (this file's format: benchmarks/cases/README.md)."""
# The case code is recorded verbatim in the corpus, so it is never reformatted; it calls the library wrongly
# on purpose, so it is not type-checked.
# fmt: off
# mypy: ignore-errors

import jinja2
from jinja2 import DictLoader, Environment, StrictUndefined, Template, sandbox

env = Environment(loader=DictLoader({'base.html': '{% block body %}{% endblock %}'}))
strict = Environment(undefined=StrictUndefined)


# The cases: each function's body runs after the setup above, in a fresh namespace, and must raise (error_*) or
# warn (warning_*).

def error_1():
    Template('{% if x %}yes')

def error_2():
    Template('{% for x in y %}{{ x }}')

def error_3():
    Template('{{ x }')

def error_4():
    Template('{% endif %}')

def error_5():
    Template('{% frobnicate %}')

def error_6():
    Template('{{ x | nosuchfilter }}')

def error_7():
    Template('{% block a %}{% endblock %}{% block a %}{% endblock %}')

def error_8():
    Template('{% for %}{% endfor %}')

def error_9():
    Template('{{ 1 + }}')

def error_10():
    Template('{% set %}')

def error_11():
    Template('{% macro m(a=1, b) %}{% endmacro %}')

def error_12():
    Template('{% extends %}')

def error_13():
    Template('{{ x.1a }}')

def error_14():
    Template('{% raw %}unterminated')

def error_15():
    Template('{# unterminated comment')

def error_16():
    Template('{{ "abc }}')

def error_17():
    Template('{% include %}')

def error_18():
    Template('{% with 1 = x %}{% endwith %}')

def error_19():
    Template('{% call foo( %}')

def error_20():
    strict.from_string('{{ user.name }}').render()

def error_21():
    strict.from_string('{{ missing }}').render()

def error_22():
    strict.from_string('{{ user.name }}').render(user={})

def error_23():
    Template('{{ x.y.z }}').render()

def error_24():
    Template('{{ x | attr }}').render(x=1)

def error_25():
    Template('{{ none + 1 }}').render()

def error_26():
    Template('{{ x | join(1) }}').render(x=3)

def error_27():
    Template('{{ range(10**6) | list | length }}').render() and sandbox.SandboxedEnvironment().from_string('{{ range(10**7) }}').render()  # noqa: E501

def error_28():
    env.get_template('missing.html')

def error_29():
    env.select_template(['a.html', 'b.html'])

def error_30():
    env.select_template([])

def error_31():
    env.from_string('{% extends "nope.html" %}').render()

def error_32():
    env.from_string('{% include "nope.html" %}').render()

def error_33():
    Environment().get_template('x.html')

def error_34():
    Environment(block_start_string='{{', variable_start_string='{{')

def error_35():
    Environment(extensions=['jinja2.ext.nosuch'])

def error_36():
    Template('{% trans %}hi{% endtrans %}')

def error_37():
    Environment(extensions=['jinja2.ext.i18n']).from_string('{% trans %}{% for x in y %}{% endfor %}{% endtrans %}')

def error_38():
    Environment(extensions=['jinja2.ext.i18n']).from_string('{% trans a, a %}{% endtrans %}')

def error_39():
    Environment(extensions=['jinja2.ext.loopcontrols']).from_string('{% break %}')

def error_40():
    Template('{{ super() }}{% block a %}{% endblock %}').render()

def error_41():
    Template('{{ x | sum(attribute=1) }}').render(x=[1])

def error_42():
    Template('{{ x | dictsort(by="color") }}').render(x={'a': 1})

def error_43():
    Template('{{ "%d" | format("a") }}').render()

def error_44():
    Template('{{ loop.cycle() }}{% for x in [1] %}{{ loop.cycle() }}{% endfor %}').render()

def error_45():
    Template('{% for x in [1] %}{{ loop.cycle() }}{% endfor %}').render()

def error_46():
    jinja2.ChoiceLoader([]).load(Environment(), 'x')

def error_47():
    jinja2.FileSystemLoader('/nonexistent').get_source(Environment(), '../etc/passwd')

def error_48():
    Template('{{ x|min(attribute="a") }}').render(x=[{}, {}]) and StrictUndefined()
