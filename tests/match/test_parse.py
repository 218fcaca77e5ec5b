"""errdex.match.parse: every paste shape users bring, hostile input, and properties over random text."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap
import traceback
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errdex.errors import InputError
from errdex.match.parse import MAX_PASTE, parse, release_path, strip_ansi
from errdex.model import Frame, ParsedError

FLAGSHIP_FILE = "/home/ana/.venv/lib/python3.11/site-packages/transformers/generation/configuration_utils.py"
FLAGSHIP_MESSAGE = "Invalid `cache_implementation` (flash). Choose one of: ('static', 'offloaded_static', 'paged')"


def paste(text: str) -> str:
    """Test texts are written indented; a paste starts at the margin."""
    return textwrap.dedent(text).lstrip("\n")


def frame_at(result: ParsedError, index: int = -1) -> tuple[str, int | None, str | None, str | None]:
    f = result.frames[index]
    return f.file, f.line, f.function, f.code


# --- bare messages -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "exception", "message"),
    [
        (FLAGSHIP_MESSAGE, None, FLAGSHIP_MESSAGE),
        (f"ValueError: {FLAGSHIP_MESSAGE}", "ValueError", FLAGSHIP_MESSAGE),
        (
            "transformers.utils.import_utils.OptionalDependencyNotAvailable: no torch",
            "transformers.utils.import_utils.OptionalDependencyNotAvailable",
            "no torch",
        ),
        (
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB",
            "torch.OutOfMemoryError",
            "CUDA out of memory. Tried to allocate 20.00 MiB",
        ),
        ("KeyError: 'model_type'", "KeyError", "'model_type'"),
        ("KeyboardInterrupt", "KeyboardInterrupt", ""),
        ("StopIteration", "StopIteration", ""),
        ("SystemExit: 2", "SystemExit", "2"),
        ("Exception: something broke", "Exception", "something broke"),
        ("  ValueError: indented by the chat window  \n\n", "ValueError", "indented by the chat window"),
        ('OSError: "quoted" stays quoted\t', "OSError", '"quoted" stays quoted'),
        ("cv2.error: OpenCV(4.10.0) x.cpp:1: error: (-215)", "cv2.error", "OpenCV(4.10.0) x.cpp:1: error: (-215)"),
        ("error: not qualified, not a class", None, "error: not qualified, not a class"),
    ],
)
def test_bare_message_lines(text: str, exception: str | None, message: str) -> None:
    result = parse(text)
    assert (result.exception, result.message) == (exception, message)
    assert (result.kind, result.source_format, result.frames, result.chained) == ("error", "message", (), ())


def test_bare_message_spanning_lines_keeps_its_lines() -> None:
    text = paste(
        """
        ValueError: The following `model_kwargs` are not used by the model: ['attention_mask',
         'token_type_ids'] (note: typos in the generate arguments will also show up in this list)
        """
    )
    result = parse(text)
    assert result.exception == "ValueError"
    assert result.message == (
        "The following `model_kwargs` are not used by the model: ['attention_mask',\n"
        " 'token_type_ids'] (note: typos in the generate arguments will also show up in this list)"
    )


def test_indented_type_line_of_a_message_is_part_of_it() -> None:
    """Python prints a message's later lines as they are: `\tError: bad` under `ValueError: ...` is
    the message's last line (as the traceback form reads it), not an error of its own. A record
    that starts no deeper than the first one is another error."""
    code = (
        "raise ValueError(\"invalid value for configuration 'x':\\n\\tFailed casting 3\\n\\tto int\\n\\tError: bad\")"
    )
    stderr = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stderr
    message = "invalid value for configuration 'x':\n\tFailed casting 3\n\tto int\n\tError: bad"
    assert (parse(stderr).exception, parse(stderr).message) == ("ValueError", message)
    bare = parse(stderr[stderr.index("ValueError") :])
    assert (bare.exception, bare.message, bare.source_format) == ("ValueError", message, "message")
    assert (parse("  ValueError: a\n  TypeError: b").exception, parse("  ValueError: a\n  TypeError: b").message) == (
        "TypeError",
        "b",
    )
    logged = parse("2024-01-01 12:00:00 ERROR Failed to load\n    ValueError: bad config")
    assert (logged.exception, logged.message) == ("ValueError", "bad config")  # under a log line, as before


def test_bare_message_without_type_is_the_whole_text() -> None:
    text = "  `max_new_tokens` must be greater than 0, but is -1.\nSet it in the generation config.  \n"
    result = parse(text)
    assert result == ParsedError(
        None, "`max_new_tokens` must be greater than 0, but is -1.\nSet it in the generation config."
    )


def test_bare_warning_type_is_a_warning() -> None:
    result = parse("FutureWarning: `resume_download` is deprecated and will be removed in version 1.0.0.")
    assert (result.exception, result.kind, result.source_format) == ("FutureWarning", "warning", "message")


def test_a_word_before_a_colon_is_not_an_exception() -> None:
    assert parse("Note: the cache was cleared").exception is None
    assert parse("cache_implementation: invalid value").exception is None


def test_blank_paste_is_an_input_error() -> None:
    for text in ("", "   ", "\n\t \r\n"):
        with pytest.raises(InputError, match="empty"):
            parse(text)


# --- CPython tracebacks -------------------------------------------------------------------------

PY38 = paste(
    f"""
    Traceback (most recent call last):
      File "generate.py", line 11, in <module>
        cfg.validate()
      File "{FLAGSHIP_FILE}", line 687, in validate
        raise ValueError(
    ValueError: {FLAGSHIP_MESSAGE}
    """
)

PY311 = paste(
    f"""
    Traceback (most recent call last):
      File "/home/ana/proj/generate.py", line 11, in <module>
        out = model.generate(**inputs, generation_config=cfg)
              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
      File "/home/ana/.venv/lib/python3.11/site-packages/torch/utils/_contextlib.py", line 116, in decorate_context
        return func(*args, **kwargs)
               ^^^^^^^^^^^^^^^^^^^^^
      File "/home/ana/.venv/lib/python3.11/site-packages/transformers/generation/utils.py", line 1520, in generate
        generation_config.validate()
      File "{FLAGSHIP_FILE}", line 687, in validate
        raise ValueError(
    ValueError: {FLAGSHIP_MESSAGE}
    """
)

PY313 = paste(
    """
    Traceback (most recent call last):
      File "/srv/app/load.py", line 8, in <module>
        config = json.loads(raw)["model"]
                 ~~~~~~~~~~~~~~~^^^^^^^^^
    KeyError: 'model'

    During handling of the above exception, another exception occurred:

    Traceback (most recent call last):
      File "/srv/app/load.py", line 10, in <module>
        raise RuntimeError(
        ...<2 lines>...
        )
    RuntimeError: config has no "model" entry
    """
)


def test_python38_traceback() -> None:
    result = parse(PY38)
    assert (result.exception, result.message, result.source_format) == ("ValueError", FLAGSHIP_MESSAGE, "traceback")
    assert result.frames == (
        Frame("generate.py", 11, "<module>", "cfg.validate()"),
        Frame(FLAGSHIP_FILE, 687, "validate", "raise ValueError("),
    )


def test_python311_traceback_with_carets() -> None:
    result = parse(PY311)
    assert result.exception == "ValueError" and result.message == FLAGSHIP_MESSAGE
    assert [f.line for f in result.frames] == [11, 116, 1520, 687]
    assert result.frames[0].code == "out = model.generate(**inputs, generation_config=cfg)"
    assert result.frames[1].code == "return func(*args, **kwargs)"
    assert frame_at(result) == (FLAGSHIP_FILE, 687, "validate", "raise ValueError(")


def test_python313_chained_traceback_main_is_last_raised() -> None:
    result = parse(PY313)
    assert (result.exception, result.message) == ("RuntimeError", 'config has no "model" entry')
    assert result.frames == (Frame("/srv/app/load.py", 10, "<module>", "raise RuntimeError("),)
    assert [(c.exception, c.message) for c in result.chained] == [("KeyError", "'model'")]
    assert result.chained[0].frames[0].code == 'config = json.loads(raw)["model"]'


def test_direct_cause_chain_of_three_in_order() -> None:
    text = paste(
        """
        Traceback (most recent call last):
          File "a.py", line 2, in f
            open("cfg.json")
        FileNotFoundError: [Errno 2] No such file or directory: 'cfg.json'

        The above exception was the direct cause of the following exception:

        Traceback (most recent call last):
          File "a.py", line 4, in g
            raise OSError("no config") from e
        OSError: no config

        During handling of the above exception, another exception occurred:

        Traceback (most recent call last):
          File "a.py", line 8, in <module>
            raise SystemExit("giving up")
        SystemExit: giving up
        """
    )
    result = parse(text)
    assert result.exception == "SystemExit"
    assert [c.exception for c in result.chained] == ["FileNotFoundError", "OSError"]


def test_cause_printed_without_traceback() -> None:
    text = paste(
        """
        ValueError: bad literal 'x'

        The above exception was the direct cause of the following exception:

        Traceback (most recent call last):
          File "b.py", line 3, in <module>
            raise TypeError("conversion failed") from ValueError("bad literal 'x'")
        TypeError: conversion failed
        """
    )
    result = parse(text)
    assert (result.exception, [c.exception for c in result.chained]) == ("TypeError", ["ValueError"])
    assert result.chained[0].message == "bad literal 'x'"


def test_unrelated_earlier_traceback_is_not_chained() -> None:
    first = PY38.replace("ValueError: ", "ImportError: ")
    result = parse(first + "\nretrying...\n" + PY313)
    assert result.exception == "RuntimeError"
    assert [c.exception for c in result.chained] == ["KeyError"]


def test_syntax_error_location_without_function() -> None:
    text = paste(
        """
          File "/home/ana/proj/train.py", line 3
            def f(:
                  ^
        SyntaxError: invalid syntax
        """
    )
    result = parse(text)
    assert (result.exception, result.message) == ("SyntaxError", "invalid syntax")
    assert result.frames == (Frame("/home/ana/proj/train.py", 3, None, "def f(:"),)


def test_recursion_error_repeated_line_marker() -> None:
    text = paste(
        """
        Traceback (most recent call last):
          File "r.py", line 4, in <module>
            f()
          File "r.py", line 2, in f
            return f()
                   ^^^
          [Previous line repeated 996 more times]
        RecursionError: maximum recursion depth exceeded
        """
    )
    result = parse(text)
    assert result.exception == "RecursionError"
    assert [f.code for f in result.frames] == ["f()", "return f()"]


def test_traceback_surrounded_by_program_output() -> None:
    text = (
        "Loading checkpoint shards: 100%|##########| 2/2 [00:03<00:00,  1.52s/it]\r\n"
        "Setting `pad_token_id` to `eos_token_id`:2 for open-end generation.\r\n"
        + PY311.replace("\n", "\r\n")
        + "\r\n(venv) ana@box:~/proj$ \r\n"
    )
    result = parse(text)
    assert (result.exception, result.message) == ("ValueError", FLAGSHIP_MESSAGE)
    assert len(result.frames) == 4


def test_shell_prompt_after_traceback_ends_the_message() -> None:
    result = parse(PY38 + ">>> cfg\nGenerationConfig {}\n")
    assert result.message == FLAGSHIP_MESSAGE


def test_traceback_with_windows_paths() -> None:
    text = paste(
        r"""
        Traceback (most recent call last):
          File "C:\Users\Me\text-generation-webui\modules\callbacks.py", line 61, in gentask
            ret = self.mfunc(callback=_callback, *args, **self.kwargs)
          File "C:\Users\Me\text-generation-webui\installer_files\env\Lib\site-packages\transformers\generation\utils.py", line 1804, in generate
            generation_config, model_kwargs = self._prepare_generation_config(generation_config, **kwargs)
        TypeError: '>' not supported between instances of 'NoneType' and 'int'
        """
    )
    result = parse(text)
    assert result.exception == "TypeError"
    assert release_path(result.frames[-1].file) == "transformers/generation/utils.py"


def test_traceback_whose_header_was_not_pasted() -> None:
    text = paste(
        r"""
        File "C:\webui\modules\text_generation.py", line 398, in generate_with_callback
            shared.model.generate(**kwargs)
        File "C:\webui\env\Lib\site-packages\torch\utils\_contextlib.py", line 116, in decorate_context
            return func(*args, **kwargs)
                   ^^^^^^^^^^^^^^^^^^^^^
        RuntimeError: probability tensor contains either `inf`, `nan` or element < 0
        """
    )
    result = parse(text)
    assert (result.exception, len(result.frames)) == ("RuntimeError", 2)
    assert result.frames[1].code == "return func(*args, **kwargs)"


def test_indented_traceback_in_a_markdown_quote() -> None:
    result = parse(textwrap.indent(PY38, "    "))
    assert (result.exception, result.message, len(result.frames)) == ("ValueError", FLAGSHIP_MESSAGE, 2)


def test_torch_distributed_rank_prefixes() -> None:
    text = "".join(f"[rank0]: {line}\n" for line in PY38.splitlines())
    result = parse(text)
    assert (result.exception, result.message) == ("ValueError", FLAGSHIP_MESSAGE)
    assert result.frames[-1].file == FLAGSHIP_FILE


def test_logged_exception_prefers_the_traceback() -> None:
    text = "ERROR:root:generation failed\n" + PY38 + "INFO:root:shutting down\n"
    result = parse(text)
    assert (result.exception, result.source_format, result.message) == ("ValueError", "traceback", FLAGSHIP_MESSAGE)


def test_message_starting_on_the_next_line() -> None:
    text = paste(
        """
        Traceback (most recent call last):
          File "t.py", line 1, in <module>
            LlamaTokenizer.from_pretrained("x")
        ImportError: 
        LlamaTokenizer requires the SentencePiece library but it was not found in your environment.

        GGUF requires the protobuf library but it was not found in your environment.
        """
    )
    result = parse(text)
    assert result.exception == "ImportError"
    assert result.message == (
        "\nLlamaTokenizer requires the SentencePiece library but it was not found in your environment.\n\n"
        "GGUF requires the protobuf library but it was not found in your environment."
    )


def test_exception_without_message_in_traceback() -> None:
    text = paste(
        """
        Traceback (most recent call last):
          File "loop.py", line 3, in <module>
            time.sleep(1)
        KeyboardInterrupt
        """
    )
    result = parse(text)
    assert (result.exception, result.message, len(result.frames)) == ("KeyboardInterrupt", "", 1)


def test_qualified_exception_without_message_in_traceback() -> None:
    """click 8.5.1's `Context.abort()`: `raise Abort()` prints the type alone, with no colon."""
    text = paste(
        """
        Traceback (most recent call last):
          File "<case>", line 1, in <module>
            click.Context(cli).abort()
          File "/tmp/casesenv/lib/python3.11/site-packages/click/core.py", line 821, in abort
            raise Abort()
        click.exceptions.Abort
        """
    )
    result = parse(text)
    assert (result.exception, result.message, result.source_format) == ("click.exceptions.Abort", "", "traceback")
    assert result.frames[-1] == Frame(
        "/tmp/casesenv/lib/python3.11/site-packages/click/core.py", 821, "abort", "raise Abort()"
    )


def test_lowercase_dotted_line_alone_is_not_an_exception() -> None:
    text = paste(
        """
        Traceback (most recent call last):
          File "x.py", line 3, in <module>
            f()
        docs.example
        ValueError: bad
        """
    )
    assert (parse(text).exception, parse(text).message) == ("ValueError", "bad")


def test_qualified_and_local_exception_types() -> None:
    text = paste(
        """
        Traceback (most recent call last):
          File "x.py", line 9, in <module>
            f()
        __main__.f.<locals>.LocalError: from a closure
        """
    )
    assert parse(text).exception == "__main__.f.<locals>.LocalError"
    dynamo = PY38.replace("ValueError: ", "torch._dynamo.exc.Unsupported: ")
    assert parse(dynamo).exception == "torch._dynamo.exc.Unsupported"


@pytest.mark.parametrize(
    ("exception", "printed", "message"),
    [
        ("NameError", "name 'pritn' is not defined. Did you mean: 'print'?", "name 'pritn' is not defined"),
        ("NameError", "name 'sys' is not defined. Did you forget to import 'sys'?", "name 'sys' is not defined"),
        (
            "AttributeError",
            "'GenerationConfig' object has no attribute 'cache_impl'. Did you mean: 'cache_implementation'?",
            "'GenerationConfig' object has no attribute 'cache_impl'",
        ),
        (
            "ImportError",
            "cannot import name 'GenerationConfg' from 'transformers' (/x/transformers/__init__.py). Did you mean: 'GenerationConfig'?",
            "cannot import name 'GenerationConfg' from 'transformers' (/x/transformers/__init__.py)",
        ),
        ("ValueError", "bad value. Did you mean: 'x'?", "bad value. Did you mean: 'x'?"),  # the program's own words
    ],
)
def test_did_you_mean_suggestion_is_removed(exception: str, printed: str, message: str) -> None:
    text = f'Traceback (most recent call last):\n  File "x.py", line 1, in <module>\n    f()\n{exception}: {printed}\n'
    assert parse(text).message == message


@pytest.mark.parametrize(
    ("exc", "message"),
    [
        (
            TypeError("'x' must be <class 'int'> (got '1' that is a <class 'str'>).", object(), int, "1"),
            "'x' must be <class 'int'> (got '1' that is a <class 'str'>).",
        ),
        (ValueError('it\'s "quoted" and has a \\ backslash', 2), 'it\'s "quoted" and has a \\ backslash'),
        (ValueError("two lines\nof message", None), "two lines\nof message"),
        (KeyError(("a key", "b")), "('a key', 'b')"),  # a KeyError prints its key
        (ValueError(1, 2), "(1, 2)"),
        (ValueError("word", 2), "('word', 2)"),  # not a sentence: maybe not a message
    ],
)
def test_an_exception_raised_with_more_arguments_has_its_first_as_message(exc: Exception, message: str) -> None:
    """Python prints such an exception's arguments as a tuple; the first, when a sentence, is the message."""
    printed = "".join(traceback.format_exception_only(exc)).rstrip("\n")
    assert parse(printed).message == message


def test_did_you_mean_on_its_own_line() -> None:
    assert parse("AttributeError: 'Foo' object has no attribute 'barr'\nDid you mean: 'bar'?").message == (
        "'Foo' object has no attribute 'barr'"
    )


def test_pep678_notes_are_separated() -> None:
    text = paste(
        """
        Traceback (most recent call last):
          File "tests/test_gen.py", line 9, in test_roundtrip
            assert decode(encode(x)) == x
        AssertionError: roundtrip changed the value
        Falsifying example: test_roundtrip(
            x='\\x80',
        )
        You can reproduce this example by temporarily adding @reproduce_failure('6.100.0', b'AAE=') as a decorator on your test case
        """
    )
    result = parse(text)
    assert result.message == "roundtrip changed the value"
    assert result.notes == (
        "Falsifying example: test_roundtrip(\n    x='\\x80',\n)",
        "You can reproduce this example by temporarily adding @reproduce_failure('6.100.0', b'AAE=') as a decorator on your test case",
    )


# --- exception groups -----------------------------------------------------------------------------

TASKGROUP = "\n".join(
    [
        "  + Exception Group Traceback (most recent call last):",
        '  |   File "/home/ana/svc/main.py", line 21, in <module>',
        "  |     asyncio.run(main())",
        '  |   File "/usr/lib/python3.12/asyncio/taskgroups.py", line 145, in __aexit__',
        "  |     raise me from None",
        "  | ExceptionGroup: unhandled errors in a TaskGroup (2 sub-exceptions)",
        "  +-+---------------- 1 ----------------",
        "    | Traceback (most recent call last):",
        '    |   File "/home/ana/svc/main.py", line 9, in fetch',
        '    |     raise ConnectionError("upstream refused")',
        "    | ConnectionError: upstream refused",
        "    +---------------- 2 ----------------",
        "    | Traceback (most recent call last):",
        '    |   File "/home/ana/svc/main.py", line 13, in parse',
        '    |     raise ValueError("bad payload")',
        "    | ValueError: bad payload",
        "    +------------------------------------",
        "",
    ]
)


@pytest.mark.parametrize(
    "text",
    [TASKGROUP, TASKGROUP.lstrip(" "), textwrap.indent(TASKGROUP, "    "), textwrap.dedent(TASKGROUP)],
    ids=["as-printed", "first-indent-lost", "indented", "dedented"],
)
def test_exception_group_main_is_the_group_and_its_members_are_chained(text: str) -> None:
    result = parse(text)
    assert (result.exception, result.message, result.source_format) == (
        "ExceptionGroup",
        "unhandled errors in a TaskGroup (2 sub-exceptions)",
        "traceback",
    )
    assert result.frames[-1] == Frame(
        "/usr/lib/python3.12/asyncio/taskgroups.py", 145, "__aexit__", "raise me from None"
    )
    assert [(c.exception, c.message) for c in result.chained] == [
        ("ConnectionError", "upstream refused"),
        ("ValueError", "bad payload"),
    ]
    assert result.chained[0].frames == (
        Frame("/home/ana/svc/main.py", 9, "fetch", 'raise ConnectionError("upstream refused")'),
    )


def test_exception_group_raised_by_a_library_as_cpython_prints_it() -> None:
    """packaging's metadata validation (packaging 26.4, Python 3.11): the group is what was raised."""
    text = paste(
        """
          + Exception Group Traceback (most recent call last):
          |   File "<case>", line 1, in <module>
          |     Metadata.from_raw({'metadata_version': '9.9', 'name': 'x', 'version': '1.0'})
          |   File "/tmp/casesenv/lib/python3.11/site-packages/packaging/metadata.py", line 886, in from_raw
          |     collector.finalize("invalid metadata")
          |   File "/tmp/casesenv/lib/python3.11/site-packages/packaging/errors.py", line 64, in finalize
          |     raise ExceptionGroup(msg, self.errors)
          | ExceptionGroup: invalid metadata (1 sub-exception)
          +-+---------------- 1 ----------------
            | Traceback (most recent call last):
            |   File "/tmp/casesenv/lib/python3.11/site-packages/packaging/metadata.py", line 628, in _process_metadata_version
            |     raise self._invalid_metadata(f"{value!r} is not a valid metadata version")
            | packaging.metadata.InvalidMetadata: '9.9' is not a valid metadata version
            +------------------------------------
        """
    )
    result = parse(text)
    assert (result.exception, result.message) == ("ExceptionGroup", "invalid metadata (1 sub-exception)")
    assert result.frames[-1] == Frame(
        "/tmp/casesenv/lib/python3.11/site-packages/packaging/errors.py",
        64,
        "finalize",
        "raise ExceptionGroup(msg, self.errors)",
    )
    assert [(c.exception, c.message) for c in result.chained] == [
        ("packaging.metadata.InvalidMetadata", "'9.9' is not a valid metadata version")
    ]


def test_nested_exception_groups_then_a_chained_group() -> None:
    text = paste(
        """
          + Exception Group Traceback (most recent call last):
          |   File "/p/anyio/_backends/_asyncio.py", line 771, in __aexit__
          |     raise BaseExceptionGroup(
          | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)
          +-+---------------- 1 ----------------
            | Exception Group Traceback (most recent call last):
            |   File "/p/test_tb.py", line 5, in main
            |     async with anyio.create_task_group() as tg:
            | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)
            +-+---------------- 1 ----------------
              | Traceback (most recent call last):
              |   File "/p/test_tb.py", line 12, in child
              |     raise Exception("Something went wrong")
              | Exception: Something went wrong
              +------------------------------------

        During handling of the above exception, another exception occurred:

          + Exception Group Traceback (most recent call last):
          |   File "/p/test_tb.py", line 15, in <module>
          |     anyio.run(main)
          | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)
          +-+---------------- 1 ----------------
            | Traceback (most recent call last):
            |   File "/p/test_tb.py", line 20, in cleanup
            |     raise KeyError("session")
            | KeyError: 'session'
            +------------------------------------
        """
    )
    result = parse(text)
    assert (result.exception, result.message) == ("ExceptionGroup", "unhandled errors in a TaskGroup (1 sub-exception)")
    assert result.frames[-1].line == 15
    assert [c.exception for c in result.chained] == ["ExceptionGroup", "ExceptionGroup", "Exception", "KeyError"]


def test_exception_group_members_without_tracebacks() -> None:
    text = paste(
        """
          | ExceptionGroup: several problems (2 sub-exceptions)
          +-+---------------- 1 ----------------
            | ValueError: first problem
            +---------------- 2 ----------------
            | TypeError: second problem
            +------------------------------------
        """
    )
    result = parse(text)
    assert (result.exception, result.message) == ("ExceptionGroup", "several problems (2 sub-exceptions)")
    assert [c.exception for c in result.chained] == ["ValueError", "TypeError"]


def test_markdown_table_is_not_an_exception_group() -> None:
    text = "| package | version |\n| --- | --- |\n| transformers | 5.16.0 |\nValueError: boom\n"
    assert (parse(text).exception, parse(text).message) == ("ValueError", "boom")


# --- IPython / Jupyter ----------------------------------------------------------------------------

R, G, C, Z = "\x1b[0;31m", "\x1b[0;32m", "\x1b[0;36m", "\x1b[0m"
IPYTHON8 = (
    f"{R}---------------------------------------------------------------------------{Z}\n"
    f"{R}ValueError{Z}                                Traceback (most recent call last)\n"
    f"Cell {G}In[3], line 5{Z}\n"
    f"{G}      3{Z} cfg \x1b[38;5;241m={Z} GenerationConfig()\n"
    f'{G}      4{Z} cfg\x1b[38;5;241m.{Z}cache_implementation \x1b[38;5;241m={Z} \x1b[38;5;124m"flash"{Z}\n'
    f"{G}----> 5{Z} cfg\x1b[38;5;241m.{Z}validate()\n"
    "\n"
    f"File {G}~/.venv/lib/python3.11/site-packages/transformers/generation/configuration_utils.py:687{Z}, "
    f"in {C}GenerationConfig.validate{Z}\x1b[0;34m(self, strict){Z}\n"
    f"{G}    686{Z} \x1b[38;5;28;01mif{Z} \x1b[38;5;28mself{Z}\x1b[38;5;241m.{Z}cache_implementation:\n"
    f"{G}--> 687{Z}     \x1b[38;5;28;01mraise{Z} \x1b[38;5;167;01mValueError{Z}(\n"
    f'{G}    688{Z}         \x1b[38;5;124mf{Z}\x1b[38;5;124m"Invalid"{Z}\n'
    f"{G}    689{Z}     )\n"
    "\n"
    f"{R}ValueError{Z}: {FLAGSHIP_MESSAGE}\n"
)


def test_ipython8_traceback_with_colours() -> None:
    result = parse(IPYTHON8)
    assert (result.exception, result.message, result.source_format) == ("ValueError", FLAGSHIP_MESSAGE, "ipython")
    assert result.frames == (
        Frame("Cell In[3]", 5, None, "cfg.validate()"),
        Frame(
            "~/.venv/lib/python3.11/site-packages/transformers/generation/configuration_utils.py",
            687,
            "GenerationConfig.validate",
            "raise ValueError(",
        ),
    )


def test_ipython8_colours_whose_escape_was_lost_in_copy_paste() -> None:
    result = parse(IPYTHON8.replace("\x1b", ""))
    assert (result.exception, result.message, len(result.frames)) == ("ValueError", FLAGSHIP_MESSAGE, 2)


def test_ipython7_and_colab_traceback() -> None:
    text = paste(
        """
        ---------------------------------------------------------------------------
        TypeError                                 Traceback (most recent call last)
        <ipython-input-93-b7caa67ca199> in <cell line: 17>()
             15 ).to("cuda")
             16 
        ---> 17 outputs = model.generate(input_ids=inputs, max_new_tokens=64)
             18 tokenizer.batch_decode(outputs)

        /usr/local/lib/python3.10/dist-packages/torch/utils/_contextlib.py in decorate_context(*args, **kwargs)
            114     def decorate_context(*args, **kwargs):
            115         with ctx_factory():
        --> 116             return func(*args, **kwargs)
            117 

        2 frames
        [/usr/local/lib/python3.12/dist-packages/transformers/generation/utils.py](https://localhost:8080/#) in _prepare_generation_config(self, generation_config, **kwargs)
           1723             if len(self.config._get_generation_parameters()) > 0:
        -> 1724                 raise TypeError(
           1725                     "You have modified the pretrained model configuration"

        TypeError: You have modified the pretrained model configuration to control generation.
        """
    )
    result = parse(text)
    assert (result.exception, result.source_format) == ("TypeError", "ipython")
    assert result.message == "You have modified the pretrained model configuration to control generation."
    assert result.frames == (
        Frame(
            "<ipython-input-93-b7caa67ca199>",
            17,
            "<cell line: 17>",
            "outputs = model.generate(input_ids=inputs, max_new_tokens=64)",
        ),
        Frame(
            "/usr/local/lib/python3.10/dist-packages/torch/utils/_contextlib.py",
            116,
            "decorate_context",
            "return func(*args, **kwargs)",
        ),
        Frame(
            "/usr/local/lib/python3.12/dist-packages/transformers/generation/utils.py",
            1724,
            "_prepare_generation_config",
            "raise TypeError(",
        ),
    )


def test_ipython_chained_in_a_converted_notebook() -> None:
    text = paste(
        """
            File ~\\miniconda3\\lib\\site-packages\\httpcore\\_exceptions.py:14, in map_exceptions(map)
                 13     if isinstance(exc, from_exc):
            ---> 14         raise to_exc(exc) from exc

            ConnectTimeout: _ssl.c:1112: The handshake operation timed out


            The above exception was the direct cause of the following exception:


            ConnectTimeout                            Traceback (most recent call last)

            Cell In[1], line 204
                203     )
            --> 204 demo.launch(share=True)


            File ~\\miniconda3\\lib\\site-packages\\httpx\\_transports\\default.py:86, in map_httpcore_exceptions()
                 85 message = str(exc)
            ---> 86 raise mapped_exc(message) from exc

            ConnectTimeout: _ssl.c:1112: The handshake operation timed out
        """
    )
    result = parse(text)
    assert (result.exception, result.message) == ("ConnectTimeout", "_ssl.c:1112: The handshake operation timed out")
    assert [f.line for f in result.frames] == [204, 86]
    assert release_path(result.frames[-1].file) == "httpx/_transports/default.py"
    assert [c.exception for c in result.chained] == ["ConnectTimeout"]


def test_ipython_header_of_a_long_type_name_touches_its_tail() -> None:
    name = "transformers.utils.import_utils.OptionalDependencyNotAvailable"
    text = f"{'-' * 75}\n{name}Traceback (most recent call last)\nCell In[2], line 1\n----> 1 f()\n\n{name}: no torch\n"
    result = parse(text)
    assert (result.exception, result.message, result.source_format) == (name, "no torch", "ipython")
    assert result.frames == (Frame("Cell In[2]", 1, None, "f()"),)


def test_ipython_minimal_mode_cell_frame() -> None:
    text = (
        "Traceback (most recent call last):\n  Cell In[1], line 1\n    beatles.remove('Sinatra')\nKeyError: 'Sinatra'\n"
    )
    result = parse(text)
    assert result.frames == (Frame("Cell In[1]", 1, None, "beatles.remove('Sinatra')"),)
    assert release_path(result.frames[0].file) is None


def test_ipython_traceback_cut_before_its_last_line_keeps_the_header_type() -> None:
    text = IPYTHON8.rsplit("\n\n", 1)[0]
    result = parse(text)
    assert (result.exception, result.message, len(result.frames)) == ("ValueError", "", 2)


# --- rich -----------------------------------------------------------------------------------------

RICH = "\n".join(
    [
        "Generating outputs...",
        "╭───────────────────── Traceback (most recent call last) ──────────────────────╮",
        "│ /home/ana/proj/generate.py:11 in <module>                                    │",
        "│                                                                              │",
        '│    10 cfg.cache_implementation = "flash"                                      │',
        "│ ❱  11 cfg.validate()                                                         │",
        "│                                                                              │",
        "│ /home/ana/.venv/lib/python3.11/site-packages/transformers/generation/configu │",
        "│ ration_utils.py:687 in validate                                              │",
        "│                                                                              │",
        "│    686 │   │   if self.cache_implementation not in valid:                    │",
        "│ ❱  687 │   │   │   raise ValueError(                                         │",
        '│    688 │   │   │   │   f"Invalid `cache_implementation`"                     │',
        "│                                                                              │",
        "│ ╭───────────────────────────────── locals ─────────────────────────────────╮ │",
        "│ │  self = GenerationConfig {}                                              │ │",
        "│ │ valid = ('static', 'paged')                                              │ │",
        "│ ╰──────────────────────────────────────────────────────────────────────────╯ │",
        "╰──────────────────────────────────────────────────────────────────────────────╯",
        f"ValueError: {FLAGSHIP_MESSAGE}",
        "",
    ]
)


def test_rich_traceback_in_a_box() -> None:
    result = parse(RICH)
    assert (result.exception, result.message, result.source_format) == ("ValueError", FLAGSHIP_MESSAGE, "traceback")
    assert result.frames == (
        Frame("/home/ana/proj/generate.py", 11, "<module>", "cfg.validate()"),
        Frame(FLAGSHIP_FILE, 687, "validate", "raise ValueError("),
    )


def test_rich_traceback_between_rules_pasted_double_spaced() -> None:
    rows = [
        "────────────────────── Traceback (most recent call last) ───────────────────────",
        "  /home/adminuser/venv/lib/python3.13/site-packages/streamlit/runtime/scriptru  ",
        "  nner/exec_code.py:129 in exec_func_with_error_handling                        ",
        "                                                                                ",
        "  /mount/src/app/streamlit_app.py:71 in <module>                                ",
        "                                                                                ",
        '     70 │   │   "AMT_CREDIT": [amt_credit],                                     ',
        "  ❱  71 │   model.predict(frame)                                                ",
        "────────────────────────────────────────────────────────────────────────────────",
        "KeyError: 'AMT_ANNUITY'",
    ]
    result = parse("\n\n".join(rows))
    assert (result.exception, result.message) == ("KeyError", "'AMT_ANNUITY'")
    assert result.frames == (
        Frame(
            "/home/adminuser/venv/lib/python3.13/site-packages/streamlit/runtime/scriptrunner/exec_code.py",
            129,
            "exec_func_with_error_handling",
        ),
        Frame("/mount/src/app/streamlit_app.py", 71, "<module>", "model.predict(frame)"),
    )


def test_rich_traceback_inside_a_log_record_and_chained() -> None:
    pad = " " * 20
    box = [
        pad + "╭────────── Traceback (most recent call last) ──────────╮",
        pad + "│ /home/ana/.venv/lib/python3.12/site-packages/fastmcp/ │",
        pad + "│ server/server.py:1312 in call_tool                    │",
        pad + "│                                                       │",
        pad + "│                ... 4 frames hidden ...                │",
        pad + "│                                                       │",
        pad + "│ /home/ana/proj/tools.py:237 in                        │",
        pad + "│ wrapper                                               │",
        pad + "╰───────────────────────────────────────────────────────╯",
    ]
    text = "\n".join(
        [
            "[07/21/26 21:25:24] Error calling tool 'read'",
            *box,
            pad + "IsADirectoryError: [Errno 21] Is a directory: '/items'",
            "",
            "The above exception was the direct cause of the following exception:",
            "",
            *box,
            pad + "fastmcp.exceptions.ToolError: Error calling tool 'read'",
        ]
    )
    result = parse(text)
    assert (result.exception, result.message) == ("fastmcp.exceptions.ToolError", "Error calling tool 'read'")
    assert [(f.file, f.line, f.function) for f in result.frames] == [
        ("/home/ana/.venv/lib/python3.12/site-packages/fastmcp/server/server.py", 1312, "call_tool"),
        ("/home/ana/proj/tools.py", 237, "wrapper"),
    ]
    assert [c.exception for c in result.chained] == ["IsADirectoryError"]


# --- pytest ---------------------------------------------------------------------------------------

PYTEST_LONG = paste(
    """
    ============================= test session starts ==============================
    platform linux -- Python 3.11.7, pytest-8.2.0, pluggy-1.5.0
    rootdir: /home/ana/proj
    collected 3 items

    tests/test_gen.py .F.                                                    [100%]

    =================================== FAILURES ===================================
    _____________________________ test_bad_cache_impl ______________________________

        def test_bad_cache_impl():
            cfg = GenerationConfig()
            cfg.cache_implementation = "flash"
    >       cfg.validate()

    tests/test_gen.py:14: 
    _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

    self = GenerationConfig {
      "cache_implementation": "flash"
    }
    strict = False

        def validate(self, strict=False):
            if self.cache_implementation not in valid_cache_implementations:
    >           raise ValueError(
                    f"Invalid `cache_implementation` ({self.cache_implementation}). Choose one of: "
                    f"{valid_cache_implementations}"
                )
    E           ValueError: Invalid `cache_implementation` (flash). Choose one of:
    E             ('static', 'offloaded_static', 'paged')

    .venv/lib/python3.11/site-packages/transformers/generation/configuration_utils.py:687: ValueError
    =========================== short test summary info ============================
    FAILED tests/test_gen.py::test_bad_cache_impl - ValueError: Invalid `cache_implementation` (flash). Choose one of:...
    ========================= 1 failed, 2 passed in 1.23s ==========================
    """
)


def test_pytest_long_report() -> None:
    result = parse(PYTEST_LONG)
    assert (result.exception, result.source_format) == ("ValueError", "pytest")
    assert (
        result.message
        == "Invalid `cache_implementation` (flash). Choose one of:\n  ('static', 'offloaded_static', 'paged')"
    )
    assert result.frames == (
        Frame("tests/test_gen.py", 14, "test_bad_cache_impl", "cfg.validate()"),
        Frame(
            ".venv/lib/python3.11/site-packages/transformers/generation/configuration_utils.py",
            687,
            "validate",
            "raise ValueError(",
        ),
    )


def test_pytest_short_report_while_collecting() -> None:
    text = paste(
        """
        ==================================== ERRORS ====================================
        _____________________ ERROR collecting tests/test_types.py _____________________
        ImportError while importing test module '/build/source/tests/test_types.py'.
        Hint: make sure your test modules/packages have valid Python names.
        Traceback:
        /usr/lib/python3.11/importlib/__init__.py:126: in import_module
            return _bootstrap._gcd_import(name[level:], package)
        tests/test_types.py:5: in <module>
            from smolagents.agent_types import AgentAudio
        E   ModuleNotFoundError: No module named 'soundfile'
        =========================== short test summary info ============================
        ERROR tests/test_types.py
        """
    )
    result = parse(text)
    assert (result.exception, result.message) == ("ModuleNotFoundError", "No module named 'soundfile'")
    assert result.frames == (
        Frame(
            "/usr/lib/python3.11/importlib/__init__.py",
            126,
            "import_module",
            "return _bootstrap._gcd_import(name[level:], package)",
        ),
        Frame("tests/test_types.py", 5, "<module>", "from smolagents.agent_types import AgentAudio"),
    )


def test_pytest_assertion_takes_its_type_from_the_location_line() -> None:
    text = paste(
        """
        ________________________________ test_answer _________________________________

            def test_answer():
        >       assert inc(3) == 5
        E       assert 4 == 5
        E        +  where 4 = inc(3)

        tests/test_sample.py:6: AssertionError
        """
    )
    result = parse(text)
    assert (result.exception, result.message) == ("AssertionError", "assert 4 == 5\n +  where 4 = inc(3)")
    assert result.frames == (Frame("tests/test_sample.py", 6, "test_answer", "assert inc(3) == 5"),)


def test_pytest_chained_exceptions() -> None:
    text = paste(
        """
            def load():
        >       return cfg["model"]
        E       KeyError: 'model'

        src/app.py:3: KeyError

        The above exception was the direct cause of the following exception:

            def test_load():
        >       app.load_or_fail()
        E       RuntimeError: no model configured

        tests/test_app.py:8: RuntimeError
        """
    )
    result = parse(text)
    assert (result.exception, result.message) == ("RuntimeError", "no model configured")
    assert result.frames == (Frame("tests/test_app.py", 8, "test_load", "app.load_or_fail()"),)
    assert [(c.exception, c.frames[0].line) for c in result.chained] == [("KeyError", 3)]


def test_pytest_summary_lines_only() -> None:
    text = paste(
        """
        =========================== short test summary info ============================
        FAILED tests/llm/test_dr_write.py::test_write_composes_report - ValueError: Query must be at least 3 characters long
        FAILED tests/llm/test_dr_write.py::test_run_pipeline - TypeError: expected str, got None
        ======= 2 failed, 10 passed, 1 skipped, 37 warnings in 78.52s (0:01:18) ========
        """
    )
    result = parse(text)
    assert (result.exception, result.message, result.source_format) == ("TypeError", "expected str, got None", "pytest")
    assert result.frames == (Frame("tests/llm/test_dr_write.py", None, "test_run_pipeline"),)


def test_pytest_summary_with_parameters_holding_a_dash() -> None:
    result = parse("FAILED tests/test_x.py::test_gen[cache - flash] - ValueError: bad cache\n")
    assert (result.exception, result.message) == ("ValueError", "bad cache")
    assert result.frames == (Frame("tests/test_x.py", None, "test_gen[cache - flash]"),)


def test_ci_exit_line_is_not_the_error() -> None:
    text = f"{FLAGSHIP_FILE}:687: FutureWarning: deprecated\n  warnings.warn(\nError: Process completed with exit code 1.\n"
    assert parse(text).exception == "FutureWarning"


def test_pytest_line_format() -> None:
    result = parse(f"{FLAGSHIP_FILE}:687: ValueError: {FLAGSHIP_MESSAGE}\n")
    assert (result.exception, result.message, result.source_format) == ("ValueError", FLAGSHIP_MESSAGE, "pytest")
    assert result.frames == (Frame(FLAGSHIP_FILE, 687, None),)


# --- logging --------------------------------------------------------------------------------------

MODULE = "transformers/generation/configuration_utils.py"


@pytest.mark.parametrize(
    ("line", "frame"),
    [
        (
            "2024-05-01 12:00:00,123 - transformers.generation.configuration_utils - WARNING - {}",
            Frame(MODULE, None, None),
        ),
        ("05/01/2024 12:00:00 - WARNING - transformers.generation.configuration_utils - {}", Frame(MODULE, None, None)),
        ("WARNING:transformers.generation.configuration_utils:{}", Frame(MODULE, None, None)),
        (
            "[WARNING|configuration_utils.py:687] 2024-05-01 12:00:00,123 >> {}",
            Frame("configuration_utils.py", 687, None),
        ),
        ("2020-06-23 10:24:06 transformers.generation.configuration_utils INFO: {}", Frame(MODULE, None, None)),
        ("2024-05-01T12:00:00.123Z WARNING transformers.generation.configuration_utils: {}", Frame(MODULE, None, None)),
        (
            "2024-05-01 12:00:00.123 | WARNING  | transformers.generation.configuration_utils:validate:687 - {}",
            Frame(MODULE, 687, "validate"),
        ),
        (
            "[2024-05-01 12:00:00,123][transformers.generation.configuration_utils][WARNING] - {}",
            Frame(MODULE, None, None),
        ),
        ("WARNING 05-01 12:00:00 [configuration_utils.py:687] {}", Frame("configuration_utils.py", 687, None)),
        ("W0501 12:00:00.123456 140 configuration_utils.py:687] {}", Frame("configuration_utils.py", 687, None)),
        ("[2024-05-01 12:00:00] ERROR in app: {}", None),
        ("WARNING:root:{}", None),
        ("WARNING:__main__:{}", None),
        ("ERROR:    {}", None),
        ("2024-05-01 12:00:00,123 - WARNING - {}", None),
    ],
)
def test_log_formats(line: str, frame: Frame | None) -> None:
    message = "`max_cache_len` is only used with static caches ('static',); it will be ignored: x - y"
    result = parse(line.format(message))
    assert (result.exception, result.message, result.kind, result.source_format) == (None, message, "log", "log")
    assert result.frames == ((frame,) if frame else ())


def test_log_record_with_continuation_lines() -> None:
    text = paste(
        """
        [INFO|configuration_utils.py:527] 2021-04-06 21:16:04,999 >> loading weights
        [WARNING|modeling_utils.py:3400] 2021-04-06 21:16:05,101 >> Some weights were not initialized:
        ['classifier.bias', 'classifier.weight']
        You should probably TRAIN this model on a down-stream task.
        [INFO|trainer.py:100] 2021-04-06 21:16:06,000 >> starting
        """
    )
    result = parse(text)
    assert result.message == (
        "Some weights were not initialized:\n['classifier.bias', 'classifier.weight']\n"
        "You should probably TRAIN this model on a down-stream task."
    )
    assert result.frames == (Frame("modeling_utils.py", 3400, None),)


def test_most_severe_log_record_is_main() -> None:
    text = "ERROR:app:first error\nWARNING:app:later warning\nERROR:app:last error\nINFO:app:done\n"
    assert parse(text).message == "last error"


# --- warnings -------------------------------------------------------------------------------------


def test_warnings_output_with_source_line() -> None:
    text = paste(
        f"""
        Some output before
        {FLAGSHIP_FILE}:687: FutureWarning: The `foo` argument is deprecated
        and will be removed in v5.
          warnings.warn(
        Some output after
        """
    )
    result = parse(text)
    assert (result.exception, result.kind, result.source_format) == ("FutureWarning", "warning", "warning")
    assert result.message == "The `foo` argument is deprecated\nand will be removed in v5."
    assert result.frames == (Frame(FLAGSHIP_FILE, 687, None, "warnings.warn("),)


def test_warning_category_not_named_like_a_warning() -> None:
    """pydantic 2.14's `BaseModel.dict()`, as `warnings.formatwarning` prints it: the source line follows."""
    text = (
        "<case>:1: PydanticDeprecatedSince20: The `dict` method is deprecated; use `model_dump` instead. Deprecated in"
        " Pydantic V2.0 to be removed in V3.0. See Pydantic V2 Migration Guide at https://errors.pydantic.dev/2.14/migration/\n"
        "  User(id=1, name='bob').dict()\n"
    )
    result = parse(text)
    assert (result.exception, result.kind, result.source_format) == ("PydanticDeprecatedSince20", "warning", "warning")
    assert result.message.startswith("The `dict` method is deprecated; use `model_dump` instead.")
    assert result.frames == (Frame("<case>", 1, None, "User(id=1, name='bob').dict()"),)


def test_located_line_with_a_plain_word_and_no_source_line_is_no_record() -> None:
    result = parse("notes.txt:3: Reminder: rotate the keys\nnothing else")
    assert (result.exception, result.source_format) == (None, "message")


def test_warnings_in_pytest_summary_and_on_windows() -> None:
    text = paste(
        r"""
        =============================== warnings summary ===============================
        tests/test_gen.py::test_generate
          C:\Users\Me\env\Lib\site-packages\transformers\generation\utils.py:1520: UserWarning: You have modified the pretrained model configuration
            warnings.warn(
        """
    )
    result = parse(text)
    assert (result.exception, result.kind) == ("UserWarning", "warning")
    assert release_path(result.frames[0].file) == "transformers/generation/utils.py"
    assert result.frames[0].code == "warnings.warn("


def test_interpreter_shutdown_warning() -> None:
    result = parse("sys:1: ResourceWarning: unclosed file <_io.TextIOWrapper name='x'>")
    assert (result.exception, result.frames) == ("ResourceWarning", (Frame("sys", 1, None),))


def test_error_outranks_warnings_and_logs() -> None:
    text = (
        f"{FLAGSHIP_FILE}:687: FutureWarning: deprecated\n  warnings.warn(\n"
        "WARNING:transformers.x:a warning\n"
        "RuntimeError: CUDA error: device-side assert triggered\n"
        "WARNING:transformers.x:another warning\n"
    )
    assert parse(text).exception == "RuntimeError"


def test_warning_outranks_logs() -> None:
    text = f"ERROR:app:failed\n{FLAGSHIP_FILE}:687: FutureWarning: deprecated\n  warnings.warn(\nINFO:app:done\n"
    assert parse(text).exception == "FutureWarning"


# --- release paths and ANSI -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (FLAGSHIP_FILE, MODULE),
        ("/x/lib/python3.11/site-packages/transformers/generation/configuration_utils.py", MODULE),
        ("/usr/local/lib/python3.12/dist-packages/transformers/generation/configuration_utils.py", MODULE),
        ("/proj/.venv/lib/python3.11/site-packages/transformers/generation/configuration_utils.py", MODULE),
        (
            r"C:\Users\Me\AppData\Local\Programs\Python\Python311\Lib\site-packages\transformers\generation\configuration_utils.py",
            MODULE,
        ),
        ("~/miniconda3/lib/python3.11/site-packages/transformers/generation/configuration_utils.py", MODULE),
        ("/x/site-packages/foo-1.0-py3.8.egg/foo/bar.py", "foo/bar.py"),
        ("/home/ana/transformers/src/transformers/generation/configuration_utils.py", MODULE),
        ("src/transformers/generation/configuration_utils.py", MODULE),
        ("<frozen runpy>", None),
        ("<frozen importlib._bootstrap>", None),
        ("<stdin>", None),
        ("<string>", None),
        ("<ipython-input-3-0f8e0d9ab0b4>", None),
        ("Cell In[3]", None),
        ("/home/ana/proj/generate.py", None),
        ("/x/site-packages/", None),
        ("", None),
    ],
)
def test_release_path(path: str, expected: str | None) -> None:
    assert release_path(path) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("\x1b[0;31mValueError\x1b[0m: x", "ValueError: x"),
        ("\x1b[38;5;241m=\x1b[39m", "="),
        ("\x1b]8;;file:///x.py\x1b\\x.py\x1b]8;;\x1b\\", "x.py"),
        ("\x1b[?25lhidden cursor\x1b[?25h", "hidden cursor"),
        ("lone \x1b escape", "lone  escape"),
        ("[0;31mValueError[0m: x", "ValueError: x"),
        ("tensor of shape [3m] stays", "tensor of shape [3m] stays"),
        ("plain", "plain"),
    ],
)
def test_strip_ansi(text: str, expected: str) -> None:
    assert strip_ansi(text) == expected


# --- hostile input --------------------------------------------------------------------------------


def test_paste_longer_than_the_limit_keeps_its_end() -> None:
    noise = "x" * 80 + "\n"
    text = noise * (MAX_PASTE // len(noise) + 10) + PY38
    result = parse(text)
    assert (result.exception, result.message) == ("ValueError", FLAGSHIP_MESSAGE)


def test_ten_megabytes_of_one_line() -> None:
    text = "ValueError: " + "a" * 10_000_000
    result = parse(text)
    assert result.exception is None  # only the last MAX_PASTE characters are read: no type left
    assert len(result.message) == MAX_PASTE


def test_huge_message_line_is_kept_whole() -> None:
    message = "b" * 200_000
    result = parse(f"{PY38.rsplit('ValueError', 1)[0]}ValueError: {message}\n")
    assert (result.exception, len(result.message), len(result.frames)) == ("ValueError", 200_000, 2)


def test_nul_bytes_surrogates_and_binary_garbage() -> None:
    rng = random.Random(7)
    garbage = bytes(rng.randrange(256) for _ in range(100_000)).decode("latin-1")
    for text in (garbage, "\x00" * 1000, "\ud800\udfff\ud800", PY38.replace("a", "\x00") + "\ud800"):
        assert isinstance(parse(text), ParsedError)
    result = parse("\x00\x00\n" + PY38 + "\ud800\n")
    assert (result.exception, result.message) == ("ValueError", FLAGSHIP_MESSAGE + "\n\ud800")


def test_many_lines_of_exception_looking_text() -> None:
    lines = [
        "ValueError: x",
        '  File "a.py", line 1, in f',
        "Traceback (most recent call last):",
        "WARNING:a.b:c",
        "E   e",
        "",
    ]
    text = "\n".join(lines[i % len(lines)] for i in range(100_000))
    assert isinstance(parse(text), ParsedError)


# --- properties -----------------------------------------------------------------------------------

SAMPLES = [PY38, PY311, PY313, TASKGROUP, IPYTHON8, RICH, PYTEST_LONG]
PIECES = [
    "Traceback (most recent call last):",
    '  File "x.py", line 3, in f',
    "    code()",
    "    ^^^^^^",
    "ValueError: v",
    "During handling of the above exception, another exception occurred:",
    "  + Exception Group Traceback (most recent call last):",
    "  +-+---------------- 1 ----------------",
    "    | ",
    "    +------------------------------------",
    "E       KeyError: 'k'",
    "x.py:3: KeyError",
    "> ",
    "----> 5 f()",
    "Cell In[3], line 5",
    "WARNING:a.b:c",
    "x.py:1: UserWarning: w",
    "\x1b[0;31m",
    "\x1b]",
    "[0m",
    "",
]
HANG_GUARD = settings(max_examples=150, deadline=timedelta(seconds=5), suppress_health_check=[HealthCheck.too_slow])


def _parse_or_blank(text: str) -> None:
    try:
        result = parse(text)
    except InputError:
        assert not text.strip()
        return
    assert isinstance(result, ParsedError)
    assert result.kind in ("error", "warning", "log")
    assert result.source_format in ("message", "traceback", "ipython", "pytest", "log", "warning")


@HANG_GUARD
@given(st.text(max_size=5000))
def test_random_text_never_raises(text: str) -> None:
    _parse_or_blank(text)


@HANG_GUARD
@given(st.lists(st.sampled_from(PIECES), max_size=400), st.text(alphabet=" \n|+-:^~>E", max_size=50))
def test_random_structure_never_raises(pieces: list[str], glue: str) -> None:
    _parse_or_blank(glue.join(pieces))


@HANG_GUARD
@given(
    st.sampled_from(SAMPLES),
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 40), st.text(max_size=20)), max_size=20),
)
def test_mutated_real_pastes_never_raise(sample: str, edits: list[tuple[int, int, str]]) -> None:
    text = sample
    for at, cut, insert in edits:
        at %= len(text) + 1
        text = text[:at] + insert + text[at + cut :]
    _parse_or_blank(text)


# --- the line patterns readers use to skip lines never skip one a recogniser takes ----------------

LINE_SAMPLES = [
    "Traceback (most recent call last):",
    "Exception Group Traceback (most recent call last):",
    "The above exception was the direct cause of the following exception:",
    "During handling of the above exception, another exception occurred:",
    "ValueError                                Traceback (most recent call last)",
    'File "x.py", line 3, in f',
    "File ~/x.py:687, in C.f(self)",
    "Cell In[3], line 5",
    "Input In [3], in <cell line: 5>()",
    "/x/y.py in f(self)",
    "[/x/y.py](https://h/#) in f()",
    "C:\\x\\y.py in f()",
    "----> 5 f()",
    "ValueError: x",
    "pkg.mod.SomeProblem: x",
    "Unsupported: x",
    "KeyboardInterrupt",
    "click.exceptions.Abort",
    "ImportError:",
    "E       ValueError: x",
    "E",
    "> x()",
    "x.py:3: ValueError",
    "x.py:3: in f",
    "C:\\x.py:3: UserWarning: w",
    "sys:1: ResourceWarning: w",
    "FAILED t.py::test - ValueError: x",
    "ERROR t.py",
    "    def test_x():",
    "2024-05-01 12:00:00,123 - a.b - WARNING - m",
    "05/01/2024 12:00:00 - WARNING - a - m",
    "WARNING:a.b:m",
    "ERROR:    m",
    "[WARNING|x.py:1] 2024-05-01 12:00:00,1 >> m",
    "[2024-05-01 12:00:00] ERROR in app: m",
    "W0501 12:00:00.123 1 x.py:1] m",
    "INFO 05-01 12:00:00 [x.py:1] m",
    "=== FAILURES ===",
    "____ test_x ____",
    "---- Captured log ----",
    "_ _ _ _",
    "-" * 75,
    ">>> x",
    "```",
    "(venv) ana@box:~/proj$ ls",
    "In [4]: x",
    "PS C:\\x> dir",
    "Process finished with exit code 1",
    "╭──── Traceback (most recent call last) ────╮",
    "──── Traceback (most recent call last) ────",
]
_line = st.builds(
    lambda blank, sample, cut, tail: blank + sample[: len(sample) - cut] + tail,
    st.sampled_from(["", " ", "  ", "\t", "    ", "\xa0"]),
    st.sampled_from(LINE_SAMPLES),
    st.integers(0, 3),
    st.text(alphabet=" :.-]>|x1\t", max_size=4),
)


@HANG_GUARD
@given(
    st.lists(st.one_of(_line, st.text(alphabet=st.characters(blacklist_characters="\n\r"), max_size=30)), max_size=30)
)
def test_line_patterns_cover_what_recognisers_take(lines: list[str]) -> None:
    from errdex.match.parse import message as parse_message
    from errdex.match.parse import pytest_report as parse_pytest
    from errdex.match.parse import tracebacks as parse_traceback
    from errdex.match.parse.lines import Paste, head, indent, split_exception
    from errdex.match.parse.logs import located_exception, log_record

    p = Paste("\n".join(lines), lines)
    stops = set(p.marks(parse_message.STOP_LINES))
    records = set(p.marks(parse_message.STOP_OR_RECORD_LINES))
    traceback_lines = set(p.marks(parse_traceback._TRACEBACK_LINES))
    pytest_lines = set(p.marks(parse_pytest._PYTEST_LINES))
    for i, line in enumerate(lines):
        h = head(line)
        s = h.strip()
        bare = line[indent(h) :]
        if parse_message.is_boundary(p, i):
            assert i in stops and i in records
        if log_record(line) or located_exception(line) or split_exception(bare):
            assert i in records
        if split_exception(bare, loose=True) or parse_traceback._cpython_frame(s) or parse_traceback._ipython_frame(s):
            assert i in traceback_lines
        if parse_traceback._ipython7_frame(s) or parse_traceback._MARKER_RE.fullmatch(s):
            assert i in traceback_lines
        if parse_pytest._is_e_line(h) or h.startswith(("> ", "FAILED ", "ERROR ")) or parse_pytest.is_section(s):
            assert i in pytest_lines
        if parse_pytest._DEF_RE.match(h) or (h[:1] not in (" ", "\t", "") and parse_pytest.split_location(line)):
            assert i in pytest_lines


@given(st.one_of(_line, st.text(alphabet=st.characters(blacklist_characters="\n\r"), max_size=30)))
def test_a_bare_exception_line_is_no_log_record_nor_location(line: str) -> None:
    """line_records tries `Type: msg` first; that is only right while no such line is one of the others."""
    from errdex.match.parse.lines import head, indent, split_exception
    from errdex.match.parse.logs import located_exception, log_record

    if split_exception(line[indent(head(line)) :]) is not None:
        assert log_record(line) is None
        assert located_exception(line, loose=True) is None
