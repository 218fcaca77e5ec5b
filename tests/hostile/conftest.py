"""The web tests' index and in-process client, shared with the hostile web tests."""

from tests.web.conftest import anyio_backend, client, web_db  # noqa: F401 - fixtures
