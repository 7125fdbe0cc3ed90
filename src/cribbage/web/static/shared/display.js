// @ts-check
// The display model: what the table shows (D), made from a view of the server, and what each
// step of the replay does to it: the public table after the step comes with it (its `after`,
// docs/api.md), the page's own cards from the view.  The page computes no rule.  And where a seat
// or a side is drawn (placeOf): the model keeps the server's seat numbers, the views turn them
// round.  Pure functions, no DOM (tests/js): the replay (replay.js) times, announces and draws
// each step.

import { sortCards } from './cards.js';
import { EV } from './codes.js';
import { showLines } from './i18n.js';

/**
 * @typedef {{card: string, seat: number | null}} Placed
 * @typedef {{
 *   phase: string, dealer: number | null, scores: number[], prev: number[], starter: string | null,
 *   count: number, sequence: Placed[], played: Placed[], held: number[], hand: string[],
 *   kept: string[], discards: string[], handNumber: number, cribCards: string[] | null, crib: number,
 * }} Display
 * @typedef {{
 *   ph: string, d: number | null, h: number, st?: string, c: number, pl: [number, string][],
 *   run: number, held: number[], crib: number, prev: number[],
 * }} Snapshot  the public table after a step (docs/api.md)
 * @typedef {Record<string, any>} View  a STATE's view (docs/api.md)
 * @typedef {Record<string, any>} Event  one of a STATE's events (docs/api.md)
 */

// ------------------------------------------------------------------ places on screen

/**
 * Where a seat (or a side) is drawn: its place counted round the table from the page's own, which
 * is place 0 at the bottom (a spectator's is seat 0), the others in the order of play.  Every
 * number the page keeps is the server's; only the views place them.
 * @param {number} seat  a seat (or a side), as the server numbers it
 * @param {number} own  the page's own seat (or side)
 * @param {number} n  how many seats (or sides) the table has
 */
export function placeOf(seat, own, n) {
  return (((seat - own) % n) + n) % n;
}

/**
 * The seat (or side) drawn at a place: placeOf's inverse.
 * @param {number} place
 * @param {number} own  the page's own seat (or side)
 * @param {number} n  how many seats (or sides) the table has
 */
export function atPlace(place, own, n) {
  return (place + own) % n;
}

/**
 * The places of a table: [place, seat (or side)] from the page's own (place 0) round the table.
 * @param {number} own  the page's own seat (or side)
 * @param {number} n  how many seats (or sides) the table has
 * @returns {[number, number][]}
 */
export function places(own, n) {
  return Array.from({ length: n }, (_, place) => [place, atPlace(place, own, n)]);
}

/**
 * A list by seat (or side) in the order of the places: the page's own first.
 * @template T
 * @param {readonly T[]} list
 * @param {number} own  the page's own seat (or side)
 * @returns {T[]}
 */
export function inPlaceOrder(list, own) {
  return list.map((_, place) => list[atPlace(place, own, list.length)]);
}

/**
 * The colour of a place, as the page's CSS names it (--side-0 for the page's own side).
 * @param {number} place
 */
export function placeColor(place) {
  return `var(--side-${place})`;
}

// ------------------------------------------------------------------ the display model

/**
 * What the table shows of a view; crib: the crib's number of cards (cribAfter: a face-down crib
 * is in no view).
 * @param {View} v
 * @param {number | null} [crib]
 * @returns {Display}
 */
export function dispFromView(v, crib = null) {
  return {
    phase: v.phase,
    dealer: v.dealer,
    scores: [...v.scores],
    prev: [...v.previous_scores],
    starter: v.starter,
    count: v.count,
    sequence: v.sequence.map((/** @type {string} */ card, /** @type {number} */ i) => ({ card, seat: seatOfSequence(v, i) })),
    played: v.played.map((/** @type {Placed} */ p) => ({ ...p })),
    held: [...v.held],
    hand: [...v.hand],
    kept: [...v.kept],
    discards: [...v.discards],
    handNumber: v.hand_number,
    cribCards: cribFromView(v),
    crib: crib ?? (v.crib || []).length,
  };
}

/**
 * The public table after a step as the display's fields (but the scores: scoresAfter).
 * @param {Snapshot} a
 */
function fromSnapshot(a) {
  const played = a.pl.map(([seat, card]) => ({ card, seat }));
  return {
    phase: a.ph, dealer: a.d, handNumber: a.h, starter: a.st ?? null, count: a.c,
    played, sequence: played.slice(played.length - a.run), held: [...a.held], crib: a.crib,
  };
}

/**
 * The table of a new game before its first event: no points, no cards (the replay deals them).
 * @param {View} v
 * @returns {Display}
 */
export function emptyDisplay(v) {
  const zeros = v.scores.map(() => 0);
  const empty = { ...v, scores: zeros, previous_scores: zeros, starter: null, played: [], sequence: [], count: 0 };
  return { ...dispFromView(empty, 0), held: v.held.map(() => 0), hand: [], kept: [] };
}

/**
 * How many cards lie in the crib after a state's steps: as the last one says, else as D shows.
 * @param {Event[] | undefined} events
 * @param {Display | null} D
 * @returns {number | null}
 */
export function cribAfter(events, D) {
  const last = events && events.length ? events[events.length - 1] : null;
  return last && last.after ? last.after.crib : D ? D.crib : null;
}

/**
 * The seat that played the i-th card of the count now.
 * @param {View} v
 * @param {number} i
 */
function seatOfSequence(v, i) {
  const offset = v.played.length - v.sequence.length;
  const p = v.played[offset + i];
  return p ? p.seat : null;
}

/**
 * The crib's cards once shown, else null.
 * @param {View} v
 * @returns {string[] | null}
 */
function cribFromView(v) {
  const shown = (v.shown || []).find((/** @type {{what: string}} */ s) => s.what === 'crib');
  return shown ? [...shown.cards] : null;
}

/**
 * How many cards lie in the crib (face down until it is shown).
 * @param {Display} D
 */
export function cribCount(D) {
  return D.cribCards ? D.cribCards.length : D.crib;
}

/**
 * The cards of the player's hand on the table, sorted: all dealt ones in the discard, else the kept ones.
 * @param {Display} D
 */
export function handOf(D) {
  return sortCards(D.phase === 'discard' || !D.kept.length ? D.hand : D.kept);
}

/**
 * The table after a step, but for the scores (they move with the animation: scoresAfter): the
 * public table the step carries, with the page's own cards.  view: the state's final view (the
 * dealt cards and the kept ones come from it); seat: the page's own seat (null: a spectator's,
 * which has no cards of its own).
 * @param {Display} D
 * @param {Event} ev
 * @param {{view: View, seat: number | null}} ctx
 * @returns {Display}
 */
export function displayAfter(D, ev, { view, seat }) {
  const own = seat !== null && ev.seat === seat;
  const next = { ...D, ...fromSnapshot(ev.after) };
  switch (ev.kind) {
    case EV.DEAL: {
      const hand = view.phase === 'discard' && !view.discards.length ? [...view.hand] : [...view.kept, ...view.discards];
      return { ...next, hand, kept: [], discards: [], cribCards: null };
    }
    case EV.DISCARD: {
      if (!own) return next;
      const kept = view.hand_number === D.handNumber ? view.kept : D.kept;
      return { ...next, kept: [...kept], hand: [...kept], discards: [...view.discards] };
    }
    case EV.PLAY:
      return own ? { ...next, hand: D.hand.filter((c) => c !== ev.cards[0]) } : next;
    case EV.SHOW:
      return ev.detail === 'crib' ? { ...next, cribCards: [...(ev.cards || [])] } : next;
    case EV.HAND_OVER:  // the hand's cards leave the table
      return { ...next, sequence: [], played: [], count: 0, starter: null, cribCards: null };
    default:
      return next;
  }
}

/**
 * The scores after a scoring step and each side's back peg, as the step says.
 * @param {Event} ev
 * @returns {{scores: number[], prev: number[]}}
 */
export function scoresAfter(ev) {
  return { scores: [...ev.scores], prev: [...ev.after.prev] };
}

/**
 * A count of the show as its panel shows it, the combinations step by step.
 * @param {Event} ev
 * @param {Display} D
 * @param {number} side  the side of the count's seat
 */
export function entryFromEvent(ev, D, side) {
  return {
    seat: ev.seat,
    what: ev.detail || 'hand',
    cards: [...(ev.cards || [])],
    starter: D.starter,
    combos: showLines(ev.combos || []), // the pairs of a rank, a double run: one line each
    claim: ev.claim ?? null,
    points: ev.points || 0,
    step: 0,
    revealed: false,
    notes: [],
    scores: ev.scores,
    side: ev.side ?? side,
  };
}
