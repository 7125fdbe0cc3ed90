"""Every text field of the API and of the live sockets, fuzzed with text no database likes (issue
41, item 2 and "Numbers"), on SQLite and PostgreSQL: a NUL byte, controls, bidirectional
controls, lone surrogates, invisible characters and 10,000-character values.  No answer is a
5xx and nothing is logged as an error or with a traceback; a NUL or a lone surrogate is refused
at the edge (``422 bad_text``) before any route, so before any database call (the same whatever
the database: PostgreSQL is sent only the requests whose text goes past the edge).

Each operation of ``/openapi.json`` with a body has real bodies here (a real game, token, code,
account), and every text field of its schema is in one of them (checked: a new field or
operation without a body here fails :func:`test_every_text_field_of_the_schema_is_fuzzed`).
Each text of each body, each path parameter and the ``Authorization`` token is replaced in
turn by each value of :data:`VALUES`, the rest of the request kept valid, so that the value
reaches as deep as it can.

The sockets: the first message (token, watch code), an action's fields and ``ref``, chat text,
a report's message id, ``seen``'s version; the socket stays open after each refusal (a message
over the socket's size limit closes it by design, ``too_large``, and a new one is opened).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cribbage.web.ratelimits import NO_LIMITS
from web_fixtures import HUMAN, auth, make_app, receive, table, watch_link

VALUES: dict[str, str] = {
    "nul": "a\x00b",
    "controls": "a\x01\x07\x1b[2J\x7f\x9bb",
    "bidi": "\u202eevil\u202c\u061c\u2066x\u2069\u200f",
    "surrogate": "a\ud800b\udfff",
    "invisible": "\u200b\u200d\ufeff\u3164\U000e0041",
    "long": "é" * 10_000,
    "long_nul": "\x00" * 10_000,
    "fits": "\x00é" * 300,  # within a live message's 4096 bytes (JSON-escaped)
}
"""What goes in every text field."""

UNSTORABLE: frozenset[str] = frozenset({"nul", "surrogate", "long_nul", "fits"})
"""The values no database stores: refused at the edge (``bad_text``), whatever the field.  (A
lone surrogate cannot be sent in a URL or a header: its bytes are not UTF-8, and arrive as other
characters there; in JSON it is an escape, ``\\ud800``.)"""


def unstorable(kind: str, in_json: bool) -> bool:
    """Whether the value ``kind`` arrives as text no database stores."""
    return kind in UNSTORABLE if in_json else kind != "surrogate" and kind in UNSTORABLE


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


class World:
    """What the valid requests need: a table of two people, a game against the computer, an
    account's session, invitation and watch codes."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        people = table(client, [HUMAN, HUMAN, HUMAN], variant="three-player")  # seat 2 invited, not joined
        self.game, self.token, self.other = people.id, people.tokens[0], people.tokens[1]
        spare = client.post("/api/games", json={"seats": [HUMAN, HUMAN]}).json()
        self.code = spare["invites"][0]["code"]
        self.watch = watch_link(client, self.game, self.token)
        signed = client.post("/api/accounts", json={"name": "Fuzzed", "password": "a long password 1"})
        assert signed.status_code in (200, 201), signed.text
        self.session = signed.json()["token"]

    def bodies(self) -> dict[tuple[str, str], list[dict[str, Any]]]:
        """Valid bodies of each operation that has one (several where one cannot hold every
        field), as ``(method, path)`` of the schema."""
        record = self.client.get(f"/api/games/{self.game}/record", headers=auth(self.token)).json()
        credential = {"id": "abc", "rawId": "abc", "type": "public-key", "response": {"clientDataJSON": "x"}}
        return {
            ("POST", "/api/games"): [
                {"level": "weak", "variant": "standard", "dealer": "cut", "skunk": "none", "names": ["Aiko"]},
                {
                    "seats": [{"kind": "human", "name": "Aiko"}, {"kind": "computer", "level": "weak"}],
                    "takeover": "weak",
                },
            ],
            ("POST", "/api/games/upload"): [
                {
                    "options": {
                        "level": "weak",
                        "variant": "short",
                        "dealer": "cut",
                        "skunk": "none",
                        "names": ["Aiko"],
                    },
                    "record": {"format": "cribbage-record", "names": ["Aiko", "Computer"]},
                },
                {
                    "options": {
                        "seats": [{"kind": "human", "name": "Aiko"}, {"kind": "computer", "level": "weak"}],
                        "takeover": "weak",
                    },
                    "record": {},
                },
            ],
            ("POST", "/api/games/{game_id}/actions"): [
                {"type": "discard", "cards": ["5H", "6H"], "version": 0},
                {"type": "play", "card": "5H", "version": 0},
            ],
            ("POST", "/api/games/{game_id}/seen"): [{"version": 0}],
            ("POST", "/api/games/{game_id}/push"): [
                {"endpoint": "https://fcm.googleapis.com/fcm/send/x", "keys": {"p256dh": "BA", "auth": "AA"}}
            ],
            ("POST", "/api/join"): [{"code": self.code, "name": "Bo"}],
            ("POST", "/api/games/{game_id}/computer"): [{"seat": 1, "level": "weak"}],
            ("POST", "/api/accounts"): [{"name": "Newcomer", "password": "a long password 2"}],
            ("POST", "/api/accounts/signin"): [{"name": "Fuzzed", "password": "a long password 1"}],
            ("POST", "/api/accounts/claim"): [{"tokens": [self.other]}],
            ("POST", "/api/accounts/delete"): [{"password": "not the password"}],
            ("POST", "/api/accounts/passkey/signup/options"): [{"name": "Keyed"}],
            ("POST", "/api/accounts/passkey/signup"): [{"ceremony": "c", "credential": credential}],
            ("POST", "/api/accounts/passkey/add"): [{"ceremony": "c", "credential": credential}],
            ("POST", "/api/accounts/passkey/signin"): [{"ceremony": "c", "credential": credential}],
            ("POST", "/api/accounts/passkey/delete"): [{"ceremony": "c", "credential": credential}],
            ("POST", "/api/play"): [{"pool": "short", "first_to": 1}],
            ("POST", "/api/review"): [record],
            ("POST", "/api/score"): [{"hand": ["5H", "5C", "5S", "JD"], "starter": "5D", "crib": False}],
            ("POST", "/api/peg"): [{"cards": ["5H", "TD"]}],
            ("POST", "/api/train/discard"): [{"seed": 1, "variant": "standard", "side": "dealer"}],
            ("POST", "/api/train/discard/answer"): [
                {"seed": 1, "variant": "standard", "side": "dealer", "throw": ["5H", "6H"]}
            ],
            ("POST", "/api/train/play"): [{"seed": 1, "variant": "standard"}],
            ("POST", "/api/train/play/answer"): [{"seed": 1, "variant": "standard", "card": "5H"}],
            ("POST", "/api/tournaments"): [
                {
                    "name": "Open night",
                    "variant": "short",
                    "pairing": "swiss",
                    "starts": "2027-01-05T19:00:00+00:00",
                }
            ],
            ("POST", "/api/tournaments/{tournament_id}/checkin"): [{"number": 1}],
            ("POST", "/api/tournaments/{tournament_id}/withdraw"): [{"number": 1}],
            ("POST", "/api/tournaments/{tournament_id}/guests"): [{"name": "Walk-in Wes", "partner": "Val"}],
            ("POST", "/api/tournaments/{tournament_id}/register"): [{"partner": "Bob"}],
            ("POST", "/api/tournaments/{tournament_id}/push"): [
                {"endpoint": "https://fcm.googleapis.com/fcm/send/x", "keys": {"p256dh": "BA", "auth": "AA"}}
            ],
            ("POST", "/api/tournaments/{tournament_id}/results"): [
                {"stage": "qualifying", "round": 1, "number": 1, "game": 1, "winner": 1, "loser_points": 90}
            ],
        }

    def path_values(self) -> dict[str, str]:
        return {
            "game_id": self.game,
            "code": self.code,
            "name": "Fuzzed",
            "pool": "short",
            "tournament_id": "t1",
        }


def operations(client: TestClient) -> list[tuple[str, str, dict[str, Any]]]:
    """Every operation of the schema: method, path, and the operation."""
    paths: dict[str, dict[str, Any]] = client.get("/openapi.json").json()["paths"]
    return [(method.upper(), path, op) for path, ops in paths.items() for method, op in ops.items()]


def texts(value: Any, where: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Where each text of a JSON value is (a path of keys and indexes)."""
    if isinstance(value, str):
        yield where
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from texts(item, (*where, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from texts(item, (*where, index))


def replaced(value: Any, where: tuple[Any, ...], new: str) -> Any:
    """``value`` with the text at ``where`` replaced by ``new``."""
    if not where:
        return new
    head, *rest = where
    if isinstance(value, dict):
        return {**value, head: replaced(value[head], tuple(rest), new)}
    return [replaced(item, tuple(rest), new) if i == head else item for i, item in enumerate(value)]


def url(path: str, values: dict[str, str]) -> str:
    """The path with its parameters, each percent-encoded (a lone surrogate as the bytes a
    client would send: not UTF-8)."""
    for name, value in values.items():
        path = path.replace("{" + name + "}", quote(value.encode("utf-8", "surrogatepass"), safe=""))
    return path


def send(client: TestClient, method: str, path: str, body: Any, token: str | None) -> Any:
    """A request; the body as JSON escaped to ASCII (a lone surrogate as ``\\ud800``)."""
    headers = {"content-type": "application/json"} if body is not None else {}
    content = None if body is None else json.dumps(body).encode()
    raw = [(b"authorization", b"Bearer " + token.encode("utf-8", "surrogatepass"))] if token else []
    return client.request(method, path, content=content, headers=[*headers.items(), *raw])


Request = tuple[str, str, str, Any, str | None, str, bool]


def requests(world: World, client: TestClient) -> Iterator[Request]:
    """Each fuzzed request: what it fuzzes, method, url, body, token, the value's name, and
    whether the value is in the JSON body."""
    bodies = world.bodies()
    for method, path, op in operations(client):
        names = [p["name"] for p in op.get("parameters", ()) if p["in"] == "path"]
        token = world.session if path.startswith(("/api/accounts", "/api/play")) else world.token
        base = world.path_values()
        for body in bodies.get((method, path), [None]):
            for kind, value in VALUES.items():
                for name in names:
                    at = url(path, {**base, name: value})
                    yield f"{method} {path} {{{name}}}", method, at, body, token, kind, False
                at = url(path, base)
                yield f"{method} {path} token", method, at, body, value, kind, False
                for where in texts(body):
                    yield (
                        f"{method} {path} {where}",
                        method,
                        at,
                        replaced(body, where, value),
                        token,
                        kind,
                        True,
                    )
        if any(p["in"] == "query" for p in op.get("parameters", ())):
            for kind, value in VALUES.items():
                query = "&".join(
                    f"{p['name']}={quote(value.encode('utf-8', 'surrogatepass'))}" for p in op["parameters"]
                )
                yield f"{method} {path} query", method, f"{url(path, base)}?{query}", None, token, kind, False


class Faults(logging.Handler):
    """Every record logged at ERROR or above, or with a traceback."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR or record.exc_info:
            self.records.append(record)


@pytest.fixture
def faults() -> Iterator[Faults]:
    handler = Faults()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)


def test_every_text_field_of_the_schema_is_fuzzed() -> None:
    """Each operation with a body has bodies here, and their texts cover every text field of
    its schema (a field of an object, an item of an array), so no field is left out."""
    with TestClient(make_app(limits=NO_LIMITS)) as client:
        world = World(client)
        schema = client.get("/openapi.json").json()
        bodies = world.bodies()
        for method, path, op in operations(client):
            content = op.get("requestBody", {}).get("content", {}).get("application/json")
            if content is None:
                continue
            assert (method, path) in bodies, f"no body to fuzz for {method} {path}"
            wanted = text_fields(content["schema"], schema["components"]["schemas"])
            covered = {
                tuple("[]" if isinstance(part, int) else part for part in where)
                for body in bodies[(method, path)]
                for where in texts(body)
            }
            assert wanted <= covered, f"{method} {path}: not fuzzed: {sorted(wanted - covered)}"


def text_fields(
    schema: dict[str, Any], components: dict[str, Any], where: tuple[str, ...] = ()
) -> set[tuple[str, ...]]:
    """Where a schema holds text: property names, ``[]`` for an array's items."""
    if "$ref" in schema:
        return text_fields(components[schema["$ref"].rsplit("/", 1)[-1]], components, where)
    found: set[tuple[str, ...]] = set()
    for option in schema.get("anyOf", ()):
        found |= text_fields(option, components, where)
    if schema.get("type") == "string":
        found.add(where)
    if schema.get("type") == "array" and "items" in schema:
        found |= text_fields(schema["items"], components, (*where, "[]"))
    for name, prop in schema.get("properties", {}).items():
        found |= text_fields(prop, components, (*where, name))
    return found


def test_no_text_of_any_request_makes_a_server_error(database: str, faults: Faults) -> None:
    """Every request on SQLite; on PostgreSQL, those whose text reaches the database: what no
    database stores is refused at the edge, before any route, whatever the database (checked on
    SQLite), so PostgreSQL would only see those refusals again (469 of 1,072 requests)."""
    app = make_app(database, limits=NO_LIMITS, computer="weak")
    reaching = database.startswith("postgresql")
    count = 0
    with TestClient(app, raise_server_exceptions=False) as client:
        world = World(client)
        for what, method, at, body, token, kind, in_json in requests(world, client):
            if reaching and unstorable(kind, in_json):
                continue
            answer = send(client, method, at, body, token)
            count += 1
            assert answer.status_code < 500, f"{what} with {kind}: {answer.status_code} {answer.text[:300]}"
            if unstorable(kind, in_json):
                assert answer.json().get("code") == "bad_text", f"{what} with {kind}: {answer.text[:300]}"
    assert count > (550 if reaching else 900)  # every operation, each of its texts, each value
    assert not faults.records, [record.getMessage() for record in faults.records]


def socket_messages(world: World) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Each fuzzed live message: what it fuzzes, the value's name, the message."""
    for kind, value in VALUES.items():
        yield "chat text", kind, {"type": "chat", "text": value}
        yield "chat phrase", kind, {"type": "chat", "phrase": value}
        yield "report", kind, {"type": "report", "message": value}
        yield "seen", kind, {"type": "seen", "version": value}
        yield "type", kind, {"type": value}
        yield (
            "ref",
            kind,
            {"type": "action", "ref": value, "action": {"type": "discard", "cards": ["5H", "6H"]}},
        )
        yield "card", kind, {"type": "action", "action": {"type": "play", "card": value}}
        yield "cards", kind, {"type": "action", "action": {"type": "discard", "cards": [value, "6H"]}}
        yield "action type", kind, {"type": "action", "action": {"type": value}}
        yield "key", kind, {"type": "action", value: 1, "action": {"type": value}}


def test_no_text_of_any_live_message_makes_a_fault(database: str, faults: Faults) -> None:
    app = make_app(database, limits=NO_LIMITS, computer="weak")
    with TestClient(app, raise_server_exceptions=False) as client:
        world = World(client)
        for value in VALUES.values():  # the first message
            for first in ({"token": value}, {"watch": value}):
                with client.websocket_connect(f"/api/games/{world.game}/live") as ws:
                    ws.send_text(json.dumps(first))
                    refused = receive(ws)
                    assert refused["type"] == "error" and refused["code"] in (
                        "bad_first_message",
                        "unauthorized",
                        "no_watch_code",
                        "too_large",
                    ), (first, refused)
        for what, kind, message in socket_messages(world):
            text = json.dumps(message)
            with client.websocket_connect(f"/api/games/{world.game}/live") as ws:
                ws.send_text(json.dumps({"token": world.token}))
                while receive(ws)["type"] != "state":
                    pass
                ws.send_text(text)
                ws.send_text(json.dumps({"type": "nothing"}))  # answered bad_message: the socket still serves
                try:
                    seen = [receive(ws)]
                    while seen[-1].get("code") != "bad_message":
                        seen.append(receive(ws))
                except WebSocketDisconnect as closed:  # by design: a message over the socket's size
                    assert len(text.encode()) > 4096 and closed.code == 1009, (what, kind, closed)
                    continue
            assert all(answer.get("status", 0) < 500 for answer in seen), (what, kind, seen)
            if kind in UNSTORABLE:
                assert seen[0]["code"] == "bad_text", (what, kind, seen)
    assert not faults.records, [record.getMessage() for record in faults.records]
