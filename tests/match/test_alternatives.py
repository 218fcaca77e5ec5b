"""Which later matches are real alternatives to the best one: those the message's own words do not rule out.

The fixture package `fetcher` comes in two releases whose message differs in one word (`http://` became
`https://`), and raises a second, unrelated error of the same class; a message printed by one release
fits its template word for word and the other's only approximately.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from errdex.indexing import index
from errdex.match import explain
from errdex.store import Store
from tests.backends import new_index

CLIENT = """
class MissingSchema(ValueError):
    pass


def get(url):
    if "://" not in url:
        raise MissingSchema(f"Invalid URL {{url!r}}: No scheme supplied. Perhaps you meant {scheme}://{{url}}?")
    if url.startswith("ftp"):
        raise MissingSchema(f"Invalid URL {{url!r}}: ftp is not supported")
    return url
"""


def write_fetcher(root: Path, version: str, scheme: str) -> Path:
    folder = root / f"fetcher-{version}"
    files = {
        "pyproject.toml": f'[project]\nname = "fetcher"\nversion = "{version}"\n',
        "fetcher/__init__.py": "",
        "fetcher/client.py": textwrap.dedent(CLIENT.format(scheme=scheme)),
    }
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    return folder


def test_another_releases_wording_is_ruled_out_by_a_message_that_fits_word_for_word(
    tmp_path: Path, backend: str
) -> None:
    with Store(new_index(backend, tmp_path, "fetcher.db")) as store:
        for version, scheme in (("1.0", "http"), ("2.0", "https")):
            index(str(write_fetcher(tmp_path, version, scheme)), store)
        for version, scheme in (("1.0", "http"), ("2.0", "https")):
            message = f"fetcher.client.MissingSchema: Invalid URL 'x.org': No scheme supplied. Perhaps you meant {scheme}://x.org?"
            result = explain(message, store=store, auto_index=False)
            best = result.best
            assert best is not None and best.version == version and best.word_for_word
            others = result.matches[1:]
            other_release = [c for c in others if c.version != version and c.line == best.line]
            assert other_release and all(result.ruled_out(c) for c in other_release)
            assert all(result.ruled_out(c) for c in others if not c.word_for_word)
            assert all(c.word_for_word for c in result.alternatives)
            assert [m["ruled_out"] for m in result.to_json()["matches"]] == [
                result.ruled_out(c) for c in result.matches
            ]


def test_nothing_is_ruled_out_when_the_best_match_is_itself_approximate(tmp_path: Path, backend: str) -> None:
    with Store(new_index(backend, tmp_path, "fetcher.db")) as store:
        for version, scheme in (("1.0", "http"), ("2.0", "https")):
            index(str(write_fetcher(tmp_path, version, scheme)), store)
        reworded = "fetcher.client.MissingSchema: Invalid URL 'x.org': no scheme given. Perhaps you meant http://x.org?"
        result = explain(reworded, store=store, auto_index=False)
        assert result.matches and not result.matches[0].word_for_word
        assert result.alternatives == result.matches[1:]
