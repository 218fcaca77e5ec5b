"""Run a page's trigger and fix in a sandbox (only when asked): the one place errdex runs a package's code.

`verify_error` runs one error's snippets, `verify_release` a sample of a release's errors in one environment; each
verdict is kept in the store, where the page shows it beside the snippet that ran (see `pages/verified.py`).
"""

from errdex.verify.envs import clean
from errdex.verify.report import check_report, corpus_cases, summarize
from errdex.verify.runs import ErrorCheck, verify_error, verify_release

__all__ = ["ErrorCheck", "check_report", "clean", "corpus_cases", "summarize", "verify_error", "verify_release"]
