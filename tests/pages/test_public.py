"""Where users import a definition from: the shortest public module whose re-exports end at that very definition,
through plain, `TYPE_CHECKING`, star (as far as `__all__` lets it) and lazy-table imports; never through a private
module or another definition of the same name."""

from __future__ import annotations

from typing import Any

import pytest

from errdex.pages.public import public_module
from errdex.pages.source import parse
from tests.pages.conftest import Indexer

FILES = {
    "pkg/__init__.py": """
        from typing import TYPE_CHECKING

        from .api import get
        from pkg.core.api import *
        from .listed import *

        _lazy = {"config": ["Config"]}
        _dynamic = {"Model": (__spec__.parent, ".models.main")}
        if TYPE_CHECKING:
            from .tools import Helper
    """,
    "pkg/api.py": "def get(url):\n    return url\n",
    "pkg/core/__init__.py": "",
    "pkg/core/api.py": "from pkg.core.frame import Frame\n",
    "pkg/core/frame.py": "class Frame:\n    pass\n",
    "pkg/listed.py": "from pkg.schema import Schema\n\n__all__ = ['Exported']\n\n\nclass Exported:\n    pass\n",
    "pkg/schema.py": "class Schema:\n    pass\n",
    "pkg/config.py": "class Config:\n    pass\n",
    "pkg/models/__init__.py": "",
    "pkg/models/main.py": "class Model:\n    pass\n",
    "pkg/tools.py": "class Helper:\n    pass\n\n\nclass Other:\n    pass\n",
    "pkg/_impl/__init__.py": "",
    "pkg/_impl/engine.py": "class Engine:\n    pass\n",
    "pkg/sub/__init__.py": "from ._private import Widget\n\n\nclass Shadow:\n    pass\n",
    "pkg/sub/_private.py": "class Widget:\n    pass\n\n\nclass Hidden:\n    pass\n",
    "pkg/sub/shadow.py": "class Shadow:\n    pass\n",
}


@pytest.fixture
def public(indexed: Indexer) -> Any:
    store = indexed(FILES)
    (release,) = store.releases("pkg")
    return lambda file, name: public_module(file, name, lambda path: parse(store.source(release, path)))


@pytest.mark.parametrize(
    ("file", "name", "module"),
    [
        ("pkg/api.py", "get", "pkg"),  # a relative import in the package
        ("pkg/core/frame.py", "Frame", "pkg"),  # an absolute star import of a module that imports it
        ("pkg/config.py", "Config", "pkg"),  # a lazy table, module -> names
        ("pkg/models/main.py", "Model", "pkg"),  # a lazy table, name -> (package, module)
        ("pkg/tools.py", "Helper", "pkg"),  # under `if TYPE_CHECKING:`
        ("pkg/tools.py", "Other", "pkg.tools"),  # not re-exported: its own public module
        ("pkg/sub/_private.py", "Widget", "pkg.sub"),  # re-exported out of a private module
        ("pkg/sub/shadow.py", "Shadow", "pkg.sub.shadow"),  # `pkg.sub.Shadow` is another class
        ("pkg/listed.py", "Exported", "pkg"),  # a star import of a module whose `__all__` lists it
        ("pkg/schema.py", "Schema", "pkg.schema"),  # imported by that module, but its `__all__` leaves it out
    ],
)
def test_shortest_public_module(public: Any, file: str, name: str, module: str) -> None:
    assert public(file, name) == module


@pytest.mark.parametrize(("file", "name"), [("pkg/_impl/engine.py", "Engine"), ("pkg/sub/_private.py", "Hidden")])
def test_no_public_way_is_none(public: Any, file: str, name: str) -> None:
    assert public(file, name) is None
