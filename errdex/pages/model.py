"""The page model: the shape of the dict `build_page` returns, section by section.

A page is plain JSON data, so its types are TypedDicts (the renderers index it by key, and JSON
written and read back is the same page). docs/page.md documents every key; a test keeps the two
equal. The page is built in stages, each a TypedDict that extends the one before:

ErrorJson (the indexed error) → StaticFacts (what the release's code says) → StaticPage (cached:
plus triggers, example fix, solutions, provenance) → Page (plus the user's input and the prose).
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from errdex.model import JsonValue, Language


class WrittenAtJson(TypedDict):
    """Where a raise helper's caller wrote the message (`self.fail(f"...")`)."""

    file: str
    line: int | None
    function: str


class BindingJson(TypedDict):
    """One value a name bound under conditions may have (`what_it_means.values[].alternatives[]`)."""

    when: str  # its conditions in words: "when `is_torch_available()` returns true", "always"
    conditions: list[str]  # each condition's test as code (an `if` test, or the exception a handler catches)
    value: JsonValue  # None where not `known`
    known: bool  # False: the value could not be resolved (unknown, never empty)
    defined_at: str | None  # file:line of the binding
    chosen: bool  # the value the page uses (the package's normal import path)


class PriorCheckJson(TypedDict):
    """An earlier raising check of the site's function on its path: the site is reached only when `test` is false."""

    line: int
    test: str


class SiteJson(TypedDict):
    """One raise site's own facts (also an entry of `errdex list --json`, with the error's id and release)."""

    kind: str  # error | warning | log
    exception: str | None  # the class as the `raise` writes it, or the warning category; None for a log
    exception_bases: list[str]  # a package-defined exception's base classes, nearest first
    template: str | None  # the message, each run-time part written `{}`; None when not known statically
    reason: str | None  # why there is no template
    file: str  # the place, as the module is imported
    line: int  # the first line of the raising statement
    end_line: int  # its last line
    function: str  # the qualified name of the enclosing function (`GenerationConfig.validate`) or `<module>`
    written_at: WrittenAtJson | None
    condition: str | None  # the `if` tests guarding the raise as code, joined by `and` (an `else`: `not (...)`)
    resolved: dict[str, JsonValue]  # name -> its value, for the names of the condition and message the code defines
    resolved_from: dict[str, str]  # name -> the `path:line` defining its resolved value
    bindings: dict[str, list[BindingJson]]  # names bound under conditions: each value they may have
    prior_checks: list[PriorCheckJson]  # the raising checks before it on its path (see `PriorCheck`)
    checks: list[str]  # the attribute and parameter names the condition tests
    message_source: str  # the message expression as written
    level: str | None  # the logging method of a log call


class SourceExcerpt(TypedDict):
    start: int
    end: int
    text: str
    inside_string: str | None  # the opening (prefix, quotes) of the string literal the first line continues
    language: Language  # what the file is written in: the renderers highlight it as such


class Place(TypedDict):
    """One place of the error in the release (`sites[]`), with the index of its check in `site_scope.checks`."""

    file: str
    line: int
    end_line: int
    function: str
    written_at: WrittenAtJson | None
    check: int


class RelatedError(TypedDict):
    id: str
    template: str
    exception: str | None
    file: str
    line: int
    function: str
    relation: str  # function | setting


class ErrorJson(SiteJson):
    """An indexed error in one release: its first place's facts at top level, every place, related errors."""

    id: str  # 16 hexadecimal digits, the same in every release that raises the same message
    package: str  # with `version`, the release the page explains
    version: str  # the release's version
    snippet: SourceExcerpt  # the source around the place
    sites: list[Place]  # every place of the error in the release
    related: list[RelatedError]  # errors of the same function, or checking the same setting
    repository_url: str | None  # the upstream repository the release's metadata names


class CheckGroup(TypedDict):
    """One distinct check among the error's places (`site_scope.checks[]`)."""

    condition: str | None
    resolved: dict[str, JsonValue]
    count: int
    first: str  # file:line


class SiteScope(TypedDict):
    site: str | None
    count: int
    exact: bool
    checks: list[CheckGroup]
    text: str | None


class SourceLink(TypedDict):
    """Another place the lines may be upstream (another path or tag form), labelled as the guess it is."""

    url: str | None
    path: str
    ref: str  # the tag or commit the link is pinned to
    label: str


class CheckClause(TypedDict):
    """One top-level `and` part of the condition."""

    code: str
    text: str
    negated: str
    kind: str


class ResolvedValue(TypedDict):
    name: str
    value: JsonValue  # None where not `known`
    known: bool  # False: a name bound under conditions none of which the page could take (its alternatives say)
    defined_at: str | None
    count: str | None
    alternatives: list[BindingJson]  # for a name bound under conditions: each value it may have, and when
    choice: str | None  # those alternatives in words, and which one the page uses


class MembershipList(TypedDict):
    """An `x in NAME` / `x not in NAME` test on a resolved list."""

    subject: str
    name: str
    role: str  # allowed | forbidden
    values: list[JsonValue]


class EnvironmentTest(TypedDict):
    """A test of where the code runs rather than of what a user passes."""

    code: str
    text: str
    kind: str


StatementKind = Literal["assert", "raise", "placeholder", "unimplemented", "warn", "log", "unknown"]
"""What raises, as the code writes it: an `assert` statement, a `raise`, a `raise` that is a method's whole body
(a placeholder for subclasses; `unimplemented` when its class is not abstract and no class of the release derived
from it overrides the method), a `warnings.warn` call, a logging call, or not read (a page for several places,
a raise helper's site, a file that does not parse)."""


class HandlerJson(TypedDict):
    """The `except` block a raise is in (`what_it_means.handler`): it runs only when its `try` body raises; or the
    `try`'s `else:` block: it runs only when the body raised nothing."""

    exceptions: list[str]  # the caught classes as written; empty for a bare `except:` and for `else`
    try_line: int
    try_end: int
    statement: str | None  # the `try` body as code when it is one simple statement; null otherwise
    block: str  # "except" | "else"


class CatcherJson(TypedDict):
    """The `except` block of a `try` of the raise's own function whose body holds the raise and that catches its
    class (`what_it_means.caught_by`): the error leaves the function only if that block raises it again."""

    try_line: int
    line: int  # the `except` line
    header: str  # `except Exception as e1`
    returns: list[int]  # the block's `return` lines
    reraises: list[int]  # its lines that raise the caught error again (`raise`, `raise e1 from None`)
    kept: list[int]  # its other lines that read the caught error (`error = e`, `return e`): it is handed on


class ReboundJson(TypedDict):
    """A parameter (or an attribute of one, `self.by`) the check reads after the function bound it again
    (`what_it_means.rebound`): the check sees the new value, not the argument as passed."""

    name: str
    line: int  # the rebinding's line
    code: str  # the rebinding statement, as code
    when: str | None  # the test of the `if` it is under, as code; None when no `if` of the function holds it
    at: int  # the line of the raise it reaches (a page for several places has one per place)


class ChangedJson(TypedDict):
    """A parameter the check reads that its function changes in place before the raise (`what_it_means.changed`):
    the check sees what is left (`kwargs` after `kwargs.pop('nbins')`), not the argument as passed."""

    name: str
    lines: list[int]  # the lines that change it
    code: str  # the first change, as code
    at: int  # the raise's line: changes after it (in a loop's body) reach it only on a later pass


class CallBeforeJson(TypedDict):
    """A call before the check in its function that is passed a value the check reads (`what_it_means.calls_before`):
    it is not followed, so it may reject that value first with another error."""

    line: int
    call: str  # the callee as written, with `(...)`: `_api.check_in_list(...)`
    passes: list[str]  # the arguments it is passed that the check reads, as code
    listed: list[JsonValue]  # the members of literal lists, tuples or sets passed along with them


class OtherRaiseJson(TypedDict):
    """Another raise of the check's function in code that tests what the check reads (`what_it_means.other_raises`):
    a value that passes this check may still fail there."""

    line: int
    raised: str | None  # the exception as written
    test: str  # the innermost `if` test reading the inputs that guards it, as code (`not (...)` in its `else`)
    reads: list[str]  # the check's inputs that test reads


class ExitJson(TypedDict):
    """A `return` before the check in its function (`what_it_means.exits`), with the tests of the `if`s around it
    that must hold for it to run (a test of an `else` branch negated): all as code."""

    line: int
    when: list[str]


class DefinedWhenJson(TypedDict):
    """The definition holding the raise exists only when one block of the code around it runs
    (`what_it_means.defined_when`)."""

    name: str
    line: int
    at: int  # the `try` or `if` line
    when: str  # what must happen for it to be defined, in words
    imported: str | None  # the module an import in the `try` body binds the same name from


class LoopBreakJson(TypedDict):
    """A `break` of the loop whose `else:` block holds the raise (`what_it_means.loop_else.breaks[]`)."""

    line: int
    when: list[str]  # what must hold for a pass to reach it, outermost first, in words


class LoopElseJson(TypedDict):
    """The `for` or `while` loop whose `else:` block holds the raise (`what_it_means.loop_else`): the raise runs
    only when the loop ends without `break`."""

    line: int  # the loop's
    kind: str  # "for" | "while"
    test: str | None  # a `while` loop's test, as code
    breaks: list[LoopBreakJson]


class WhatItMeans(TypedDict):
    plain: str  # the answer in short, in the user's terms: their call, what passes the check (see `pages/plain.py`)
    summary: str
    in_their_words: str | None  # what the docstrings say the checked inputs are and the comment at the check, quoted
    condition: str | None
    # the tests of the raise's own `if`/`elif` chain as one condition: those around it pick the branch a call is in
    # (`if verify:` around `if block.ndim != 2: raise`), and an example fix must make this one false
    own_test: str | None
    clauses: list[CheckClause]
    values: list[ResolvedValue]
    lists: list[MembershipList]
    environment: list[EnvironmentTest]
    context: str | None
    handler: HandlerJson | None
    caught_by: CatcherJson | None  # the `except` of the raise's own function that catches it first
    derivable: bool
    statement: StatementKind
    rebound: list[ReboundJson]
    changed: list[ChangedJson]
    class_parameter: str | None  # the raise's class (warning category) is this parameter: the caller's argument
    class_returned_by: str | None  # the raise's "class" is a function of the module: it raises what that returns
    calls_before: list[CallBeforeJson]
    exits: list[ExitJson]
    class_held_by: str | None  # the raise raises an object it looks up or keeps (`ERRORS[key]`): class not resolved
    defined_when: DefinedWhenJson | None  # the raise's definition is made only in a branch (an `except` block)
    loop_else: LoopElseJson | None  # the raise is in a loop's `else:` block: it runs only when no `break` ends it
    # the raise's function runs only later: "iterated" (a generator: a call makes it, iterating it runs the body),
    # "awaited" (a coroutine), "iterated asynchronously" (an async generator); None: a call runs it
    runs_when: str | None
    other_raises: list[OtherRaiseJson]


class InputWay(TypedDict):
    """One way a user sets an input (`when_it_happens.inputs[].ways_in[]`)."""

    call: str | None
    import_from: str | None  # the public module a user imports the call's class or function from (None: none)
    keyword: str | None
    required: list[str]  # the parameters a call must pass, in signature order; `*args` as `*args`
    via: str
    how: str
    file: str
    line: int
    reaches_check: bool
    default: str | None  # the literal a call that leaves out `keyword` gives it, as written; None: none, or no literal
    # the calls from `via` down to the checking function, each passing the value on unchanged (see `pages/carried.py`);
    # empty when `via` sets the input itself
    through: list[EntryStep]


class InputBinding(TypedDict):
    """Where an input is bound when no caller sets it: a local, a loop variable, a class attribute
    (`when_it_happens.inputs[].bound[]`)."""

    how: str
    file: str
    line: int


class Receives(TypedDict):
    """What an input can be given, as the code says (`when_it_happens.inputs[].receives`)."""

    user_set: bool  # False: a local, a value read elsewhere, a private attribute the package sets itself
    types: list[str] | None  # the type or class names it takes (`int`, `None`, `Config`); None: not known
    values: list[JsonValue]  # the values a `Literal` annotation allows besides those types


class InputSource(TypedDict):
    """An input a checked local is computed from, with the ways a user sets it (`inputs[].computed_from[]`)."""

    code: str
    line: int  # the local's binding that reads it
    ways_in: list[InputWay]


class CheckedInput(TypedDict):
    """An input the condition tests (`when_it_happens.inputs[]`)."""

    code: str
    name: str
    kind: str  # attribute | parameter | local | other
    ways_in: list[InputWay]  # only ways a user or a caller takes (a call passing it, a property read)
    bound: list[InputBinding]  # where it is bound otherwise (a local, a store without an argument, a class attribute)
    computed_from: list[InputSource]  # a local's one binding reads these, which users set (not ways in themselves)
    receives: Receives


class EntryStep(TypedDict):
    """A call on the way from a public entry down to the raising function: made in `function`, at `file:line`."""

    function: str
    file: str
    line: int
    call: str  # as written there (cut)


class PublicEntry(TypedDict):
    """A public way to the raising function: a function or class users import from the package's top level, and the
    calls found from it down to the raising function (`when_it_happens.entries[]`)."""

    function: str  # its qualified name in its module (`Session.get`, `GenerationConfig.__init__`)
    file: str
    import_from: str  # the top-level package users import it from
    kind: str  # constructor | root (no call of it found in the release) | setter (a property's) | public | binding
    # (binding: a compiled function exported to Python, `function` the name Python calls it by, `file` "path:line"
    # of the binding)
    steps: list[EntryStep]  # from the entry down; empty when the raising function is the entry itself


class WhenItHappens(TypedDict):
    summary: str
    entries: list[PublicEntry]  # public calls that lead here, best first (see `pages/entries.py`)
    inputs: list[CheckedInput]
    signature: str | None
    wrapped_by: list[str]  # the package's decorators around the function or a caller in its file (`_fit_context`)


class CallArguments(TypedDict):
    """What a call passes, each argument as written (in full, unlike `Caller.call`)."""

    positional: list[str]
    keywords: dict[str, str]
    unpacked: bool  # it has `*args` or `**kwargs`: what it passes is not all written
    constants: dict[str, str]  # the module constants it passes by name, each to its value as a literal's text


class TryAround(TypedDict):
    """A `try` of the calling function whose body holds the call, and what its handlers catch without re-raising."""

    line: int
    catches: list[str]  # the classes as written
    bare: bool  # a bare `except:` (it catches everything)


class Caught(TypedDict):
    """The `try` around a caller's call whose handler catches the page's error: it never reaches the user there."""

    try_line: int
    catches: str | None  # the class as written that catches it; None for a bare `except:`


class Caller(TypedDict):
    function: str
    file: str
    line: int
    match: str  # self | override | super | class | typed | constructor | module | import | local | receiver | recursive
    through: str | None  # the base's method a `typed` call names, when it reaches this override through it
    use: str  # call | read | reference | decorator
    call: str
    arguments: CallArguments | None  # None for a use that is no call
    inside_try: list[TryAround]  # innermost first
    loops: dict[str, list[str]]  # names `for name in [literal, ...]` around the call binds, to the literals as written
    truths: dict[str, bool]  # parameters of the caller an `if name:` around the call tests: whether each is true there
    when: list[str]  # compiled code: the tests around the call in its function, as written, outermost first


class PageCaller(Caller):
    """A caller on a page: whether a `try` around it catches the page's error."""

    caught: Caught | None


class CallerSearch(TypedDict):
    """The callers of a function and what was read to find them (cached per function; not on the page as such)."""

    callers: list[Caller]
    decorated_by: list[Caller]  # the function's own decorators, handed it when it is defined: no use of it, not counted
    files_searched: int
    files_parsed: int
    files_not_followed: int
    truncated: bool
    unresolved: int  # uses of the name on objects whose class is not known: not examined, only counted
    searched_for: list[str]  # the kinds of use the search resolves
    not_followed: list[str]  # the kinds of use it cannot see


class LinePlace(TypedDict):
    file: str
    line: int


class ReleaseCheck(TypedDict):
    """An indexed release that has the error, with the check the page speaks for there (`versions.releases[]`)."""

    version: str
    places: list[LinePlace]
    function: str
    condition: str | None
    resolved: dict[str, JsonValue]
    resolved_from: dict[str, str]
    bindings: dict[str, list[BindingJson]]
    lists: list[MembershipList]
    exact: bool


class SameCheck(TypedDict):
    """The page's check in a release that raises it with another text (`versions.same_check[]`); `difference` says
    how its condition differs (None: the very same check)."""

    version: str
    id: str
    template: str | None
    file: str
    line: int
    difference: str | None


class SameMessage(TypedDict):
    """The page's very message in a release that raises it as another exception class (`versions.same_message[]`):
    an error's id includes its class, so there it is another error."""

    version: str
    id: str
    exception: str | None
    file: str
    line: int


class TextChange(TypedDict):
    version: str
    previous_version: str
    previous_id: str | None
    previous_template: str | None


class ListChange(TypedDict):
    """How a resolved list changed between consecutive releases (`versions.value_changes[]`)."""

    from_version: str
    to_version: str
    name_before: str
    name_after: str
    added: list[JsonValue]
    removed: list[JsonValue]
    reordered: bool


class VersionHistory(TypedDict):
    indexed: list[str]
    releases: list[ReleaseCheck]
    same_check: list[SameCheck]
    same_message: list[SameMessage]
    missing_in: list[str]
    text_changed: TextChange | None
    value_changes: list[ListChange]
    summary: str


class ParameterDoc(TypedDict):
    """A checked input's entry in a docstring (`documented.parameters[]`), quoted as written."""

    name: str  # the input as the page names it
    keyword: str  # the parameter the docstring documents (the keyword of a way in, or the input itself)
    documented_in: str  # the function or class whose docstring it is
    text: str
    file: str
    line: int  # where the docstring starts


class CodeComment(TypedDict):
    text: str
    line: int


class QuotedText(TypedDict):
    text: str
    line: int


class Documented(TypedDict):
    """What the code says about itself, in the author's words: may be out of date, never the analysis's claim."""

    parameters: list[ParameterDoc]
    comments: list[CodeComment]  # from the block above the statement guarding the raise, down to the raise
    docstring: QuotedText | None  # the raising function's docstring, its first paragraph


class StaticFacts(ErrorJson):
    """What the release's code says about the error: what derivation (triggers, fixes, the user's values) reads."""

    site_scope: SiteScope  # which of the error's places the page speaks for
    source_url: str | None  # the lines upstream (GitHub and GitLab repositories)
    source_url_label: str | None  # what the link assumes (tag form, path); None when nothing
    source_url_alternatives: list[SourceLink]
    what_it_means: WhatItMeans  # the check, read: in short, in words, as code, with the values it allows
    when_it_happens: WhenItHappens  # the public calls that lead here and how a user sets what the check reads
    documented: Documented
    callers: list[PageCaller]  # the uses of the raising function found in the release, surest first
    versions: VersionHistory  # the error across the package's indexed releases
    generated_by: str  # `static`, or the model's name when AI-assisted prose was written for the page


class Trigger(TypedDict):
    code: str | None
    values: dict[str, str]  # input code -> value as Python source
    from_user: bool
    text: str


class ExampleFix(TypedDict):
    before: str
    after: str
    input: str
    value_before: str | None  # None: the user's value, not known (`...` in `before`)
    value_after: str
    value_source: str  # suggested | listed | boundary | instance | none | user
    note: str  # what the change is known to do: pass this check; other raises that test the same input


class SolutionBody(TypedDict):
    """A solution before it is ranked; the keys after `text` belong to some kinds only."""

    kind: str
    text: str
    values: NotRequired[list[JsonValue]]  # use_allowed_value, avoid_value
    closest: NotRequired[list[str]]  # use_allowed_value
    list: NotRequired[str]  # use_allowed_value, avoid_value: the name of the list whose values it gives
    accepted_in: NotRequired[list[str]]  # version_drift of the user's value
    rejected_in: NotRequired[list[str]]  # version_drift of the user's value
    code: NotRequired[str]  # install
    statement: NotRequired[StatementKind]  # statement_advice


class Solution(SolutionBody):
    rank: int


class ProvenanceFact(TypedDict):
    fact: str
    release: str
    file: str | None
    line: int | None
    detail: str | None


class StaticPage(StaticFacts):
    """The page without the user's values and the prose: what is cached per (error, release, place)."""

    triggers: list[Trigger]  # calls that certainly raise it
    # calls worth running when no trigger is certain (see `derive.candidate_calls`): never shown as raising until
    # `errdex verify` ran one and it raised the error (then it is the page's trigger, see `pages/verified.py`)
    candidates: list[Trigger]
    example_fix: ExampleFix | None  # a change of one input that certainly keeps the check from firing
    solutions: list[Solution]  # the ways out the code supports, best first
    provenance: list[ProvenanceFact]  # the release, file and line each fact comes from


class MessageHole(TypedDict):
    code: str
    shown_as: str  # repr | str


class CheckedValue(TypedDict):
    """What a captured value does in this release (`user_input.checked[]`)."""

    code: str
    value: str | None
    result: str  # raises | accepted | unknown | not checked | same as this release | differs
    matches: NotRequired[list[str]]  # for a hole that shows a resolved list


class YourLine(TypedDict):
    """The user's own line from the pasted traceback, with the value the message shows replaced
    (`user_input.your_line`, see `pages/yours.py`)."""

    file: str  # as the traceback names it
    line: int
    before: str
    after: str
    value_before: str  # the literal as the line writes it
    value_after: str  # as code
    source: str  # "the example fix" | "the message": where the value comes from


class UserInput(TypedDict):
    values: list[str | None]  # None for a hole the matcher captured nothing in (as the hooks pass them)
    suggestions: dict[str, list[str]]
    holes: list[MessageHole]
    checked: list[CheckedValue]
    your_line: YourLine | None  # when the paste's traceback shows the user's call writing their value


class Prose(TypedDict):
    text: str | None
    model: str
    label: str
    cached: bool
    error: str | None


class RunJson(TypedDict):
    """What running one of the page's snippets showed (`verified[]`, see `pages/verified.py`): only for the very code
    the page shows as its trigger or its fix."""

    role: str  # trigger | fix
    status: str  # verified | disproved | cannot run | timed out | stopped | not verified (never run)
    text: str  # the verdict in words, as every renderer shows it beside the snippet
    beside: bool  # False for a disproved trigger: its own `text` begins with this verdict already
    detail: str | None  # what was observed, in words; None: never run
    python: str | None  # the Python it ran on: "3.11"
    checked_at: str | None  # ISO 8601 (UTC)
    exception: str | None  # the class it raised (warned), qualified
    message: str | None  # its message as observed
    file: str | None  # the innermost frame inside the installed packages
    line: int | None
    isolation: str | None  # how the network was cut off


class Page(StaticPage):
    """The whole page of one error in one release, as `build_page` returns it."""

    prose: Prose | None  # AI-assisted prose, when a model is configured (ERRDEX_LLM_URL)
    user_input: UserInput | None  # the user's captured values and what each does here; None when none were given
    verified: list[RunJson]  # what running its trigger and fix showed (one a snippet the page shows)


class PrebuildReport(TypedDict):
    """What `prebuild` did for one release, and how long it took."""

    package: str
    version: str
    functions: int
    callers_searched: int
    pages: int
    callers_seconds: float
    pages_seconds: float
