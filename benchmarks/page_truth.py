"""The page truth harness: build pages of errors drawn at random and check mechanically what can be checked.

Each page is checked against the code of its release, read again here (not through the page
builder's own analysis), for the kinds of false claim issue 18 lists:

- `trigger`: every trigger's values make the check true under the evaluator, and each value is of
  a type the input can receive (its annotation, or its default's type); no trigger on a private
  attribute; no trigger with an empty code box;
- `caller`: every caller claimed names the function at the line it is said to be on (a decorator:
  decorates it; a call through a module's alias: the alias, which the file binds to the function at its top
  level), and is not a match by name alone;
- `value`: no value shown as one binding (an empty one above all) when its module binds the name
  more than once at the top level;
- `related`: at most 8 related errors, each with a template;
- `history`: no "first appears" and no version note offered as a solution;
- `link`: the upstream link's path (after the tag or commit, the project's folder removed) is a file of
  the release's sdist, listed here again (fetched by pip's finder, never built), and its anchor is the
  raise's lines; a release with no sdist has a link that says what it assumes;
- `empty`: no empty text anywhere a reader would see a section, a box or a list item (`message_source`,
  the raise's message expression kept for ids, is data and "" when the raise has none).

    python benchmarks/page_truth.py --db INDEX.db [--pages 500] [--seed 18] [--show 3]
    python benchmarks/page_truth.py --releases benchmarks/pages/releases.txt --db INDEX.db   # indexes them first
    python benchmarks/page_truth.py --db INDEX.db --per-package 4 --seed 2026 --list   # the sample graded by hand

Exit status 1 when any page fails a check.
"""

from __future__ import annotations

import argparse
import ast
import collections
import random
import re
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import Requirement

from errdex.indexing import index
from errdex.model import ReleaseRecord
from errdex.pages import Page, build_page
from errdex.pages.conditions import parse_condition
from errdex.pages.evaluate import truth
from errdex.sources.archive import archive_python_paths
from errdex.sources.registry import SDIST_ONLY, run_finder
from errdex.store import Store

RELATED_AT_MOST = 8
DECORATOR_LINES = 40  # how far below a decorator its function's `def` may start
CONSTRUCTION = ("__init__", "__post_init__", "__new__", "__call__")  # `__call__`: `C(...)(...)` runs it
_BUILTIN_TYPES: dict[str, tuple[type, ...]] = {
    "int": (int,),
    "float": (int, float),
    "str": (str,),
    "bytes": (bytes,),
    "bool": (bool,),
    "list": (list,),
    "tuple": (list, tuple),
    "dict": (dict,),
    "set": (list,),
    "None": (type(None),),
}


@dataclass(frozen=True)
class Failure:
    """One check a page fails, with what it says and why that is false."""

    check: str
    error_id: str
    version: str
    detail: str


@dataclass(frozen=True)
class Drawn:
    """An error drawn for the harness, in the release it is checked in."""

    error_id: str
    package: str
    version: str


def draw(store: Store, count: int, seed: int, per_package: int | None = None) -> list[Drawn]:
    """`count` errors drawn at random (seeded) from every indexed release, each in its release; with
    `per_package`, that many from each package instead (so that a large package does not fill the sample)."""
    every = sorted(
        (
            Drawn(e.error_id, p.name, r.version)
            for p in store.packages()
            for r in store.releases(p.name)
            for e in store.errors(p.name, r.version)
        ),
        key=lambda d: (d.package, d.version, d.error_id),
    )
    chooser = random.Random(seed)
    if per_package is None:
        return chooser.sample(every, min(count, len(every)))
    by_package: dict[str, list[Drawn]] = collections.defaultdict(list)
    for item in every:
        by_package[item.package].append(item)
    return [d for _, items in sorted(by_package.items()) for d in chooser.sample(items, min(per_package, len(items)))]


class Sdists:
    """The Python files of each release's sdist, listed once per release (None: the release has none)."""

    def __init__(self) -> None:
        self._listed: dict[tuple[str, str], frozenset[str] | None] = {}

    def files(self, package: str, version: str) -> frozenset[str] | None:
        key = (package, version)
        if key not in self._listed:
            with tempfile.TemporaryDirectory() as tmp:
                result, _ = run_finder(Requirement(f"{package}=={version}"), Path(tmp), [SDIST_ONLY])
                self._listed[key] = frozenset(archive_python_paths(Path(result["file"]))) if "file" in result else None
        return self._listed[key]


def check_page(store: Store, drawn: Drawn, page: Page, sdists: Sdists) -> list[Failure]:
    """Every failure of one page."""
    found: list[Failure] = []
    for check, detail in [*_problems(store, drawn, page), *_link(store, drawn, page, sdists)]:
        found.append(Failure(check, drawn.error_id, drawn.version, detail))
    return found


def _problems(store: Store, drawn: Drawn, page: Page) -> Iterator[tuple[str, str]]:
    yield from _triggers(page)
    yield from _callers(store, drawn, page)
    yield from _entries(store, drawn, page)
    yield from _values(store, drawn, page)
    yield from _related(page)
    yield from _history(page)
    yield from (("empty", where) for where in _empty(page, "page"))


_BLOB = re.compile(r"/-?/?blob/[^/]+/(?P<path>[^#]+)#L(?P<start>\d+)-L?(?P<end>\d+)$")


def _link(store: Store, drawn: Drawn, page: Page, sdists: Sdists) -> Iterator[tuple[str, str]]:
    url = page["source_url"]
    if url is None:
        return
    found = _BLOB.search(url)
    if found is None:
        yield "link", f"not a link to lines of a file: {url}"
        return
    if (int(found["start"]), int(found["end"])) != (page["line"], page["end_line"]):
        yield "link", f"{url} does not point at lines {page['line']}-{page['end_line']}"
    files = sdists.files(drawn.package, drawn.version)
    if files is None:
        if not page["source_url_label"]:
            yield "link", f"no sdist shows the layout, and the link does not say what it assumes: {url}"
        return
    folder = store.release(drawn.package, drawn.version).repository_folder
    path = found["path"].removeprefix(f"{folder}/") if folder else found["path"]
    if path not in files:
        yield "link", f"{path} is not a file of the sdist of {drawn.package} {drawn.version}"


def _triggers(page: Page) -> Iterator[tuple[str, str]]:
    condition = parse_condition(page["condition"])
    env = {name: value for name, value in page["resolved"].items()}
    signature = _signature(page["when_it_happens"]["signature"])
    for trigger in page["triggers"]:
        if trigger["code"] is not None and not trigger["code"].strip():
            yield "trigger", f"empty code box: {trigger['text']}"
        values: dict[str, object] = {}
        for code, shown in trigger["values"].items():
            try:
                values[code] = ast.literal_eval(shown)
            except (ValueError, SyntaxError):
                continue  # an instance or an object(): not a literal to check here
            name = code.rsplit(".", 1)[-1]
            if code.startswith("self._") or name.startswith("_"):
                yield "trigger", f"a trigger on the private {code} = {shown}"
            accepted = signature.get(name)
            if (
                accepted is not None
                and not isinstance(values[code], accepted)
                and not _type_checked(condition, code, values[code])
            ):
                yield "trigger", f"{code} = {shown}, not of a type the parameter receives"
        if trigger["from_user"] or condition is None or len(values) < len(trigger["values"]):
            continue
        if truth(condition, {**env, **values}) is not True:
            yield "trigger", f"{trigger['values']} does not make `{page['condition']}` true"


def _type_checked(condition: ast.expr | None, code: str, value: object) -> bool:
    """Whether the check itself expects values of this type: it tests the input's type (a value of another type is
    then the very mistake), or compares the input with a constant of the value's type."""
    for node in ast.walk(condition) if condition is not None else ():
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
            if node.args and ast.unparse(node.args[0]) == code:
                return True
        if isinstance(node, ast.Compare) and ast.unparse(node.left) == code:
            constants = [c for c in node.comparators if isinstance(c, ast.Constant)]
            if any(type(c.value) is type(value) for c in constants):
                return True
    return False


def _signature(text: str | None) -> dict[str, tuple[type, ...]]:
    """The types each parameter receives, from its annotation or its default, when they are plain builtins."""
    node = _parse_def(text)
    if node is None:
        return {}
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    with_default = positional[len(positional) - len(args.defaults) :]
    defaults: dict[str, ast.expr] = {a.arg: d for a, d in zip(with_default, args.defaults, strict=True)}
    defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None})
    out: dict[str, tuple[type, ...]] = {}
    for arg in [*positional, *args.kwonlyargs]:
        accepted = _annotated(arg.annotation) if arg.annotation is not None else _defaulted(defaults.get(arg.arg))
        if accepted:
            out[arg.arg] = accepted
    return out


def _parse_def(text: str | None) -> ast.FunctionDef | None:
    if not text:
        return None
    for source in (f"def {text}: pass", f"def f{text}: pass", f"{text}: pass"):
        try:
            stmt = ast.parse(source).body[0]
        except SyntaxError:
            continue
        if isinstance(stmt, ast.FunctionDef):
            return stmt
    return None


def _annotated(node: ast.expr) -> tuple[type, ...]:
    """The builtin types an annotation allows, or () when it allows anything else too."""
    if isinstance(node, ast.Constant) and node.value is None:
        return (type(None),)
    if isinstance(node, ast.Name):
        return _BUILTIN_TYPES.get(node.id, ())
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = _annotated(node.left), _annotated(node.right)
        return left + right if left and right else ()
    return ()


def _defaulted(node: ast.expr | None) -> tuple[type, ...]:
    """A default that is a bool, int or str constant says what the parameter is meant to receive."""
    if isinstance(node, ast.Constant) and type(node.value) in (bool, str):
        return (type(node.value),)
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return (int, float)
    return ()


def _callers(store: Store, drawn: Drawn, page: Page) -> Iterator[tuple[str, str]]:
    release = store.release(drawn.package, drawn.version)
    qualname = page["function"].split(".")
    name = qualname[-1]
    # a constructor's hooks (and `__call__`, on what the class builds) are reached by calling the class too
    names = (name, qualname[-2]) if name in CONSTRUCTION and len(qualname) > 1 else (name,)
    for caller in page["callers"]:
        if caller["match"] == "name":
            yield "caller", f"{caller['function']} claimed by name alone: {caller['call']}"
            continue
        text = store.source(release, caller["file"]) or ""
        if caller["use"] == "decorated":  # a decorator of the function itself: its `def` follows the decorators
            below = text.splitlines()[caller["line"] - 1 : caller["line"] + DECORATOR_LINES]
            if not any(re.match(rf"\s*(async\s+)?def\s+{re.escape(name)}\b", line) for line in below):
                yield "caller", f"{caller['file']}:{caller['line']} is not a decorator of {name}"
        elif caller["match"] == "alias":  # `alias = module.name` at the file's top level, then `alias(...)`
            alias = caller["through"] or ""
            bound = re.search(rf"^{re.escape(alias)}\s*=\s*[\w.]*\b{re.escape(name)}\s*$", text, re.MULTILINE)
            if not alias or bound is None or alias not in _statement(text, caller["line"]):
                yield "caller", f"{caller['file']}:{caller['line']} calls no top-level alias of {name}"
        elif not any(n in _statement(text, caller["line"]) for n in (*names, *_subclasses(text, names[1:]))):
            yield "caller", f"the statement at {caller['file']}:{caller['line']} does not name {name}"


def _entries(store: Store, drawn: Drawn, page: Page) -> Iterator[tuple[str, str]]:
    """Each public entry's chain: every step's statement names the function it calls (or its class, for a
    constructor), and the entry's top-level name is bound in the package's `__init__.py`."""
    release = store.release(drawn.package, drawn.version)
    for entry in page["when_it_happens"]["entries"]:
        top = entry["function"].split(".", 1)[0]
        if not _exported(store, release, entry["file"], top):
            yield "entry", f"no chain of __init__.py from {entry['import_from']} to {entry['file']} offers {top}"
        called = [s["function"] for s in entry["steps"][1:]] + [page["function"]] if entry["steps"] else []
        for step, callee in zip(entry["steps"], called, strict=True):
            parts = callee.split(".")
            names = (parts[-1], parts[-2]) if parts[-1] in CONSTRUCTION and len(parts) > 1 else (parts[-1],)
            text = store.source(release, step["file"]) or ""
            if not any(n in _statement(text, step["line"]) for n in (*names, *_subclasses(text, names[1:]))):
                yield "entry", f"the statement at {step['file']}:{step['line']} does not name {parts[-1]}"


def _exported(store: Store, release: ReleaseRecord, file: str, name: str) -> bool:
    """Whether the package's top `__init__.py` names `name`, or each `__init__.py` from the top down imports
    everything from the next folder or module (`from .models import *`) until one names `name` or the defining
    module lists it in its `__all__` (or has none). Read as text, independently of the page's resolution."""
    parts = file.removesuffix(".py").split("/")
    top = store.source(release, f"{parts[0]}/__init__.py") or ""
    if re.search(rf"\b{re.escape(name)}\b", top):
        return True
    for depth in range(1, len(parts)):
        init = store.source(release, "/".join(parts[:depth]) + "/__init__.py") or ""
        if re.search(rf"\b{re.escape(name)}\b", init):
            return True  # this package imports it by name (`from .features import Features`)
        if not re.search(rf"^\s*from\s+[\w.]*\.{re.escape(parts[depth])}\s+import\s+\*", init, re.MULTILINE):
            return False
    text = store.source(release, file) or ""
    declared = re.search(r"^__all__\s*=\s*[\[(]([^\])]*)", text, re.MULTILINE)
    return declared is None or re.search(rf"[\"']{re.escape(name)}[\"']", declared.group(1)) is not None


def _subclasses(text: str, classes: tuple[str, ...]) -> list[str]:
    """The classes of a file that name one of `classes` as a base: calling them runs its inherited `__init__`."""
    pattern = rf"^\s*class\s+(\w+)\s*\([^)]*\b(?:{'|'.join(map(re.escape, classes))})\b"
    return re.findall(pattern, text, re.M) if classes else []


def _statement(text: str, line: int) -> str:
    """The source of the innermost statement that spans `line` (a call may be written over many lines); of a
    compound statement (`for`, `with`, `if`, ...), only its header."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return ""
    spans = [
        (start, node.end_lineno or node.lineno, node)
        for node in ast.walk(tree)
        if isinstance(node, ast.stmt)
        # a definition starts at its first decorator (`@upsert.for_db(...)` names `upsert`)
        for start in [min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])]
        if start <= line <= (node.end_lineno or node.lineno)
    ]
    if not spans:
        return ""
    start, end, node = min(spans, key=lambda span: span[1] - span[0])
    body = getattr(node, "body", None)
    if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
        end = body[0].lineno - 1
    return "\n".join(text.splitlines()[start - 1 : end])


def _values(store: Store, drawn: Drawn, page: Page) -> Iterator[tuple[str, str]]:
    release = store.release(drawn.package, drawn.version)
    for value in page["what_it_means"]["values"]:
        if value["defined_at"] is None or "." in value["name"]:
            continue
        path, _, line = value["defined_at"].rpartition(":")
        text = store.source(release, path)
        if text is None:
            continue
        bindings = _top_level_bindings(text, value["name"])
        if len(bindings) > 1:
            shown = "empty" if value["value"] in ([], {}, "", ()) else "one"
            yield "value", f"{value['name']} shown as {shown} binding (line {line}); bound at lines {bindings}"


def _top_level_bindings(text: str, name: str) -> list[int]:
    """Lines where a module binds `name` at its top level, inside `if`/`try` blocks included."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return []
    found: list[int] = []
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        stmt = pending.pop()
        if isinstance(stmt, (ast.If, ast.Try)):
            pending.extend(stmt.body)
            pending.extend(stmt.orelse)
            if isinstance(stmt, ast.Try):
                pending.extend(stmt.finalbody)
                for handler in stmt.handlers:
                    pending.extend(handler.body)
        targets: list[ast.expr] = []
        if isinstance(stmt, ast.Assign):
            targets = stmt.targets
        elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) and (
            not isinstance(stmt, ast.AnnAssign) or stmt.value is not None
        ):
            targets = [stmt.target]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            found.append(stmt.lineno)
    return sorted(found)


def _related(page: Page) -> Iterator[tuple[str, str]]:
    if len(page["related"]) > RELATED_AT_MOST:
        yield "related", f"{len(page['related'])} related errors (at most {RELATED_AT_MOST})"
    for related in page["related"]:
        if not related["template"]:
            yield "related", f"related {related['file']}:{related['line']} has no template"


def _history(page: Page) -> Iterator[tuple[str, str]]:
    for solution in page["solutions"]:
        if solution["kind"] == "version_drift" and "does not raise" in solution["text"]:
            yield "history", f"a version note offered as a solution: {solution['text'][:120]}"
    for text in _strings(page):
        if "first appears" in text:
            yield "history", f"history stated as fact: {text[:120]}"


def _empty(value: object, where: str) -> Iterator[str]:
    """Paths of empty strings (a section, a box or an item with nothing in it)."""
    if isinstance(value, str) and not value.strip() and not where.endswith(".text]") and where != "page.snippet":
        yield where
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in ("values", "resolved", "user_input", "prose", "message_source"):  # data, not sections
                yield from _empty(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _empty(item, f"{where}[{i}]")


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True, help="the index to draw from (written to when --releases is given)")
    ap.add_argument("--releases", type=Path, help="a file of specs to index into --db first")
    ap.add_argument("--pages", type=int, default=500)
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--show", type=int, default=3, help="failures to print per check")
    ap.add_argument("--per-package", type=int, help="draw this many from each package instead of --pages in all")
    ap.add_argument("--list", action="store_true", help="print the drawn errors (for grading by hand), then stop")
    args = ap.parse_args()
    with Store(args.db) as store:
        if args.releases is not None:
            for spec in args.releases.read_text().split("\n"):
                if spec.strip() and not spec.startswith("#"):
                    index(spec.strip(), store)
        failures: list[Failure] = []
        failing_pages: set[str] = set()
        sdists = Sdists()
        drawn = draw(store, args.pages, args.seed, args.per_package)
        if args.list:
            for item in drawn:
                print(f"{item.error_id} {item.package} {item.version}")
            return
        for item in drawn:
            found = check_page(store, item, build_page(store, item.error_id, item.version), sdists)
            failures.extend(found)
            if found:
                failing_pages.add(f"{item.error_id}@{item.version}")
    by_check = collections.defaultdict(list)
    for failure in failures:
        by_check[failure.check].append(failure)
    print(f"{len(drawn)} pages, {len(failing_pages)} fail at least one check (seed {args.seed})")
    for check, found in sorted(by_check.items()):
        print(f"  {check:<8} {len(found):5d} failures on {len({f.error_id for f in found})} pages")
        for failure in found[: args.show]:
            print(f"      {failure.error_id}@{failure.version}: {failure.detail}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
