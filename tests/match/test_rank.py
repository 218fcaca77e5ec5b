"""Ranking on a small package indexed from a folder, with pastes made by really running it.

Every input form is covered: a bare message (with and without its type), a traceback, a
chained traceback, pytest output, a warning line and a log line; and across versions, frames
that pick one of several sites, abstentions, hostile templates, and a 1 MB paste.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.indexing import index
from errdex.match import explain
from errdex.match.rank import REWORDED
from errdex.store import Store
from tests.backends import new_index
from tests.fixtures import write_tree
from tests.match.packages import shop_store, write_shop


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory, backend: str) -> Iterator[Store]:
    store = shop_store(tmp_path_factory.mktemp("shop"), "1.0", backend=backend)
    yield store
    store.close()


@pytest.fixture(scope="module")
def shop_code(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shop 1.0 source, for running it to get real messages."""
    return write_shop(tmp_path_factory.mktemp("code"), "1.0")


def run(code: str, folder: Path, *flags: str) -> str:
    """stderr of running `code` with the shop package importable: the real traceback or warning."""
    done = subprocess.run(
        [sys.executable, *flags, "-c", textwrap.dedent(code)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(folder), "PATH": "/usr/bin:/bin"},
    )
    return done.stderr


def test_bare_message_with_and_without_type(shop: Store) -> None:
    for text in (
        "ValueError: Unknown mode 'fsat'. Choose one of: ('fast', 'slow', 'steady')",
        "Unknown mode 'fsat'. Choose one of: ('fast', 'slow', 'steady')",
    ):
        r = explain(text, store=shop, auto_index=False)
        best = r.best
        assert best is not None and (best.file, best.line, best.function) == ("shop/cart.py", 14, "Cart.__init__")
        assert best.values == ("'fsat'", "('fast', 'slow', 'steady')")
        assert best.suggestions == {"mode": ["fast"]}
        assert best.allowed == {"mode": ["fast", "slow", "steady"]}
        assert not best.approximate and best.versions == ("1.0",)


def test_real_traceback(shop: Store, shop_code: Path) -> None:
    paste = run("from shop.cart import Cart\nCart('fsat')", shop_code)
    assert paste.startswith("Traceback")
    best = explain(paste, store=shop, auto_index=False).best
    assert best is not None and (best.file, best.line) == ("shop/cart.py", 14)
    assert "frame line" in best.evidence and best.confidence > 0.95


def test_chained_traceback_explains_the_last_error(shop: Store, shop_code: Path) -> None:
    paste = run(
        """
        from shop.cart import Cart
        try:
            Cart('fast', size=0)
        except ValueError as exc:
            raise RuntimeError('could not build the cart') from exc
        """,
        shop_code,
    )
    assert "direct cause" in paste
    r = explain(paste, store=shop, auto_index=False)
    assert r.abstain  # the last error was raised by the user's own code
    assert r.parsed.chained and "size must be positive" in r.parsed.chained[0].message


def test_subclass_exception_and_its_base(shop: Store, shop_code: Path) -> None:
    paste = run("from shop.cart import Cart\nCart(size=-3)", shop_code)
    best = explain(paste, store=shop, auto_index=False).best
    assert best is not None and best.exception == "ShopError" and best.values == ("-3",)
    based = explain("ValueError: size must be positive, got -3", store=shop, auto_index=False).best
    assert based is not None and based.line == 16


def test_pytest_output(shop: Store) -> None:
    paste = textwrap.dedent(
        """
        ___________________________ test_cart ___________________________

            def test_cart():
        >       Cart("fsat")

        tests/test_cart.py:4:
        _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

        >           raise ValueError(f"Unknown mode {mode!r}. Choose one of: {MODES}")
        E           ValueError: Unknown mode 'fsat'. Choose one of: ('fast', 'slow', 'steady')

        .venv/lib/python3.11/site-packages/shop/cart.py:14: ValueError
        """
    )
    best = explain(paste, store=shop, auto_index=False).best
    assert best is not None and (best.file, best.line) == ("shop/cart.py", 14)


def test_warning_line(shop: Store, shop_code: Path) -> None:
    paste = run("from shop.cart import Cart\nCart(size=500)", shop_code, "-W", "always")
    assert "FutureWarning" in paste
    best = explain(paste, store=shop, auto_index=False).best
    assert best is not None and best.kind == "warning" and best.values == ("500",)


def test_log_line(shop: Store, shop_code: Path) -> None:
    paste = run(
        """
        import logging
        logging.basicConfig(format='%(asctime)s %(levelname)s %(name)s: %(message)s')
        from shop.cart import Cart
        Cart('slow', size=7)
        """,
        shop_code,
    )
    best = explain(paste, store=shop, auto_index=False).best
    assert best is not None and best.kind == "log" and best.line == 20 and best.values == ("1", "7")


def test_frames_pick_one_of_several_sites(shop: Store, shop_code: Path) -> None:
    for module in ("alpha", "beta"):
        paste = run(f"from shop.{module} import check_{module}\ncheck_{module}(None)", shop_code)
        best = explain(paste, store=shop, auto_index=False).best
        assert best is not None and best.file == f"shop/{module}.py"
        assert best.function == f"check_{module}"


def test_key_error_repr_is_unwrapped(shop: Store, shop_code: Path) -> None:
    paste = run("from shop.alpha import check_alpha\ncheck_alpha(3)", shop_code)
    assert "KeyError: 'no item named 3'" in paste
    best = explain(paste, store=shop, auto_index=False).best
    assert best is not None and best.template == "no item named {}" and best.values == ("3",)


def test_frame_alone_names_the_site_of_a_reworded_message(shop: Store) -> None:
    paste = textwrap.dedent(
        """
        Traceback (most recent call last):
          File "/srv/app/.venv/lib/python3.12/site-packages/shop/cart.py", line 16, in __init__
            raise ShopError(f"size must be positive, got {size}")
        shop.errors.ShopError: (message cut off)
        """
    )
    best = explain(paste, store=shop, auto_index=False).best
    assert best is not None and best.line == 16 and best.approximate


def test_message_from_another_version(tmp_path: Path, backend: str) -> None:
    with shop_store(tmp_path, "1.0", backend=backend) as store:
        best = explain(
            "ValueError: Unknown mode 'x'; please choose one of ('fast', 'slow', 'steady')", store=store
        ).best
        assert best is not None and best.line == 14 and best.approximate and best.versions == ("1.0",)
    with shop_store(tmp_path / "both", "1.0", "2.0", backend=backend) as store:
        best = explain(
            "ValueError: Unknown mode 'x'; please choose one of ('fast', 'slow', 'steady')", store=store
        ).best
        assert best is not None and not best.approximate and best.version == "2.0" and best.versions == ("2.0",)
        common = explain("TypeError: value for 3 must not be None", store=store).best
        assert common is not None and common.versions == ("1.0", "2.0") and common.version == "2.0"


@pytest.mark.parametrize(
    "paste",
    [
        "ZeroDivisionError: division by zero",
        "NameError: name 'cart' is not defined",
        "ValueError: invalid literal for int() with base 10: 'abc'",
        "Unknown",
        'Traceback (most recent call last):\n  File "/x/site-packages/numpy/core/x.py", line 3, in f\n'
        "ValueError: Unknown mode 'x'. Choose one of: ('fast', 'slow', 'steady')",
    ],
)
def test_abstains_on_errors_it_does_not_know(shop: Store, paste: str) -> None:
    r = explain(paste, store=shop, auto_index=False)
    assert r.abstain and r.best is None and r.hint


def test_hint_for_a_message_python_itself_writes(shop: Store, tmp_path: Path) -> None:
    """Its words cannot tell which library raised it: the hint asks for the traceback, whose frames can."""
    stderr = run("1 / 0", tmp_path)
    bare = explain(stderr.splitlines()[-1], store=shop, auto_index=False)
    whole = explain(stderr, store=shop, auto_index=False)
    assert bare.parsed.message == "division by zero" and bare.abstain and "Python itself" in (bare.hint or "")
    assert whole.abstain and "your own code" in (whole.hint or "")


def test_hint_names_the_unindexed_package(shop: Store) -> None:
    paste = (
        'Traceback (most recent call last):\n  File "/x/site-packages/numpy/core/x.py", line 3, in f\nValueError: bad'
    )
    r = explain(paste, store=shop, auto_index=False)
    assert r.abstain and "numpy" in (r.hint or "")


def test_hostile_template_matches_only_itself(shop: Store) -> None:
    best = explain("ValueError: bad pattern (.*)+[a-z]{2,} \\d+$ ^ | 'q' (?P<x>", store=shop).best
    assert best is not None and best.values == ("'q'",)
    assert explain("ValueError: bad pattern aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", store=shop).abstain


def test_one_megabyte_paste(shop: Store) -> None:
    value = "x" * 900_000
    best = explain(f"ValueError: Unknown mode '{value}'. Choose one of: ('fast', 'slow', 'steady')", store=shop).best
    assert best is not None and best.line == 14 and len(best.values[0] or "") == 900_002
    assert explain("word " * 200_000, store=shop).abstain


def test_json_shape(shop: Store) -> None:
    data = explain("Unknown mode 'fsat'. Choose one of: ('fast', 'slow', 'steady')", store=shop).to_json()
    assert set(data) == {"abstain", "matches", "hint", "parsed", "also", "api"}
    assert data["api"] is None  # a library wrote this message: no interpreter question about an API
    assert {
        "id",
        "score",
        "confidence",
        "package",
        "version",
        "file",
        "line",
        "function",
        "exception",
        "template",
        "values",
        "suggestions",
        "approximate",
        "cut",
        "versions",
        "copies",
    } <= set(data["matches"][0])
    assert data["parsed"]["message"].startswith("Unknown mode")


ENGINE = """
import sys


class DBError(Exception):
    pass


class reraise:
    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if value is not None:
            raise value.with_traceback(tb)


def _wrap(exc_info):
    wrapped = DBError(f"(driver) {exc_info[1]}")
    raise wrapped.with_traceback(exc_info[2]) from exc_info[1]


def execute():
    try:
        {}["missing"]
    except KeyError:
        _wrap(sys.exc_info())


def flush():
    with reraise():
        execute()
"""


def test_innermost_reraising_frame_raised_the_exception_first(tmp_path: Path, backend: str) -> None:
    """Like sqlalchemy's `safe_reraise` around `_handle_dbapi_exception`: both frames re-raise with a traceback."""
    folder = write_tree(
        tmp_path / "pool-1.0",
        {
            "pyproject.toml": '[project]\nname = "pool"\nversion = "1.0"\n',
            "pool/__init__.py": "",
            "pool/engine.py": textwrap.dedent(ENGINE),
        },
    )
    paste = run("from pool.engine import flush; flush()", folder)
    assert "raise value.with_traceback(tb)" in paste and paste.rstrip().endswith("DBError: (driver) 'missing'")
    with Store(new_index(backend, tmp_path, "pool.db")) as store:
        index(str(folder), store)
        r = explain(paste, store=store, auto_index=False)
    assert r.best is not None and (r.best.file, r.best.line, r.best.function) == ("pool/engine.py", 20, "_wrap")
    assert [(m.function, m.confidence) for m in r.matches[:2]] == [("_wrap", 0.92), ("reraise.__exit__", 0.9)]


RUNTIME = """
class UndefinedError(Exception):
    pass


class Undefined:
    def __init__(self, name):
        self.name = name

    def __getattr__(self, attribute):
        self._fail()

    def _fail(self):
        raise UndefinedError(f"{self.name!r} is undefined")
"""
ENVIRONMENT = '''
import sys
import types

from tmpl.runtime import Undefined, UndefinedError


def lookup(obj, attribute):
    return getattr(obj, attribute)


def _rewrite(exc, tb):
    """Keep only the frames of `lookup`, as jinja2's rewrite_traceback_stack keeps the template's."""
    kept = []
    while tb is not None:
        if tb.tb_frame.f_code.co_name == "lookup":
            kept.append(tb)
        tb = tb.tb_next
    new = None
    for t in reversed(kept):
        new = types.TracebackType(new, t.tb_frame, t.tb_lasti, t.tb_lineno)
    return exc.with_traceback(new)


def render(name):
    try:
        return lookup(Undefined(name), "title")
    except UndefinedError:
        _, exc, tb = sys.exc_info()
        raise _rewrite(exc, tb)
'''


def test_site_below_a_traceback_the_library_cut(tmp_path: Path, backend: str) -> None:
    """The innermost frame shown only calls (`return getattr(...)`) below a `raise`: the site's frames were cut."""
    folder = write_tree(
        tmp_path / "tmpl-1.0",
        {
            "pyproject.toml": '[project]\nname = "tmpl"\nversion = "1.0"\n',
            "tmpl/__init__.py": "",
            "tmpl/runtime.py": textwrap.dedent(RUNTIME),
            "tmpl/environment.py": textwrap.dedent(ENVIRONMENT),
        },
    )
    paste = run("from tmpl.environment import render; render('user')", folder)
    assert paste.rstrip().endswith("tmpl.runtime.UndefinedError: 'user' is undefined")
    assert "raise _rewrite(exc, tb)" in paste and "runtime.py" not in paste
    with Store(new_index(backend, tmp_path, "tmpl.db")) as store:
        index(str(folder), store)
        r = explain(paste, store=store, auto_index=False)
        cut = paste.replace("    raise _rewrite(exc, tb)", "    return _rewrite(exc, tb)")
        uncut = explain(cut, store=store, auto_index=False)
    assert r.best is not None and (r.best.file, r.best.line, r.best.function) == (
        "tmpl/runtime.py",
        14,
        "Undefined._fail",
    )
    assert uncut.best is None  # no frame raised further out: the innermost frame would be the site, and it is elsewhere


def test_a_bare_paste_is_typed_by_a_class_the_index_raises(tmp_path: Path, backend: str) -> None:
    """`NotReady: ...` reads as no type by its name alone; a class of that name the index raises types it
    (and picks its site over another of the same words), while an unknown `Note:` stays part of the message."""
    folder = write_tree(
        tmp_path / "conn-1.0",
        {
            "pyproject.toml": '[project]\nname = "conn"\nversion = "1.0"\n',
            "conn/__init__.py": "class NotReady(Exception):\n    pass\n",
            "conn/setup.py": "from conn import NotReady\n\n"
            "def start(host):\n    raise NotReady(f'Cannot connect to host {host}')\n",
            "conn/retry.py": "def again(host):\n    raise ConnectionError(f'Cannot connect to host {host}')\n",
        },
    )
    paste = run("from conn.setup import start; start('db.local')", folder).rstrip().splitlines()[-1]
    assert paste == "conn.NotReady: Cannot connect to host db.local"
    bare = paste.removeprefix("conn.")
    with Store(new_index(backend, tmp_path, "conn.db")) as store:
        index(str(folder), store)
        typed = explain(bare, store=store, auto_index=False)
        untyped = explain("Note: Cannot connect to host db.local", store=store, auto_index=False)
    assert typed.parsed.exception == "NotReady" and typed.parsed.message == "Cannot connect to host db.local"
    assert typed.best is not None and (typed.best.file, typed.best.exception, typed.best.values) == (
        "conn/setup.py",
        "NotReady",
        ("db.local",),
    )
    assert untyped.parsed.exception is None and untyped.parsed.message.startswith("Note: ")


def test_answers_far_below_the_best_are_not_listed(tmp_path: Path, backend: str) -> None:
    """`{} to {}` shares a word with an exactly matched message: it would rank second, at a seventh of the best."""
    code = (
        'def start(host):\n    raise ConnectionError(f"Cannot connect to host {host}")\n\n'
        'def move(a, b):\n    raise ValueError(f"{a} to {b}")\n'
    )
    folder = write_tree(
        tmp_path / "junk-1.0",
        {"pyproject.toml": '[project]\nname = "junk"\nversion = "1.0"\n', "junk/__init__.py": code},
    )
    with Store(new_index(backend, tmp_path, "junk.db")) as store:
        index(str(folder), store)
        exact = explain("ConnectionError: Cannot connect to host db.local", store=store, auto_index=False, limit=10)
        loose = explain("ValueError: north to south", store=store, auto_index=False, limit=10)
    assert [m.template for m in exact.matches] == ["Cannot connect to host {}"]
    assert [m.template for m in loose.matches] == ["{} to {}"]  # a weak best is still listed (and abstained on)


def test_a_message_held_exactly_is_not_searched_for_rewordings(tmp_path: Path, backend: str) -> None:
    """The interpreter's own wording, raised by a package too, matches exactly but weakly (the
    interpreter writes it more often): templates worded differently are not looked for, so
    `unsupported type {} for {}` is not listed under it; a message from a rewording still finds it."""
    code = (
        "def add(op, a, b):\n    raise TypeError(f\"unsupported operand type(s) for {op}: '{a}' and '{b}'\")\n\n"
        'def check(kind, name):\n    raise TypeError(f"unsupported type {kind} for {name}")\n'
    )
    folder = write_tree(
        tmp_path / "ops-1.0", {"pyproject.toml": '[project]\nname = "ops"\nversion = "1.0"\n', "ops/__init__.py": code}
    )
    message = subprocess.run([sys.executable, "-c", "1 + 'a'"], capture_output=True, text=True).stderr.splitlines()[-1]
    with Store(new_index(backend, tmp_path, "ops.db")) as store:
        index(str(folder), store)
        weak = explain(message, store=store, auto_index=False, limit=10)
        reworded = explain(
            "TypeError: unsupported value type list for the field", store=store, auto_index=False, limit=10
        )
    assert message == "TypeError: unsupported operand type(s) for +: 'int' and 'str'"
    assert weak.abstain and [(m.template, m.approximate) for m in weak.matches] == [
        ("unsupported operand type(s) for {}: '{}' and '{}'", False)
    ]
    assert reworded.matches and (reworded.matches[0].template, reworded.matches[0].approximate) == (
        "unsupported type {} for {}",
        True,
    )


def test_a_qualified_exception_points_at_its_package_sites(shop: Store) -> None:
    """`shop.errors.ShopError` names the package: with no words in common, its only site raising the class is
    the answer at half confidence; the unqualified name tells no package, and the paste abstains."""
    qualified = explain("shop.errors.ShopError: the basket was rejected upstream", store=shop, auto_index=False)
    best = qualified.best
    assert best is not None and (best.file, best.line, best.confidence) == ("shop/cart.py", 16, 0.5)
    assert "exception class" in best.evidence
    worded = explain("shop.errors.ShopError: size must be positive, got 0", store=shop, auto_index=False).best
    assert worded is not None and worded.line == 16 and worded.confidence > 0.9
    assert explain("ShopError: the basket was rejected upstream", store=shop, auto_index=False).abstain


def test_hint_when_the_qualified_exception_comes_from_an_indexed_package(shop: Store) -> None:
    r = explain("shop.errors.BasketError: the basket was rejected upstream", store=shop, auto_index=False)
    assert r.abstain and "'shop' is indexed" in (r.hint or "")


def test_hint_for_a_warning_whose_words_fit_nothing(shop: Store, tmp_path: Path) -> None:
    """A warning's line is its caller's: not a sign that the user's own code wrote it."""
    stderr = run("import warnings\nwarnings.warn('the basket format will change soon', FutureWarning)", tmp_path)
    r = explain(stderr, store=shop, auto_index=False)
    assert r.parsed.kind == "warning" and r.abstain
    assert "points at its caller" in (r.hint or "") and "your own code" not in (r.hint or "")


def test_of_templates_alike_once_folded_the_one_written_alike_comes_first(tmp_path: Path, backend: str) -> None:
    """networkx raises both `graph is not connected.` and `Graph is not connected.`: matching folds case and
    quotes away, and the one whose words the message holds as written is the answer, the other a little lower."""
    folder = write_tree(
        tmp_path / "graphs-1.0",
        {
            "pyproject.toml": '[project]\nname = "graphs"\nversion = "1.0"\n',
            "graphs/__init__.py": "",
            "graphs/cut.py": "def cut(g):\n    if not g.connected:\n"
            "        raise ValueError('graph is not connected.')\n",
            "graphs/paths.py": "def path(g):\n    if not g.connected:\n"
            "        raise ValueError('Graph is not connected.')\n",
        },
    )
    with Store(new_index(backend, tmp_path, "graphs.db")) as store:
        index(str(folder), store)
        upper = explain("ValueError: Graph is not connected.", store=store, auto_index=False)
        lower = explain("ValueError: graph is not connected.", store=store, auto_index=False)
    assert [m.file for m in upper.matches] == ["graphs/paths.py", "graphs/cut.py"]
    assert [m.file for m in lower.matches] == ["graphs/cut.py", "graphs/paths.py"]
    assert upper.matches[1].confidence == pytest.approx(upper.matches[0].confidence * REWORDED, abs=1e-3)


def test_a_class_of_the_same_name_from_another_package_is_another_class(shop: Store) -> None:
    """pydantic's v1 code defines a ValidationError of its own; pydantic_core's, which its compiled code
    raises, prints as `pydantic_core._pydantic_core.ValidationError`: the words alone must not pick pydantic's."""
    own = explain("shop.errors.ShopError: size must be positive, got 0", store=shop, auto_index=False)
    other = explain("shopcore._native.ShopError: size must be positive, got 0", store=shop, auto_index=False)
    assert own.best is not None and own.best.line == 16
    assert other.abstain and other.matches[0].line == 16 and other.matches[0].confidence < own.best.confidence / 2
    assert "comes from 'shopcore', which is not indexed: errdex index shopcore" in (other.hint or "")
    builtin = explain("json.decoder.JSONDecodeError: size must be positive, got 0", store=shop, auto_index=False)
    assert "not indexed" not in (builtin.hint or "")  # the standard library is not for indexing


def test_hint_for_a_key_error_without_its_traceback(shop: Store, tmp_path: Path) -> None:
    stderr = run("{}['colour']", tmp_path)
    bare = explain(stderr.splitlines()[-1], store=shop, auto_index=False)
    assert bare.parsed.message == "'colour'" and bare.abstain and "only the key" in (bare.hint or "")


def test_a_bare_paste_of_a_warning_category_not_named_warning_is_not_taken_for_an_error(
    tmp_path: Path, backend: str
) -> None:
    """`PydanticDeprecatedSince20: ...` alone does not say it was a warning (its name does not end in Warning),
    but the index warns with that class there: the kind guessed from the bare line does not lower the match."""
    folder = write_tree(
        tmp_path / "olds-1.0",
        {
            "pyproject.toml": '[project]\nname = "olds"\nversion = "1.0"\n',
            "olds/__init__.py": "import warnings\n\n\nclass DeprecatedSince2(DeprecationWarning):\n    pass\n\n\n"
            "def dict_(model):\n    warnings.warn('The `dict` method is deprecated; use `dump` instead.', "
            "DeprecatedSince2, stacklevel=2)\n",
        },
    )
    with Store(new_index(backend, tmp_path, "olds.db")) as store:
        index(str(folder), store)
        r = explain(
            "olds.DeprecatedSince2: The `dict` method is deprecated; use `dump` instead.", store=store, auto_index=False
        )
    assert r.parsed.kind == "error" and r.best is not None and r.best.kind == "warning" and r.best.confidence > 0.9
