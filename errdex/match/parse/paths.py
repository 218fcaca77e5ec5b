"""Turning the file names a paste shows into paths inside a release, as the index stores them."""

from __future__ import annotations

import re

_INSTALL_DIRS = ("/site-packages/", "/dist-packages/")
_SOURCE_DIR = "/src/"
_MODULE_RE = re.compile(r"[A-Za-z_]\w{0,199}(?:\.[A-Za-z_]\w{0,199}){1,30}")
_NOT_FILES = ("<", "Cell In[", "Input In [")


def release_path(frame_file: str) -> str | None:
    """The path inside its release of a file a traceback names, or None for code not in a release.

    '/x/lib/python3.11/site-packages/transformers/utils.py' -> 'transformers/utils.py'; the same
    for dist-packages, virtualenvs and Windows paths; '/home/me/transformers/src/transformers/x.py'
    (a source checkout) -> 'transformers/x.py'; '<frozen ...>', '<stdin>', notebook cells -> None.
    """
    path = frame_file.strip().replace("\\", "/")
    if not path or path.startswith(_NOT_FILES):
        return None
    folded = path.lower()
    for marker in _INSTALL_DIRS:
        k = folded.rfind(marker)
        if k != -1:
            return _drop_egg(path[k + len(marker) :]) or None
    if folded.startswith(_SOURCE_DIR[1:]):
        return path[len(_SOURCE_DIR) - 1 :] or None
    k = folded.rfind(_SOURCE_DIR)
    if k != -1:
        return path[k + len(_SOURCE_DIR) :] or None
    return None


def _drop_egg(path: str) -> str:
    """'foo-1.0-py3.8.egg/foo/bar.py' -> 'foo/bar.py' (an egg installed as a directory)."""
    first, sep, rest = path.partition("/")
    return rest if sep and first.lower().endswith(".egg") else path


def module_file(name: str) -> str | None:
    """'transformers.generation.utils' -> 'transformers/generation/utils.py', for a dotted logger name.

    Loggers are conventionally named after their module (`logging.getLogger(__name__)`), so a
    dotted name points at a module; a package's logger points at 'pkg/sub.py' although its code is
    in 'pkg/sub/__init__.py', which is why this is only a hint. Undotted names ('root', 'app',
    '__main__') name no file.
    """
    if not _MODULE_RE.fullmatch(name):
        return None
    return name.replace(".", "/") + ".py"
