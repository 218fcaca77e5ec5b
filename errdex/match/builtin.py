"""Messages the interpreter and the standard library write, which libraries sometimes copy.

A paste such as `'NoneType' object has no attribute 'get'` was almost always raised by the
interpreter, even when some indexed library raises the same words itself. Such a message is
not evidence of that library's site unless a frame of the paste agrees with it.
"""

from __future__ import annotations

from errdex.match.align import align
from errdex.match.text import fold, template_parts

# (a distinctive piece, the template); the piece is checked first, with `in`, to keep this cheap.
INTERPRETER_TEMPLATES = (
    ("object has no attribute", "'{}' object has no attribute '{}'"),
    ("has no attribute", "type object '{}' has no attribute '{}'"),
    ("has no attribute", "module '{}' has no attribute '{}'"),
    ("unexpected keyword argument", "{}() got an unexpected keyword argument '{}'"),
    ("multiple values for argument", "{}() got multiple values for argument '{}'"),
    ("required positional argument", "{}() missing {} required positional argument{}: {}"),
    ("required keyword-only argument", "{}() missing {} required keyword-only argument{}: {}"),
    ("positional argument", "{}() takes {} positional argument{} but {} {} given"),
    ("unsupported operand type", "unsupported operand type(s) for {}: '{}' and '{}'"),
    ("bad operand type", "bad operand type for {}: '{}'"),
    ("not supported between instances", "'{}' not supported between instances of '{}' and '{}'"),
    ("is not defined", "name '{}' is not defined"),
    ("index out of range", "{} index out of range"),
    ("is not subscriptable", "'{}' object is not subscriptable"),
    ("is not callable", "'{}' object is not callable"),
    ("is not iterable", "'{}' object is not iterable"),
    ("is not iterable", "argument of type '{}' is not iterable"),
    ("does not support item assignment", "'{}' object does not support item assignment"),
    ("unhashable type", "unhashable type: '{}'"),
    ("has no len()", "object of type '{}' has no len()"),
    ("division by zero", "{}division by zero"),
    ("modulo by zero", "integer {} by zero"),
    ("invalid literal for int()", "invalid literal for int() with base {}: {}"),
    ("argument must be a string", "{}() argument must be a string, a bytes-like object or a {} number, not '{}'"),
    ("argument must be a string", "{}() argument must be a string or a {} number, not '{}'"),
    ("could not convert string to float", "could not convert string to float: {}"),
    ("string indices must be integers", "string indices must be integers{}"),
    ("can only concatenate", "can only concatenate {} (not '{}') to {}"),
    ("can't multiply sequence", "can't multiply sequence by non-int of type '{}'"),
    ("values to unpack", "not enough values to unpack (expected {}, got {})"),
    ("values to unpack", "too many values to unpack (expected {})"),
    ("no module named", "No module named {}"),
    ("cannot import name", "cannot import name {} from {}"),
    ("maximum recursion depth", "maximum recursion depth exceeded{}"),
    ("changed size during iteration", "{} changed size during iteration"),
    ("not in list", "{}(x): x not in list"),
    ("math domain error", "math domain error"),
    ("expecting value", "Expecting value: line {} column {} (char {})"),
    ("[errno", "[Errno {}] {}"),
)
_FOLDED = tuple((fold(piece), template_parts(template)) for piece, template in INTERPRETER_TEMPLATES)


def interpreter_message(text: str, folded: str) -> bool:
    """Whether a (squashed) message is one the interpreter or the standard library writes, or starts with one: what
    follows a complete one (`'NoneType' object has no attribute 'get'" when loading weights ...`) was added by
    whoever caught or logged it."""
    for piece, parts in _FOLDED:
        if piece not in folded:
            continue
        found = align(parts, folded, text)
        if found.exact or (found.hit == found.total and not found.cut and parts[0] and folded.startswith(parts[0])):
            return True
    return False
