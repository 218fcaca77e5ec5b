"""`errdex export-site`: the same pages and JSON as the server, as files whose links all resolve."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlsplit

import httpx
import pytest
from click.testing import CliRunner

from errdex.cli import main
from errdex.web.links import static_path
from tests.fixtures import write_tree
from tests.web.conftest import EVIL_ID, SHOP_ID
from tests.web.test_pages import tags_of


@pytest.fixture(scope="module")
def site(web_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    result = CliRunner().invoke(main, ["export-site", str(out), "--db", str(web_db)])
    assert result.exit_code == 0, result.output
    assert "pages" in result.output
    return out


def test_the_layout_has_every_page_and_its_json(site: Path) -> None:
    for name in (
        "index.html",
        "api/index.json",
        "p/shop.html",
        "p/shop/1.0.html",
        "p/shop/2.0.html",
        "p/evil.html",
        f"errors/{SHOP_ID}.html",
        f"errors/{SHOP_ID}/1.0.html",
        f"errors/{SHOP_ID}/2.0.html",
        f"api/errors/{SHOP_ID}.json",
        f"api/errors/{SHOP_ID}/1.0.json",
        "api/packages/shop/1.0.json",
        "static/style.css",
        "static/highlight.css",
    ):
        assert (site / name).is_file(), name


def test_every_link_between_pages_resolves(site: Path) -> None:
    assert len(list(site.rglob("*.html"))) >= 12
    assert_links_resolve(site)


def assert_links_resolve(site: Path) -> None:
    """Every link of every exported page is relative and names a file of the site."""
    for page in site.rglob("*.html"):
        for tag, attrs in tags_of(page.read_text()):
            href = attrs.get("href") or attrs.get("src") or attrs.get("action")
            if not href or tag not in ("a", "link", "form", "img", "script"):
                continue
            parts = urlsplit(href)
            if parts.scheme in ("http", "https") or not parts.path:
                continue  # the upstream source links, anchors in the page
            assert not parts.scheme and not href.startswith("/"), f"{page}: {href} is not relative"
            target = (page.parent / unquote(parts.path)).resolve()
            assert target.is_file() and site.resolve() in target.parents, f"{page}: {href}"


def test_static_pages_have_no_search_and_say_why(site: Path) -> None:
    home = (site / "index.html").read_text()
    assert "<textarea" not in home and "errdex serve" in home
    assert not [t for t, a in tags_of(home) if t == "form"]


@pytest.mark.anyio
async def test_json_files_are_the_api_answers(site: Path, client: httpx.AsyncClient) -> None:
    for route, name in (
        (f"/api/errors/{SHOP_ID}", static_path("error", SHOP_ID, as_json=True)),
        (f"/api/errors/{SHOP_ID}?version=1.0", static_path("error", SHOP_ID, "1.0", as_json=True)),
        ("/api/packages/shop?version=1.0", static_path("package", "shop", "1.0", as_json=True)),
    ):
        assert json.loads((site / name).read_text()) == (await client.get(route)).json()


def test_markup_from_the_index_stays_text(site: Path) -> None:
    html = (site / f"errors/{EVIL_ID}.html").read_text()
    assert "<script>alert" not in html and "&lt;script&gt;alert(" in html


def test_names_from_the_index_cannot_leave_their_folder() -> None:
    assert static_path("package", "../../etc", "../x") == "p/_.._.._etc/_.._x.html"
    assert static_path("error", ".hidden", as_json=True) == "api/errors/_.hidden.json"


def test_one_package_only(web_db: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["export-site", str(tmp_path / "out"), "--package", "evil", "--db", str(web_db)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out/p/evil.html").is_file() and not (tmp_path / "out/p/shop.html").exists()


def test_a_folder_that_holds_something_else_is_refused(web_db: Path, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    result = CliRunner().invoke(main, ["export-site", str(tmp_path), "--db", str(web_db)])
    assert result.exit_code == 1 and "is not empty" in " ".join(result.output.split())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_worker_processes_write_the_same_site(tmp_path: Path, db_url: str) -> None:
    """Enough errors for the pool of worker processes: every page is written once, with its JSON."""
    body = "".join(f"def f{i}(x):\n    if x:\n        raise ValueError(f'problem {i}: {{x}}')\n" for i in range(40))
    folder = write_tree(
        tmp_path / "many", {"pyproject.toml": '[project]\nname = "many"\nversion = "1.0"\n', "many/__init__.py": body}
    )
    db = db_url
    assert CliRunner().invoke(main, ["index", str(folder), "--db", db]).exit_code == 0
    result = CliRunner().invoke(main, ["export-site", str(tmp_path / "site"), "--workers", "2", "--db", db])
    assert result.exit_code == 0, result.output
    assert len(list((tmp_path / "site/errors").glob("*.html"))) == 40
    assert len(list((tmp_path / "site/api/errors").glob("*/1.0.json"))) == 40
    assert "wrote 83 pages" in result.output  # home, the release's list twice, each error twice


def test_a_page_that_cannot_be_written_is_reported_and_the_rest_written(web_db: Path, tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("an earlier export")
    (tmp_path / "errors" / f"{SHOP_ID}.html").mkdir(parents=True)  # a folder where the page must go
    result = CliRunner().invoke(main, ["export-site", str(tmp_path), "--db", str(web_db)])
    assert result.exit_code == 1
    assert "1 error pages could not be built" in " ".join(result.output.split()) and SHOP_ID in result.output
    assert (tmp_path / f"errors/{EVIL_ID}.html").is_file() and (
        tmp_path / "index.html"
    ).read_text() != "an earlier export"
