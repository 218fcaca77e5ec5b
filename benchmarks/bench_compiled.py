"""errdex's analysis of compiled sources (C, C++, Rust, Cython) against a plain tree-sitter parse of the same files.

For each tree given (an sdist archive or a folder), the compiled sources errdex reads are listed
(`language_of(path) not in (None, "python")`, outside the folders no release builds its messages from:
tests, docs, examples, vendored code), read into memory first so that the disk is not timed, then, in one
process and round by round:

- errdex: `analyse_file(path, data)` of every compiled file (files, bytes, sites, sites with a template,
  sites per language and per exception class);
- the baseline: `grammar.parser(language).parse(data)` of the same C, C++ and Rust files with the same
  grammars. Tree-sitter has no Cython grammar: Cython files are timed for errdex only and left out of the
  ratio. errdex can be faster than a full parse: a file naming no raiser is never parsed (the share of files
  parsed is printed, counted in an untimed pass);
- the per-byte budget: `analyse_file` of the `.py` files of the same tree, the same way; microseconds per KB
  for the compiled sources and for Python, and their ratio.

Each measurement is the median of `--rounds` rounds (wall clock and CPU time of this process); each timed run
ends with a full garbage collection. The five files errdex is slowest on are listed with their sizes.

    python benchmarks/bench_compiled.py --numpy numpy-2.1.3.tar.gz --torch src/torch [--rounds 3] [--json out.json]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import tarfile
import time
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from unittest import mock

import errdex.extract.compiled.c_family as c_family
import errdex.extract.compiled.rust as rust
from errdex.extract import analyse_file
from errdex.extract.compiled.grammar import parser
from errdex.model import Language, language_of
from errdex.sources.layout import compiled_skipped

TREE_SITTER: tuple[Language, ...] = ("c", "cpp", "rust")  # the languages the baseline parses
SLOW_FILE = 0.5  # seconds: a file errdex takes longer on than this is called slow


def members(location: Path) -> Iterator[tuple[str, bytes]]:
    """(path inside the tree, bytes) of every file of an sdist archive (its top folder dropped) or a folder."""
    if location.is_dir():
        for root, dirs, files in os.walk(location):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(files):
                path = Path(root) / name
                if path.is_file() and not path.is_symlink():
                    yield path.relative_to(location).as_posix(), path.read_bytes()
    elif zipfile.is_zipfile(location):
        with zipfile.ZipFile(location) as zf:
            for info in zf.infolist():
                if not info.is_dir():
                    yield info.filename.partition("/")[2], zf.read(info)
    else:
        with tarfile.open(location) as tf:
            for info in tf:
                if info.isfile():
                    handle = tf.extractfile(info)
                    if handle is not None:
                        yield info.name.partition("/")[2], handle.read()


def wanted(path: str) -> bool:
    """What errdex reads of a project tree: nothing in hidden, test, example or vendored folders."""
    return not compiled_skipped(path.split("/"))


@dataclass
class Tree:
    name: str
    compiled: list[tuple[str, Language, bytes]] = field(default_factory=list)
    python: list[tuple[str, bytes]] = field(default_factory=list)

    @classmethod
    def read(cls, name: str, location: Path) -> Tree:
        tree = cls(name)
        for path, data in members(location):
            language = language_of(path)
            if language is None or not wanted(path):
                continue
            if language == "python":
                tree.python.append((path, data))
            else:
                tree.compiled.append((path, language, data))
        return tree

    def parsed_by_tree_sitter(self) -> list[tuple[str, Language, bytes]]:
        return [f for f in self.compiled if f[1] in TREE_SITTER]


@dataclass
class Timing:
    wall: float
    cpu: float


def timed(run: Callable[[], None]) -> Timing:
    started, cpu = time.perf_counter(), time.process_time()
    run()
    gc.collect()
    return Timing(time.perf_counter() - started, time.process_time() - cpu)


def median(timings: list[Timing]) -> Timing:
    return Timing(statistics.median(t.wall for t in timings), statistics.median(t.cpu for t in timings))


@dataclass
class Found:
    """What errdex found in a set of files (the same every round)."""

    sites: int = 0
    with_template: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    per_language: Counter[str] = field(default_factory=Counter)
    per_language_templated: Counter[str] = field(default_factory=Counter)
    per_exception: Counter[str] = field(default_factory=Counter)


def analyse_all(files: list[tuple[str, bytes]], found: Found | None, per_file: dict[str, list[float]]) -> None:
    for path, data in files:
        started = time.perf_counter()
        result = analyse_file(path, data)
        per_file.setdefault(path, []).append(time.perf_counter() - started)
        if found is None:
            continue
        if result.skip is not None:
            found.skipped[result.skip.split(":")[0]] += 1
        language = language_of(path) or "?"
        for site in result.sites:
            found.sites += 1
            found.per_language[language] += 1
            found.per_exception[site.exception or "(no class)"] += 1
            if site.templates:
                found.with_template += 1
                found.per_language_templated[language] += 1


def baseline(files: list[tuple[str, Language, bytes]]) -> None:
    for _, language, data in files:
        parser(language).parse(data)


def files_parsed(files: list[tuple[str, bytes]]) -> set[str]:
    """The compiled files errdex hands to tree-sitter (untimed: its parser is wrapped to count the calls)."""
    parsed: set[str] = set()
    current = [""]

    def counting(language: Language):  # type: ignore[no-untyped-def]
        parsed.add(current[0])
        return parser(language)

    with mock.patch.object(c_family, "parser", counting), mock.patch.object(rust, "parser", counting):
        for path, data in files:
            current[0] = path
            analyse_file(path, data)
    return parsed


def kb(files: list[tuple[str, bytes]]) -> float:
    return sum(len(d) for _, d in files) / 1000


def run(tree: Tree, rounds: int) -> dict[str, object]:
    compiled = [(p, d) for p, _, d in tree.compiled]
    parsed_files = tree.parsed_by_tree_sitter()
    grammar_files = [(p, d) for p, _, d in parsed_files]
    cython_files = [(p, d) for p, lang, d in tree.compiled if lang == "cython"]
    python = tree.python
    print(
        f"\n== {tree.name}: {len(compiled)} compiled files ({kb(compiled) / 1000:.1f} MB),"
        f" {len(python)} Python files ({kb(python) / 1000:.1f} MB)"
    )
    counts = Counter(lang for _, lang, _ in tree.compiled)
    sizes = Counter[str]()
    for _, lang, data in tree.compiled:
        sizes[lang] += len(data)
    print("   " + ", ".join(f"{lang} {counts[lang]} files / {sizes[lang] / 1e6:.1f} MB" for lang in sorted(counts)))
    parser("c"), parser("cpp"), parser("rust")  # made once per process, before any timing

    found = Found()
    per_file: dict[str, list[float]] = {}
    errdex_grammar, errdex_cython, base, py = [], [], [], []
    for round_ in range(1, rounds + 1):
        counted = found if round_ == 1 else None  # what errdex finds is the same every round
        errdex_grammar.append(timed(partial(analyse_all, grammar_files, counted, per_file)))
        errdex_cython.append(timed(partial(analyse_all, cython_files, counted, per_file)))
        base.append(timed(partial(baseline, parsed_files)))
        py.append(timed(partial(analyse_all, python, None, {})))
        print(
            f"   round {round_}: errdex c/c++/rust {errdex_grammar[-1].wall:.2f}s, tree-sitter parse"
            f" {base[-1].wall:.2f}s, errdex cython {errdex_cython[-1].wall:.2f}s, errdex python {py[-1].wall:.2f}s"
        )
    mg, mc, mb, mp = median(errdex_grammar), median(errdex_cython), median(base), median(py)
    parsed = files_parsed(grammar_files)
    compiled_wall, compiled_cpu = mg.wall + mc.wall, mg.cpu + mc.cpu
    compiled_us_kb = compiled_cpu / kb(compiled) * 1e6 if compiled else 0.0
    grammar_us_kb = mg.cpu / kb(grammar_files) * 1e6 if grammar_files else 0.0
    python_us_kb = mp.cpu / kb(python) * 1e6 if python else 0.0
    sizes_of = {p: len(d) for p, d in compiled}
    slowest = sorted(((statistics.median(t), p) for p, t in per_file.items()), reverse=True)[:5]

    rows = [
        ("errdex, c/c++/rust", len(grammar_files), kb(grammar_files), mg),
        ("tree-sitter parse, c/c++/rust", len(grammar_files), kb(grammar_files), mb),
        ("errdex, cython (not in the ratio)", len(cython_files), kb(cython_files), mc),
        ("errdex, all compiled", len(compiled), kb(compiled), Timing(compiled_wall, compiled_cpu)),
        ("errdex, python", len(python), kb(python), mp),
    ]
    print(f"   median of {rounds} rounds:")
    print(f"   {'':<36}{'files':>7}{'MB':>8}{'wall s':>9}{'cpu s':>9}{'µs/KB cpu':>11}")
    for label, n, size, t in rows:
        per_kb = t.cpu / size * 1e6 if size else 0.0
        print(f"   {label:<36}{n:>7}{size / 1000:>8.1f}{t.wall:>9.2f}{t.cpu:>9.2f}{per_kb:>11.1f}")
    ratio_wall = mg.wall / mb.wall if mb.wall else 0.0
    ratio_cpu = mg.cpu / mb.cpu if mb.cpu else 0.0
    share = len(parsed) / len(grammar_files) if grammar_files else 0.0
    print(
        f"   errdex / tree-sitter parse (c/c++/rust): {ratio_wall:.2f} wall, {ratio_cpu:.2f} cpu;"
        f" errdex parsed {len(parsed)} of {len(grammar_files)} files ({share:.0%}),"
        f" {sum(sizes_of[p] for p in parsed) / 1e6:.1f} of {kb(grammar_files) / 1000:.1f} MB"
    )
    budget = compiled_us_kb / python_us_kb if python_us_kb else 0.0
    print(
        f"   per byte (cpu): compiled {compiled_us_kb:.1f} µs/KB (c/c++/rust {grammar_us_kb:.1f}),"
        f" python {python_us_kb:.1f} µs/KB: compiled / python {budget:.2f}"
    )
    print(
        f"   sites: {found.sites}, with a template {found.with_template}"
        f" ({found.with_template / found.sites if found.sites else 0:.0%})"
    )
    for lang in sorted(found.per_language):
        templated = found.per_language_templated[lang]
        print(f"     {lang:<8}{found.per_language[lang]:>7} sites, {templated:>7} with a template")
    print("   top exception classes: " + ", ".join(f"{e} {n}" for e, n in found.per_exception.most_common(10)))
    if found.skipped:
        print("   files skipped: " + ", ".join(f"{n} {why}" for why, n in found.skipped.most_common()))
    print(
        "   slowest files for errdex (median): "
        + "; ".join(f"{p} {t * 1000:.0f} ms ({sizes_of[p] / 1000:.0f} KB)" for t, p in slowest)
    )
    slow = [p for p, t in per_file.items() if statistics.median(t) > SLOW_FILE]
    if slow:
        print(f"   files over {SLOW_FILE} s: {len(slow)}")
    return {
        "tree": tree.name,
        "rounds": rounds,
        "compiled_files": len(compiled),
        "compiled_bytes": sum(sizes_of.values()),
        "files_per_language": dict(counts),
        "bytes_per_language": dict(sizes),
        "python_files": len(python),
        "python_bytes": int(kb(python) * 1000),
        "errdex_grammar_s": {"wall": mg.wall, "cpu": mg.cpu},
        "tree_sitter_s": {"wall": mb.wall, "cpu": mb.cpu},
        "errdex_cython_s": {"wall": mc.wall, "cpu": mc.cpu},
        "errdex_python_s": {"wall": mp.wall, "cpu": mp.cpu},
        "ratio_to_tree_sitter": {"wall": ratio_wall, "cpu": ratio_cpu},
        "files_parsed": len(parsed),
        "us_per_kb_cpu": {"compiled": compiled_us_kb, "c_cpp_rust": grammar_us_kb, "python": python_us_kb},
        "compiled_over_python_per_byte": budget,
        "sites": found.sites,
        "sites_with_template": found.with_template,
        "sites_per_language": dict(found.per_language),
        "top_exceptions": found.per_exception.most_common(10),
        "skipped": dict(found.skipped),
        "slowest": [{"path": p, "seconds": t, "bytes": sizes_of[p]} for t, p in slowest],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--numpy", type=Path, help="numpy's sdist (or its unpacked folder)")
    ap.add_argument("--torch", type=Path, help="a folder of torch's source tree")
    ap.add_argument("--tree", action="append", default=[], help="NAME=PATH, any other sdist or folder")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", type=Path, help="write a summary here")
    args = ap.parse_args()
    locations = [(n, p) for n, p in (("numpy", args.numpy), ("torch", args.torch)) if p is not None]
    locations += [(n, Path(p)) for n, _, p in (t.partition("=") for t in args.tree)]
    if not locations:
        ap.error("give --numpy, --torch or --tree NAME=PATH")
    print(f"{os.cpu_count()} cores; load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    summaries = []
    for name, location in locations:
        started = time.perf_counter()
        tree = Tree.read(f"{name} ({location.name})", location)
        print(f"read {location} into memory in {time.perf_counter() - started:.1f}s")
        summaries.append(run(tree, args.rounds))
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json is not None:
        args.json.write_text(json.dumps(summaries, indent=2) + "\n")


if __name__ == "__main__":
    main()
