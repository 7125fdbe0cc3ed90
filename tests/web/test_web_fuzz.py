"""The schema and the server agree (issue 17, item 5): schemathesis runs every check it has over
every operation of ``/openapi.json``, and the issue's measured mismatches each have a plain test.

Schemathesis generates valid and invalid requests for every operation (its examples, coverage
and fuzzing phases) and runs all its checks on each answer: no server error, only declared
statuses, content types, headers and bodies (every refusal is an ``ErrorBody``), invalid data
refused, valid data accepted, and authentication enforced (``ignored_auth``).  Then
:class:`Workflow` follows the schema's links (a new game or a joined seat, then its state, a
hint, the record...) with each game's token; no link sends an action (an action is made from a
template of the state's ``actions``), so the actions of real games come from :func:`real_game`.
The stateful checks that look for deleted resources (``use_after_free``,
``ensure_resource_availability``) need a ``DELETE``, which this API does not have.

Valid data may still be refused by a rule of ``docs/api.md`` that a JSON schema cannot state
(``muggins`` needs ``manual``, a hand of cards that are not cards, a seed with several people):
that is a 422 from the service, never one from the request validation.  So the 422s of valid
data are allowed, and :func:`valid_data_passes_validation` checks that none of them comes from
the validation: what the schema admits, the validation admits.

Half of the valid requests on a game use a real game with its real token, so the checks reach
the engine and not only the 404 and 401 answers; one of the real games is over (its record, no
hint).  Everything is derandomized (the requests, and the games, which are seeded): the same run
every time.

Each operation gets :data:`MAX_EXAMPLES` generated requests besides schemathesis's examples and
its coverage cases (the boundaries of every field, sent whatever the number).  Measured over the
whole schema, 50 meet every status of every operation that 200 met but one, an action sent for
another seat (403: tests/web/test_web_tables.py sends them), at a quarter of the CPU (about 35
CPU-s instead of 140); what text no database stores (``bad_text``) is sent to every text field by
tests/web/test_web_text_fuzz.py.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
import schemathesis
from fastapi.exceptions import RequestValidationError
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from starlette.requests import Request
from starlette.responses import Response

import cribbage.app.games.live_game as service_module
from cribbage.web.models import SEED_MAX
from cribbage.web.ratelimits import NO_LIMITS
from web_fixtures import actions_of, make_client, new_game

MAX_EXAMPLES = 50

# Thousands of requests from one address, many with wrong tokens: no abuse limit applies here
# (tests/web/test_web_limits.py tests them).
client: TestClient = make_client(limits=NO_LIMITS)

# What the request validation refused, request by request (the check below reads it).
_validation_refusals: list[str] = []
_handler: Callable[[Request, Exception], Coroutine[Any, Any, Response]] = client.app.exception_handlers[  # type: ignore[attr-defined]
    RequestValidationError
]


async def _noting_handler(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    _validation_refusals.append(json.dumps(exc.errors(), default=str)[:500])
    return await _handler(request, exc)


client.app.exception_handlers[RequestValidationError] = _noting_handler  # type: ignore[attr-defined]

schema = schemathesis.openapi.from_asgi("/openapi.json", client.app)
schema.config.generation.update(max_examples=MAX_EXAMPLES)
# Valid data may be refused by a documented rule (422, or 400 for an action the rules refuse now):
# the check below tells those from a disagreement of the schema and the validation.
schema.config.checks.positive_data_acceptance.expected_statuses = [
    "2xx", "400", "401", "403", "404", "409", "422", "429"
]  # fmt: skip

_games: list[tuple[str, str]] = []
_finished: list[tuple[str, str]] = []
_rng = random.Random(0)


def finished_game() -> tuple[str, str]:
    """A game played to its end (the person's first legal action each time): its id and token."""
    game_id, token, state = new_game(client, variant="short", seed=1)
    while not state["over"]:
        answer = client.post(
            f"/api/games/{game_id}/actions",
            json=actions_of(state)[0],
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 200, answer.text
        state = answer.json()
    return game_id, token


def real_game() -> tuple[str, str]:
    """A game in progress (a fresh one now and then, so some are in the play and the show), or
    one time in five the game that is over."""
    if not _finished:
        _finished.append(finished_game())
    if _rng.random() < 0.2:
        return _finished[0]
    if not _games or _rng.random() < 0.1:
        game_id, token, state = new_game(client, manual=True, muggins=True, seed=len(_games))
        for _ in range(_rng.randrange(12)):  # move it on a little
            if state["over"]:
                break
            answer = client.post(
                f"/api/games/{game_id}/actions",
                json=_rng.choice(actions_of(state)),
                headers={"Authorization": f"Bearer {token}"},
            )
            state = answer.json()
        _games.append((game_id, token))
    return _rng.choice(_games)


def valid_data_passes_validation(ctx: Any, response: Any, case: Any) -> bool | None:
    """A request the schema admits is never refused by the request validation (only, maybe, by
    a rule of docs/api.md)."""
    meta = case.meta
    if meta is not None and meta.generation.mode.is_positive and _validation_refusals:
        raise AssertionError(f"valid data refused by the validation: {_validation_refusals[-1]}")
    return None


def _positive(case: Any) -> bool:
    return case.meta is None or case.meta.generation.mode.is_positive


@pytest.mark.slow
@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
    database=None,  # the same requests every run, whatever an earlier run found
)
def test_the_schema_and_the_server_agree(case: Any) -> None:
    if "game_id" in (case.path_parameters or {}) and _positive(case) and _rng.random() < 0.5:
        game_id, token = real_game()
        case.path_parameters["game_id"] = game_id
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
    _validation_refusals.clear()
    case.call_and_validate(additional_checks=[valid_data_passes_validation])


# --------------------------------------------------------------------------- stateful

# The tokens of the games the workflows made: a game's token goes with every request on it, as
# a client would send it (a link carries the game's id; the token is a credential, not a link).
_tokens: dict[str, str] = {}


# The accounts' operations stay out of the workflows: a name taken by an earlier sequence (the
# accounts outlive each sequence) would make the same choices lead to other answers and links.
# Every operation, those included, is fuzzed on its own above.
_game_operations = schema.exclude(path_regex=r"^/api/(accounts|play)")


class Workflow(_game_operations.as_state_machine()):  # type: ignore[misc]
    """Sequences of requests along the schema's links: create a game (or join a table), then ask
    for its state, ask for a hint or the record, and so on.

    Hypothesis requires the same choices to lead to the same requests; here the requests follow
    the answers (a game's id and cards), so an unseeded game's cards, which the server draws
    from the operating system, are drawn from a fixed seed during each sequence instead."""

    def setup(self) -> None:
        super().setup()
        self._system_random = service_module.secrets.SystemRandom
        service_module.secrets.SystemRandom = lambda: random.Random(0)  # type: ignore[assignment,misc,method-assign]

    def teardown(self) -> None:
        service_module.secrets.SystemRandom = self._system_random  # type: ignore[method-assign,misc]
        super().teardown()

    def before_call(self, case: Any) -> None:
        game_id = (case.path_parameters or {}).get("game_id")
        if game_id in _tokens and _positive(case):
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {_tokens[game_id]}"}
        _validation_refusals.clear()

    def after_call(self, response: Any, case: Any) -> None:
        super().after_call(response, case)
        if response.status_code == 201:
            body = response.json()
            _tokens[body["id"]] = body["token"]

    def validate_response(
        self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any
    ) -> None:
        super().validate_response(
            response, case, [*(additional_checks or []), valid_data_passes_validation], **kwargs
        )


TestWorkflows = Workflow.TestCase
TestWorkflows.settings = settings(
    # 30 sequences meet each status of each operation that 60 met (twelve), at half the CPU.
    max_examples=30,
    stateful_step_count=10,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
    database=None,
)
TestWorkflows = pytest.mark.slow(TestWorkflows)


# --------------------------------------------------------------------------- the cases


def _post(path: str, body: bytes) -> Any:
    return client.post(path, content=body, headers={"content-type": "application/json"})


def test_an_integral_float_is_an_integer() -> None:
    """``278.0`` is an integer in JSON Schema: the seed is 278, the same game as ``278``."""
    answer = client.post("/api/games", json={"seed": 278.0, "level": "weak"})
    assert answer.status_code == 201, answer.text
    same = client.post("/api/games", json={"seed": 278, "level": "weak"}).json()
    assert answer.json()["state"]["view"]["hand"] == same["state"]["view"]["hand"]
    for bad in (278.5, "278", True):
        refused = client.post("/api/games", json={"seed": bad})
        assert refused.status_code == 422 and refused.json()["error"].startswith("seed:"), refused.text


def test_the_seed_bounds_are_exact() -> None:
    """The schema states the seed's real maximum, 2⁶³−1 (not 2⁶³ printed as a float)."""
    document = client.get("/openapi.json")
    assert '"maximum":9223372036854775807' in document.text.replace(" ", "")
    assert "e+18" not in document.text
    seed = document.json()["components"]["schemas"]["NewGame"]["properties"]["seed"]["anyOf"][0]
    assert (seed["minimum"], seed["maximum"]) == (0, SEED_MAX) == (0, 2**63 - 1)
    assert client.post("/api/games", json={"seed": SEED_MAX, "level": "weak"}).status_code == 201
    over = client.post("/api/games", json={"seed": SEED_MAX + 1})
    assert over.status_code == 422 and over.json()["error"].startswith("seed:"), over.text


def test_peg_without_cards_is_refused_as_the_schema_says() -> None:
    """``{"cards": []}`` is outside the schema (``minItems`` 1) and refused with its own code."""
    cards = client.get("/openapi.json").json()["components"]["schemas"]["PegBody"]["properties"]["cards"]
    assert cards["minItems"] == 1
    answer = client.post("/api/peg", json={"cards": []})
    assert answer.status_code == 422
    assert answer.json() == {"error": "cards: no card played", "code": "no_cards", "field": "cards"}


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b'{"cards": [' + b"7" * 5000 + b"]}", "a number of more than 4300 digits"),
        (b"[" * 30_000 + b"]" * 30_000, "nested too deeply"),
        (b'{"cards": ["5\xff"]}', "invalid UTF-8 at byte 13"),
        (b'{"cards": [NaN]}', "NaN is not a JSON number"),
        (b'{"cards": ["5H"', "Expecting"),
    ],
    ids=["5000 digits", "nesting 30000 deep", "invalid UTF-8", "NaN", "cut short"],
)
def test_a_body_that_is_not_json_gets_the_documented_422(body: bytes, problem: str) -> None:
    for path in ("/api/peg", "/api/games", "/api/join"):
        answer = _post(path, body)
        assert answer.status_code == 422, (path, answer.text)
        error = answer.json()["error"]
        assert error.startswith("the body is not valid JSON: ") and problem in error, (path, error)
    coded = _post("/api/peg", body).json()
    assert (coded["code"], coded["field"]) == ("bad_request", "")


def test_every_refusal_is_declared_with_the_error_body() -> None:
    """The statuses each operation can answer are in its responses, each an ``ErrorBody``; a
    429 declares its ``Retry-After``."""
    paths = client.get("/openapi.json").json()["paths"]
    limited = {
        ("post", "/api/games"), ("post", "/api/join"), ("post", "/api/score"), ("post", "/api/peg"),
        ("get", "/api/games/{game_id}"), ("post", "/api/games/{game_id}/actions"),
        ("get", "/api/games/{game_id}/hint"), ("get", "/api/games/{game_id}/record"),
    }  # fmt: skip
    for method, path in limited:
        responses = paths[path][method]["responses"]
        assert responses["429"]["headers"]["Retry-After"]["required"] is True, (method, path)
        assert ("422" in responses and "413" in responses) or method == "get", (method, path)
        for status, response in responses.items():
            if status.startswith("4"):
                schema_ref = response["content"]["application/json"]["schema"]["$ref"]
                assert schema_ref == "#/components/schemas/ErrorBody", (method, path, status)
    actions = paths["/api/games/{game_id}/actions"]["post"]["responses"]
    assert {"400", "401", "403", "404", "409", "413", "422", "429"} <= set(actions)
