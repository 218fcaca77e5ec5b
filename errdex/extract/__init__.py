"""Static extraction: Python source → sites (raises, warnings, logs) with templates and values.

`analyse_file` looks at one file and its result is cached by content; `link` joins the files
of a release (names imported across modules, exception base classes).
"""

from errdex.caches import EXTRACTOR_VERSION
from errdex.extract.file import analyse_file
from errdex.extract.package import link

__all__ = ["EXTRACTOR_VERSION", "analyse_file", "link"]
