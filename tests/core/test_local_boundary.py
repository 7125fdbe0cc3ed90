"""The browser's engine imports only what runs under Pyodide (issue 45 item 3; docs/pyodide.md):
``cribbage.local`` and what it needs (the engine, table, players, AI, the review) import neither
the server's layers (the application, the storage, the web) nor their libraries, which Pyodide
does not ship (PyICU has no build at all).  Checked in a fresh interpreter whose import of any of
them fails, as it would in the browser: a game is played, hinted and reviewed there.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

BLOCKED = (
    "sqlalchemy", "alembic", "fastapi", "starlette", "pydantic", "uvicorn", "redis", "orjson",
    "icu", "precis_i18n", "regex", "argon2", "webauthn", "openskill", "pywebpush", "cryptography",
    "rich", "limits", "anyio",
)  # fmt: skip
"""The server's libraries: none is imported by the browser's engine."""

SCRIPT = textwrap.dedent(
    """
    import importlib.abc, sys

    BLOCKED = set(sys.argv[1].split(","))
    SERVER = ("cribbage.app", "cribbage.web", "cribbage.storage", "cribbage.cli")

    class Refuse(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED or name.startswith(SERVER):
                raise ImportError(f"{name} is not available in the browser")
            return None

    sys.meta_path.insert(0, Refuse())
    from cribbage.local.game import LocalGame, LocalOptions
    from cribbage.engine.templates import choices
    from cribbage.study.review import review_record

    game = LocalGame.new("local-1", LocalOptions(variant="short", level="strong", seed=4))
    assert game.hint()["options"]
    for _ in range(3000):
        state = game.state()
        if state["over"]:
            break
        game.act({**next(choices(state["actions"][0])), "version": state["version"]})
    review = review_record(game.record(), [0]).to_json()
    print("ok", state["result"]["winner"] in (0, 1), bool(review))
    """
)


def test_the_browsers_engine_imports_nothing_of_the_server() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, ",".join(BLOCKED)], capture_output=True, text=True, timeout=50
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["ok", "True", "True"]
