"""A conditional argument (`"gradio" if self.repo_type == "space" else None`): each branch is tried, and an argument
its test compares with a literal is that literal in the branch where the test holds."""

from __future__ import annotations

from errdex.pages import build_page
from tests.pages.conftest import Indexer, error_id_of

REPOS = {
    "hub/__init__.py": "",
    "hub/repos.py": """
        import warnings


        def create_repo(name, repo_type=None, space_sdk=None):
            if space_sdk is not None and repo_type != "space":
                warnings.warn("Ignoring provided space_sdk because repo_type is not 'space'.")


        class Upload:
            def __init__(self, repo_type, sdk):
                self.repo_type = repo_type
                self.sdk = sdk

            def tied(self):
                create_repo("a", repo_type=self.repo_type, space_sdk="gradio" if self.repo_type == "space" else None)

            def tied_negated(self):
                create_repo("a", repo_type=self.repo_type, space_sdk=None if self.repo_type != "space" else "gradio")

            def untied(self):
                create_repo("a", repo_type=self.repo_type, space_sdk="gradio" if self.sdk == "space" else None)

            def both_none(self):
                create_repo("a", repo_type=self.repo_type, space_sdk=None if self.sdk else None)
    """,
}


def test_each_branch_of_a_conditional_argument_is_tried_with_the_argument_its_test_compares(indexed: Indexer) -> None:
    store = indexed(REPOS, name="hub")
    error = error_id_of(store, "hub", "Ignoring provided space_sdk because repo_type is not 'space'.")
    summary = build_page(store, error)["when_it_happens"]["summary"]
    assert "`create_repo` is called from `Upload.untied`; whether that call can reach" in summary
    assert (
        "`Upload.tied`, `Upload.tied_negated`, `Upload.both_none` call it with values that make the check false (the"
        " literals as written, each branch of `... if ... else ...`, with an argument its test compares to a literal"
        " taken as that literal where the test holds, the defaults of what is left out): no way to this error."
    ) in summary
