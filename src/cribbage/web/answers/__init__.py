"""What the JSON API answers, as ``/openapi.json`` states it (docs/api.md has every field), by
resource: :mod:`.games` (a seat's and a spectator's state, a hint), :mod:`.tables` (creating,
joining, the lobby, leaving, playing again, watching), :mod:`.rules` (the rules' facts, the
lists of ``/api/meta``, the scoring tools) and :mod:`.study` (the trainers), on :mod:`.base`.
The accounts', players' and Play now's answers are beside their routes, in
:mod:`cribbage.web.routers`.

The service builds its answers as plain JSON (dicts, made by the engine's and the service's
``to_json``); these models are the types of what it sends.  They are not checked on every
request (that would cost CPU on every action): the fuzz test (tests/web/test_web_fuzz.py) checks
every answer against them, and tests/web/test_web_answers.py checks real states of every phase.
A key that is sometimes left out has a default (``None``); a key always sent, even as null, has
none (the schema lists it as required).
"""
