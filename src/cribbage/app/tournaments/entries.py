"""Who is entered in a tournament, and how (docs/tournaments.md, "Online and at the club"): an
account registers, alone or, in a team event, naming its partner, who accepts (or, declining,
withdraws the team); a team checks in once its partner has accepted; at a club the director
enters guests by name (a team as two names).  Each function works on a tournament held in its
transaction (:class:`~cribbage.storage.tournaments.TournamentTx`), writing only once every check
has passed.
"""

from __future__ import annotations

from ...storage import StoredAccount
from ...storage.tournaments import StoredEntrant, StoredTournament, TournamentTx
from ..errors import AppError
from ..people.names import check_name, name_key
from .progress import REGISTRATION, stored_settings

__all__ = ["enter_account", "enter_guest", "entry_of", "mark_checked_in", "partner_accepts"]


def entry_of(stored: StoredTournament, account_id: str) -> StoredEntrant | None:
    """The entry ``account_id`` plays for (as its first player or a partner), or None."""
    return next((e for e in stored.entrants if e.has(account_id)), None)


def _open(stored: StoredTournament) -> None:
    if stored.stage != REGISTRATION:
        raise AppError("tournament.started", "the tournament has started: registration is closed")


def _room(stored: StoredTournament) -> None:
    limit = stored_settings(stored).limit
    if len(stored.entrants) >= limit:
        raise AppError("tournament.full", f"the tournament is full ({limit} entrants)", most=limit)


def enter_account(tx: TournamentTx, account: StoredAccount, partner: StoredAccount | None) -> int:
    """Enter ``account`` (not yet checked in), in a team event with ``partner`` (who must
    accept): the entrant's number.

    Raises:
        AppError: ``tournament.started``, ``tournament.registered`` (the account, or the partner,
            is entered already), ``tournament.full``, ``invalid`` (field ``partner``: a team
            event's registration names a partner other than yourself, a singles event's none).
    """
    stored = tx.tournament
    _open(stored)
    if entry_of(stored, account.id) is not None:
        raise AppError("tournament.registered", "you are entered already")
    teams = stored_settings(stored).teams
    if teams and partner is None:
        raise AppError("invalid", "a team event's entry names your partner", field="partner")
    if not teams and partner is not None:
        raise AppError("invalid", "this event is for single players: no partner", field="partner")
    if partner is not None and partner.id == account.id:
        raise AppError("invalid", "your partner is another player", field="partner")
    if partner is not None and entry_of(stored, partner.id) is not None:
        raise AppError(
            "tournament.registered", f"{partner.name} is entered already", field="partner", name=partner.name
        )
    _room(stored)
    team = None if partner is None else (partner.id, partner.name)
    return tx.add_entrant(account.id, account.name, partner=team)


def partner_accepts(tx: TournamentTx, account: StoredAccount) -> int:
    """The account, named as a team's partner, accepts: the team's number.

    Raises:
        AppError: ``tournament.started``, ``tournament.no_invitation`` (no team names the
            account as a partner still to accept).
    """
    stored = tx.tournament
    _open(stored)
    entry = next((e for e in stored.entrants if e.partner_id == account.id and not e.partner_accepted), None)
    if entry is None:
        raise AppError("tournament.no_invitation", "no team of this tournament waits for you as a partner")
    tx.set_entrant(entry.number, partner_accepted=True)
    return entry.number


def enter_guest(tx: TournamentTx, name: object, partner: object) -> int:
    """A guest (a club's tournament) entered by name, checked in; in a team event with the
    partner's name too: the entrant's number.

    Raises:
        AppError: ``tournament.guest_online``, ``tournament.started``, ``tournament.full``,
            ``invalid`` (a name; ``partner`` missing in a team event, given in a singles one).
    """
    stored = tx.tournament
    guest = check_name(name, code="invalid", field="name")
    settings = stored_settings(stored)
    if settings.venue != "club":
        raise AppError("tournament.guest_online", "guests play at a club's real boards only")
    if settings.teams != (partner is not None):
        wanted = "a team event's guests are two: name the partner" if settings.teams else "no partner"
        raise AppError("invalid", wanted, field="partner")
    second = None if partner is None else check_name(partner, code="invalid", field="partner")
    if second is not None and name_key(second) == name_key(guest):
        raise AppError("invalid", "the partner is another player", field="partner")
    _open(stored)
    _room(stored)
    team = None if second is None else (None, second)
    return tx.add_entrant(None, guest, checked_in=True, partner=team, partner_accepted=True)


def mark_checked_in(tx: TournamentTx, number: int) -> None:
    """Check in entrant ``number``.

    Raises:
        AppError: ``tournament.started``, ``tournament.partner_pending`` (a team whose partner
            has not accepted).
    """
    stored = tx.tournament
    _open(stored)
    entry = next(e for e in stored.entrants if e.number == number)
    if entry.partner_name is not None and not entry.partner_accepted:
        raise AppError(
            "tournament.partner_pending",
            f"{entry.partner_name} has not accepted the partnership yet",
            number=number,
            name=entry.partner_name,
        )
    tx.set_entrant(number, checked_in=True)
