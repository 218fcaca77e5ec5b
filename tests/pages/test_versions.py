"""The versions section across releases of a fixture package: lists that changed, text that changed, drift advice."""

from __future__ import annotations

from rich.console import Console

from errdex import terminal
from errdex.pages import build_page
from tests.fixtures import MODE_MESSAGE as NEW_TEXT
from tests.fixtures import MODE_TEMPLATE as TEMPLATE
from tests.fixtures import cart_module
from tests.pages.conftest import Indexer, error_id_of, strings

OLD_TEXT = 'f"bad mode {self.mode!r}; use one of {MODES}"'


def release(indexed: Indexer, version: str, modes: tuple[str, ...], message: str = NEW_TEXT) -> None:
    files = {"shop/__init__.py": "", "shop/cart.py": cart_module(modes, message)}
    indexed(files, name="shop", version=version, url="https://github.com/example/shop")


def test_a_changed_list_and_a_changed_text_across_releases(indexed: Indexer) -> None:
    release(indexed, "1.0", ("fast", "slow"), OLD_TEXT)
    release(indexed, "2.0", ("fast", "slow", "eco"))
    release(indexed, "3.0", ("fast", "eco"))
    store = indexed({"other/__init__.py": "raise ImportError('no')\n"}, name="other")  # another package is not mixed in
    eid = error_id_of(store, "shop", TEMPLATE)
    page = build_page(store, eid)
    versions = page["versions"]
    assert page["version"] == "3.0"
    assert versions["indexed"] == ["1.0", "2.0", "3.0"]
    assert [r["version"] for r in versions["releases"]] == ["2.0", "3.0"]
    assert versions["releases"][0]["places"] == [{"file": "shop/cart.py", "line": 11}]
    old_id = error_id_of(store, "shop", "bad mode {}; use one of {}", "1.0")
    assert versions["same_check"] == [
        {
            "version": "1.0",
            "id": old_id,
            "template": "bad mode {}; use one of {}",
            "file": "shop/cart.py",
            "line": 11,
            "difference": 'the same condition `self.mode not in MODES` with other values: `MODES` is `["fast", "slow"]`'
            ' in 1.0, `["fast", "eco"]` in 3.0',
        }
    ]  # its check in the same function under another text, but it accepts "slow": a related check, not the same
    assert versions["missing_in"] == []
    assert versions["text_changed"] == {
        "version": "2.0",
        "previous_version": "1.0",
        "previous_id": None,
        "previous_template": None,
    }
    assert versions["summary"] == (
        "Among the indexed releases of shop: 1.0 has a related check in the same function that tests otherwise (how"
        " is quoted with it above), with other wording; 2.0 and 3.0 have it."
    )
    assert versions["value_changes"] == [
        {
            "from_version": "2.0",
            "to_version": "3.0",
            "name_before": "MODES",
            "name_after": "MODES",
            "added": [],
            "removed": ["slow"],
            "reordered": False,
        }
    ]
    assert not any(s["kind"] == "version_drift" for s in page["solutions"])  # how releases differ is not a fix
    older = build_page(store, old_id, version="1.0")["versions"]
    assert [s["version"] for s in older["same_check"]] == ["2.0", "3.0"] and older["missing_in"] == []
    assert page["source_url"] == "https://github.com/example/shop/blob/v3.0/shop/cart.py#L11-L11"


def test_a_value_accepted_in_an_older_release(indexed: Indexer) -> None:
    release(indexed, "2.0", ("fast", "slow", "eco"))
    store = indexed({"shop/__init__.py": "", "shop/cart.py": cart_module(("fast", "eco"))}, name="shop", version="3.0")
    eid = error_id_of(store, "shop", TEMPLATE)
    page = build_page(store, eid, values=["('fast', 'eco')", "'slow'"])
    assert page["user_input"]["checked"] == [
        {"code": "MODES", "value": "('fast', 'eco')", "matches": ["3.0"], "result": "same as this release"},
        {"code": "self.mode", "value": "'slow'", "result": "raises"},
    ]
    drift = next(s for s in page["solutions"] if s["kind"] == "version_drift")
    assert drift["text"] == ("'slow' is accepted in shop 2.0 but rejected in 3.0: use a value this release accepts.")
    older = build_page(store, eid, version="2.0", values=["('fast', 'slow', 'eco')", "'slow'"])
    assert older["user_input"]["checked"][1]["result"] == "accepted"
    assert older["solutions"][0]["text"].startswith("'slow' is accepted by this check in shop 2.0")


def test_the_list_in_the_message_names_the_release(indexed: Indexer) -> None:
    release(indexed, "2.0", ("fast", "slow", "eco"))
    release(indexed, "3.0", ("fast", "eco"))
    store = indexed({"x/__init__.py": ""}, name="x")
    page = build_page(store, error_id_of(store, "shop", TEMPLATE), values=["('fast', 'slow', 'eco')", "'turbo'"])
    first = page["solutions"][0]
    assert first["kind"] == "version_drift" and first["accepted_in"] == ["2.0"]
    assert "are those of shop 2.0, not of shop 3.0" in first["text"]


def test_a_new_check_is_missing_from_older_releases_only_as_far_as_they_are_indexed(indexed: Indexer) -> None:
    old = cart_module(("fast", "slow"), OLD_TEXT).replace("if self.mode not in MODES:", "if self.mode in ('turbo',):")
    indexed({"shop/__init__.py": "", "shop/cart.py": old}, name="shop", version="1.0")
    release(indexed, "2.0", ("fast", "slow"))
    store = indexed({"x/__init__.py": ""}, name="x")
    page = build_page(store, error_id_of(store, "shop", TEMPLATE))
    versions = page["versions"]
    assert versions["same_check"] == [] and versions["missing_in"] == ["1.0"]  # another condition: another check
    assert versions["summary"].startswith(
        "Among the indexed releases of shop: 1.0 does not have this message; 2.0 has it. A check whose wording"
        " changed is recognised only when it is raised in the same function, of the same exception, under the same"
        " condition"
    )  # the check itself is not said to be absent: only what `same_check` can see is
    assert not any("first appears" in t or "does not raise it" in t for t in strings(page))
    assert page["solutions"] == [s for s in page["solutions"] if s["kind"] != "version_drift"]


def test_a_renamed_list_is_still_the_same_check(indexed: Indexer) -> None:
    renamed = cart_module(("fast", "slow"), OLD_TEXT).replace("MODES", "KNOWN_MODES")
    indexed({"shop/__init__.py": "", "shop/cart.py": renamed}, name="shop", version="1.0")
    release(indexed, "2.0", ("fast", "slow"))
    store = indexed({"x/__init__.py": ""}, name="x")
    versions = build_page(store, error_id_of(store, "shop", TEMPLATE))["versions"]
    assert [s["version"] for s in versions["same_check"]] == ["1.0"]


def test_a_grown_literal_list_is_a_related_check_not_the_same(indexed: Indexer) -> None:
    """A release whose check accepts fewer values is not said to have "the same check": both conditions are quoted."""

    def written_out(version: str, modes: tuple[str, ...]) -> None:
        code = cart_module(modes, f'f"mode must be one of {modes}"').replace("not in MODES", f"not in {modes!r}")
        indexed({"shop/__init__.py": "", "shop/cart.py": code}, name="shop", version=version)

    written_out("1.0", ("fast", "slow"))
    written_out("2.0", ("fast", "slow", "eco"))
    store = indexed({"x/__init__.py": ""}, name="x")
    page = build_page(store, error_id_of(store, "shop", "mode must be one of ('fast', 'slow', 'eco')"))
    [same] = page["versions"]["same_check"]
    assert same["version"] == "1.0" and same["difference"] == (
        "another condition: `self.mode not in ('fast', 'slow')` in 1.0,"
        " `self.mode not in ('fast', 'slow', 'eco')` in 2.0"
    )
    assert page["versions"]["summary"] == (
        "Among the indexed releases of shop: 1.0 has a related check in the same function that tests otherwise (how"
        " is quoted with it above), with other wording; 2.0 has it."
    )
    console = Console(width=250, record=True)
    console.print(terminal.page_panel(page))
    assert "related check, other text" in console.export_text() and "same check" not in console.export_text()


def test_a_renamed_literal_list_with_the_same_items_is_the_same_check(indexed: Indexer) -> None:
    """The same values written out, or named, is the same condition: only the text changed."""
    written = cart_module(("fast", "slow"), OLD_TEXT).replace("not in MODES", "not in ('fast', 'slow')")
    indexed({"shop/__init__.py": "", "shop/cart.py": written}, name="shop", version="1.0")
    release(indexed, "2.0", ("fast", "slow"))
    store = indexed({"x/__init__.py": ""}, name="x")
    versions = build_page(store, error_id_of(store, "shop", TEMPLATE))["versions"]
    assert [(s["version"], s["difference"]) for s in versions["same_check"]] == [("1.0", None)]
    assert versions["summary"] == (
        "Among the indexed releases of shop: 1.0 has the same check with other wording; 2.0 has it."
    )


def test_the_same_message_under_another_class_is_said_not_missing(indexed: Indexer) -> None:
    def module(check: str) -> str:
        return f"def pool(kind):\n    {check}\n"

    assert_form = module("assert kind in ('mean', 'max'), f\"Got {kind} but only 'mean' and 'max' are supported.\"")
    raise_form = module(
        "if kind not in ('mean', 'max'):\n"
        "        raise ValueError(f\"Got {kind} but only 'mean' and 'max' are supported.\")"
    )
    indexed({"pools/__init__.py": "", "pools/conf.py": assert_form}, name="pools", version="1.0")
    indexed({"pools/__init__.py": "", "pools/conf.py": "\n\n" + raise_form}, name="pools", version="2.0")
    store = indexed({"pools/__init__.py": "", "pools/conf.py": "def other():\n    pass\n"}, name="pools", version="3.0")
    page = build_page(store, error_id_of(store, "pools", "Got {} but only 'mean' and 'max' are supported.", "2.0"))
    versions = page["versions"]
    old_id = error_id_of(store, "pools", "Got {} but only 'mean' and 'max' are supported.", "1.0")
    assert versions["same_message"] == [
        {"version": "1.0", "id": old_id, "exception": "AssertionError", "file": "pools/conf.py", "line": 2}
    ]
    assert versions["missing_in"] == ["3.0"]
    assert versions["summary"].startswith(
        "Among the indexed releases of pools: 1.0 raises the same message as AssertionError at pools/conf.py:2;"
        " 2.0 has it; 3.0 does not have this message."
    )


def test_a_list_written_in_the_check_is_compared_as_the_check_text(indexed: Indexer) -> None:
    """Two releases whose check writes its list out (`x not in [...]`) differ in the check's text, not in a name."""
    code = 'def pick(size):\n    if size not in {sizes}:\n        raise ValueError(f"bad size {{size}}")\n'
    indexed({"p/__init__.py": "", "p/m.py": code.format(sizes="[64, 128]")}, name="p", version="1.0")
    store = indexed({"p/__init__.py": "", "p/m.py": code.format(sizes="[64, 128, 256]")}, name="p", version="2.0")
    page = build_page(store, error_id_of(store, "p", "bad size {}", "2.0"))
    assert page["versions"]["value_changes"] == []
    assert page["what_it_means"]["lists"][0]["values"] == [64, 128, 256]
