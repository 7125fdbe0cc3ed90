// @ts-check
// The tournaments' routes of docs/api.md ("Tournaments"), with the account's session that the
// game page keeps in this browser (shared/saved.js): reading is public (the session fills `you`),
// everything else is the account's.  A refusal is the pages' one ApiError (shared/api.js), worded
// by its code.

import { ApiError } from '../shared/api.js';
import { loadSession } from '../shared/saved.js';

/**
 * @param {string} method @param {string} path @param {unknown} [body]
 * @returns {Promise<any>}
 */
async function request(method, path, body = undefined) {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json' };
  const session = loadSession();
  if (session) headers.Authorization = `Bearer ${session.token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(0, String(err instanceof Error ? err.message : err));
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = { error: text.slice(0, 200) }; }
  }
  if (!response.ok) throw new ApiError(response.status, data && data.error ? String(data.error) : response.statusText, data);
  return data;
}

const base = (/** @type {string} */ id) => `/api/tournaments/${encodeURIComponent(id)}`;

export const listTournaments = () => request('GET', '/api/tournaments');
/** @param {Record<string, any>} settings */
export const createTournament = (settings) => request('POST', '/api/tournaments', settings);
/** @param {string} id */
export const getTournament = (id) => request('GET', base(id));
/** Register; in a team event naming the partner's account. @param {string} id @param {string} [partner] */
export const register = (id, partner) => request('POST', `${base(id)}/register`, partner ? { partner } : undefined);
/** Accept to play as the partner of the team that named me. @param {string} id */
export const acceptPartner = (id) => request('POST', `${base(id)}/partner`);
/** The account's own check-in, or (the director) an entrant's. @param {string} id @param {number} [number] */
export const checkIn = (id, number) => request('POST', `${base(id)}/checkin`, number === undefined ? undefined : { number });
/** @param {string} id @param {number} [number] */
export const withdraw = (id, number) => request('POST', `${base(id)}/withdraw`, number === undefined ? undefined : { number });
/** A guest, or in a team event a guest team of two names. @param {string} id @param {string} name @param {string} [partner] */
export const addGuest = (id, name, partner) => request('POST', `${base(id)}/guests`, partner ? { name, partner } : { name });
/** @param {string} id */
export const start = (id) => request('POST', `${base(id)}/start`);
/** @param {string} id @param {Record<string, any>} result */
export const enterResult = (id, result) => request('POST', `${base(id)}/results`, result);
/** Told by Web Push when my next game is ready (a browser's PushSubscription.toJSON()). @param {string} id @param {Record<string, any>} subscription */
export const pushOn = (id, subscription) => request('POST', `${base(id)}/push`, subscription);
/** Told no more. @param {string} id */
export const pushOff = (id) => request('DELETE', `${base(id)}/push`);
/** A finished game's record, anyone's (a scorecard's review). @param {string} id @param {string} gameId */
export const gameRecord = (id, gameId) => request('GET', `${base(id)}/games/${encodeURIComponent(gameId)}/record`);
/** The standings' CSV (a download link's address). @param {string} id */
export const standingsCsv = (id) => `${base(id)}/standings.csv`;
