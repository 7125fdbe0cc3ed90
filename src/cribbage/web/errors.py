"""The one table from a refusal's code to its HTTP status (and the ``status`` of a socket error).

Every refusal the API sends carries ``error`` (an English line) and ``code`` (a stable name,
``docs/api.md``, "Errors"); the application (:class:`~cribbage.app.errors.AppError`) and the
engine choose the code, and this table alone chooses the status: the exact code first, then the
part before its first dot (``illegal.card`` → ``illegal``).
"""

from __future__ import annotations

from typing import Final

from sqlalchemy.exc import InterfaceError, OperationalError

__all__ = ["DATABASE_ERRORS", "STATUS", "status_of"]

DATABASE_ERRORS: Final = (OperationalError, InterfaceError)
"""What the database raises when it does not answer (restarting, unreachable): answered
``database_unavailable`` (HTTP's 503), and the client may try again."""

STATUS: Final[dict[str, int]] = {
    # the engine's refusals, met in a request
    "illegal": 422,  # illegal.card, illegal.rules: a request that cannot be read
    "illegal.action": 400,  # an action the rules refuse now (another seat's turn, a card not held)
    "illegal.muggins": 400,  # a muggins call or pass that may not be made now
    "bad_record": 422,
    # the application's
    "not_found": 404,
    "no_invitation": 404,
    "no_watch_code": 404,
    "unauthorized": 401,
    "forbidden": 403,
    "stale": 409,
    "seat_taken": 409,
    "seat_online": 409,
    "seat_arriving": 409,  # a rematch's person may still be on the way from the game before
    "seat_not_away": 409,  # a correspondence table: the person's clock has not run out
    "table_waiting": 409,
    "game_over": 409,
    "not_over": 409,
    "no_hint": 409,
    "invalid": 422,
    "bad_name": 422,  # a name at a table the rule of names refuses (docs/api.md, "Names")
    "corrupt_record": 500,
    "computer_unavailable": 503,
    # the queue of "Play now" (cribbage.app.playnow.matchmaking, cribbage.web.messaging.queue)
    "queue.already_waiting": 409,
    "queue.match_waiting": 409,
    "queue.unknown_pool": 404,
    "queue.bad_player": 422,
    "queue.bad_rating": 422,
    "queue.unavailable": 503,
    "play.bad_first_to": 422,  # POST /api/play: first_to out of bounds
    "play.not_waiting": 404,  # GET /api/play: neither waiting nor paired
    "play.match_failed": 503,  # the game of a match was not created: play again
    # the accounts' (docs/api.md, "Accounts")
    "account.bad_name": 422,
    "account.bad_password": 422,
    "account.name_taken": 409,
    "account.bad_credentials": 401,
    "account.bad_session": 401,
    "account.seat_claimed": 409,
    "passkey.malformed": 422,  # passkeys (WebAuthn): not a credential's JSON
    "passkey.bad_ceremony": 400,  # unknown, finished already, expired, or another step's
    "passkey.rejected": 401,  # the signature, challenge, origin, counter or user verification
    "passkey.unknown": 401,  # no account has this passkey
    "passkey.taken": 409,
    "passkey.too_many": 409,
    "push.bad_subscription": 422,  # Web Push: not a browser's subscription
    "push.bad_endpoint": 422,  # Web Push: not at a push service this server sends to (a reason)
    "push.not_correspondence": 409,  # Web Push: only at tables with a clock of an hour or more
    # tournaments (docs/api.md, "Tournaments")
    "tournament.not_found": 404,
    "tournament.not_director": 403,  # only the director may do this
    "tournament.started": 409,  # registration is closed
    "tournament.full": 409,
    "tournament.registered": 409,  # entered already
    "tournament.not_entered": 404,
    "tournament.too_few": 409,  # fewer than two checked in at the start
    "tournament.too_many_games": 409,  # more games than the field plays without a third meeting
    "tournament.withdrawn": 409,
    "tournament.finished": 409,
    "tournament.guest_online": 409,  # guests by name play at a club's boards only
    "tournament.no_table": 404,
    "tournament.online_table": 409,  # an online table is decided by its game
    "tournament.decided": 409,
    "tournament.not_your_table": 403,
    "tournament.entered": 409,  # your result for the table is entered already
    "tournament.invalid": 422,  # the rules refuse it (cribbage.tournament's errors)
    "tournament.no_invitation": 404,  # no team names the account as a partner still to accept
    "tournament.partner_pending": 409,  # a team checks in once its partner has accepted
    "tournament.game_not_over": 409,  # a game's record is read once it is over
    # the players' ratings (docs/api.md, "Players and ratings")
    "player.not_found": 404,
    "ratings.unknown_pool": 404,
    # the edge's
    "too_many": 429,
    "limits_unavailable": 503,
    "database_unavailable": 503,
    "busy": 503,
    "bad_request": 422,
    "bad_text": 422,  # a NUL character or a lone surrogate in a request (middleware.storable_request)
    "too_large": 413,
    "too_slow": 408,
    "internal": 500,
    # the scoring endpoints' and the trainers' (a visitor typed the cards)
    "card_invalid": 422,
    "card_duplicate": 422,
    "card_count": 422,
    "starter_missing": 422,
    "no_cards": 422,
    "count_over_31": 422,
    "bad_variant": 422,
    "bad_seed": 422,
    "bad_scores": 422,
    "throw_count": 422,
    "card_not_held": 422,
    "card_twice": 422,
    "card_not_playable": 422,
    "bad_loss": 422,
    # the live socket's own (docs/api.md, "Live updates")
    "bad_first_message": 400,
    "bad_protocol": 400,  # the first message names a version of the messages not spoken here
    "binary_message": 400,
    "bad_json": 400,
    "bad_message": 400,
    "bad_ref": 400,
    "bad_action": 400,
    "spectator_cannot_act": 403,
    # the chat at the table's (docs/api.md, "Chat")
    "chat": 422,  # chat.empty, chat.too_long, chat.bad_text, chat.bad_phrase, chat.bad_message
    "chat.spectator": 403,
    "chat.computer_table": 403,
    "chat.no_message": 404,
}
"""Each code's HTTP status."""


def status_of(code: str) -> int:
    """The HTTP status of a code: its own, else its family's (the part before the first dot),
    else 500 (a code nobody listed is the server's fault).

    >>> status_of("illegal.card"), status_of("stale"), status_of("no.such.code")
    (422, 409, 500)
    """
    found = STATUS.get(code)
    if found is None:
        found = STATUS.get(code.partition(".")[0], 500)
    return found
