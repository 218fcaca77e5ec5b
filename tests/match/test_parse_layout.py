"""errdex.match.parse on pastes laid out otherwise than the program printed them: per-line prefixes
(containers, process managers, CI, loggers), tracebacks flattened onto one line, and several errors in one
paste. Real texts are read by id from the corpus of real pastes (benchmarks/pastes/, each case quoted verbatim
from the public issue thread its `source` names)."""

from __future__ import annotations

import functools
import json

import pytest

from benchmarks.real_pastes import load_pastes
from errdex.match.parse import parse, release_path
from errdex.model import ParsedError
from tests.flagship import CACHE_NAMES

FLAGSHIP_FILE = "transformers/generation/configuration_utils.py"
FLAGSHIP_MESSAGE = "Invalid `cache_implementation` (statc). Choose one of: " + repr(tuple(CACHE_NAMES))
# GenerationConfig.validate raising as Python 3.12 prints it (transformers 5.16.0)
FLAGSHIP_TRACEBACK = f"""Traceback (most recent call last):
  File "/home/me/run.py", line 4, in <module>
    model.generate(**inputs, cache_implementation="statc")
  File "/venv/lib/python3.12/site-packages/transformers/generation/utils.py", line 2290, in generate
    generation_config, model_kwargs = self._prepare_generation_config(generation_config, **kwargs)
                                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/venv/lib/python3.12/site-packages/transformers/generation/configuration_utils.py", line 687, in validate
    raise ValueError(
ValueError: {FLAGSHIP_MESSAGE}
"""


def innermost(result: ParsedError) -> tuple[str | None, int | None]:
    """The release path and line of the innermost frame the parse read."""
    frame = result.frames[-1]
    return release_path(frame.file), frame.line


# --- per-line prefixes ------------------------------------------------------------------------------


@functools.cache
def _corpus() -> dict[str, str]:
    return {case.id: case.text for case in load_pastes()}


def real(case_id: str) -> str:
    """The text of a case of the real-paste corpus."""
    return _corpus()[case_id]


@pytest.mark.parametrize(
    ("case", "exception", "message", "site"),
    [
        (  # `docker compose`: the service's name and a bar
            "flask-p4",
            "TypeError",
            "The view function for 'index' did not return a valid response. The function either returned None"
            " or ended without a return statement.",
            ("flask/app.py", 1212),
        ),
        (  # Docker Desktop's log view: a time before the service
            "openai-p5",
            "openai.OpenAIError",
            "The api_key client option must be set either by passing api_key to the client or by setting the"
            " OPENAI_API_KEY environment variable",
            ("openai/_client.py", 105),
        ),
        # journalctl: time, host and process; the logger's record indented under it
        ("aiohttp-p2", "RuntimeError", "Session is closed", ("aiohttp/client.py", 357)),
        # vLLM's server names its process; the paste is cut inside the message
        ("starlette-p4", "RuntimeError", "Caught handled exception, but resp", ("starlette/_exception_handler.py", 56)),
        (  # a log collector's time and a bar, the message on two lines
            "transformers-p3",
            "OSError",
            "We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in the cached"
            " files and it looks like sentence-transformers/all-MiniLM-L6-v2 is not the path to a directory"
            " containing a file named config.json.\nCheckout your internet connection or see how to run the"
            " library in offline mode at 'https://huggingface.co/docs/transformers/installation#offline-mode'.",
            ("transformers/utils/hub.py", 446),
        ),
        (  # `docker compose`, a bar alone on a blank line, and the second traceback of a chain cut off
            "alembic-p1",
            "alembic.util.exc.CommandError",
            "Can't locate revision identified by '30a419ca143e'",
            ("alembic/script/base.py", 286),
        ),
        (  # a traceback quoted in a reply, `> ` before each line
            "networkx-p3",
            "networkx.exception.NetworkXError",
            "The node 1266.1|1266.2 is not in the digraph.",
            ("networkx/classes/digraph.py", 461),
        ),
    ],
)
def test_prefixed_traceback_reads_as_a_traceback(
    case: str, exception: str, message: str, site: tuple[str, int]
) -> None:
    result = parse(real(case))
    assert (result.exception, result.message, result.source_format) == (exception, message, "traceback")
    assert innermost(result) == site


def test_logger_prefix_with_time_and_level() -> None:
    """paramiko-p5: `2015-10-20 16:56:57,941;ERROR - ` on each line of a logged traceback, then the script's own."""
    result = parse(real("paramiko-p5"))
    assert (result.exception, result.source_format) == ("SSHException", "traceback")
    assert result.message.startswith("Incompatible ssh peer (no acceptable kex algorithm)")
    assert innermost(result) == ("paramiko/transport.py", 1826)
    assert [f.code for f in result.frames][
        -1
    ] == "raise SSHException('Incompatible ssh peer (no acceptable kex algorithm)')"


def test_prefixed_code_lines_keep_their_code() -> None:
    result = parse(real("aiohttp-p2"))
    assert [f.code for f in result.frames] == [
        "fingerprint=self.ssl_assert_fingerprint,",
        "self._resp = await self._coro",
        "raise RuntimeError('Session is closed')",
    ]


def test_ci_prefix_of_two_columns_and_the_error_before_a_warning() -> None:
    """peft-p3, Kaggle's log: time and line-number columns. The error is the main record; the FutureWarning
    nbconvert printed after it is among the others."""
    result = parse(real("peft-p3"))
    assert (result.exception, result.message) == ("ValueError", "Can't find 'adapter_config.json' at 'ver_1'")
    assert [(o.exception, o.frames[0].line) for o in result.others] == [("FutureWarning", 2915)]


def test_flagship_behind_a_compose_prefix() -> None:
    text = "".join(f"web-1  | {line}\n" for line in FLAGSHIP_TRACEBACK.splitlines())
    result = parse(text)
    assert (result.exception, result.message) == ("ValueError", FLAGSHIP_MESSAGE)
    assert innermost(result) == (FLAGSHIP_FILE, 687)
    assert result.frames[-2].code.startswith("generation_config, model_kwargs")  # type: ignore[union-attr]


def test_prefix_in_two_parts_that_blank_lines_carry_half_of() -> None:
    """ray-q1: Ray's `(RayTrainWorker pid=43515) ` before torch's `[rank1]: `; the blank lines of the chain carry
    the first part only. Both parts come off, so the chain is read: the last AttributeError, after the other."""
    result = parse(real("ray-q1"))
    assert (result.exception, result.source_format) == ("AttributeError", "traceback")
    assert result.message.startswith("'Worker' object has no attribute 'core_worker'")
    assert innermost(result) == ("ray/_private/utils.py", 178)
    assert [c.exception for c in result.chained] == ["AttributeError"]


def test_flagship_behind_a_process_and_a_rank_prefix() -> None:
    lines = FLAGSHIP_TRACEBACK.splitlines()
    text = "".join(f"(Worker pid=7) [rank0]: {line}\n" if line else "(Worker pid=7)\n" for line in ["", *lines, ""])
    result = parse(text)
    assert (result.exception, result.message) == ("ValueError", FLAGSHIP_MESSAGE)
    assert innermost(result) == (FLAGSHIP_FILE, 687)


def test_log_records_behind_a_compose_prefix_keep_their_levels() -> None:
    """Once the container's name is off, the log records' times and levels are no second prefix."""
    text = "".join(
        f"web-1  | 2024-05-01 12:00:0{k},123 {level} [worker] job {k} {what}\n"
        for k, (level, what) in enumerate([("INFO", "started"), ("ERROR", "failed: disk full"), ("INFO", "done")])
    )
    result = parse(text + "web-1  | RuntimeWarning: slow\n")
    assert [(o.source_format, o.message) for o in result.others] == [("log", "job 1 failed: disk full")]


# --- prefixes that are no prefix --------------------------------------------------------------------


def test_log_records_keep_their_levels() -> None:
    """Lines of one shape whose start is the record itself: a log file's time and level are read, not cut."""
    text = "".join(
        f"2024-05-01 12:00:0{k},123 {level} [worker] job {k} {what}\n"
        for k, (level, what) in enumerate([("INFO", "started"), ("ERROR", "failed: disk full"), ("INFO", "done")])
    )
    result = parse(text)
    assert (result.source_format, result.message) == ("log", "job 1 failed: disk full")


def test_exception_lines_keep_their_types() -> None:
    result = parse("KeyError: 'model'\nValueError: bad value: 3\n")
    assert (result.exception, result.message) == ("ValueError", "bad value: 3")
    assert [(o.exception, o.message) for o in result.others] == [("KeyError", "'model'")]


# --- flattened tracebacks ---------------------------------------------------------------------------


def test_flattened_traceback_from_an_issue() -> None:
    """aiohttp-p1: the frame, its code and the exception on one line."""
    result = parse(real("aiohttp-p1"))
    assert result.exception == "aiohttp.client_exceptions.ContentTypeError"
    assert result.message.startswith("0, message='Attempt to decode JSON with unexpected mimetype: '")
    assert innermost(result) == ("aiohttp/client_reqrep.py", 1097)
    assert result.frames[-1].code == "raise ContentTypeError("


@pytest.mark.parametrize("joint", [" ", "  ", "\t"], ids=["space", "two-spaces", "tab"])
def test_flagship_flattened_onto_one_line(joint: str) -> None:
    text = joint.join(FLAGSHIP_TRACEBACK.splitlines())
    result = parse(text)
    assert (result.exception, result.message, result.source_format) == ("ValueError", FLAGSHIP_MESSAGE, "traceback")
    assert [(release_path(f.file), f.line, f.function) for f in result.frames] == [
        (None, 4, "<module>"),
        ("transformers/generation/utils.py", 2290, "generate"),
        (FLAGSHIP_FILE, 687, "validate"),
    ]
    assert result.frames[-1].code == "raise ValueError("


def test_flattened_chain_and_the_message_before_it() -> None:
    text = (
        "ERROR:root:Failed to load: no config Traceback (most recent call last):"
        ' File "/x/site-packages/pkg/a.py", line 3, in load     return json.loads(raw)["model"]'
        " KeyError: 'model'  During handling of the above exception, another exception occurred: "
        ' Traceback (most recent call last): File "/x/site-packages/pkg/b.py", line 9, in read'
        '     raise OSError("no config") from None OSError: no config'
    )
    result = parse(text)
    assert (result.exception, result.message, innermost(result)) == ("OSError", "no config", ("pkg/b.py", 9))
    assert [(c.exception, c.message, innermost(c)) for c in result.chained] == [
        ("KeyError", "'model'", ("pkg/a.py", 3))
    ]


# --- several errors in one paste --------------------------------------------------------------------


def test_warnings_before_the_fatal_traceback_are_listed() -> None:
    """scipy-p1: two RuntimeWarnings, then the exception that stopped the program."""
    result = parse(real("scipy-p1"))
    assert (result.exception, innermost(result)) == ("Exception", (None, 2505))
    assert result.frames[-1].file == ".../scipy/stats/_distn_infrastructure.py"
    assert [(o.exception, o.message, o.frames[0].line) for o in result.others] == [
        ("RuntimeWarning", "The iteration is not making good progress, as measured by the", 175),
        ("RuntimeWarning", "invalid value encountered in subtract", 761),
    ]


def test_message_logged_before_its_traceback_is_listed() -> None:
    """flask-p4: Flask logs `Exception on / [HEAD]` with logging.exception, then the traceback."""
    result = parse(real("flask-p4"))
    assert result.exception == "TypeError"
    assert [(o.kind, o.message) for o in result.others] == [("log", "Exception on / [HEAD]")]


def test_earlier_unrelated_traceback_is_listed_not_chained() -> None:
    text = FLAGSHIP_TRACEBACK + FLAGSHIP_TRACEBACK.replace("(statc)", "(stat)")
    result = parse(text)
    assert result.message == FLAGSHIP_MESSAGE.replace("(statc)", "(stat)")
    assert result.chained == ()
    assert [(o.message, innermost(o)) for o in result.others] == [(FLAGSHIP_MESSAGE, (FLAGSHIP_FILE, 687))]


def test_traceback_cut_before_its_exception_line_keeps_its_frames() -> None:
    """accelerate-p2: argparse's error, then `accelerate launch`'s traceback, pasted without its last line."""
    result = parse(real("accelerate-p2"))
    assert (result.exception, result.source_format) == (None, "traceback")
    assert innermost(result) == ("accelerate/commands/launch.py", 567)
    assert result.frames[-1].code == "raise subprocess.CalledProcessError(returncode=process.returncode, cmd=cmd)"


def test_a_complete_traceback_outranks_a_later_cut_one() -> None:
    text = FLAGSHIP_TRACEBACK + "\n" + "\n".join(FLAGSHIP_TRACEBACK.splitlines()[:4])
    result = parse(text)
    assert (result.exception, result.message, innermost(result)) == (
        "ValueError",
        FLAGSHIP_MESSAGE,
        (FLAGSHIP_FILE, 687),
    )


# --- a message printed before a traceback cut short ----------------------------------------------------


def test_a_traceback_cut_before_its_exception_takes_the_text_printed_above_it() -> None:
    """A test runner printed the library's message, then the traceback, which the paste cuts off."""
    result = parse(real("transformers-p5"))
    assert result.exception is None and result.source_format == "traceback"
    assert "Asking to pad but the tokenizer does not have a padding token." in result.message
    assert innermost(result) == ("transformers/tokenization_utils_base.py", 2868) and result.printed_above


def test_a_traceback_cut_before_its_exception_takes_the_record_logged_above_it() -> None:
    """batou logs the exception's repr at ERROR, then the simplified traceback, which the paste cuts off: the
    record, only the repr, is the exception, and it is not listed again among the others."""
    result = parse(real("jinja2-p1"))
    assert (result.exception, result.message, result.kind) == (
        "TemplateSyntaxError",
        "Missing end of comment tag",
        "error",
    )
    assert not result.others
    assert result.frames[-1].file == "<unknown>" and innermost(result) == (None, 7)


# --- frame lines wrapped by a terminal or an editor ----------------------------------------------------


def test_frame_lines_wrapped_inside_their_path_are_joined() -> None:
    """A Windows console wrapped every frame at 80 columns, inside `site-packages` (sqlalchemy-p2)."""
    result = parse(real("sqlalchemy-p2"))
    assert (result.exception, result.message) == ("sqlalchemy.exc.ArgumentError", "Could not parse")
    assert innermost(result) == ("sqlalchemy/engine/url.py", 799) and result.frames[-1].function == "_parse_url"


def test_frame_lines_wrapped_after_their_path_are_joined() -> None:
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/env/lib/python3.5/site-packages/redis/client.py",\n'
        "line 572, in execute_command\n"
        "    connection.send_command(*args)\n"
        "redis.exceptions.ConnectionError: Error 111 connecting to localhost:6379. Connection refused.\n"
    )
    assert innermost(parse(paste)) == ("redis/client.py", 572)


# --- a chain whose last traceback is cut before its exception line ---------------------------------------


def test_the_last_traceback_of_a_chain_cut_in_its_exception_line_is_the_main_record() -> None:
    """urllib3-p4: three tracebacks chained by "During handling ...", the last one cut at `urllib3.exceptions.`:
    it was raised last, so its frames are the main record's, and the two complete ones are its chain."""
    result = parse(real("urllib3-p4"))
    assert (result.exception, result.message, result.source_format) == (None, "", "traceback")
    assert (result.frames[-1].file, result.frames[-1].line) == ("urllib3/util/retry.py", 446)
    assert [c.exception for c in result.chained] == ["ConnectionRefusedError", "urllib3.exceptions.NewConnectionError"]


@pytest.mark.parametrize(
    "separator",
    [
        "During handling of the above exception, another exception occurred:",
        "The above exception was the direct cause of the following exception:",
    ],
)
@pytest.mark.parametrize("end", ["", "ValueE", "transformers."], ids=["no-exception-line", "cut-name", "cut-module"])
def test_a_chain_cut_before_its_last_exception_line_keeps_the_last_frames(separator: str, end: str) -> None:
    """The last traceback stops after its `raise`, or in its exception line's type: its last frame raised."""
    cause = FLAGSHIP_TRACEBACK.replace("(statc)", "(stat)")
    last = "\n".join(FLAGSHIP_TRACEBACK.splitlines()[:-1])
    result = parse(f"{cause}\n{separator}\n\n{last}\n{end}\n")
    assert (result.exception, result.message, innermost(result)) == (None, "", (FLAGSHIP_FILE, 687))
    assert [(c.exception, c.message) for c in result.chained] == [
        ("ValueError", FLAGSHIP_MESSAGE.replace("(statc)", "(stat)"))
    ]
    assert result.others == ()


@pytest.mark.parametrize("cut", [4, 6], ids=["after-a-frame", "after-a-call"])
def test_a_chain_cut_among_its_last_frames_keeps_the_complete_record(cut: int) -> None:
    """jinja2-p4's shape: the last traceback stops in frames that call on (they may lead into other code): the
    complete exception before it, whose message was pasted, stays the main record."""
    last = "\n".join(FLAGSHIP_TRACEBACK.splitlines()[:cut])
    separator = "During handling of the above exception, another exception occurred:"
    result = parse(f"{FLAGSHIP_TRACEBACK}\n{separator}\n\n{last}\n")
    assert (result.exception, result.message, innermost(result)) == (
        "ValueError",
        FLAGSHIP_MESSAGE,
        (FLAGSHIP_FILE, 687),
    )


def test_a_chain_cut_in_frames_into_other_code_keeps_the_complete_record() -> None:
    """jinja2-p4: Home Assistant's traceback, cut after a frame of its own, follows jinja2's TemplateSyntaxError."""
    result = parse(real("jinja2-p4"))
    assert (result.exception, result.message) == (
        "jinja2.exceptions.TemplateSyntaxError",
        "Encountered unknown tag 'something'.",
    )
    assert innermost(result) == ("jinja2/parser.py", 50)


def test_a_cut_traceback_after_a_complete_one_without_a_separator_is_not_the_main_record() -> None:
    text = FLAGSHIP_TRACEBACK + "\nsomething else\n" + "\n".join(FLAGSHIP_TRACEBACK.splitlines()[:4]) + "\n"
    result = parse(text)
    assert (result.exception, innermost(result)) == ("ValueError", (FLAGSHIP_FILE, 687))


# --- IPython < 7 frames pasted without their traceback's header ------------------------------------------


def test_old_ipython_frames_without_a_header_are_read() -> None:
    """urllib3-p5: IPython 6's `path in function(args)` frames, the first wrapped before its function, and the
    arrowed source line, pasted without the `---- Traceback` header: the file and the arrowed line are a frame."""
    result = parse(real("urllib3-p5"))
    assert (result.exception, result.message, result.source_format) == (
        "LocationParseError",
        "Failed to parse: http://[[127.1]]",
        "ipython",
    )
    assert [(release_path(f.file), f.line) for f in result.frames] == [
        ("urllib3/util/url.py", 401),
        ("urllib3/packages/six.py", None),
    ]
    assert result.frames[0].code == "return six.raise_from(LocationParseError(source_url),"


def test_old_ipython_flagship_without_a_header() -> None:
    text = (
        "/venv/lib/python3.6/site-packages/transformers/generation/configuration_utils.py in validate(self, strict)\n"
        "    685         if self.cache_implementation not in ALL_CACHE_IMPLEMENTATIONS:\n"
        "    686             raise ValueError(\n"
        '--> 687                 f"Invalid `cache_implementation` ({self.cache_implementation}). Choose one of: "\n'
        "\n"
        f"ValueError: {FLAGSHIP_MESSAGE}\n"
    )
    result = parse(text)
    assert (result.exception, result.message) == ("ValueError", FLAGSHIP_MESSAGE)
    assert innermost(result) == (FLAGSHIP_FILE, 687) and result.frames[-1].function == "validate"


@pytest.mark.parametrize(
    "text",
    [
        "/home/me/run.py in 3 places\nsee above\nValueError: bad",  # no numbered source line under it
        "/home/me/notes.txt in review\n  12 lines changed\nValueError: bad",  # not a Python file
    ],
)
def test_a_path_in_words_is_no_old_ipython_frame(text: str) -> None:
    result = parse(text)
    assert (result.exception, result.frames) == ("ValueError", ())


# --- an exception printed as its repr in a log record -------------------------------------------------------


def test_a_repr_after_a_library_log_template_is_one_more_error() -> None:
    """langchain-core-p2: Celery's `[time: LEVEL] logger: ` format, then langchain's own `Error in {} callback: {}`
    holding the repr: the log line stays the record (its logger names the module), the AttributeError is listed."""
    result = parse(real("langchain-core-p2"))
    assert (result.kind, result.exception, result.source_format) == ("log", None, "log")
    assert result.message.startswith("Error in LangChainTracer.on_chain_end callback: AttributeError(")
    assert [(f.file, f.line) for f in result.frames] == [("langchain_core/callbacks/manager.py", None)]
    assert [(o.exception, o.message) for o in result.others] == [
        ("AttributeError", "'NoneType' object has no attribute 'append'")
    ]


@pytest.mark.parametrize(
    "line",
    [
        "ERROR: ValueError('bad value: 3')",
        '2024-05-01 12:00:03,123 ERROR [worker] ValueError("bad value: 3")',
        "[2024-05-01 12:00:03,123: ERROR/MainProcess] ValueError('bad value: 3',)",  # Python 2's repr
    ],
)
def test_a_log_record_that_is_only_a_repr_is_the_exception(line: str) -> None:
    result = parse(line)
    assert (result.exception, result.message, result.kind, result.frames) == ("ValueError", "bad value: 3", "error", ())


@pytest.mark.parametrize(
    "line",
    [
        "ERROR: job failed: Point('a', 'b')",  # a call on strings, no exception's name
        "ERROR: job failed: ValueError(msg)",  # no string literal
        "ERROR: job failed: ValueError('a' + b)",  # more than a literal
        "ERROR: job failed: ValueError('unclosed)",
    ],
)
def test_what_is_no_exception_repr_leaves_the_log_record(line: str) -> None:
    result = parse(line)
    assert (result.kind, result.exception, result.others) == ("log", None, ())


# --- a traceback JSON-escaped by a web client or a structured logger --------------------------------------


def test_a_traceback_as_a_json_array_of_lines_is_read() -> None:
    """jsonschema-p1: a browser console printed the server's JSON reply, the traceback's lines as an array."""
    result = parse(real("jsonschema-p1"))
    assert (result.exception, result.source_format) == ("jsonschema.exceptions.ValidationError", "traceback")
    assert result.message.startswith("u'upload file' is not one of ['supload file', 'sxml file']\n\nFailed validating")
    assert innermost(result) == ("jsonschema/validators.py", 117) and result.frames[-1].code == "raise error"


def test_a_traceback_in_one_json_string_of_a_log_record_is_read() -> None:
    """celery-p4: a JSON log record whose `exc_info` holds the traceback, its line breaks escaped."""
    result = parse(real("celery-p4"))
    assert result.exception == "NotImplementedError"
    assert (result.frames[-1].file, result.frames[-1].line) == ("/Users/leohemsted/dev/api/app/celery/tasks.py", 168)
    assert innermost(result) == (None, 168)
    assert [release_path(f.file) for f in result.frames][:1] == ["celery/app/trace.py"] and len(result.frames) == 6


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(FLAGSHIP_TRACEBACK.splitlines(), indent=2),
        json.dumps({"level": "error", "exc_info": FLAGSHIP_TRACEBACK.rstrip()}, indent=2),
        "job failed " + json.dumps({"exc_info": FLAGSHIP_TRACEBACK.rstrip()}),
    ],
    ids=["array", "object", "one-line"],
)
def test_flagship_json_escaped(text: str) -> None:
    result = parse(text)
    assert (result.exception, result.message.splitlines()[0]) == ("ValueError", FLAGSHIP_MESSAGE)
    assert innermost(result) == (FLAGSHIP_FILE, 687) and result.frames[-1].code == "raise ValueError("


def test_an_escaped_quote_outside_a_json_string_is_left_alone() -> None:
    text = 'print("File \\"x.py\\" not found")\nValueError: File \\"x.py\\" not found'
    result = parse(text)
    assert (result.exception, result.message, result.frames) == ("ValueError", 'File \\"x.py\\" not found', ())


# --- log formats with a thread before the logger, a two-digit year ---------------------------------------


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("urllib3-p6", "Connection pool is full, discarding connection: 192.168.0.49. Connection pool size: 10"),
        ("urllib3-p7", "Retrying (Retry(total=1, connect=None, read=None, redirect=None, status=None)) after"),
    ],
)
def test_a_log_line_with_its_thread_before_the_logger_names_the_module(case: str, message: str) -> None:
    """Home Assistant writes `%(asctime)s %(levelname)s (%(threadName)s) [%(name)s] %(message)s`, here with a
    four- and a two-digit year: the logger's name is the module the record came from."""
    result = parse(real(case))
    assert result.kind == "log" and result.message.startswith(message)
    assert [f.file for f in result.frames] == ["urllib3/connectionpool.py"]
