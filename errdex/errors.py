"""The errors errdex itself raises; each says what went wrong with which input and what to do."""


class ErrdexError(Exception):
    """Base of every error errdex reports to a user as one clear line."""


class SourceError(ErrdexError):
    """A package, archive, folder or git revision could not be read."""


class StoreError(ErrdexError):
    """The index database cannot be opened, migrated or written."""


class NotIndexedError(ErrdexError):
    """The package, release or error asked for is not in the index.

    `what` says what is missing; `command` is the errdex command that would index or find it, kept
    apart so that the web site, where a visitor cannot run it, can leave it out.
    """

    def __init__(self, what: str, command: str | None = None) -> None:
        super().__init__(f"{what}; {command}" if command else what)
        self.what = what
        self.command = command


class InputError(ErrdexError, ValueError):
    """Pasted text or a command-line value is unusable (too large, empty, malformed).

    Also a ValueError: a library caller passing a bad argument catches what Python code expects,
    while the command line still reports it as one line like every ErrdexError.
    """


class CannotVerify(ErrdexError):
    """`errdex verify` cannot run a page's snippets here: no environment for the release (a build it will not do),
    or no snippet to run."""
