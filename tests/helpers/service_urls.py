"""Where the tests find PostgreSQL and Redis: the standard local servers, or the throwaway ones
test.sh started (tools/test_services.sh names them in the environment)."""

from __future__ import annotations

import os

POSTGRES_URL = os.environ.get("CRIBBAGE_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
"""The PostgreSQL of the tests (database ``test``); each test that uses it has a schema of its own
(the root conftest's ``postgres_url``)."""

REDIS_URL = os.environ.get("CRIBBAGE_TEST_REDIS", "redis://127.0.0.1:6379/0")
"""The Redis of the tests that run server processes on one broker; each test's keys have a prefix
of its own (tests/web/conftest.py's ``redis_keys``)."""
