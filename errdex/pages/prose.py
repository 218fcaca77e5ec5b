"""Optional AI-assisted prose: an OpenAI-compatible chat endpoint rewrites the page's facts for people.

Set ERRDEX_LLM_URL (e.g. a local Ollama, llama.cpp server or vLLM: `http://127.0.0.1:11434/v1`)
and ERRDEX_LLM_MODEL to turn it on; without them nothing is sent anywhere and the page is
unchanged. The model is given only the static facts of the page and the source excerpt, its
answer is cached per (error id, release, place, model), labelled AI-assisted, and kept beside the
facts: it never replaces them. A failing endpoint leaves the page whole, with the reason.
"""

from __future__ import annotations

import json
import os

from errdex.caches import PROSE
from errdex.pages.model import Page, Prose, StaticPage
from errdex.store import Store

ENV_URL = "ERRDEX_LLM_URL"
ENV_MODEL = "ERRDEX_LLM_MODEL"
TIMEOUT_SECONDS = 60
MAX_RESPONSE_BYTES = 1_000_000
MAX_PROSE_CHARS = 6000
MAX_FACTS_CHARS = 24_000
LABEL = "AI-assisted"
SYSTEM_PROMPT = (
    "You explain one error of a Python library to a developer who just hit it. Use only the facts and the "
    "source excerpt you are given; do not add versions, values, causes or fixes that they do not state. Write "
    "three short paragraphs: what the check means, when it happens, how to fix it. Plain text, code in backticks."
)


def llm_config() -> tuple[str, str] | None:
    """(chat completions URL, model) from the environment, or None when prose is not wanted."""
    url, model = os.environ.get(ENV_URL, "").strip(), os.environ.get(ENV_MODEL, "").strip()
    if not url or not model:
        return None
    if not url.startswith(("http://", "https://")):
        return None
    return (url if url.rstrip("/").endswith("/chat/completions") else url.rstrip("/") + "/chat/completions"), model


def add_prose(store: Store, page: Page) -> None:
    """Set `page["prose"]` (and `generated_by` to the model) when an endpoint is configured."""
    config = llm_config()
    page["prose"] = None
    if config is None:
        return
    url, model = config
    key = PROSE.key(page["id"], page["version"], page["site_scope"]["site"] or "*", model)
    cached = store.cache_get(key)
    prose: Prose = {"text": None, "model": model, "label": LABEL, "cached": cached is not None, "error": None}
    if cached is not None:
        prose["text"] = cached.decode("utf-8", "replace")
    else:
        try:
            text = complete(url, model, facts_message(page))
            prose["text"] = text
            store.cache_put(key, text.encode())
        except ProseError as exc:
            prose["error"] = str(exc)
    page["prose"] = prose
    if prose["text"]:
        page["generated_by"] = model


class ProseError(Exception):
    """The endpoint could not be reached or gave no usable answer."""


def facts_message(page: StaticPage) -> str:
    """The static facts of a page and its source excerpt, as the model's only input."""
    facts = {
        "package": page["package"],
        "version": page["version"],
        "exception": page["exception"],
        "message_template": page["template"],
        "file": page["file"],
        "line": page["line"],
        "function": page["function"],
        "what_it_means": page["what_it_means"],
        "when_it_happens": page["when_it_happens"]["summary"],
        "indexed_releases": page["versions"]["summary"],  # what they show, so that no history is made up
        "value_changes_across_releases": page["versions"]["value_changes"],
    }
    text = json.dumps(facts, ensure_ascii=False)[:MAX_FACTS_CHARS]
    snippet = page["snippet"]
    return f"Facts (JSON):\n{text}\n\nSource excerpt (lines {snippet['start']}-{snippet['end']}):\n{snippet['text']}"


def complete(url: str, model: str, content: str) -> str:
    """The assistant's answer from an OpenAI-compatible `/chat/completions` endpoint."""
    import urllib.error  # imported here: only used when a model is configured, and slow to import
    import urllib.request

    body = json.dumps(
        {
            "model": model,
            "temperature": 0,
            "messages": [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": content}],
        }
    ).encode()
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:  # noqa: S310 (http(s) checked)
            raw = response.read(MAX_RESPONSE_BYTES + 1)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise ProseError(f"the model endpoint {url} failed: {exc}; check {ENV_URL}") from None
    if len(raw) > MAX_RESPONSE_BYTES:
        raise ProseError(f"the model endpoint {url} sent more than {MAX_RESPONSE_BYTES} bytes")
    try:
        text = json.loads(raw)["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise ProseError(f"the model endpoint {url} did not answer in the chat-completions shape") from None
    if not isinstance(text, str) or not text.strip():
        raise ProseError(f"the model endpoint {url} gave an empty answer")
    return text.strip()[:MAX_PROSE_CHARS]
