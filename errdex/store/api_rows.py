"""API symbols as the store keeps them: one row a symbol, by file content, its details as JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from errdex.jsontext import dumps_text
from errdex.model import ApiDeprecation, ApiParam, ApiSymbol

API_COLUMNS = "qualname, kind, line, detail"  # what `symbol_of_row` reads, in this order


def symbol_row(file_hash: str, extractor_version: str, symbol: ApiSymbol) -> tuple[Any, ...]:
    """The row of one symbol of the file with this content hash."""
    detail = {
        "params": None if symbol.params is None else [[p.name, p.kind, p.default] for p in symbol.params],
        "bases": list(symbol.bases),
        "target": symbol.target,
        "deprecations": [[d.name, d.category, d.message, d.line, d.replacement] for d in symbol.deprecations],
        "message": symbol.message,
    }
    return (file_hash, extractor_version, symbol.leaf, symbol.qualname, symbol.kind, symbol.line, dumps_text(detail))


def symbol_of_row(row: Sequence[Any]) -> ApiSymbol:
    """The symbol a row holds (columns as `API_COLUMNS`)."""
    qualname, kind, line, detail_text = row
    detail = json.loads(detail_text)
    params = detail["params"]
    return ApiSymbol(
        qualname=qualname,
        kind=kind,
        line=line,
        params=None if params is None else tuple(ApiParam(name, k, default) for name, k, default in params),
        bases=tuple(detail["bases"]),
        target=detail["target"],
        deprecations=tuple(ApiDeprecation(*d) for d in detail["deprecations"]),
        message=detail["message"],
    )
