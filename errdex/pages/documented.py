"""What the code says about itself: the checked inputs' documentation, the comments at the check, the docstring.

A page quotes the author's words with their place, so it can say why a check exists without inventing a reason;
the words are the author's and may be out of date, so they are shown as quoted, never as the analysis's finding.
"""

from __future__ import annotations

import ast
import inspect
import io
import re
import textwrap
import tokenize
from dataclasses import dataclass

from errdex.pages.model import CheckedInput, CodeComment, Documented, JsonValue, ParameterDoc, QuotedText
from errdex.pages.source import FunctionNode, TreeOf, find, methods
from errdex.pages.syntax import SENTENCE_END

MAX_QUOTE = 900
MAX_COMMENT_LINES = 8
_ISSUE_ONLY = re.compile(r"^(?:see\s+)?(?:gh|issue|bug|bpo)?[\s#:-]*\d+[.)]?$", re.IGNORECASE)  # `# GH 37725`
_TASK = re.compile(r"^(?:TODO|FIXME|XXX|HACK)\b", re.IGNORECASE)
_LIST_ITEM = re.compile(r"^\s*(?:[-*+•]|\d+[.)]|>)\s")
_STYLE_PREFIX = r"^(?P<indent>[ \t]*)(?::param\s+(?:[^:\s]+\s+)?|\*{0,2})"  # reST `:param [type] `, Google `*args`


def documented(
    tree: ast.Module | None,
    source: str | None,
    file: str,
    function: str,
    raise_line: int,
    inputs: list[CheckedInput],
    tree_of: TreeOf,
) -> Documented:
    """The docs of each checked input (where it is a parameter, the attribute's class, and each way in), the comments
    from the statement that guards the raise down to it, and the raising function's docstring summary."""
    empty: Documented = {"parameters": [], "comments": [], "docstring": None}
    found = find(tree, function) if tree is not None else None
    if found is None or isinstance(found.node, ast.ClassDef) or source is None:
        return empty
    func, owner = found.node, found.owner
    params: list[ParameterDoc] = []
    for item in inputs:
        places: list[_Place] = []
        if item["kind"] == "parameter":
            places.append(_Place(file, func, function, item["name"]))
        elif item["kind"] == "attribute" and owner is not None:
            places.append(_Place(file, owner, owner.name, item["name"]))
            init = methods(owner).get("__init__")
            if init is not None:
                places.append(_Place(file, init, f"{owner.name}.__init__", item["name"]))
        for way in item["ways_in"]:
            other = tree_of(way["file"]) if way["file"] != file else tree
            via = find(other, way["via"]) if other is not None and way["keyword"] else None
            if via is not None and way["keyword"]:
                places.append(_Place(way["file"], via.node, way["via"], way["keyword"]))
        params += _documented_in(item["name"], places)
    return {
        "parameters": params,
        "comments": _comments_at(source, func, raise_line),
        "docstring": _summary(func),
    }


MAX_SAID = 220
MIN_WORDS = 4
_SENTENCE = re.compile(rf"{SENTENCE_END}|\n\s*\n")  # or a blank line
_NUMBERING = re.compile(r"^(?:\d+(?:\.\d+)*[.)]?|[a-z][.)])\s+")  # `# 1.2. Cache attributes ...`


def in_their_words(doc: Documented, function: str) -> str | None:
    """One sentence for "What it means": what the docstrings say each checked input is, and what the comment at the
    check says, each the first sentence of the quote, with its place; when the code says neither, what the docstring
    of the raising `function` says it does; None when it says none of these."""
    said = []
    for entry in list({p["name"]: p for p in doc["parameters"]}.values())[:2]:  # each input once, as first found
        where = f"{entry['file']}:{entry['line']}"
        kind, description = _typed(entry["text"])
        typed = f" (of type “{kind}”)" if kind else ""
        said.append(
            f"`{entry['name']}`{typed} is, as the docstring of `{entry['documented_in']}` describes it ({where}),"
            f" “{_first_sentence(description)}”"
        )
    # the first comment that says something (a heading such as `# 1. Modes` stands apart from the one below it; a
    # `# TODO` is a note on work left, not on what the check is for)
    comment = next(
        (
            c
            for c in doc["comments"]
            if len(_NUMBERING.sub("", c["text"]).split()) >= MIN_WORDS and not _TASK.match(c["text"])
        ),
        None,
    )
    if comment is not None:
        said.append(f"the comment at line {comment['line']} says “{_first_sentence(comment['text'])}”")
    summary = doc["docstring"]
    if not said and summary is not None and len(summary["text"].split()) >= MIN_WORDS:
        said.append(f"the docstring of `{function}` (line {summary['line']}) says “{_first_sentence(summary['text'])}”")
    return f"In the code's own words, {'; '.join(said)}." if said else None


def _typed(text: str) -> tuple[str | None, str]:
    """A NumPy-style entry's type line and its description (`int\n\nNumber of samples.`); (None, text) otherwise."""
    head, _, rest = text.strip().partition("\n\n")
    if rest.strip() and "\n" not in head and len(head) <= 80 and not head.endswith("."):
        return " ".join(head.split()), rest
    return None, text


_OPTIONS = re.compile(r"^\{([^{}]*)\}")  # NumPy style: `{"random", "pca"} or ndarray, default="pca"`


def listed_options(text: str) -> list[JsonValue]:
    """The values a NumPy-style entry's type line lists in braces (`{"random", "pca"}`), when each is a literal."""
    found = _OPTIONS.match(text.strip())
    if found is None:
        return []
    out: list[JsonValue] = []
    for item in found.group(1).split(","):
        try:
            value = ast.literal_eval(item.strip())
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return []  # `{int, float}` names types, not values
        if value is not None and not isinstance(value, (str, int, float, bool)):
            return []
        out.append(value)
    return out


def _first_sentence(text: str) -> str:
    first = _SENTENCE.split(_NUMBERING.sub("", text.strip()), maxsplit=1)[0].strip()
    first = " ".join(first.split())
    return first if len(first) <= MAX_SAID else first[: MAX_SAID - 1].rstrip() + "…"


@dataclass(frozen=True)
class _Place:
    """A definition whose docstring may document the input, under the name it has there."""

    file: str
    node: FunctionNode | ast.ClassDef
    qualname: str
    keyword: str


def _documented_in(name: str, places: list[_Place]) -> list[ParameterDoc]:
    """The input's documentation in each place that documents it, once per distinct text."""
    out: list[ParameterDoc] = []
    for place in places:
        doc = _docstring_node(place.node)
        entry = parameter_entry(str(doc.value), place.keyword) if doc is not None else None
        if doc is not None and entry is not None and all(p["text"] != entry for p in out):
            out.append(
                {
                    "name": name,
                    "keyword": place.keyword,
                    "documented_in": place.qualname,
                    "text": entry,
                    "file": place.file,
                    "line": doc.lineno,
                }
            )
    return out


def parameter_entry(docstring: str, name: str) -> str | None:
    """The entry documenting `name` in a docstring, in reST (`:param name:`), Google (`name (type): text`) or NumPy
    (`name : type` and an indented description) style; None when there is none.

    One reading serves the three styles: an entry is a line that names the parameter and a colon, and its text is
    what follows on that line and every line indented deeper below it.
    """
    lines = inspect.cleandoc(docstring).splitlines()
    head = re.compile(_STYLE_PREFIX + re.escape(name) + r"(?P<typed>\s*\(.*?\))?(?P<spaced>\s*):(?P<rest>.*)$")
    for i, line in enumerate(lines):
        match = head.match(line)
        if match is None or match.group("rest").startswith(":"):  # `name::` opens a reST literal block
            continue
        indent = len(match.group("indent"))
        body = [match.group("rest").strip()]
        for following in lines[i + 1 :]:
            if following.strip() and len(following) - len(following.lstrip()) <= indent:
                break
            body.append(following)
        entry = textwrap.dedent("\n".join(body[1:])).strip("\n")
        numpy_type = body[0] and entry and match.group("spaced") and not match.group("typed")  # `name : type`
        joined = "\n\n".join((body[0], entry)) if numpy_type else " ".join(p for p in (body[0], entry) if p)
        if joined.strip():
            return _clip(joined.strip())
    return None


def _docstring_node(node: FunctionNode | ast.ClassDef) -> ast.Constant | None:
    first = node.body[0] if node.body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        return first.value
    return None


def _summary(func: FunctionNode) -> QuotedText | None:
    """The first paragraph of the function's docstring."""
    doc = _docstring_node(func)
    if doc is None:
        return None
    paragraph = inspect.cleandoc(str(doc.value)).strip().split("\n\n", 1)[0].strip()
    if not paragraph:
        return None
    return {"text": _clip(paragraph), "line": doc.lineno}


def _comments_at(source: str, func: FunctionNode, raise_line: int) -> list[CodeComment]:
    """The comments from the block right above the statement that guards the raise down to the raise; when the
    statements just before that guard bind names its test reads (`valid = ALL + ("paged",)`), from above them."""
    guard = _guard(func, raise_line)
    lines = source.splitlines()
    start = _reading_start(func, guard) if guard is not None else raise_line
    while start - 2 >= func.lineno and lines[start - 2].strip().startswith("#"):
        start -= 1
    wanted = range(start, raise_line + 1)
    snippet = "\n".join(lines[func.lineno - 1 : func.end_lineno or raise_line])
    out: list[CodeComment] = []
    last = 0  # the line of the comment before, to join the lines of one comment
    try:
        for token in tokenize.generate_tokens(io.StringIO(snippet).readline):
            line = token.start[0] + func.lineno - 1
            if token.type == tokenize.COMMENT and line in wanted:
                text = token.string.lstrip("#").strip()
                tool = text.startswith(("noqa", "type:", "pragma", "pylint:", "fmt:", "mypy:"))
                whole_line = not token.line[: token.start[1]].strip()
                if text and not tool and not _ISSUE_ONLY.match(text):
                    joins = out and whole_line and line == last + 1
                    if joins and not _LIST_ITEM.match(text) and not _LIST_ITEM.match(out[-1]["text"]):
                        out[-1] = {**out[-1], "text": f"{out[-1]['text']} {text}"}
                    else:
                        out.append({"text": text, "line": line})
                last = line if whole_line else 0
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return []
    return out[:MAX_COMMENT_LINES]


def _guard(func: FunctionNode, raise_line: int) -> ast.If | None:
    """The innermost `if` whose body holds the raise."""
    best: ast.If | None = None
    for node in ast.walk(func):
        if isinstance(node, ast.If) and node.lineno < raise_line <= (node.end_lineno or 0):
            inside = any(s.lineno <= raise_line <= (s.end_lineno or s.lineno) for s in node.body)
            if inside and (best is None or node.lineno > best.lineno):
                best = node
    return best


def _reading_start(func: FunctionNode, guard: ast.If) -> int:
    """The first line of the run of statements right before the guard that bind names its test reads."""
    read = {n.id for n in ast.walk(guard.test) if isinstance(n, ast.Name)}
    for node in ast.walk(func):
        for body in (getattr(node, field, None) for field in ("body", "orelse", "finalbody")):
            if isinstance(body, list) and guard in body:
                start = guard.lineno
                for stmt in reversed(body[: body.index(guard)]):
                    targets = stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)]
                    if not any(isinstance(t, ast.Name) and t.id in read for t in targets):
                        break
                    start = stmt.lineno
                return start
    return guard.lineno


def _clip(text: str) -> str:
    """The quote with each paragraph's hard line breaks joined (list items and indented lines keep theirs), cut."""
    out: list[str] = []
    for line in text.splitlines():
        if out and out[-1].strip() and line.strip() and not line.startswith(" ") and not _LIST_ITEM.match(line):
            out[-1] = f"{out[-1]} {line.strip()}"
        else:
            out.append(line)
    text = "\n".join(out)
    return text if len(text) <= MAX_QUOTE else text[: MAX_QUOTE - 3] + "..."
