"""marshmallow: the cases of benchmarks/make_cases.py (this file's format: benchmarks/cases/README.md)."""
# The case code is recorded verbatim in the corpus, so it is never reformatted; it calls the library wrongly
# on purpose, so it is not type-checked.
# fmt: off
# mypy: ignore-errors

from marshmallow import Schema, fields, validate


class UserSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=2))
    age = fields.Integer(validate=validate.Range(min=0))
    email = fields.Email()
    role = fields.String(validate=validate.OneOf(['admin', 'user']))


# The cases: each function's body runs after the setup above, in a fresh namespace, and must raise (error_*) or
# warn (warning_*).

def error_1():
    UserSchema().load({})

def error_2():
    UserSchema().load({'name': 'a'})

def error_3():
    UserSchema().load({'name': 'bob', 'age': 'ten'})

def error_4():
    UserSchema().load({'name': 'bob', 'age': -3})

def error_5():
    UserSchema().load({'name': 'bob', 'email': 'nope'})

def error_6():
    UserSchema().load({'name': 'bob', 'role': 'root'})

def error_7():
    UserSchema().load({'name': 'bob', 'extra': 1})

def error_8():
    UserSchema(only=('nope',))

def error_9():
    UserSchema().load('not a dict')

def error_10():
    fields.Nested('NoSuchSchema').schema  # noqa: B018
