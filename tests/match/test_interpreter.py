"""The interpreter's messages read as API questions, in the forms real pastes give them."""

from __future__ import annotations

import pytest

from errdex.match.interpreter import question_of
from errdex.match.parse import parse

CASES = [
    # (paste, asked, name, owner, module)
    (
        "TypeError: TrainingArguments.__init__() got an unexpected keyword argument 'evaluation_strategy'",
        "keyword", "evaluation_strategy", "TrainingArguments.__init__", None,
    ),
    (  # a web page's typographic quotes, and Markdown that took __init__'s underscores for bold
        "TypeError: Seq2SeqTrainingArguments.init() got an unexpected keyword argument \u2018evaluation_strategy\u2019",
        "keyword", "evaluation_strategy", "Seq2SeqTrainingArguments.__init__", None,
    ),
    ("TypeError: wandb.init() got an unexpected keyword argument 'x'", "keyword", "x", "wandb.init", None),
    (
        "TypeError: Parameter.make_metavar() missing 1 required positional argument: 'ctx'",
        "missing", "ctx", "Parameter.make_metavar", None,
    ),
    (
        "TypeError: jointplot() takes from 0 to 1 positional arguments but 3 positional arguments"
        " (and 1 keyword-only argument) were given",
        "positional", "3", "jointplot", None,
    ),
    ("AttributeError: module 'numpy' has no attribute 'float'", "module_attribute", "float", None, "numpy"),
    ("AttributeError: 'DataFrame' object has no attribute 'append'", "attribute", "append", "DataFrame", None),
    ("AttributeError: type object 'tqdm' has no attribute '_lock'", "attribute", "_lock", "tqdm", None),
    (
        "ImportError: cannot import name 'soft_unicode' from 'markupsafe' (/venv/markupsafe/__init__.py)",
        "import_name", "soft_unicode", None, "markupsafe",
    ),
    (  # the closing quote a chat turned into a backtick
        "`ImportError: cannot import name 'safe_str_cmp' from 'werkzeug.security`",
        "import_name", "safe_str_cmp", None, "werkzeug.security",
    ),
    (
        "ModuleNotFoundError: No module named 'sklearn.externals.joblib'",
        "module", None, None, "sklearn.externals.joblib",
    ),
    ("ImportError: No module named google.protobuf", "module", None, None, "google.protobuf"),  # Python 2's form
    (  # inside the user's words, with no type at all: only the interpreter's own phrases are read
        "Ran into an issue in my new environment:\n``cannot import name 'simps' from 'scipy.integrate'``",
        "import_name", "simps", None, "scipy.integrate",
    ),
    (
        "Am running numpy 1.24.0 and get the error"
        " 'AttributeError: module \u2018numpy\u2019 has no attribute \u2018float\u2019'",
        "module_attribute", "float", None, "numpy",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("paste", "asked", "name", "owner", "module"), CASES)
def test_a_message_reads_as_its_question(
    paste: str, asked: str, name: str | None, owner: str | None, module: str | None
) -> None:
    question = question_of(parse(paste))
    assert question is not None
    assert (question.asked, question.name, question.owner, question.module) == (asked, name, owner, module)


@pytest.mark.parametrize(
    "paste",
    [
        "AttributeError: 'NoneType' object has no attribute 'get'",  # a value, not an API
        "ValueError: Options.__init__() got an unexpected keyword argument 'x'",  # a library wrote it
        "TypeError: unsupported operand type(s) for +: 'int' and 'str'",
        "I got an unexpected keyword argument somewhere",
    ],
)
def test_what_asks_no_api_question(paste: str) -> None:
    assert question_of(parse(paste)) is None
