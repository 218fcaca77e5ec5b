"""Advice read from the code of the site, never from the exception class alone.

Each piece of advice rests on what the statement that raises is: an `assert` statement (which
`python -O` skips; a `raise AssertionError` it does not), a method whose whole body is the raise
(a placeholder for subclasses), a `warnings.warn` call (which `-W error` turns into an
exception), or a message naming what to install (`pip install NAME`). A site that is none of these
gets no advice: what it means already states what makes it fire.
"""

from __future__ import annotations

import ast
import builtins
import re
from typing import TypedDict

from errdex.model import ReleaseRecord
from errdex.pages.model import SiteJson, SolutionBody, StatementKind
from errdex.pages.source import abc_declared, class_and_bases, find, parse
from errdex.pages.syntax import SENTENCE_END
from errdex.store import Store

_PIP_INSTALL = re.compile(
    r"pip install\s+(?:-{1,2}[a-zA-Z-]{1,30}\s+){0,3}[`'\"]?([A-Za-z0-9][A-Za-z0-9._\[\]<>=!~,-]{0,100})"
)


class Distribution(TypedDict):
    """A distribution the code says must be installed, and where it says so."""

    name: str
    source: str


def statement_kind(site: SiteJson, tree: ast.Module | None, places: int) -> StatementKind:
    """What the statement that raises is, as far as the code shows it (see `StatementKind`).

    The kind of site is shared by all places of an error; the statement itself is read only for a
    page about one place.
    """
    if site["kind"] != "error":
        return "warn" if site["kind"] == "warning" else "log"
    if tree is None or places != 1 or site["written_at"] is not None:
        return "unknown"
    located = find(tree, site["function"]) if site["function"] != "<module>" else None
    body = located.node.body if located is not None else tree.body
    statement = next((s for node in body for s in ast.walk(node) if _starts_at(s, site["line"])), None)
    if isinstance(statement, ast.Assert):
        return "assert"
    if not isinstance(statement, ast.Raise):
        return "unknown"
    alone = located is not None and located.owner is not None and _only_statement(located.node.body) is statement
    return "placeholder" if alone and _not_implemented(site) else "raise"


def left_to_subclasses(store: Store, release: ReleaseRecord, site: SiteJson, tree: ast.Module | None) -> bool:
    """Whether a method that only raises NotImplementedError is left to subclasses: it or its class is abstract
    (`@abstractmethod`, `ABC`/`ABCMeta` on the class or a base of its module), or a class of the release derived
    from its class overrides it. Otherwise the class does not implement it: called on one, it always raises."""
    located = find(tree, site["function"]) if tree is not None else None
    if tree is None or located is None or located.owner is None:
        return False
    if any(ast.unparse(d).endswith("abstractmethod") for d in located.node.decorator_list):
        return True
    if any(abc_declared(c) for c in class_and_bases(tree, located.owner)):
        return True
    method = located.node.name
    return any(
        _defines(store.source(release, derived.file), derived.qualname, method)
        for derived in store.derived_classes(release, located.owner.name)
    )


def _defines(source: str | None, qualname: str, method: str) -> bool:
    """Whether the class defines the method in its own body."""
    tree = parse(source) if source else None
    found = find(tree, f"{qualname}.{method}") if tree is not None else None
    return found is not None and found.owner is not None and found.owner.name == qualname.rsplit(".", 1)[-1]


def _not_implemented(site: SiteJson) -> bool:
    """Whether the site raises NotImplementedError, the exception a method raises to leave itself to subclasses.

    A method whose whole body raises another exception refuses the operation (`__iter__` raising TypeError).
    """
    return any(
        n.rsplit(".", 1)[-1] == "NotImplementedError" for n in [site["exception"] or "", *site["exception_bases"]]
    )


def _starts_at(node: ast.AST, line: int) -> bool:
    return isinstance(node, ast.stmt) and node.lineno == line


def _only_statement(body: list[ast.stmt]) -> ast.stmt | None:
    """The one statement of a body besides its docstring and `...`/`pass`, if there is exactly one."""
    kept = [
        s
        for s in body
        if not isinstance(s, ast.Pass) and not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
    ]
    return kept[0] if len(kept) == 1 else None


def statement_advice(site: SiteJson, statement: StatementKind) -> SolutionBody | None:
    """The advice the statement that raises supports, or None."""
    if statement == "assert":
        text = (
            f"Line {site['line']} is an `assert` statement: `python -O` skips it, which removes the check,"
            " not what made it fail."
        )
    elif statement == "placeholder":
        owner, _, method = site["function"].rpartition(".")
        text = (
            f"`{site['function']}` does nothing but raise {site['exception'] or 'an error'}: `{owner}` leaves"
            f" `{method}` to its subclasses. Use an object whose class overrides `{method}`, or override it in a"
            " subclass of your own."
        )
    elif statement == "unimplemented":
        owner, _, method = site["function"].rpartition(".")
        text = (
            f"`{site['function']}` does nothing but raise {site['exception'] or 'an error'}: `{owner}` does not"
            f" implement `{method}` (it is not abstract, and no class of the release derived from `{owner}`"
            f" overrides it), so reaching it on an instance of `{owner}` always raises."
        )
    elif statement == "warn":
        category = (site["exception"] or "").rsplit(".", 1)[-1]
        flag = f"-W error::{category}" if _is_builtin_warning(category) else "-W error"
        text = (
            "A warning does not stop the program. To find the call that leads here, run with"
            f" `python {flag}`: the warning is raised as an exception, and its traceback shows the calls."
        )
    else:
        return None
    return {"kind": "statement_advice", "text": text, "statement": statement}


def _is_builtin_warning(name: str) -> bool:
    found = getattr(builtins, name, None)
    return isinstance(found, type) and issubclass(found, Warning)


def distributions(template: str | None) -> list[Distribution]:
    """What the message says to install: `pip install NAME`.

    A probe in the condition (`not is_vision_available()`) is not read as one: its name is not a distribution's
    (`vision` tests Pillow; `torch_cuda` a GPU), and what it tests is in the function, not its name.
    """
    found: dict[str, str] = {}
    text = (template or "")[:5000]
    for match in _PIP_INSTALL.finditer(text):
        if text[match.end(1) : match.end(1) + 1] in ("+", ":", "/", "@"):
            continue  # `git+https://...`, `https://...`, `./path`, `name @ url`: a location, not a name
        name = match.group(1).rstrip(".,`'\"")
        bare = name.rstrip("<>=!~")
        if bare != name:  # `accelerate>={}`: the version is filled in at run time, so only the name is known
            found.setdefault(bare, "named by `pip install` in the message, at a version it fills in at run time")
        else:
            found.setdefault(name, "named by `pip install` in the message")
    return [{"name": name, "source": source} for name, source in found.items() if name and "{}" not in name]


_SENTENCE_END = re.compile(SENTENCE_END)
# a sentence that opens with a request or suggestion to the reader (`Use of X is deprecated` is no request)
_ADVISES = re.compile(
    r"(?:perhaps|maybe|did you mean|please|try|use(?! of\b)|consider|make sure|ensure|pass|specify|upgrade|downgrade"
    r"|install|set|call|check|convert|change|register|run|provide|add|remove|rename|increase|reduce"
    r"|to (?:fix|avoid|silence|suppress|use|enable|disable)|if you)\b",
    re.IGNORECASE,
)
_TO_THE_READER = re.compile(r"\byou (?:should|can|could|must|need|may want|might want|have to)\b", re.IGNORECASE)
MAX_ADVICE_CHARS = 400


def message_advice(template: str | None, values: list[str | None] | None) -> SolutionBody | None:
    """What the message itself tells the reader to do (`Perhaps you meant https://{}?`, `Use X instead.`), quoted
    with the user's values in its holes where the paste has them; None when it tells nothing. What it says to
    install is `install_solution`'s."""
    if not template or template.count("{}") > len(template) // 3:
        return None
    said: list[str] = []
    before = 0  # holes of the template before the sentence
    for sentence in _SENTENCE_END.split(template[:5000]):
        holes = sentence.count("{}")
        own = (values or [])[before : before + holes]
        before += holes
        if "pip install" in sentence or not (_ADVISES.match(sentence.strip()) or _TO_THE_READER.search(sentence)):
            continue
        if holes and len(own) == holes and all(v is not None for v in own):
            parts = sentence.split("{}")
            sentence = "".join(part + (value or "") for part, value in zip(parts, own, strict=False)) + parts[-1]
        said.append(sentence.strip())
    text = " ".join(said)
    if not text or len(text) > MAX_ADVICE_CHARS:
        return None
    filled = values is not None and "{}" not in text
    whose = ", with your values" if filled and template.count("{}") else ""
    return {"kind": "message_advice", "text": f"The message itself says what to do{whose}: “{text}”"}


def install_solution(template: str | None) -> SolutionBody | None:
    """Which distribution to install, from the message; None when it does not say."""
    names = distributions(template)
    if not names:
        return None
    listed = ", ".join(f"`{n['name']}` ({n['source']})" for n in names)
    command = "python -m pip install " + " ".join(n["name"] for n in names)
    return {"kind": "install", "text": f"Install what the code asks for: {listed}.", "code": command}
