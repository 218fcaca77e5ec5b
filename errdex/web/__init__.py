"""The web site and JSON API over an index (`errdex serve`), and its static export (`errdex export-site`)."""

from errdex.web.app import create_app

__all__ = ["create_app"]
