"""A pytest plugin for .ci/lowest: under click 8.1, the tests' CliRunner reads like click 8.2's.

The tests are written for click 8.2 and later, where `result.stdout` and `result.stderr` are kept
apart and `result.output` holds both. Click 8.1's CliRunner mixes stderr into stdout (and
`result.stderr` raises) unless given `mix_stderr=False`, an argument 8.2 removed; with it,
`result.output` is stdout alone. Loaded with `-p click_stderr` only when testing click 8.1.
"""

from __future__ import annotations

import functools
import inspect

from click.testing import CliRunner, Result

if "mix_stderr" in inspect.signature(CliRunner.__init__).parameters:
    CliRunner.__init__ = functools.partialmethod(CliRunner.__init__, mix_stderr=False)  # type: ignore[method-assign]
    Result.output = property(lambda result: result.stdout + result.stderr)  # type: ignore[assignment,method-assign]
