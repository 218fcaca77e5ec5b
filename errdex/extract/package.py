"""Link the per-file analyses of one release: names across modules and exception base classes.

Per-file analyses are cached by content, so anything that depends on another file is done
here: values imported from other modules of the package, the base classes of exceptions
defined in the package, and messages built by an exception class's own `__init__` or kept as
a class attribute, and the messages callers write for a raise helper of their file (see `helpers.py`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping
from typing import NamedTuple

from errdex.extract.buffers import Reader, field_readers, raised_with
from errdex.extract.compiled.raisers import python_exception
from errdex.extract.file import register_chunks
from errdex.extract.helpers import caller_sites
from errdex.extract.records import ClassMessage, ClassRecord, FileAnalysis, HoleSources, Pending, RawSite
from errdex.extract.resolve import Unresolved, evaluate, to_json
from errdex.extract.scope import ModuleScope, module_name
from errdex.extract.templates import MAX_ALTERNATIVES, given_holes, given_message, render
from errdex.extract.visitor import MAX_TEMPLATE
from errdex.model import Binding, ClassInfo, JsonValue, Site, language_of

MAX_BASES = 12
GROUP_SUFFIXES = (" ({} sub-exception)", " ({} sub-exceptions)")  # what str() of an exception group adds
_GROUPS = ("ExceptionGroup", "BaseExceptionGroup")
FoundClass = tuple[str, ClassRecord]  # the file a class is defined in, and its record


class Linked(NamedTuple):
    """What linking resolves of a site's pending names: values, where each is defined, alternatives."""

    values: dict[str, JsonValue]
    origins: dict[str, str]
    bindings: dict[str, tuple[Binding, ...]]


class Release:
    """The analyses of every file of one release, with lazily built module scopes."""

    def __init__(self, analyses: Mapping[str, FileAnalysis], read_text: Callable[[str], str | None]) -> None:
        self.analyses = analyses
        self.read_text = read_text
        self.paths = {module_name(path): path for path in analyses}
        self._scopes: dict[str, ModuleScope | None] = {}
        self._classes: dict[str, list[FoundClass]] = {}
        self._callers: dict[str, list[str]] = {}
        self._readers: dict[str, list[Reader]] | None = None
        self._compiled_classes: dict[str, ClassRecord] | None = None
        for path, analysis in analyses.items():
            for cls in analysis.classes:
                self._classes.setdefault(cls.qualname.rsplit(".", 1)[-1], []).append((path, cls))
            for name in analysis.callees():
                self._callers.setdefault(name, []).append(path)

    def readers(self, field: str) -> list[Reader]:
        """The raises that show an error's field (see `buffers.py`), found once per release."""
        if self._readers is None:
            self._readers = field_readers(self.analyses)
        return self._readers.get(field, [])

    def compiled_exception(self, thrown: str) -> str:
        """The Python class a C++ exception class of the release becomes: its bases followed, by name, to one
        pybind11 or c10 translates (`malformed_input : public std::runtime_error` is `RuntimeError`)."""
        if self._compiled_classes is None:
            self._compiled_classes = {
                c.qualname: c for path in sorted(self.analyses) for c in self.analyses[path].compiled_classes
            }
        name = thrown
        for _ in range(MAX_BASES):
            found = self._compiled_classes.get(name)
            if found is None or not found.bases:
                return thrown
            base = found.bases[0].removeprefix("public ").removeprefix("virtual ").split("<", 1)[0].strip()
            translated = python_exception(base)
            if translated != base.rsplit("::", 1)[-1]:
                return translated
            name = translated
        return thrown

    def callers(self, name: str) -> list[str]:
        """The files whose recorded calls call a function of this name (see `helpers.py`)."""
        return self._callers.get(name) or []

    def scope(self, module: str) -> ModuleScope | None:
        """The top-level names of a module of this release, or None if it is not part of it."""
        path = self.paths.get(module)
        if path is None:
            return None
        if path not in self._scopes:
            self._scopes[path] = None  # guards against import cycles while building
            text = self.read_text(path)
            if text is not None:
                scope = ModuleScope(path)
                scope.package = self.scope
                register_chunks(text, scope)
                self._scopes[path] = scope
        return self._scopes[path]

    def find_class(self, path: str, name: str, depth: int = 0) -> FoundClass | None:
        """The class a name refers to in a file, following imports inside the package."""
        if depth > 6:
            return None
        analysis = self.analyses.get(path)
        if analysis is None:
            return None
        head, _, rest = name.partition(".")
        for cls in analysis.classes:
            if cls.qualname == name:
                return path, cls
        imported = analysis.imports.get(head)
        if imported is not None:
            module, attr = imported
            wanted = ".".join(p for p in (attr, rest) if p)
            target = self.paths.get(module)
            if target is not None and wanted:
                found = self.find_class(target, wanted, depth + 1)
                if found is not None:
                    return found
            if attr is not None and rest:
                target = self.paths.get(f"{module}.{attr}")
                if target is not None:
                    return self.find_class(target, rest, depth + 1)
        candidates = self._classes.get(name.rsplit(".", 1)[-1], [])
        return candidates[0] if len(candidates) == 1 and depth == 0 else None

    def bases(self, path: str, exception: str) -> tuple[tuple[str, ...], ClassRecord | None]:
        """Base classes of an exception (nearest first) and its own class record, if defined here."""
        found = self.find_class(path, exception)
        if found is None:
            return (), None
        out: list[str] = []
        queue = [found]
        seen = {(found[0], found[1].qualname)}
        while queue and len(out) < MAX_BASES:
            cls_path, cls = queue.pop(0)
            for base in cls.bases:
                short = base.rsplit(".", 1)[-1]
                if short not in out:
                    out.append(short)
                parent = self.find_class(cls_path, base)
                if parent is not None and (parent[0], parent[1].qualname) not in seen:
                    seen.add((parent[0], parent[1].qualname))
                    queue.append(parent)
        return tuple(out), found[1]

    def class_message(self, path: str, exception: str) -> tuple[ClassMessage, ...]:
        """The messages an exception class (or its nearest base that has one) writes itself."""
        found = self.find_class(path, exception)
        for _ in range(MAX_BASES):
            if found is None:
                return ()
            cls_path, cls = found
            if cls.messages:
                return cls.messages
            found = next((f for f in (self.find_class(cls_path, b) for b in cls.bases) if f), None)
        return ()

    def resolve_pending(self, path: str, pending: tuple[Pending, ...]) -> Linked:
        """Values of names that came from other modules, now that the whole release is known (with the
        alternatives of those bound under conditions)."""
        scope = self.scope(module_name(path))
        linked = Linked({}, {}, {})
        values, origins = linked.values, linked.origins
        if scope is None:
            return linked
        for name, source in pending:
            found = scope.bindings(name) if source == name else None
            if found is not None:
                linked.bindings[name] = found
            try:
                if source == name:
                    value, origin = scope.lookup_with_origin(name)
                else:
                    value = evaluate(ast.parse(source, mode="eval").body, scope.lookup)
                    origin = f"{path}"
            except (Unresolved, SyntaxError, RecursionError, ValueError):
                continue
            values[name] = to_json(value)
            origins[name] = origin
        return linked


def link(
    analyses: Mapping[str, FileAnalysis], read_text: Callable[[str], str | None]
) -> tuple[list[Site], list[ClassInfo]]:
    """Every site of a release, with cross-module values and exception bases filled in."""
    release = Release(analyses, read_text)
    sites = [site for path in sorted(analyses) for site in file_sites(release, path)]
    classes = [class_info(path, cls) for path in sorted(analyses) for cls in analyses[path].classes]
    return sites, classes


def class_info(path: str, cls: ClassRecord) -> ClassInfo:
    """A class as the store keeps it (for related errors)."""
    return ClassInfo(path, cls.qualname, cls.line, cls.bases, cls.attributes)


def file_sites(release: Release, path: str) -> Iterator[Site]:
    """The sites of one file of a release: its own and those its callers write through its raise
    helpers, with the names left pending in its analysis resolved across the release."""
    for raw in [*release.analyses[path].sites, *caller_sites(release, path)]:
        resolved, origins = dict(raw.values.resolved), dict(raw.values.resolved_from)
        bindings = dict(raw.values.bindings)
        written_at = raw.written_at
        if raw.values.pending:
            linked = release.resolve_pending(written_at.file if written_at else path, raw.values.pending)
            resolved.update(linked.values)
            origins.update(linked.origins)
            bindings.update(linked.bindings)
        checks = tuple(c for c in raw.values.checks if c not in resolved)
        exception, bases, templates, reason = _message(release, path, raw, resolved)
        for template, holes in templates.items():
            yield Site(
                kind=raw.kind,
                exception=exception,
                exception_bases=bases,
                template=template,
                reason=reason if template is None else None,
                file=path,
                line=raw.line,
                end_line=raw.end_line,
                function=raw.function,
                clauses=raw.clauses,
                resolved=resolved,
                resolved_from=origins,
                checks=checks,
                message_source=raw.message_source,
                level=raw.level,
                holes=holes if template is not None and len(holes) == template.count("{}") else (),
                written_at=written_at,
                bindings=bindings,
                prior_checks=raw.prior_checks,
            )


Templates = dict[str | None, HoleSources]  # a site's templates, in order, with the sources of each one's holes


def _message(
    release: Release, path: str, raw: RawSite, resolved: dict[str, JsonValue]
) -> tuple[str | None, tuple[str, ...], Templates, str | None]:
    """A site's exception, its bases, templates and the reason for none, with what only linking knows:
    a message kept in another module's constant (pandas' `_chained_assignment_msg`), a property of the
    class given as the message, the class `__init__` gives an attribute raised, the exception class's
    own message, the count an exception group adds."""
    analysis = release.analyses[path]
    templates: Templates = {t.text: t.holes for t in raw.templates} or {None: ()}
    reason = raw.reason
    unknown = not raw.templates
    constant = resolved.get(raw.message_source) if unknown else None
    kept = render((constant,)) if isinstance(constant, str) and len(constant) <= MAX_TEMPLATE else None
    if kept is not None:
        templates, reason, unknown = {kept: ()}, None, False
    if unknown and raw.message_attribute:
        found = analysis.properties.get(f"{raw.owner}.{raw.message_attribute}") or ()
        if found:
            templates, reason = dict.fromkeys(found, ()), None
    exception = raw.exception
    if exception is not None and language_of(path) == "cpp":
        exception = release.compiled_exception(exception)
    readers = release.readers(raw.buffer) if raw.buffer is not None and raw.templates else []
    if readers:  # written into an error's field, raised by the code that reads it
        exception = readers[0].exception
        templates = dict(raised_with(t, r) for r in readers for t in raw.templates)
    if raw.exception_attribute:
        exception = analysis.attribute_classes.get(f"{raw.owner}.{raw.exception_attribute}", exception)
    bases: tuple[str, ...] = ()
    if raw.kind in ("error", "warning") and exception:
        printed = _as_printed(templates, release.class_message(path, exception), raw.message_later)
        if printed:
            templates, reason = printed, None
    if raw.kind == "error" and exception:
        bases, _ = release.bases(path, exception)
        if _is_group(exception, bases) and None not in templates:
            templates = {
                t + suffix: (*h, ()) for t, h in templates.items() if t is not None for suffix in GROUP_SUFFIXES
            }
    return exception, bases, templates, reason


def _as_printed(templates: Templates, own: tuple[ClassMessage, ...], later: bool) -> Templates:
    """A site's templates as its exception class (or warning category) prints them; {} to keep its own.

    A class that writes its own message around the first argument it is given (marked there, see
    `templates.given_message`) gets the site's words in that place. A site with no words of its own
    takes the class's message; so does one whose words came after a first argument that only names
    something, when the class says more than its arguments (`{}: {}` does not).
    """
    if not own:
        return {}
    if list(templates) == [None] or (later and any(_has_words("".join(c.parts)) for c in own)):
        printed = ((given_message(c, None), given_holes(c, ((),))) for c in own)
        return dict(p for p in printed if p[0] is not None)
    marked = [c for c in own if len(c.parts) > 1]
    if later or not marked:
        return {}
    out: Templates = {}
    for c in marked:
        for t, holes in templates.items():
            text = given_message(c, t)
            if text is not None and text not in out and len(out) < MAX_ALTERNATIVES:
                out[text] = given_holes(c, holes)
    return out


def _has_words(template: str | None) -> bool:
    """Whether a template says something besides its holes: `{}: {}` does not (a class that prints its
    arguments so; the site's own words are then the better template)."""
    return template is not None and any(c.isalpha() for c in template.replace("{}", ""))


def _is_group(exception: str, bases: tuple[str, ...]) -> bool:
    """An exception group, whose message Python prints with the number of its sub-exceptions."""
    return any(name.rsplit(".", 1)[-1] in _GROUPS for name in (exception, *bases))
