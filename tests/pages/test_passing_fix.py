"""A check no call can be shown to fire (it also reads an object the evaluator cannot build) still gets an example
fix when one value of the user's call makes it false whatever the rest holds: the user's call (`...` for their
value, unknown) and the same call with that value."""

from __future__ import annotations

from tests.pages.conftest import Indexer, pages_of

FILES = {
    "imaging/__init__.py": "from .ops import Sampler, blur, plot, project, resize\n",
    "imaging/ops.py": """
        def resize(image, size=None):
            if size is not None and image.ndim != len(size):
                raise ValueError("size does not match the image")
            if size is not None and image.ndim > 3:
                raise ValueError(f"cannot resize to {size}: too many dimensions")
            return image


        def plot(ax, *args, color=None, shade=None):
            if color == "red" and shade == "dark":
                raise ValueError("red cannot be dark")


        def project(view, kind="ortho", focal=1):
            if kind == "persp" and focal <= 0 and view.ndim > 2:
                raise ValueError(f"focal = {focal} must be positive")


        def blur(radius=1):
            import warnings

            if radius > 10:
                warnings.warn("a large radius is slow")


        class Sampler:
            def __init__(self, method="nearest"):
                self.method = method

            def fit(self, image):
                if self.method != "nearest" and image.ndim > 2:
                    raise ValueError("only nearest sampling works on volumes")
                return self
    """,
}


def test_the_default_that_makes_the_check_false_is_the_fix(indexed: Indexer) -> None:
    page_of = pages_of(indexed(FILES, name="imaging"), "imaging")
    page = page_of("cannot resize to {}: too many dimensions")
    assert page["triggers"] == []  # `image.ndim` is nothing the evaluator can build: no call certainly raises
    fix = page["example_fix"]
    assert fix is not None
    assert fix["before"] == "from imaging import resize\n\nresize(image=..., size=...)"
    assert fix["after"] == "from imaging import resize\n\nresize(image=..., size=None)"
    assert (fix["value_before"], fix["value_after"], fix["value_source"]) == (None, "None", "default")
    assert fix["note"].startswith(
        "With `size` = None (what `resize` gives `size` when the keyword is left out) the"
        " check of this page is false, whatever else it reads."
    )
    # where the check reads the size itself (`len(size)`), None passes it only by leaving out the size it compares
    assert page_of("size does not match the image")["example_fix"] is None


def test_the_users_value_is_the_before_only_when_it_reads_one_way(indexed: Indexer) -> None:
    page_of = pages_of(indexed(FILES, name="imaging"), "imaging")
    template = "cannot resize to {}: too many dimensions"
    fix = page_of(template, values=["wide"])["example_fix"]
    assert fix is not None and fix["before"].endswith("resize(image=..., size='wide')")
    assert fix["value_before"] == "'wide'" and fix["after"].endswith("resize(image=..., size=None)")
    fix = page_of(template, values=["(3, 4)"])["example_fix"]  # a tuple printed, or a string: not known which
    assert fix is not None and fix["before"].endswith("resize(image=..., size=...)") and fix["value_before"] is None


def test_a_keyword_the_constructor_only_stores_is_fixed_where_the_user_sets_it(indexed: Indexer) -> None:
    page = pages_of(indexed(FILES, name="imaging"), "imaging")("only nearest sampling works on volumes")
    fix = page["example_fix"]
    assert page["triggers"] == [] and fix is not None
    assert fix["after"] == "from imaging import Sampler\n\nSampler(method='nearest')"
    assert fix["note"].endswith("`Sampler.__init__` only sets it: the check runs later, in `Sampler.fit`.")


def test_a_call_through_star_args_passes_what_comes_before_them_by_position(indexed: Indexer) -> None:
    (trigger,) = pages_of(indexed(FILES, name="imaging"), "imaging")("red cannot be dark")["triggers"]
    assert trigger["code"] is not None and trigger["code"].split("\n")[-1].startswith("plot(ax, ..., color=")


def test_a_warning_is_said_to_warn_and_go_on(indexed: Indexer) -> None:
    (trigger,) = pages_of(indexed(FILES, name="imaging"), "imaging")("a large radius is slow")["triggers"]
    assert trigger["text"].endswith("a call that gets to it with these values warns (and goes on).")


def test_the_input_the_message_shows_is_the_one_fixed(indexed: Indexer) -> None:
    """Leaving `kind` at its default passes too, but turns the perspective off: the message names `focal`."""
    fix = pages_of(indexed(FILES, name="imaging"), "imaging")("focal = {} must be positive")["example_fix"]
    assert fix is not None and fix["input"] == "focal" and fix["after"].endswith("project(view=..., focal=1)")


GUARDED = {
    "grid/__init__.py": "from .ops import Grid\n",
    "grid/ops.py": """
        class Grid:
            def __init__(self, blocks, verify=True, mode="fast"):
                if verify:
                    for block in blocks:
                        if block.ndim != 2:
                            raise ValueError("every block must be 2-D")
                if mode == "fast":
                    self.mode = 1
                elif mode != "slow":
                    raise ValueError(f"unknown mode {mode}")

            def refit(self, classes, warm=False):
                if warm:
                    if classes != self.classes:
                        raise ValueError("a warm refit needs the same classes")
                elif len(classes) > 3:
                    raise ValueError("too many classes")
    """,
}


def test_a_value_that_only_skips_the_check_is_no_fix(indexed: Indexer) -> None:
    page_of = pages_of(indexed(GUARDED, name="grid"), "grid")
    page = page_of("every block must be 2-D")
    # `verify=False` keeps the loop from running: it turns the checking off, and fixes no block
    assert page["what_it_means"]["own_test"] == "block.ndim != 2"
    assert page["example_fix"] is None
    # an earlier branch of the raise's own `if`/`elif` chain takes the default: a value the code handles
    page = page_of("unknown mode {}", values=["quick"])
    assert page["what_it_means"]["own_test"] == "not mode == 'fast' and mode != 'slow'"
    fix = page["example_fix"]
    assert fix is not None and fix["after"].endswith("Grid(blocks=..., mode='fast')")
    # an earlier branch that raises too is no way out: `warm=True` meets another check of the classes
    page = page_of("too many classes")
    assert page["what_it_means"]["own_test"] == "len(classes) > 3"
    assert page["example_fix"] is None
