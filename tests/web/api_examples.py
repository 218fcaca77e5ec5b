"""Write errdex/web/api_examples.json: each API route's documented example request, answered by a real index.

    python -m tests.web.api_examples --db COPY_OF_AN_INDEX

The index must hold transformers 5.16.0 (the requests' examples name it; `errdex index transformers==5.16.0`
makes one). Each answer is trimmed to keep the document small: lists to their first LIST_ITEMS entries,
texts to TEXT_CHARS characters; it still has every key, so it is still an answer of the documented type
(tests/web/test_openapi.py checks it is).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from starlette.testclient import TestClient

from errdex.web import create_app
from errdex.web.openapi import EXAMPLES, example_values, request_url

LIST_ITEMS = 2
TEXT_CHARS = 200
SUMMARY = f"A real answer, trimmed: lists cut to {LIST_ITEMS} entries, texts to {TEXT_CHARS} characters"


def trim(value: Any) -> Any:
    if isinstance(value, list):
        return [trim(v) for v in value[:LIST_ITEMS]]
    if isinstance(value, dict):
        return {k: trim(v) for k, v in value.items()}
    if isinstance(value, str) and len(value) > TEXT_CHARS:
        return value[:TEXT_CHARS] + "…"
    return value


def answers(db: str) -> dict[str, Any]:
    """Each operation's example request, sent to the app over `db`: "METHOD /path" -> its trimmed answer."""
    app = create_app(db)
    out = {}
    with TestClient(app) as client:
        for path, operations in app.openapi()["paths"].items():
            for method, operation in operations.items():
                url = request_url(path, operation, example_values(operation))
                body = operation.get("requestBody", {}).get("content", {}).get("application/json")
                posted = {"json": body["examples"]["flagship"]["value"]} if body else {}
                response = client.request(method, url, **posted)
                assert response.status_code == 200, (method, url, response.text[:300])
                out[f"{method.upper()} {path}"] = {"summary": SUMMARY, "value": trim(response.json())}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="an index holding transformers 5.16.0 (a copy: it is opened)")
    args = parser.parse_args()
    data = {"written_by": "python -m tests.web.api_examples", "responses": answers(args.db)}
    EXAMPLES.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
