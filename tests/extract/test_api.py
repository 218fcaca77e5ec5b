"""The public surface of a module, read statically: signatures, fields, exports and deprecation shims."""

from __future__ import annotations

import textwrap

from errdex.extract.api import api_of
from errdex.model import ApiParam, ApiSymbol


def symbols(path: str, source: str) -> dict[tuple[str, str], ApiSymbol]:
    return {(s.qualname, s.kind): s for s in api_of(path, textwrap.dedent(source).encode())}


def test_functions_classes_methods_and_properties_with_their_signatures() -> None:
    found = symbols(
        "pkg/core.py",
        """
        LIMIT = 3

        def run(a, /, b, c=1, *args, d, e=None, **kwargs):
            pass

        class Frame(Base, mixins.Printable):
            kind = "frame"

            def append(self, other, ignore_index=False):
                pass

            @property
            def shape(self):
                return ()

            class Meta:
                pass
        """,
    )
    run = found[("run", "function")]
    assert run.params == (
        ApiParam("a", "positional_only", None),
        ApiParam("b", "positional_or_keyword", None),
        ApiParam("c", "positional_or_keyword", "1"),
        ApiParam("args", "var_positional", None),
        ApiParam("d", "keyword_only", None),
        ApiParam("e", "keyword_only", "None"),
        ApiParam("kwargs", "var_keyword", None),
    )
    assert found[("Frame", "class")].bases == ("Base", "mixins.Printable")
    assert found[("Frame", "class")].params is None  # not a dataclass: its __init__ says
    assert [p.name for p in found[("Frame.append", "method")].params or ()] == ["self", "other", "ignore_index"]
    assert ("Frame.shape", "property") in found
    assert ("Frame.kind", "attribute") in found
    assert ("Frame.Meta", "class") in found
    assert ("LIMIT", "attribute") in found


def test_a_dataclass_takes_its_fields_and_its_post_init_warns_about_a_renamed_one() -> None:
    found = symbols(
        "pkg/training_args.py",
        """
        import warnings
        from dataclasses import dataclass, field
        from typing import ClassVar

        @dataclass
        class TrainingArguments:
            output_dir: str
            eval_strategy: str = "no"
            evaluation_strategy: str = field(default=None, metadata={"help": "deprecated"})
            tags: list = field(default_factory=list)
            registry: ClassVar[dict] = {}
            _n_gpu: int = field(init=False, repr=False, default=-1)

            def __post_init__(self):
                if self.evaluation_strategy is not None:
                    warnings.warn(
                        "`evaluation_strategy` is deprecated and will be removed. Use `eval_strategy` instead",
                        FutureWarning,
                    )
                    self.eval_strategy = self.evaluation_strategy
                if isinstance(self.eval_strategy, OldStrategy):
                    warnings.warn("using `OldStrategy` for `eval_strategy` is deprecated", FutureWarning)
        """,
    )
    cls = found[("TrainingArguments", "class")]
    assert [(p.name, p.default) for p in cls.params or ()] == [
        ("output_dir", None),
        ("eval_strategy", "'no'"),
        ("evaluation_strategy", "None"),
        ("tags", "list()"),
    ]
    (deprecation,) = found[("TrainingArguments.__post_init__", "method")].deprecations
    assert deprecation.name == "evaluation_strategy"  # the value test (isinstance) deprecates no parameter
    assert deprecation.category == "FutureWarning"
    assert deprecation.replacement == "eval_strategy"
    assert deprecation.message is not None and deprecation.message.startswith("`evaluation_strategy` is deprecated")


def test_a_keyword_popped_from_kwargs_with_a_warning_and_a_deprecating_decorator() -> None:
    found = symbols(
        "pkg/api.py",
        """
        import warnings

        def load(path, *, token=None, **kwargs):
            if "use_auth_token" in kwargs:
                warnings.warn("`use_auth_token` is deprecated, use `token` instead.", FutureWarning)
                token = kwargs.pop("use_auth_token")
            if debug:
                warnings.warn("debugging is deprecated", DeprecationWarning)

        @deprecate_kwarg("max_size", new_name="size", version="5")
        def resize(image, size=None):
            pass

        @_deprecate_positional_args
        def jointplot(*, x=None, y=None, data=None):
            pass
        """,
    )
    (popped,) = found[("load", "function")].deprecations
    assert (popped.name, popped.replacement) == ("use_auth_token", "token")  # `debug` is no parameter of `load`
    (decorated,) = found[("resize", "function")].deprecations
    assert (decorated.name, decorated.replacement) == ("max_size", "size")
    (positional,) = found[("jointplot", "function")].deprecations
    assert positional.name == "*"  # it still takes its keyword-only parameters by position, with a warning


def test_a_function_that_warns_whenever_it_runs_is_deprecated_itself() -> None:
    found = symbols(
        "pkg/_native.py",
        """
        import warnings

        def soft_unicode(s):
            warnings.warn(
                "'soft_unicode' has been renamed to 'soft_str'. The old name will be removed in 2.1.",
                DeprecationWarning,
                stacklevel=2,
            )
            return soft_str(s)

        def append(self, other):
            warnings.warn("The frame.append method is deprecated. Use pandas.concat instead.", FutureWarning)
        """,
    )
    (renamed,) = found[("soft_unicode", "function")].deprecations
    assert (renamed.name, renamed.replacement) == ("soft_unicode", "soft_str")
    (replaced,) = found[("append", "function")].deprecations
    assert replaced.replacement == "pandas.concat"


def test_a_class_whose_init_warns_whenever_it_runs_is_deprecated() -> None:
    found = symbols(
        "transformers/optimization.py",
        """
        import warnings

        class AdamW(Optimizer):
            def __init__(self, params, lr=1e-3):
                warnings.warn(
                    "This implementation of AdamW is deprecated. Use the PyTorch implementation `torch.optim.AdamW`",
                    FutureWarning,
                )
        """,
    )
    (deprecation,) = found[("AdamW", "class")].deprecations
    assert (deprecation.name, deprecation.replacement) == ("AdamW", "torch.optim.AdamW")


def test_a_deprecation_written_as_a_local_message_or_by_a_packages_own_decorator() -> None:
    found = symbols(
        "scipy/integrate/_quadrature.py",
        """
        import warnings

        def simps(y, x=None):
            \"\"\"An alias of `simpson`.\"\"\"
            msg = ("'scipy.integrate.simps' is deprecated in favour of "
                   "'scipy.integrate.simpson' and will be removed in SciPy 1.14.0")
            warnings.warn(msg, DeprecationWarning, stacklevel=2)
            return simpson(y, x=x)

        @_deprecate_method(version="0.26", message="Use `hf_hub_download` instead.")
        def cached_download(url):
            pass

        class AdamW:
            def __init__(self, params, no_deprecation_warning=False):
                if not no_deprecation_warning:
                    warnings.warn("This implementation of AdamW is deprecated", FutureWarning)
        """,
    )
    (simps,) = found[("simps", "function")].deprecations
    assert simps.replacement == "scipy.integrate.simpson"
    (cached,) = found[("cached_download", "function")].deprecations
    assert cached.replacement == "hf_hub_download"
    assert found[("AdamW.__init__", "method")].deprecations == ()  # `not flag`: the flag silences, it is no deprecation


def test_imports_star_imports_and_all_of_a_package() -> None:
    found = symbols(
        "pkg/sub/__init__.py",
        """
        from .core import run, Frame as DataFrame
        from . import numeric
        from ..other import *
        import numpy.linalg as la

        __all__ = ["run", "DataFrame"]
        __all__ += numeric.__all__
        __all__.extend(["la"])
        __all__ += helpers()

        if TYPE_CHECKING:
            from .typing_only import Hidden
        """,
    )
    assert found[("run", "import")].target == "pkg.sub.core.run"
    assert found[("DataFrame", "import")].target == "pkg.sub.core.Frame"
    assert found[("*", "star")].target == "pkg.other"
    assert found[("la", "import")].target == "numpy.linalg"
    exported = [
        s
        for s in api_of(
            "pkg/sub/__init__.py",
            textwrap.dedent("""
        from . import numeric
        __all__ = ["run", "DataFrame"]
        __all__ += numeric.__all__
        __all__.extend(["la"])
        __all__ += helpers()
        """).encode(),
        )
        if s.kind == "exported"
    ]
    assert [(s.qualname, s.target) for s in exported] == [
        ("run", None),
        ("DataFrame", None),
        ("*", "pkg.sub.numeric"),
        ("la", None),
        ("*", None),  # what `helpers()` adds is not known
    ]
    assert ("Hidden", "import") not in found  # only type checkers import it


def test_a_lazy_import_structure_exports_its_names() -> None:
    found = symbols(
        "transformers/__init__.py",
        """
        import sys
        _import_structure = {"training_args": ["TrainingArguments"], "utils": []}
        _import_structure["utils"].extend(["logging", "is_torch_available"])
        _import_structure["models.bert"] = ["BertModel"]
        sys.modules[__name__] = _LazyModule(__name__, globals()["__file__"], _import_structure)
        """,
    )
    assert found[("TrainingArguments", "lazy")].target == "transformers.training_args.TrainingArguments"
    assert found[("logging", "lazy")].target == "transformers.utils.logging"
    assert found[("BertModel", "lazy")].target == "transformers.models.bert.BertModel"


def test_a_structure_handed_to_what_makes_the_modules_getattr_is_lazy() -> None:
    found = symbols(
        "huggingface_hub/__init__.py",
        """
        _SUBMOD_ATTRS = {"file_download": ["cached_download", "hf_hub_download"]}
        __getattr__, __dir__, __all__ = _attach(__name__, submodules=[], submod_attrs=_SUBMOD_ATTRS)
        """,
    )
    assert found[("cached_download", "lazy")].target == "huggingface_hub.file_download.cached_download"
    assert ("*", "lazy") in found  # the `__getattr__` a call made may serve other names too


def test_a_lazy_structure_written_in_the_loaders_call() -> None:
    found = symbols(
        "huggingface_hub/__init__.py",
        """
        __getattr__, __dir__, __all__ = _attach(
            __name__, submodules=[], submod_attrs={"file_download": ["cached_download", "hf_hub_url"]}
        )
        """,
    )
    assert found[("hf_hub_url", "lazy")].target == "huggingface_hub.file_download.hf_hub_url"


def test_a_module_getattr_that_warns_about_some_names_and_refuses_others() -> None:
    found = symbols(
        "numpy/__init__.py",
        """
        import warnings
        _msg = "module 'numpy' has no attribute '{n}'. `np.{n}` was a deprecated alias for `{n}`. {extended_msg}"
        _type_info = [("float", ""), ("int", ""), ("object", "")]
        __deprecated_attrs__ = {}
        __deprecated_attrs__.update(
            {n: (getattr(builtins, n), _msg.format(n=n, extended_msg=e)) for n, e in _type_info}
        )
        __former_attrs__ = {"typeDict": "`np.typeDict` was removed. Use `np.sctypeDict` instead."}

        def __getattr__(attr):
            try:
                val, msg = __deprecated_attrs__[attr]
            except KeyError:
                pass
            else:
                warnings.warn(msg, DeprecationWarning, stacklevel=2)
                return val
            if attr in __former_attrs__:
                raise AttributeError(__former_attrs__[attr])
            if attr == "testing":
                import numpy.testing as testing
                return testing
            raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
        """,
    )
    floating = found[("float", "deprecated")]
    assert (
        floating.message == "module 'numpy' has no attribute 'float'. `np.float` was a deprecated alias for `float`. {}"
    )
    assert ("int", "deprecated") in found and ("object", "deprecated") in found
    assert found[("typeDict", "removed")].message == "`np.typeDict` was removed. Use `np.sctypeDict` instead."
    assert ("testing", "lazy") in found  # served, with no warning
    assert ("*", "lazy") not in found  # it ends by raising: it serves no other name


def test_a_getattr_that_may_serve_any_name_is_open_ended() -> None:
    found = symbols(
        "pkg/__init__.py",
        """
        def __getattr__(name):
            return importlib.import_module(f".{name}", __name__)
        """,
    )
    assert ("*", "lazy") in found


def test_a_module_that_warns_on_import_is_deprecated() -> None:
    found = symbols(
        "sklearn/externals/joblib/__init__.py",
        """
        import sys
        import warnings
        from joblib import *

        msg = ("sklearn.externals.joblib is deprecated in 0.21 and will be removed in 0.23. "
               "Please import this functionality directly from joblib")

        if not hasattr(sys, "_is_pytest_session"):
            warnings.warn(msg, category=FutureWarning)
        """,
    )
    module = found[("<module>", "deprecated")]
    assert module.message is not None and module.message.startswith("sklearn.externals.joblib is deprecated in 0.21")


def test_code_that_does_not_parse_has_no_api() -> None:
    assert api_of("pkg/broken.py", b"def f(:\n") == ()
    assert api_of("pkg/latin.py", b"\xff\xfe not python") == ()
