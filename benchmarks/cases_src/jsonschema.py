"""jsonschema: the cases of benchmarks/make_cases.py (this file's format: benchmarks/cases/README.md)."""
# The case code is recorded verbatim in the corpus, so it is never reformatted; it calls the library wrongly
# on purpose, so it is not type-checked.
# fmt: off
# mypy: ignore-errors

import jsonschema
from jsonschema import Draft7Validator, Draft202012Validator, FormatChecker, validate

schema = {
    'type': 'object',
    'properties': {
        'age': {'type': 'integer', 'minimum': 0},
        'name': {'type': 'string', 'minLength': 2, 'maxLength': 5, 'pattern': '^[a-z]+$'},
        'tags': {'type': 'array', 'items': {'type': 'string'}, 'minItems': 1, 'maxItems': 2, 'uniqueItems': True},
        'kind': {'enum': ['a', 'b']},
        'const': {'const': 3},
        'ratio': {'type': 'number', 'exclusiveMaximum': 1, 'multipleOf': 0.25},
        'email': {'type': 'string', 'format': 'email'},
    },
    'required': ['age'],
    'additionalProperties': False,
}


# The cases: each function's body runs after the setup above, in a fresh namespace, and must raise (error_*) or
# warn (warning_*).

def error_1():
    validate({}, schema)

def error_2():
    validate({'age': 'ten'}, schema)

def error_3():
    validate({'age': -1}, schema)

def error_4():
    validate({'age': 1, 'name': 'a'}, schema)

def error_5():
    validate({'age': 1, 'name': 'ABC'}, schema)

def error_6():
    validate({'age': 1, 'tags': []}, schema)

def error_7():
    validate({'age': 1, 'tags': ['a', 'a']}, schema)

def error_8():
    validate({'age': 1, 'kind': 'c'}, schema)

def error_9():
    validate({'age': 1, 'const': 4}, schema)

def error_10():
    validate({'age': 1, 'ratio': 0.3}, schema)

def error_11():
    validate({'age': 1, 'extra': True, 'more': 1}, schema)

def error_12():
    validate({'age': 1, 'email': 'nope'}, schema, format_checker=FormatChecker())

def error_13():
    validate(5, {'type': 'nonsense'})

def error_14():
    validate(5, {'minimum': 'zero'})

def error_15():
    validate({'a': 1}, {'$ref': '#/definitions/missing'})

def error_16():
    validate({'a': 1}, {'$ref': 'http://example.invalid/schema.json'})

def error_17():
    validate([1], {'prefixItems': [{'type': 'string'}], 'items': False})

def error_18():
    validate({'a': 1}, {'dependentRequired': {'a': ['b']}})

def error_19():
    validate({'a': 1}, {'propertyNames': {'maxLength': 0}})

def error_20():
    validate({'a': 1, 'b': 2}, {'maxProperties': 1})

def error_21():
    validate(3, {'not': {'type': 'integer'}})

def error_22():
    validate(3, {'anyOf': [{'type': 'string'}, {'type': 'null'}]})

def error_23():
    validate(3, {'oneOf': [{'type': 'integer'}, {'minimum': 0}]})

def error_24():
    validate([1, 2], {'contains': {'type': 'string'}})

def error_25():
    validate([1], {'unevaluatedItems': False})

def error_26():
    validate(1.5, {'type': 'integer'}, cls=Draft7Validator)

def error_27():
    Draft202012Validator.check_schema({'type': 12})

def error_28():
    Draft202012Validator({'type': 'string'}).validate(1)

def error_29():
    jsonschema.validators.validator_for({'$schema': 'http://example.com/unknown'}, default=None)(0)

def error_30():
    FormatChecker().check('nope', 'ipv4')

def error_31():
    jsonschema.exceptions.best_match([]).message  # noqa: B018

def error_32():
    Draft202012Validator({}).evolve(schema=None).is_type(1, 'nonsense')
