// @ts-check
// The game page's words for what the store holds: seats, sides, hands and cribs, results, whose
// turn it is, in the player's language (i18n.js).

import { comboLine, seatLabel, t } from '../shared/i18n.js';
import { awaited } from './yourturn.js';
import { S, defaultLevel, isMine, mySide, partners, players, rules, seatOfSide, sidePlaces, spectating } from './store.js';

/** A seat (as the server numbers it, as every seat is): "You", else its one name (seatLabel,
 * i18n.js), the same in every panel whoever sits at the table and after a computer takes a seat.
 * @param {number} seat
 */
export function tableSeatName(seat, st = S.state) {
  if (isMine(seat)) return t('you');
  const info = st && (st.seats || [])[seat];
  if (!info) return t('playerN', { n: seat + 1 });
  return seatLabel({ ...info, name: info.name || (st && st.names || [])[seat] }, players());
}

/** A seat's name at the table: "You" for the page's own. @param {number} seat */
export function seatName(seat) {
  return tableSeatName(seat);
}
/** A side's name: partners are "Us" (the page's own side) and "Them", to a spectator the names
 * of both (as on the review page); one seat is its name. @param {number} side */
export function sideName(side) {
  if (partners() && !spectating()) return side === mySide() ? t('usTeam') : t('themTeam');
  if (partners()) return rules().seat_sides.flatMap((/** @type {number} */ s, /** @type {number} */ seat) => (s === side ? [seatName(seat)] : [])).join(' & ');
  return seatName(seatOfSide(side));
}
/** Whose hand or crib it is ("Your crib", "Aiko's hand"). @param {number} seat @param {string} what */
export function whose(seat, what) {
  if (isMine(seat)) return t(what === 'crib' ? 'yourCrib' : 'yourHand');
  return t(what === 'crib' ? 'cribOf' : 'handOf', { name: seatName(seat) });
}
/** @param {string} name */
export function variantLabel(name) {
  return t(`variant.${name}`);
}
/** A computer level's name ("Strong computer"); none given: the server's default level's. @param {string | null | undefined} level */
export function levelLabel(level) {
  return t(`level.${level || defaultLevel()}`);
}

/** How a table counts ({manual, muggins, muggins_play} of its options), said of every player. @param {Record<string, any>} o */
export function countingText(o) {
  const how = !o.manual ? 'auto' : o.muggins_play ? 'mugginsPlay' : o.muggins ? 'muggins' : 'manual';
  return t(`counted.${how}`);
}

/** @param {Record<string, any>} ev */
export function scoreText(ev) {
  const combos = ev.combos && ev.combos.length ? ev.combos : [{ kind: ev.detail, cards: ev.cards || [], points: ev.points }];
  return combos.map((/** @type {{kind: string, points: number, cards: string[]}} */ c) => comboLine(c.kind, c.points, c.cards.length)).join(t('listSep'));
}

// ------------------------------------------------------------------ results and statistics

/** @param {Record<string, any> | null | undefined} r */
export function resultHeadline(r) {
  if (!r) return '';
  const won = !spectating() && r.winner === mySide();
  const name = sideName(r.winner);
  let text = won ? t('youWin') : t('sideWins', { name });
  if (r.skunk === 2) text += ` — ${t('doubleSkunk')}`;
  else if (r.skunk === 1) text += ` — ${t('skunk')}`;
  return text;
}

/** A STATE's `match` (docs/api.md, "Play now"): null for a game on its own.
 * @typedef {{ first_to: number, number: number, wins: number[], over: boolean, winner: number | null }} MatchScore
 */

/** The running score of a match of Play now, the page's own side first ("Match 1–0 (first to
 * 2)"); '' for a game on its own.  A side's wins are its first seat's (partners win together).
 * @param {MatchScore | null | undefined} match the STATE's `match`
 */
export function matchScore(match = S.state && S.state.match) {
  if (!match) return '';
  const score = sidePlaces().map(([, side]) => String(match.wins[seatOfSide(side)] ?? 0)).join('–');
  return t('match.score', { score, n: match.first_to });
}

/** Who won the match, once it is over ("You win the match!"); '' before, or for a game on its own.
 * @param {MatchScore | null | undefined} match the STATE's `match`
 */
export function matchOutcome(match = S.state && S.state.match) {
  if (!match || !match.over || match.winner === null || match.winner === undefined) return '';
  if (!spectating() && match.winner === mySide()) return t('match.youWin');
  return t('match.sideWins', { name: sideName(match.winner) });
}

/** The seat's status line: whom the table waits for (awaited, yourturn.js); "Your turn" only
 * once the page shows the decision, not while it replays the steps before it. */
export function waitingText() {
  const what = awaited(S.state, S.busy);
  if (!what) return '';
  const names = (/** @type {(seat: number) => string} */ word) => what.seats.map(word).join(t('listSep'));
  if (what.wait === 'join') return t('waitingJoin', { names: names((s) => t('seatN', { n: s + 1 })) });
  if (what.wait === 'you') return t('yourTurn');
  if (what.wait === 'muggins') return t('waitingMuggins', { names: names(seatName) });
  return t('waitingFor', { name: seatName(what.seats[0]) });
}
