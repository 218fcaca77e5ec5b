"""How the store's large bytes are compressed: file sources, analyses, link traces.

Zstandard at level 1 compresses Python source 2.6x as fast as zlib's fastest level and a little
smaller, and decompresses 3x as fast; both matter, since a cold index compresses every file of
a release and linking or explaining decompresses them again. Blobs written by earlier versions
are zlib streams; `unpack` tells the two apart by the Zstandard frame's magic number.
"""

from __future__ import annotations

import zlib

import zstandard

_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_compressor = zstandard.ZstdCompressor(level=1)
_decompressor = zstandard.ZstdDecompressor()


def pack(data: bytes) -> bytes:
    """Compress bytes for the store."""
    return _compressor.compress(data)


def unpack(blob: bytes) -> bytes:
    """The bytes `pack` was given, or those of a zlib blob written before Zstandard was used.

    Raises `ValueError` for a blob that is neither (a damaged store).
    """
    try:
        if blob[:4] == _ZSTD_MAGIC:
            return _decompressor.decompress(blob)
        return zlib.decompress(blob)
    except (zstandard.ZstdError, zlib.error) as e:
        raise ValueError(f"a stored blob is damaged: {e}") from e
