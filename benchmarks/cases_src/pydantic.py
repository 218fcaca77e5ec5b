"""pydantic: the cases of benchmarks/make_cases.py (this file's format: benchmarks/cases/README.md)."""
# The case code is recorded verbatim in the corpus, so it is never reformatted; it calls the library wrongly
# on purpose, so it is not type-checked.
# fmt: off
# mypy: ignore-errors
# ruff: noqa: F821 - error_21 annotates a field with a name that is not defined

from typing import Literal

import pydantic
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, computed_field, field_validator, model_validator


class User(BaseModel):
    id: int
    name: str = Field(min_length=2, max_length=8)
    email: str | None = Field(default=None, pattern=r'^[^@]+@[^@]+$')
    role: Literal['admin', 'user'] = 'user'
    age: int = Field(default=0, ge=0, lt=150)

class Strict(BaseModel):
    model_config = ConfigDict(extra='forbid', frozen=True)
    x: int

class Checked(BaseModel):
    a: int
    b: int

    @field_validator('a')
    @classmethod
    def a_positive(cls, v):
        if v <= 0:
            raise ValueError('a must be positive')
        return v

    @model_validator(mode='after')
    def a_less_than_b(self):
        if self.a >= self.b:
            raise ValueError(f'a ({self.a}) must be less than b ({self.b})')
        return self


# The cases: each function's body runs after the setup above, in a fresh namespace, and must raise (error_*) or
# warn (warning_*).

def error_1():
    User(id='abc', name='bob')

def error_2():
    User(name='bob')

def error_3():
    User(id=1, name='b')

def error_4():
    User(id=1, name='bobbybobbybob')

def error_5():
    User(id=1, name='bob', email='nope')

def error_6():
    User(id=1, name='bob', role='root')

def error_7():
    User(id=1, name='bob', age=200)

def error_8():
    User(id=1.5, name='bob', age=-1)

def error_9():
    Strict(x=1, y=2)

def error_10():
    Strict(x=1).x = 2

def error_11():
    Checked(a=0, b=1)

def error_12():
    Checked(a=5, b=1)

def error_13():
    User.model_validate_json('{"id": 1,')

def error_14():
    User.model_validate('not a dict')

def error_15():
    TypeAdapter(list[int]).validate_python([1, 'x'])

def error_16():
    TypeAdapter(dict[str, float]).validate_python({'a': 'b'})

def error_17():
    TypeAdapter(pydantic.HttpUrl).validate_python('not a url')

def error_18():
    TypeAdapter(pydantic.conint(gt=5)).validate_python(1)

def error_19():
    class Bad(BaseModel):
        x: int = Field(alias=1)

def error_20():
    class Bad(BaseModel):
        model_config = ConfigDict(extra='sometimes')

def error_21():
    class Bad(BaseModel):
        _x: int
        x: 'Undefined'
    Bad(x=1)

def error_22():
    class Bad(BaseModel):
        x: int
        @computed_field
        def x(self) -> int:
            return 1

def error_23():
    class Bad(BaseModel):
        model_config = ConfigDict(frozen=True)
        x: object = Field(default=object(), frozen=False, validate_default=2, unknown_kw=3)

def error_24():
    class Bad(BaseModel):
        x: 'int' = 1
        model_fields = 5

def error_25():
    User.model_json_schema(mode='sideways')

def error_26():
    User(id=1, name='bob').model_copy(update=5)

def error_27():
    BaseModel()

def error_28():
    pydantic.create_model('M', x=(int, 1, 2))

def error_29():
    TypeAdapter(int, config=ConfigDict(strict=True)).validate_python('1') if False else TypeAdapter(User, config=ConfigDict(strict=True))  # noqa: E501

def error_30():
    pydantic.validate_call(lambda x: x, validate_return='x')(1) if False else pydantic.validate_call(5)

def warning_31():
    class W(BaseModel):
        model_config = ConfigDict(fields={'x': 1})
        x: int = 1

def warning_32():
    User(id=1, name='bob').dict()

def warning_33():
    User.parse_obj({'id': 1, 'name': 'bob'})

def warning_34():
    class W(BaseModel):
        x: int = Field(1, example=3)

def warning_35():
    class W(BaseModel):
        schema_json: int = 1
