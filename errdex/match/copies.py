"""Which of identical copies answers: a message raised the same way in several places (a module vendored into
other packages, the sync and async twins of one method) is one answer, and the original comes first."""

from __future__ import annotations

# Folders below a package's own top folder that hold other projects' code copied in (`pip/_vendor/urllib3`,
# `botocore/vendored/requests/packages/urllib3`, `setuptools/extern`, `ray/thirdparty_files/psutil`).
VENDOR_FOLDERS = frozenset(
    {
        "_vendor",
        "vendor",
        "vendored",
        "_vendored",
        "extern",
        "_extern",
        "externals",
        "third_party",
        "_third_party",
        "thirdparty",
        "thirdparty_files",
        "packages",
    }
)


def is_vendored(file: str) -> bool:
    """Whether a release-relative path lies in a folder of copied-in code below the package's top folder."""
    return not VENDOR_FOLDERS.isdisjoint(file.split("/")[1:-1])
