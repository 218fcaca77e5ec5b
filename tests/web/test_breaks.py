"""Break opportunities in long tokens: at their joints, never inside an entity, a tag or kept text."""

from __future__ import annotations

from errdex.web.breaks import break_long_words


def test_a_long_path_and_name_break_at_their_joints() -> None:
    html = "<p>(transformers/generation/configuration_utils.py:685) <code>GenerationMixin._prepare</code></p>"
    assert break_long_words(html) == (
        "<p>(<wbr>transformers/<wbr>generation/<wbr>configuration_<wbr>utils<wbr>.py:685)"
        " <code>Generation<wbr>Mixin<wbr>._<wbr>prepare</code></p>"
    )


def test_short_words_entities_attributes_and_kept_elements_are_left_alone() -> None:
    kept = (
        '<head><title>a/b/c/d/e/f/g/h/i/j/k</title></head><a href="/errors/0123456789abcdef?version=1.0">x</a>'
        "<pre>aaaaaaaaaa/bbbbbbbbbb/cccc</pre><textarea>Traceback/of/the/user/paste</textarea><p>shop/cart.py:11</p>"
    )
    assert break_long_words(kept) == kept
    assert break_long_words("<p>&#39;offloaded&amp;static&#39;&lt;locals&gt;x</p>") == (
        "<p>&#39;<wbr>offloaded&amp;<wbr>static&#39;<wbr>&lt;<wbr>locals&gt;<wbr>x</p>"
    )
