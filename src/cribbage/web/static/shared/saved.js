// @ts-check
// What this browser keeps of the game page (localStorage, and this tab's sessionStorage): the
// current game and its token, the options of the next game, the name last given and the
// statistics of the games played here.  No DOM: tests/js runs it in node.

import { loadJSON, saveJSON } from './dom.js';

export const LS_GAME = 'cribbage.engine.game';
export const LS_OPTIONS = 'cribbage.options';
export const LS_STATS = 'cribbage.engine.stats';
export const LS_NAME = 'cribbage.name';
export const LS_SESSION = 'cribbage.session';
export const LS_LISTS = 'cribbage.lists';
export const LS_SEATS = 'cribbage.seats';  // the seats this browser played: [{id, token, seat}], the newest last
export const SEATS_KEPT = 100;

/**
 * The account signed in in this browser (docs/api.md, "Accounts"): its session token and name.
 * @returns {{token: string, name: string} | null}
 */
export function loadSession() {
  /** @type {any} */
  const kept = loadJSON(LS_SESSION, null);
  return kept && typeof kept.token === 'string' && kept.token ? { token: kept.token, name: String(kept.name || '') } : null;
}

/** The session of an account signed in, kept. @param {string} token @param {string} name */
export function saveSession(token, name) {
  saveJSON(LS_SESSION, { token, name });
}

/** Signed out: the session forgotten. */
export function forgetSession() {
  try { localStorage.removeItem(LS_SESSION); } catch { /* no storage */ }
}

/** The seat tokens this browser holds (its games as a guest), for an account to claim. @returns {string[]} */
export function guestTokens() {
  const game = loadGame();
  return game && typeof game.token === 'string' && game.token ? [game.token] : [];
}

/**
 * The options of the next game, as the options dialog chose them (kept in localStorage).
 * @typedef {{
 *   level: string, variant: string, target: string, counting: string, dealer: string, speed: string,
 *   seats?: string[], name?: string, public?: boolean, takeover?: string, clock?: string, rated?: boolean,
 *   here?: boolean,
 * }} Options
 */
/** The options of a first visit (level '': the server's default level, GET /api/meta). @type {Options} */
export const DEFAULT_OPTIONS = { level: '', variant: 'standard', target: '', counting: 'auto', dealer: 'cut', speed: 'normal' };

/** The current game {id, token, seat}: in this tab (sessionStorage) first, else the last one. */
export function loadGame() {
  try {
    const own = JSON.parse(sessionStorage.getItem(LS_GAME) ?? 'null');
    if (own && own.id) return own;
  } catch { /* no storage */ }
  return loadJSON(LS_GAME, null);
}

/** The game this tab plays, kept for a reload (and for another tab: the last one). @param {Record<string, any>} game */
export function saveGame(game) {
  saveJSON(LS_GAME, game);
  try { sessionStorage.setItem(LS_GAME, JSON.stringify(game)); } catch { /* private mode */ }
  keepSeat(game);
}

/**
 * A seat this browser plays now (a game, a join, a key its account opened here: view-profile.js),
 * kept among its seats (heldSeat) without making it this tab's game.
 * @param {Record<string, any>} game  {id, token, seat}
 */
export function keepSeat(game) {
  if (typeof game.token === 'string' && game.token) saveJSON(LS_SEATS, withSeat(loadJSON(LS_SEATS, []), game));
}

/** @typedef {{id: string, token: string, seat: number}} HeldSeat */

/**
 * The seats kept with one more (or one seen again, moved last), the oldest dropped past limit.
 * @param {HeldSeat[]} kept
 * @param {Record<string, any>} game  {id, token, seat}
 * @param {number} [limit]
 * @returns {HeldSeat[]}
 */
export function withSeat(kept, game, limit = SEATS_KEPT) {
  const rest = (Array.isArray(kept) ? kept : []).filter((s) => s && s.id !== game.id);
  return [...rest, { id: String(game.id), token: String(game.token), seat: Number(game.seat) || 0 }].slice(-limit);
}

/**
 * The seat this browser played in a game (its token opens the game and reads its record), or
 * null: a profile's links back to a game and to a game's review (view-profile.js).
 * @param {string} id
 * @returns {HeldSeat | null}
 */
export function heldSeat(id) {
  const kept = loadJSON(LS_SEATS, /** @type {HeldSeat[]} */ ([]));
  const found = Array.isArray(kept) ? kept.find((s) => s && s.id === id) : null;
  return found && typeof found.token === 'string' && found.token ? { id, token: found.token, seat: Number(found.seat) || 0 } : null;
}

/** The name the player gave last (a table with people, an invitation). */
export function loadName() {
  try { return localStorage.getItem(LS_NAME) || ''; } catch { return ''; }
}

/** The name given, kept for the next table. @param {string} name */
export function saveName(name) {
  try { localStorage.setItem(LS_NAME, name); } catch { /* private mode */ }
}

/** The options of the next game kept, over the first visit's. @returns {Options} */
export function loadOptions() {
  return { ...DEFAULT_OPTIONS, ...loadJSON(LS_OPTIONS, {}) };
}

/** The server's lists last read (GET /api/variants, /api/meta). @returns {Record<string, any>} */
export function loadLists() {
  return /** @type {any} */ (loadJSON(LS_LISTS, null)) || {};
}

/** @param {'variants' | 'meta'} name @param {any} value */
export function saveList(name, value) {
  saveJSON(LS_LISTS, { ...loadLists(), [name]: value });
}

/** The game kept is forgotten (left, or no longer on the server). */
export function forgetGame() {
  try { localStorage.removeItem(LS_GAME); } catch { /* no storage */ }
  try { sessionStorage.removeItem(LS_GAME); } catch { /* no storage */ }
}

/**
 * The options of the next game kept.
 * @param {Options} options
 */
export function saveOptions(options) {
  saveJSON(LS_OPTIONS, options);
}

/** Nothing remembered yet: the first visit, which chooses the options before the first deal. */
export function firstVisit() {
  try { return localStorage.getItem(LS_OPTIONS) === null; } catch { return false; }
}

/**
 * The statistics of the games played in this browser (the last 100 games' ids: each counted once).
 * @typedef {{
 *   played: number, won: number, lost: number, skunksGiven: number, skunksTaken: number,
 *   doubleGiven: number, doubleTaken: number, pegging: number, hand: number, crib: number,
 *   withBreakdown: number, games: string[],
 * }} Stats
 */

/** The statistics kept in this browser (localStorage). @returns {Stats} */
export function loadStats() {
  return {
    played: 0, won: 0, lost: 0, skunksGiven: 0, skunksTaken: 0, doubleGiven: 0, doubleTaken: 0,
    pegging: 0, hand: 0, crib: 0, withBreakdown: 0, games: [], ...loadJSON(LS_STATS, {}),
  };
}

/** Count a finished game in the statistics kept in this browser (once per game). @param {Record<string, any>} st */
export function recordResult(st) {
  const stats = withResult(loadStats(), st);
  if (stats) saveJSON(LS_STATS, stats);
}

/**
 * The statistics with a finished game counted, or null if it has no result or is counted already.
 * @param {Stats} before
 * @param {Record<string, any>} st  the game's last STATE (of the page's seat)
 * @returns {Stats | null}
 */
export function withResult(before, st) {
  if (!st.result || before.games.includes(st.id)) return null;
  const stats = { ...before };
  const r = st.result;
  const side = st.view.rules.seat_sides[typeof st.seat === 'number' ? st.seat : 0];
  const won = r.winner === side;
  stats.played += 1;
  // A skunk counts as one win, as on the seed site; it is only marked.
  if (won) stats.won += 1; else stats.lost += 1;
  if (r.skunk >= 1) {
    if (won) stats.skunksGiven += 1; else if (r.loser === side) stats.skunksTaken += 1;
  }
  if (r.skunk === 2) {
    if (won) stats.doubleGiven += 1; else if (r.loser === side) stats.doubleTaken += 1;
  }
  const b = st.breakdown && st.breakdown[side];
  if (b) {
    stats.pegging += b.pegging || 0;
    stats.hand += b.hand || 0;
    stats.crib += b.crib || 0;
    stats.withBreakdown += 1;
  }
  stats.games = [...stats.games, st.id].slice(-100);
  return stats;
}

/** The statistics kept in this browser start again. */
export function resetStats() {
  saveJSON(LS_STATS, {});
}
