"""The index: a SQLite file by default, or PostgreSQL for a postgresql:// URL. The only part of errdex that writes SQL."""

from errdex.store.queries import NewFile, Store, TemplateRow, default_path

__all__ = ["NewFile", "Store", "TemplateRow", "default_path"]
