// @ts-check
// The display model: what the table shows (D), made from a view of the server, and what each
// event of the replay does to it.  Pure functions, no DOM (tests/js): the replay (replay.js)
// times, announces and draws each step.

import { sortCards } from './cards.js';
import { EV } from './codes.js';
import { showLines } from './i18n.js';

/**
 * @typedef {{card: string, seat: number | null}} Placed
 * @typedef {{
 *   phase: string, dealer: number | null, scores: number[], prev: number[], starter: string | null,
 *   count: number, sequence: Placed[], played: Placed[], held: number[], hand: string[],
 *   kept: string[], discards: string[], handNumber: number, cribCards: string[] | null,
 * }} Display
 * @typedef {Record<string, any>} View  a STATE's view (docs/api.md)
 * @typedef {Record<string, any>} Event  one of a STATE's events (docs/api.md)
 */

/**
 * What the table shows of a view.
 * @param {View} v
 * @returns {Display}
 */
export function dispFromView(v) {
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
  return { ...dispFromView(empty), held: v.held.map(() => 0), hand: [], kept: [] };
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
 * @param {{crib_from_deck: number, deal: number, crib_size: number}} rules  the view's rules
 */
export function cribCount(D, rules) {
  if (D.cribCards) return D.cribCards.length;
  if (D.phase === 'discard') {
    let n = rules.crib_from_deck;
    for (const held of D.held) n += Math.max(0, rules.deal - held);  // what each seat has thrown so far
    return n;
  }
  if (D.phase === 'deal' || D.phase === 'cut') return 0;
  return rules.crib_size;
}

/**
 * The cards of the player's hand on the table, sorted: all dealt ones in the discard, else the kept ones.
 * @param {Display} D
 */
export function handOf(D) {
  return sortCards(D.phase === 'discard' || !D.kept.length ? D.hand : D.kept);
}

/**
 * The table after an event, but for the scores (they move with the animation: scoresAfter).
 * view: the state's final view (the dealt cards and the kept ones come from it); mine: seat 0
 * is the page's own (not a spectator's); deal and discard: the rules' numbers of cards.
 * @param {Display} D
 * @param {Event} ev
 * @param {{view: View, mine: boolean, deal: number, discard: number}} ctx
 * @returns {Display}
 */
export function displayAfter(D, ev, { view, mine, deal, discard }) {
  const own = ev.seat === 0 && mine;
  switch (ev.kind) {
    case EV.CUT:
      return { ...D, dealer: ev.seat };
    case EV.DEAL: {
      const hand = view.phase === 'discard' && !view.discards.length ? [...view.hand] : [...view.kept, ...view.discards];
      return {
        ...dispFromView(view), scores: D.scores, prev: D.prev, dealer: ev.seat, phase: 'discard', starter: null,
        sequence: [], played: [], count: 0, kept: [], discards: [], cribCards: null, held: D.held.map(() => deal), hand,
      };
    }
    case EV.DISCARD: {
      const held = [...D.held];
      if (!own) {
        held[ev.seat] = Math.max(0, (held[ev.seat] ?? 0) - discard);
        return { ...D, held, phase: 'discard' };
      }
      const kept = view.hand_number === D.handNumber ? view.kept : D.kept;
      held[0] = kept.length;
      return { ...D, kept: [...kept], hand: [...kept], discards: [...view.discards], held, phase: 'discard' };
    }
    case EV.STARTER:
      return { ...D, starter: ev.cards[0], phase: 'play' };
    case EV.PLAY: {
      const card = ev.cards[0];
      const placed = { card, seat: ev.seat };
      const next = { ...D, sequence: [...D.sequence, placed], played: [...D.played, placed], count: ev.count };
      if (own) return { ...next, hand: D.hand.filter((c) => c !== card) };
      const held = [...D.held];
      held[ev.seat] = Math.max(0, (held[ev.seat] ?? 1) - 1);
      return { ...next, held };
    }
    case EV.RESET:
      return { ...D, sequence: [], count: 0, phase: ev.detail === 'end of play' ? 'show' : D.phase };
    case EV.SHOW:
      return { ...D, phase: 'show', cribCards: ev.detail === 'crib' ? [...(ev.cards || [])] : D.cribCards };
    case EV.HAND_OVER:
      return { ...D, sequence: [], played: [], count: 0, starter: null, cribCards: null };
    default:
      return D;
  }
}

/**
 * The scores after a scoring event (every side's new score, or one side's points), each moved
 * side's previous score (the back peg) where it was.
 * @param {Display} D
 * @param {Event} ev
 * @returns {{scores: number[], prev: number[]}}
 */
export function scoresAfter(D, ev) {
  const scores = [...D.scores];
  const prev = [...D.prev];
  if (Array.isArray(ev.scores)) {
    ev.scores.forEach((/** @type {number} */ s, /** @type {number} */ side) => {
      if (s !== D.scores[side]) { prev[side] = D.scores[side]; scores[side] = s; }
    });
  } else if (ev.points && ev.side !== undefined) {
    prev[ev.side] = scores[ev.side];
    scores[ev.side] += ev.points;
  }
  return { scores, prev };
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
