"""How fast errdex.match.parse reads pastes, against a plain `str.splitlines()` pass over the same text.

Run: python benchmarks/bench_parse.py [--repeat 5]
Prints one row per paste: its size, the least CPU time of parse and of the baseline, their ratio.
The pastes are built here: realistic tracebacks, IPython, pytest and log output, and hostile ones
(1 MB and 10 MB pastes, 100k exception-looking lines, binary garbage, one huge line).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from functools import partial

from errdex.match.parse import parse

SITE = "/home/ana/.venv/lib/python3.11/site-packages"
MESSAGE = "Invalid `cache_implementation` (flash). Choose one of: ('static', 'offloaded_static', 'paged')"


def cpython(frames: int, exception: str = "ValueError", message: str = MESSAGE) -> str:
    """A 3.11-style traceback with carets, `frames` deep."""
    lines = ["Traceback (most recent call last):"]
    for k in range(frames):
        lines += [
            f'  File "{SITE}/transformers/module_{k}.py", line {100 + k}, in function_{k}',
            f"    result = function_{k + 1}(config, **kwargs)",
            "             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        ]
    return "\n".join([*lines, f"{exception}: {message}", ""])


def chained() -> str:
    sep = "\nDuring handling of the above exception, another exception occurred:\n\n"
    return sep.join([cpython(5, "KeyError", "'model'"), cpython(8, "OSError", "no config"), cpython(12)])


def group(members: int = 3) -> str:
    """An exception group as 3.11+ prints it: the group's traceback, then one box per member."""
    own = cpython(3, "ExceptionGroup", f"errors ({members} sub-exceptions)").splitlines()
    out = [f"  + Exception Group {own[0]}", *(f"  | {line}" for line in own[1:])]
    for k in range(1, members + 1):
        out.append(f"  {'+-' if k == 1 else '  '}+---------------- {k} ----------------")
        out += [f"    | {line}" for line in cpython(4, "ValueError", f"bad {k}").splitlines()]
    out.append("    +------------------------------------")
    return "\n".join(out) + "\n"


def ipython() -> str:
    red, green, reset = "\x1b[0;31m", "\x1b[0;32m", "\x1b[0m"
    frames = "".join(
        f"File {green}{SITE}/transformers/m{k}.py:{687 + k}{reset}, in {green}C{k}.f{reset}(self, strict)\n"
        f"{green}    {685 + k}{reset} x = 1\n{green}--> {687 + k}{reset}     raise ValueError(\n\n"
        for k in range(10)
    )
    return (
        f"{red}{'-' * 75}{reset}\n{red}ValueError{reset}{' ' * 32}Traceback (most recent call last)\n"
        f"Cell {green}In[3], line 5{reset}\n{green}----> 5{reset} cfg.validate()\n\n{frames}"
        f"{red}ValueError{reset}: {MESSAGE}\n"
    )


def rich(frames: int) -> str:
    """A rich traceback box, its long paths wrapped at 80 columns."""
    rows = []
    for k in range(frames):
        header = f"{SITE}/transformers/module_{k}.py:{100 + k} in function_{k}"
        rows += [header[:76], header[76:], "", f"❱ {100 + k} │   result = function_{k + 1}(config)", ""]
    box = "".join(f"│ {row:<76} │\n" for row in rows)
    return f"╭{'─' * 21} Traceback (most recent call last) {'─' * 22}╮\n{box}╰{'─' * 78}╯\nValueError: {MESSAGE}\n"


def pytest_report() -> str:
    entries = "".join(
        f"\n    def step_{k}(cfg):\n>       return step_{k + 1}(cfg)\n\nsrc/pkg/m{k}.py:{10 + k}: \n{'_ ' * 40}\n"
        for k in range(15)
    )
    return (
        f"{'=' * 30} FAILURES {'=' * 30}\n{'_' * 20} test_generate {'_' * 20}\n{entries}"
        f"E       ValueError: {MESSAGE}\n\n{SITE}/transformers/generation/configuration_utils.py:687: ValueError\n"
        f"FAILED tests/test_gen.py::test_generate - ValueError: {MESSAGE[:40]}...\n"
    )


def log_file(records: int) -> str:
    rng = random.Random(1)
    levels = ["INFO", "INFO", "INFO", "WARNING", "DEBUG"]
    return "".join(
        f"2024-05-01 12:00:{k % 60:02d},{k % 1000:03d} - transformers.generation.utils - {rng.choice(levels)}"
        f" - step {k} done\n"
        for k in range(records)
    )


def noisy(size: int) -> str:
    """Program output of about `size` characters, then a traceback."""
    line = "Loading checkpoint shards:  50%|#####     | 1/2 [00:01<00:01,  1.52s/it]\n"
    return line * (size // len(line)) + cpython(20)


def exception_lines(count: int) -> str:
    kinds = ["ValueError: x", '  File "a.py", line 1, in f', "Traceback (most recent call last):"]
    kinds += ["WARNING:a.b:c", "E   e", ""]
    return "\n".join(kinds[k % len(kinds)] for k in range(count))


def garbage(size: int) -> str:
    rng = random.Random(7)
    return bytes(rng.randrange(256) for _ in range(size)).decode("latin-1")


PASTES: list[tuple[str, Callable[[], str]]] = [
    ("traceback, 20 frames", lambda: cpython(20)),
    ("chained, 3 tracebacks", chained),
    ("exception group, 3 members", group),
    ("IPython with colours", ipython),
    ("rich box, 20 frames", lambda: rich(20)),
    ("pytest long report", pytest_report),
    ("log, 10k records", lambda: log_file(10_000)),
    ("1 MB output + traceback", lambda: noisy(1_000_000)),
    ("10 MB output + traceback", lambda: noisy(10_000_000)),
    ("100k exception-looking lines", lambda: exception_lines(100_000)),
    ("1 MB of short lines", lambda: "x\n" * 500_000),
    ("1 MB of blank lines, then a message", lambda: "\n" * 1_000_000 + "ValueError: boom"),
    ("1 MB binary garbage", lambda: garbage(1_000_000)),
    ("10 MB one line", lambda: "ValueError: " + "a" * 10_000_000),
]


def best(function: Callable[[], object], repeat: int) -> float:
    """The least CPU time of `repeat` runs: other processes on the machine count for little."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return min(times)


def baseline(text: str) -> int:
    """A plain linear pass: split the text into lines and touch each one."""
    return sum(1 for _ in text.splitlines())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"{'paste':32} {'chars':>10} {'parse ms':>10} {'lines ms':>10} {'ratio':>8}  result")
    for name, build in PASTES:
        text = build()
        parsed = best(partial(parse, text), args.repeat)
        plain = best(partial(baseline, text), args.repeat)
        result = parse(text)
        print(
            f"{name:32} {len(text):>10} {parsed * 1000:>10.2f} {plain * 1000:>10.2f} {parsed / plain:>8.1f}"
            f"  {result.source_format}: {result.exception}"
        )


if __name__ == "__main__":
    main()
