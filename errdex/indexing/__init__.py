"""The indexing stage: a release's source → extract → store, one release or many.

- `pipeline`: `index(spec, store)` and its parts (`prepare` reads and analyses, `write` stores);
- `link`: a release's files joined into sites (names resolved across modules, helpers' callers),
  reusing what an earlier release of the package already linked;
- `versions`: which releases a spec such as `--versions ">=5.10"` or `--latest 3` means;
- `bulk` and `cluster`: many releases at once, on a local process pool or a Dask cluster.
"""

from errdex.indexing.pipeline import (
    IndexResult,
    Prepared,
    Progress,
    SkippedFile,
    index,
    prepare,
    result,
    write,
)

__all__ = ["IndexResult", "Prepared", "Progress", "SkippedFile", "index", "prepare", "result", "write"]
