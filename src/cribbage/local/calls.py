"""What the browser's engine worker (static/engine/worker.js) calls: each call takes and gives
JSON text, so that nothing but text crosses between JavaScript and Python.  An answer is
``{"ok": VALUE}`` or ``{"error": {"code", "message", "values"}}``: a refusal with the code and
values the server answers the same request with (``docs/api.md``), which the page words as it
words the server's.

The games of the tab are kept here by id while the worker lives; the page keeps each game's
:meth:`~cribbage.local.game.LocalGame.saved` form (IndexedDB) and restores it after a reload.

>>> import json
>>> answer = json.loads(call("new", json.dumps(["local-7", {"variant": "short", "seed": 2}])))
>>> answer["ok"]["id"], answer["ok"]["options"]["target"]
('local-7', 61)
>>> json.loads(call("act", json.dumps(["local-7", {"type": "dance"}])))["error"]["code"]
'invalid'
>>> json.loads(call("state", json.dumps(["nope"])))["error"]["code"]
'not_found'
>>> json.loads(call("hint", "[]"))["error"]["values"]
{'field': 'call'}
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from typing import Any, Final

from ..engine.errors import CribbageError
from ..table.person import Refusal
from .game import LocalGame, LocalOptions

__all__ = ["CALLS", "call"]

_GAMES: dict[str, LocalGame] = {}
"""The tab's games by id."""

KEPT: Final = 8
"""The most games kept at once (the oldest are dropped: the page restores a game it needs)."""


def _game(game_id: object) -> LocalGame:
    found = _GAMES.get(game_id) if isinstance(game_id, str) else None
    if found is None:
        raise Refusal("not_found", f"no game {game_id!r} in this browser", id=game_id)
    return found


def _keep(game: LocalGame) -> dict[str, Any]:
    _GAMES.pop(game.id, None)
    _GAMES[game.id] = game
    while len(_GAMES) > KEPT:
        del _GAMES[next(iter(_GAMES))]
    return game.state()


def _game_id(game_id: object) -> str:
    if not isinstance(game_id, str) or not 1 <= len(game_id) <= 64:
        raise Refusal("invalid", "a game's id is a text of 1 to 64 characters", field="id")
    return game_id


def _new(game_id: object, options: object) -> dict[str, Any]:
    return _keep(LocalGame.new(_game_id(game_id), LocalOptions.from_json(options)))


def _record_of(text: object) -> object:
    """A record sent as JSON text (its seeds are 64-bit numbers, which JavaScript's numbers
    would round: records cross as text both ways)."""
    try:
        return json.loads(text) if isinstance(text, str) else None
    except json.JSONDecodeError:
        return None  # refused by name by the record's reader


def _restore(game_id: object, options: object, record: object) -> dict[str, Any]:
    return _keep(LocalGame.restore(_game_id(game_id), LocalOptions.from_json(options), _record_of(record)))


def _review(record: object, seat: object) -> dict[str, Any]:
    from ..study.review import review_record  # the review's advice is loaded with the first

    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise Refusal("invalid", "seat is a seat's number", field="seat")
    return review_record(_record_of(record), None if seat is None else [seat]).to_json()


CALLS: Final[dict[str, Callable[..., Any]]] = {
    "new": _new,
    "restore": _restore,
    "state": lambda game_id: _game(game_id).state(),
    "act": lambda game_id, action: _game(game_id).act(action),
    "hint": lambda game_id: _game(game_id).hint(),
    "record": lambda game_id: json.dumps(_game(game_id).record()),
    "saved": lambda game_id: json.dumps(_game(game_id).saved()),
    "review": _review,
}
"""The calls by name, each with its arguments in order.  A record crosses as JSON text, both
ways (``record`` and ``saved`` answer one; ``restore`` and ``review`` take one)."""


def call(name: str, arguments: str) -> str:
    """Answer the call ``name`` with ``arguments`` (a JSON array): its JSON answer."""
    try:
        args = json.loads(arguments)
        if name not in CALLS or not isinstance(args, list):
            raise Refusal("invalid", f"no call {name!r} with these arguments", field="call")
        try:
            inspect.signature(CALLS[name]).bind(*args)
        except TypeError as exc:  # a wrong number of arguments
            raise Refusal("invalid", f"call {name!r}: {exc}", field="call") from None
        result = CALLS[name](*args)
    except json.JSONDecodeError as exc:
        return _error("invalid", f"the arguments are not JSON: {exc}", {"field": "call"})
    except CribbageError as exc:
        return _error(exc.code, str(exc), exc.values)
    return json.dumps({"ok": result})


def _error(code: str, message: str, values: dict[str, Any]) -> str:
    return json.dumps({"error": {"code": code, "message": message, "values": values}})
