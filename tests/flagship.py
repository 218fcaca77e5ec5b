"""The flagship error's facts, read from transformers 5.16.0's code once for every golden test."""

from __future__ import annotations

# valid_cache_implementations of GenerationConfig.validate (generation/configuration_utils.py:685), in order
CACHE_NAMES = [
    "static",
    "offloaded_static",
    "sliding_window",
    "hybrid",
    "hybrid_chunked",
    "offloaded_hybrid",
    "offloaded_hybrid_chunked",
    "dynamic",
    "offloaded",
    "quantized",
    "paged",
]
