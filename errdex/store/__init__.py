"""The index: a SQLite file by default, or PostgreSQL for a postgresql:// URL.

The only part of errdex that writes SQL.
"""

from errdex.store.backend import is_postgres_url
from errdex.store.pool import StorePool, shared_store
from errdex.store.queries import NewFile, Store, TemplateRow, default_path, version_key
from errdex.store.records import (
    ErrorVersion,
    FileText,
    IndexedSite,
    PackageSummary,
    ReleaseDigest,
    ReleaseFile,
    StoreStats,
    Verification,
)

__all__ = [
    "ErrorVersion",
    "FileText",
    "IndexedSite",
    "NewFile",
    "PackageSummary",
    "ReleaseDigest",
    "ReleaseFile",
    "Store",
    "StorePool",
    "StoreStats",
    "TemplateRow",
    "Verification",
    "default_path",
    "is_postgres_url",
    "shared_store",
    "version_key",
]
