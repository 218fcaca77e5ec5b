"""The index: SQLite by default. The only part of errdex that writes SQL."""

from errdex.store.sqlite import NewFile, Store, TemplateRow, default_path

__all__ = ["NewFile", "Store", "TemplateRow", "default_path"]
