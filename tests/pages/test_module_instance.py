"""A module that binds a name once to an instance (`api = HfApi()`) and its top-level names to that instance's
methods (`create_repo = api.create_repo`): the name's uses are of the class, the alias is a name users call."""

from __future__ import annotations

from errdex.pages import build_page
from errdex.pages.callers import CalledFunction, callers
from tests.pages.conftest import Indexer, error_id_of

FILES = {
    "hub/__init__.py": "from hub.api import create_repo\n",
    "hub/api.py": """
        class HubApi:
            def create_repo(self, sdk=None):
                if sdk not in (None, "gradio"):
                    raise ValueError("unknown sdk")


        api = HubApi()
        create_repo = api.create_repo


        def global_use(sdk):
            return api.create_repo(sdk)


        def local_use(sdk):
            api = object()
            return api.create_repo(sdk)


        def parameter_use(api, sdk):
            return api.create_repo(sdk)


        other = HubApi()
        other = None


        def rebound_use(sdk):
            return other.create_repo(sdk)
    """,
}


def test_a_module_instance_is_of_its_class_and_its_method_bound_to_a_name_is_an_alias(indexed: Indexer) -> None:
    store = indexed(FILES, name="hub")
    found = callers(store, store.release("hub"), CalledFunction("hub/api.py", "HubApi.create_repo"))
    got = {(c["function"], c["match"], c["use"]) for c in found["callers"]}
    assert got == {("<module>", "typed", "reference"), ("global_use", "typed", "call")}
    assert found["unresolved"] == 3  # a local, a parameter and a name the module binds twice hold anything
    summary = build_page(store, error_id_of(store, "hub", "unknown sdk"))["when_it_happens"]["summary"]
    assert (
        "`create_repo = api.create_repo` (hub/api.py:8) binds `HubApi.create_repo` to the module's name `create_repo`:"
        " users call it as `hub.create_repo`." in summary
    )
    assert "is referenced" not in summary
