"""Pasted text is hostile: huge, binary, coloured, one endless line, or made of regex metacharacters.

Every paste gets an answer (a match or an honest abstention), never a crash or a hang. Time is
only guarded against hangs (a hypothesis deadline, an alarm far above any normal run), never
measured: speed is benchmarks/bench_match.py's business.
"""

from __future__ import annotations

import json
import random
import signal
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import errdex
from errdex.cli import main
from errdex.indexing import index
from errdex.match import MatchResult
from errdex.store import Store
from tests.backends import new_index

HANG_GUARD = 120  # seconds; a paste that takes this long is hung, not slow
# Literal parts as hostile as templates get; each message is raised by the fixture package below.
META_MESSAGES = {
    "star": ("expected (.*+?[{{\\ got {x} then ^$| end", "x"),
    "group": ("pattern (?P<name>[a-z]+){{2,}} does not match {x}", "x"),
    "escape": ("path C:\\new\\table.* is not [allowed] for {x} (|)", "x"),
    "braces": ("{{}} and {{0}} and %s and %(name)s are literal, {x} is not", "x"),
}
ERROR = "ValueError: expected (.*+?[{\\ got 'abc' then ^$| end"


@pytest.fixture(scope="module")
def meta(tmp_path_factory: pytest.TempPathFactory, backend: str) -> Iterator[str]:
    """A store with `meta` 1.0 indexed: one function per message of META_MESSAGES."""
    root = tmp_path_factory.mktemp("meta")
    body = "".join(
        f"\ndef {name}({arg}):\n    raise ValueError(f{template!r})\n"
        for name, (template, arg) in META_MESSAGES.items()
    )
    (root / "src" / "meta").mkdir(parents=True)
    (root / "src" / "pyproject.toml").write_text('[project]\nname = "meta"\nversion = "1.0"\n')
    (root / "src" / "meta" / "__init__.py").write_text(textwrap.dedent(body))
    db = new_index(backend, root, "meta.db")
    with Store(db) as store:
        index(str(root / "src"), store)
    yield db


@pytest.fixture
def store(meta: str) -> Iterator[Store]:
    with Store(meta) as s:
        yield s


@contextmanager
def hang_guard() -> Iterator[None]:
    """Fail (not wait forever) if the body hangs; a guard, not a timing."""

    def hung(signum: int, frame: object) -> None:
        raise AssertionError(f"no answer after {HANG_GUARD} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(HANG_GUARD)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def top(store: Store, paste: str) -> MatchResult:
    with hang_guard():
        return errdex.explain(paste, store=store, auto_index=False)


def test_the_public_errdex_explain_stays_a_function_after_the_cli_is_imported(store: Store) -> None:
    import errdex.cli  # noqa: F401 - imports errdex.pages.* as the CLI does

    assert callable(errdex.explain) and not top(store, ERROR).abstain


@pytest.mark.parametrize("name", list(META_MESSAGES))
def test_templates_made_of_regex_metacharacters_match_literally(store: Store, name: str) -> None:
    template, _ = META_MESSAGES[name]
    message = template.replace("{{", "{").replace("}}", "}").replace("{x}", "'a(b'")
    result = top(store, f"ValueError: {message}")
    assert not result.abstain, message
    best = result.matches[0]
    assert best.function == name and best.values[-1] == "'a(b'"
    # A literal "{}" in a message is written "{}" in its template too, so it reads as one more hole.
    assert best.values[:-1] == (("{}",) if name == "braces" else ())


def noise(size: int, seed: int) -> str:
    """Log-like lines of printable junk, `size` characters in all."""
    rng = random.Random(seed)
    words = ["INFO", "step", "loss=0.31", "(.*)", "[{", "ok", "Traceback?", "File", "x" * 40]
    out, n = [], 0
    while n < size:
        line = " ".join(rng.choice(words) for _ in range(12))
        out.append(line)
        n += len(line) + 1
    return "\n".join(out)[:size]


@pytest.mark.parametrize("size", [1_000_000, 10_000_000])
def test_huge_paste_is_answered_from_its_end(store: Store, size: int) -> None:
    result = top(store, noise(size, size) + "\n" + ERROR + "\n")
    assert not result.abstain and result.matches[0].function == "star"


@pytest.mark.parametrize("size", [1_000_000, 10_000_000])
def test_huge_paste_through_the_command_line(meta: Path, tmp_path: Path, size: int) -> None:
    paste = tmp_path / "paste.txt"
    paste.write_text(noise(size, 7) + "\n" + ERROR + "\n")
    with hang_guard():
        by_file = CliRunner().invoke(main, ["explain", "--file", str(paste), "--no-index", "--json", "--db", str(meta)])
        by_stdin = CliRunner().invoke(
            main, ["explain", "-", "--no-index", "--json", "--db", str(meta)], input=paste.read_text()
        )
    for result in (by_file, by_stdin):
        assert result.exit_code == 0, result.output[-2000:]
        answer = json.loads(result.stdout)
        assert not answer["abstain"] and answer["matches"][0]["function"] == "star"


def test_one_line_of_ten_megabytes_with_the_error_at_its_end(store: Store) -> None:
    result = top(store, "x" * 10_000_000 + " " + ERROR)
    assert result.matches == [] or all(0.0 <= c.confidence <= 1.0 for c in result.matches)


def test_very_long_lines_before_the_error_and_inside_it(store: Store) -> None:
    long = "(" * 200_000 + "[{" * 100_000
    value = "'" + "(.*)" * 75_000 + "'"
    result = top(store, "\n".join([long, long, ERROR.replace("'abc'", value)]))
    assert not result.abstain and result.matches[0].function == "star"
    assert result.matches[0].values == (value,)


def test_binary_garbage_is_answered_not_crashed_on(store: Store) -> None:
    rng = random.Random(3)
    raw = bytes(rng.randrange(256) for _ in range(2_000_000))
    for text in (raw.decode("latin-1"), raw.decode("utf-8", "surrogateescape"), raw.decode("utf-8", "replace")):
        result = top(store, text)
        assert result.abstain or result.matches[0].confidence >= 0.5
    result = top(store, raw.decode("latin-1") + "\n" + ERROR + "\n")
    assert result.matches and result.matches[0].function == "star"


def test_binary_garbage_through_the_command_line(meta: Path, tmp_path: Path) -> None:
    paste = tmp_path / "paste.bin"
    paste.write_bytes(bytes(range(256)) * 4000 + b"\n" + ERROR.encode() + b"\n\xff\xfe\x00")
    result = CliRunner().invoke(main, ["explain", "--file", str(paste), "--no-index", "--json", "--db", str(meta)])
    assert result.exit_code == 0, result.output[-2000:]
    assert json.loads(result.stdout)["matches"][0]["function"] == "star"


@pytest.mark.parametrize(
    "paint",
    [
        lambda s: f"\x1b[0;31m{s}\x1b[0m",
        lambda s: "".join(f"\x1b[38;5;{i % 255}m{c}" for i, c in enumerate(s)) + "\x1b[0m",
        lambda s: f"\x1b]8;;https://example.invalid\x07{s}\x1b]8;;\x07\x1b[2K\x1b[1A",
        lambda s: f"[0;31m{s}[0m",  # colours copied from a web page without their ESC
    ],
)
def test_ansi_escapes_are_removed_before_matching(store: Store, paint) -> None:
    result = top(store, paint(ERROR))
    assert not result.abstain and result.matches[0].function == "star"
    assert result.matches[0].values == ("'abc'",)


HOSTILE_TEXT = st.text(
    alphabet=st.sampled_from(list("(.*+?[{}])\\^$|'\"\n\t\x1b\x00\r é ValueErorTack:0123456789,")), max_size=2000
)


@settings(
    max_examples=150, deadline=10_000, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(
    st.one_of(
        HOSTILE_TEXT,
        st.builds(lambda pre, post: f"{pre}\n{ERROR}\n{post}", HOSTILE_TEXT, HOSTILE_TEXT),
        st.builds(lambda piece, n: piece * n, st.text(max_size=20), st.integers(1, 20_000)),
    )
)
def test_the_matcher_never_crashes_on_hostile_text(store: Store, paste: str) -> None:
    if not paste.strip():
        return
    result = errdex.explain(paste, store=store, auto_index=False)
    assert all(0.0 <= c.confidence <= 1.0 for c in result.matches)
    assert result.abstain or result.matches[0].confidence >= 0.5
    json.dumps(result.to_json())
