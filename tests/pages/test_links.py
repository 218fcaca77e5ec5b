"""Upstream links: the path as the release's project tree has it, the tag form assumed said, commits for git."""

from __future__ import annotations

from dataclasses import replace

from errdex.model import ReleaseRecord, RepoLayout
from errdex.pages import build_page
from errdex.pages.links import source_links
from errdex.store import Store

from .conftest import Indexer, error_id_of

GITHUB = "https://github.com/example/shop"
WHEEL = ReleaseRecord("shop", "1.0", "shop==1.0", "wheel", "d", GITHUB, "", 1, 1, 1, 0)


def test_a_layout_learned_from_the_sdist_puts_the_path_under_its_prefix_and_says_what_it_assumes() -> None:
    links = source_links(replace(WHEEL, layout=RepoLayout("src", "sdist")), "shop/cart.py", 3, 5)
    assert links.url == f"{GITHUB}/blob/v1.0/src/shop/cart.py#L3-L5"
    assert links.label is not None
    assert "the tag `v1.0`" in links.label and "`src/shop/cart.py` as the release's sdist has it" in links.label
    assert "monorepo" in links.label
    (bare,) = links.alternatives
    assert bare["url"] == f"{GITHUB}/blob/1.0/src/shop/cart.py#L3-L5"
    assert (bare["path"], bare["ref"]) == ("src/shop/cart.py", "1.0")
    assert "tag is `1.0` (without the `v`)" in bare["label"]


def test_a_flat_layout_keeps_the_installed_path() -> None:
    links = source_links(replace(WHEEL, layout=RepoLayout("", "sdist")), "shop/cart.py", 3, 3)
    assert links.url == f"{GITHUB}/blob/v1.0/shop/cart.py#L3-L3"
    assert [a["path"] for a in links.alternatives] == ["shop/cart.py"]


def test_an_unknown_layout_says_so_and_offers_the_src_path_at_both_tag_forms() -> None:
    links = source_links(WHEEL, "shop/cart.py", 3, 5)
    assert links.url == f"{GITHUB}/blob/v1.0/shop/cart.py#L3-L5"
    assert links.label is not None and "the path as installed" in links.label
    assert [(a["path"], a["ref"]) for a in links.alternatives] == [
        ("shop/cart.py", "1.0"),
        ("src/shop/cart.py", "v1.0"),
        ("src/shop/cart.py", "1.0"),
    ]
    assert "under `src/`" in links.alternatives[1]["label"] and "tag" not in links.alternatives[1]["label"]
    assert "under `src/`" in links.alternatives[2]["label"] and "`1.0`" in links.alternatives[2]["label"]


def test_a_git_release_is_pinned_to_its_commit_and_assumes_nothing() -> None:
    git = ReleaseRecord(
        "shop", "1.0", "git+.@abc", "git", "abc123", "https://gitlab.com/example/shop", "", 1, 1, 1, 0,
        RepoLayout("lib", "git"),
    )  # fmt: skip
    assert source_links(git, "shop/cart.py", 3, 5) == (
        "https://gitlab.com/example/shop/-/blob/abc123/lib/shop/cart.py#L3-5",
        None,
        [],
    )


def test_no_link_to_a_host_whose_line_urls_are_not_known() -> None:
    other = replace(WHEEL, repository_url="https://example.org/shop", layout=RepoLayout("src", "sdist"))
    assert source_links(other, "shop/cart.py", 3, 5) == (None, None, [])


def test_a_folder_release_records_its_src_layout_and_the_page_links_there(indexed: Indexer, store: Store) -> None:
    indexed({"src/shop/__init__.py": "", "src/shop/cart.py": "def f(x):\n    raise ValueError('bad cart')\n"},
            name="shop", url=GITHUB)  # fmt: skip
    (release,) = store.releases("shop")
    assert release.layout == RepoLayout("src", "folder")
    page = build_page(store, error_id_of(store, "shop", "bad cart"))
    assert page["source_url"] == f"{GITHUB}/blob/v1.0/src/shop/cart.py#L2-L2"
    assert page["source_url_label"] is not None and "as the indexed folder has it" in page["source_url_label"]


def test_the_flagship_links_to_the_src_layout_its_sdist_shows(transformers_db: str) -> None:
    with Store(transformers_db) as store:
        page = build_page(store, "44c51e6e70d45f6a")
    assert page["source_url"] == (
        "https://github.com/huggingface/transformers/blob/v5.16.0/src/transformers/generation/configuration_utils.py"
        "#L687-L690"
    )


def test_a_project_folder_named_by_the_metadata_goes_before_the_learned_path() -> None:
    mono = replace(WHEEL, layout=RepoLayout("", "sdist"), repository_folder="libs/shop")
    links = source_links(mono, "shop/cart.py", 3, 5)
    assert links.url == f"{GITHUB}/blob/v1.0/libs/shop/shop/cart.py#L3-L5"
    assert links.label is not None and "in the folder `libs/shop` that the release's metadata names" in links.label
    assert "monorepo" not in links.label
