"""The compiled sources of a wheel that ships extension modules, read from the same release's sdist.

A wheel carries `_speedups.cpython-312-x86_64-linux-gnu.so`, not the C it was built from; the sdist
of the same release does. It is fetched once into the release's cache folder (sdist_fetch.py,
never built, nothing of it run) and its compiled sources follow the wheel's Python files, by their
paths in the project tree. Without it (no sdist, offline) the wheel's Python files are read alone.
"""

from __future__ import annotations

import hashlib
from contextlib import ExitStack
from pathlib import Path

from errdex.errors import SourceError

from .archive import archive_members, open_archive_source
from .layout import ships_extension_modules
from .registry import FetchProgress
from .sdist_fetch import release_sdist
from .tree import TreeSource


def with_sdist_compiled(source: TreeSource, wheel: Path, stack: ExitStack, progress: FetchProgress) -> TreeSource:
    """The wheel's source, plus its sdist's compiled sources and a digest over both archives when it
    ships extension modules; the wheel's source unchanged when it ships none or the sdist is not at hand."""
    if not ships_extension_modules(archive_members(wheel)):
        return source
    name = f"{source.info.package} {source.info.version}"
    progress(f"reading the compiled sources of {name} from its sdist")
    sdist = stack.enter_context(release_sdist(source.info, wheel.parent, keep=True))
    if sdist.path is None:
        why = "it has none" if sdist.status == "missing" else f"it could not be fetched: {sdist.detail}"
        progress(f"no sdist of {name} ({why}); reading the wheel's Python files only")
        return source
    try:
        opened = open_archive_source(sdist.path, sdist.path.name, stack)
    except SourceError as exc:
        progress(f"{exc} (kept as '{sdist.path}'; delete it to fetch it again); reading the wheel's Python files only")
        return source
    digest = hashlib.sha256(f"{source.info.digest}\n{opened.info.digest}\n".encode("ascii")).hexdigest()
    return source.with_compiled(opened.compiled, digest)
