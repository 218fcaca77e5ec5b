"""docs/page.md and the page model agree: every documented key is a key of `Page`, and every object the doc
lists the keys of has exactly those keys (tests/test_docs.py runs the doc's example)."""

from __future__ import annotations

import re
import textwrap
import types
import typing
from pathlib import Path

from errdex.pages.model import Page
from errdex.pages.page import KEY_ORDER

DOC = Path(__file__).resolve().parents[2] / "docs" / "page.md"
_LEADING = re.compile(r"^- ((?:`[^`]+`(?: \([^)]*\))?(?:, and |, | and | / )?)+)")
_TOKEN = re.compile(r"`([^`]+)`")
_PATH = re.compile(r"[a-z_]+(?:\[\])?(?:\.[a-z_]+(?:\[\])?)*")
_HEADING = re.compile(r"^## `([a-z_]+)`", re.MULTILINE)
_DOUBLE = re.compile(r"``.*?``")


def documented_paths(text: str) -> set[str]:
    """The keys docs/page.md documents: each bullet's leading names and headings (top-level or with their
    path), and any path written elsewhere whose head is a top-level key (`site_scope.exact`)."""
    paths = set(_HEADING.findall(text))
    lines = [_DOUBLE.sub("", line) for line in text.splitlines()]  # ``code with `backticks` inside``
    for line in lines:
        leading = _LEADING.match(line)
        if leading:
            paths |= {t for t in _TOKEN.findall(leading.group(1)) if _PATH.fullmatch(t)}
    top = {p for p in paths if "." not in p and "[" not in p}
    mentioned = {t for line in lines for t in _TOKEN.findall(line) if _PATH.fullmatch(t) and ("." in t or "[" in t)}
    return paths | {t for t in mentioned if re.split(r"[.\[]", t)[0] in top}


def parent(path: str) -> str:
    return path.rpartition(".")[0]


def typed_keys(path: str) -> set[str]:
    """The keys of the TypedDict at `path` of a Page (`versions.releases[]`); '' is the page itself."""
    kind: object = Page
    for segment in path.split(".") if path else []:
        kind = _unwrapped(typing.get_type_hints(kind)[segment.removesuffix("[]")])
        if segment.endswith("[]"):
            assert typing.get_origin(kind) is list, f"{path}: {segment} is not a list"
            kind = _unwrapped(typing.get_args(kind)[0])
    assert typing.is_typeddict(kind), f"{path} is not an object"
    return set(typing.get_type_hints(kind))


def _unwrapped(kind: object) -> object:
    """The type without NotRequired[...] and without `| None`."""
    if typing.get_origin(kind) is typing.NotRequired:
        kind = typing.get_args(kind)[0]
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        kind = next(a for a in typing.get_args(kind) if a is not type(None))
    return kind


def mismatches(value: object, kind: object, path: str = "page") -> list[str]:
    """Where a built page's keys differ from its type's: missing keys, keys the type does not have."""
    if typing.get_origin(kind) is typing.NotRequired:
        kind = typing.get_args(kind)[0]
    kind = _unwrapped(kind) if value is not None else kind
    if typing.is_typeddict(kind) and isinstance(value, dict):
        hints = typing.get_type_hints(kind, include_extras=True)
        optional = {k for k, t in hints.items() if typing.get_origin(t) is typing.NotRequired}
        found = [] if set(hints) - optional <= set(value) <= set(hints) else [f"{path}: {sorted(value)}"]
        return found + [
            m for key in set(value) & set(hints) for m in mismatches(value[key], hints[key], f"{path}.{key}")
        ]
    if typing.get_origin(kind) is list and isinstance(value, list):
        return [m for i, item in enumerate(value) for m in mismatches(item, typing.get_args(kind)[0], f"{path}[{i}]")]
    return []


def test_the_doc_lists_the_page_s_keys_and_no_other() -> None:
    paths = documented_paths(DOC.read_text(encoding="utf-8"))
    objects = {parent(p) for p in paths}
    assert {"", "site_scope", "what_it_means.clauses[]", "versions.releases[]", "solutions[]"} <= objects
    for path in sorted(objects):
        listed = {p.rpartition(".")[2].removesuffix("[]") for p in paths if parent(p) == path}
        assert listed == typed_keys(path), f"docs/page.md and errdex.pages.model differ at {path or 'the top'}"


def test_the_documented_paths_are_parsed_from_bullets_and_prose() -> None:
    text = textwrap.dedent(
        """
        ## `shelf` (object)
        - `a` (string), `b` (int): the `kind` is `c` (see `shelf.x`).
        - `shelf.items` (list): `shelf.items[].name` and `self.name` (code), ``like `shelf.hidden` ``.
        - kinds: `d`.
        """
    )
    assert documented_paths(text) == {"shelf", "a", "b", "shelf.x", "shelf.items", "shelf.items[].name"}


def test_a_page_s_keys_come_in_the_order_build_page_writes_them() -> None:
    assert list(KEY_ORDER) == list(dict.fromkeys(KEY_ORDER)) and set(KEY_ORDER) == typed_keys("")
