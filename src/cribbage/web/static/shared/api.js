// @ts-check
// The JSON API of docs/api.md.  Every failure becomes an ApiError carrying the server's answer:
// its code with the values that code names (data), which the pages word in the player's language
// (i18n.errorText); the English message is for the console only.

import { loadSession } from './saved.js';

/**
 * The code of an answer that carries none: no answer at all (offline), or a proxy's page in front
 * of the server (the server itself sends a code with every refusal: docs/api.md, "Errors").
 * @type {Record<number, string>}
 */
const CODE_OF_STATUS = {
  0: 'offline', 413: 'too_large', 429: 'too_many', 500: 'internal', 502: 'internal', 503: 'internal', 504: 'internal',
};

/** The codes of a refusal worth trying again later (the server away, busy or counting requests). */
export const RETRYABLE = new Set([
  'offline', 'too_many', 'busy', 'internal', 'computer_unavailable', 'database_unavailable', 'limits_unavailable',
]);

/** The codes of a conflict with the game as it is now: the page reads it again. */
export const CONFLICTS = new Set(['stale', 'seat_taken', 'table_waiting', 'game_over']);

export class ApiError extends Error {
  /**
   * @param {number} status  the HTTP status (0: no answer); for the console, never for words
   * @param {string} message  the server's English line
   * @param {Record<string, any> | null} [data]  the answer: its code and the values it names
   */
  constructor(status, message, data = null) {
    super(message);
    this.status = status;
    this.data = data;
    /** @type {string} what went wrong (CODES of docs/api.md); '' if unknown */
    this.code = (data && typeof data.code === 'string' && data.code) || CODE_OF_STATUS[status] || '';
  }
}

/**
 * @typedef {object} RequestOptions
 * @property {unknown} [body]  a value sent as JSON
 * @property {string} [token]  the seat's token (Authorization: Bearer)
 * @property {string} [json]  a body already in JSON, sent as it is
 * @property {boolean} [raw]  the answer's text, not parsed
 */

// ``json``: a body already in JSON, sent as it is; ``raw``: the answer's text, not parsed.  A game
// record goes both ways as text: its seeds are 64-bit numbers, which JSON.parse would round.
/**
 * @param {string} method
 * @param {string} path
 * @param {RequestOptions} [options]
 * @returns {Promise<any>}
 */
export async function request(method, path, { body, token, json, raw = false } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json' };
  const sent = json !== undefined ? json : body === undefined ? undefined : JSON.stringify(body);
  if (sent !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: sent });
  } catch (err) {
    throw new ApiError(0, String(err instanceof Error ? err.message : err));
  }
  let data = null;
  const text = await response.text();
  if (raw && response.ok) return text;
  if (text) {
    try { data = JSON.parse(text); } catch { data = { error: text.slice(0, 200) }; }
  }
  if (!response.ok) {
    const message = data && (data.error || data.detail) ? String(data.error || JSON.stringify(data.detail)) : response.statusText;
    throw new ApiError(response.status, message, data);
  }
  return data;
}

/**
 * The requests that carry the account's session (docs/api.md, "Accounts"): creating a table and
 * joining one (the seat becomes the account's), the accounts' own, "Play now"'s (POST, GET and
 * DELETE /api/play), and reading a profile or a leaderboard (the account's own games in progress,
 * its place: "Players and ratings").  Every other request carries a seat's token, never the session.
 * @param {string} method
 * @param {string} path
 * @returns {boolean}
 */
export function takesSession(method, path) {
  return method === 'POST' && (path === '/api/games' || path === '/api/games/upload' || path === '/api/join' || path.startsWith('/api/accounts'))
    || method === 'GET' && (path === '/api/accounts/me' || /^\/api\/(players|leaderboard)\/[^/]+$/.test(path))
    || path === '/api/play' && ['POST', 'GET', 'DELETE'].includes(method);
}

/**
 * The token a request is sent with: the session for the requests that take it, else none.
 * @param {string} method
 * @param {string} path
 * @param {string | null | undefined} session
 * @returns {string | undefined}
 */
export function sessionToken(method, path, session) {
  return session && takesSession(method, path) ? session : undefined;
}

const kept = () => loadSession()?.token;

export const createGame = (options) => request('POST', '/api/games', { body: options, token: sessionToken('POST', '/api/games', kept()) });
export const getGame = (id, token) => request('GET', `/api/games/${encodeURIComponent(id)}`, { token });
export const act = (id, token, action) =>
  request('POST', `/api/games/${encodeURIComponent(id)}/actions`, { body: action, token });
export const getHint = (id, token) => request('GET', `/api/games/${encodeURIComponent(id)}/hint`, { token });
export const getRecord = (id, token) => request('GET', `/api/games/${encodeURIComponent(id)}/record`, { token });
export const getVariants = () => request('GET', '/api/variants');
export const getMeta = () => request('GET', '/api/meta');
export const scoreShow = (hand, starter, crib = false) => request('POST', '/api/score', { body: { hand, starter, crib } });
export const scorePeg = (cards) => request('POST', '/api/peg', { body: { cards } });
/** Take an invitation's seat; rated: the account accepts the table's rated game (else it is unrated). */
export const join = (code, name, rated = false) =>
  request('POST', '/api/join', { body: rated ? { code, name, rated } : { code, name }, token: sessionToken('POST', '/api/join', kept()) });
// Accounts (docs/api.md, "Accounts"): the session token, never a seat's.
export const signUp = (name, password) => request('POST', '/api/accounts', { body: { name, password } });
export const signIn = (name, password) => request('POST', '/api/accounts/signin', { body: { name, password } });
export const signOut = (session) => request('POST', '/api/accounts/signout', { token: sessionToken('POST', '/api/accounts/signout', session) });
export const me = (session) => request('GET', '/api/accounts/me', { token: sessionToken('GET', '/api/accounts/me', session) });
export const claim = (session, tokens) =>
  request('POST', '/api/accounts/claim', { body: { tokens }, token: sessionToken('POST', '/api/accounts/claim', session) });
/** A new key for the account's own seat of a game, for this browser: {game, seat, token}. @param {string} id */
export const openSeat = (id) => {
  const path = `/api/accounts/games/${encodeURIComponent(id)}/open`;
  return request('POST', path, { token: sessionToken('POST', path, kept()) });
};
// Play now (docs/api.md, "Play now"): the session, never a seat's token.
/** @param {string} pool @param {number} [firstTo] games to win the match (1: a single game) */
export const playNow = (pool, firstTo = 1) =>
  request('POST', '/api/play', { body: firstTo > 1 ? { pool, first_to: firstTo } : { pool }, token: sessionToken('POST', '/api/play', kept()) });
export const playStatus = () => request('GET', '/api/play', { token: sessionToken('GET', '/api/play', kept()) });
export const stopPlaying = () => request('DELETE', '/api/play', { token: sessionToken('DELETE', '/api/play', kept()) });
// Passkeys (docs/api.md, "Passkeys"): each ceremony's options, then the browser's credential.
const PASSKEY = '/api/accounts/passkey';
export const passkeySignUpOptions = (name) => request('POST', `${PASSKEY}/signup/options`, { body: { name } });
export const passkeySignUp = (ceremony, credential) => request('POST', `${PASSKEY}/signup`, { body: { ceremony, credential } });
export const passkeySignInOptions = () => request('POST', `${PASSKEY}/signin/options`);
export const passkeySignIn = (ceremony, credential) => request('POST', `${PASSKEY}/signin`, { body: { ceremony, credential } });
export const passkeyAddOptions = (session) => request('POST', `${PASSKEY}/add/options`, { token: sessionToken('POST', `${PASSKEY}/add/options`, session) });
export const passkeyAdd = (session, ceremony, credential) =>
  request('POST', `${PASSKEY}/add`, { body: { ceremony, credential }, token: sessionToken('POST', `${PASSKEY}/add`, session) });
export const signOutAll = (session) =>
  request('POST', '/api/accounts/signout/all', { token: sessionToken('POST', '/api/accounts/signout/all', session) });
export const deleteAccount = (session, password) =>
  request('POST', '/api/accounts/delete', { body: { password }, token: sessionToken('POST', '/api/accounts/delete', session) });
/**
 * Delete the account with a passkey of it (a sign-in's ceremony): {deleted, games}.
 * @param {string} session @param {string} ceremony @param {Record<string, any>} credential
 */
export const passkeyDelete = (session, ceremony, credential) =>
  request('POST', `${PASSKEY}/delete`, { body: { ceremony, credential }, token: sessionToken('POST', `${PASSKEY}/delete`, session) });
// Players and ratings (docs/api.md): public; the session kept adds what only its account sees.
const sessionGet = (path) => request('GET', path, { token: sessionToken('GET', path, kept()) });
export const getProfile = (name) => sessionGet(`/api/players/${encodeURIComponent(name)}`);
export const getLeaderboard = (pool) => sessionGet(`/api/leaderboard/${encodeURIComponent(pool)}`);
export const invitation = (code) => request('GET', `/api/join/${encodeURIComponent(code)}`);
export const getLobby = () => request('GET', '/api/lobby');
// The trainers (docs/api.md, "Trainers"): stateless, every answer recomputed from the drill's seed.
export const trainDiscard = (options) => request('POST', '/api/train/discard', { body: options });
export const trainDiscardAnswer = (drill) => request('POST', '/api/train/discard/answer', { body: drill });
export const trainPlay = (options) => request('POST', '/api/train/play', { body: options });
export const trainPlayAnswer = (drill) => request('POST', '/api/train/play/answer', { body: drill });
// The review (docs/api.md, "Review"): a record's text in, the review out.
export const getRecordText = (id, token) => request('GET', `/api/games/${encodeURIComponent(id)}/record`, { token, raw: true });
export const reviewRecord = (recordText, seat) => request('POST', `/api/review?seat=${encodeURIComponent(seat)}`, { json: recordText });
export const watchLink = (id, token) => request('POST', `/api/games/${encodeURIComponent(id)}/watch`, { token });
export const watchGame = (code) => request('GET', `/api/watch/${encodeURIComponent(code)}`);
export const leave = (id, token) => request('POST', `/api/games/${encodeURIComponent(id)}/leave`, { token });
export const seatComputer = (id, token, seat, level) =>
  request('POST', `/api/games/${encodeURIComponent(id)}/computer`, { body: { seat, level }, token });
export const seen = (id, token, version) =>
  request('POST', `/api/games/${encodeURIComponent(id)}/seen`, { body: { version }, token });
export const rematch = (id, token) => request('POST', `/api/games/${encodeURIComponent(id)}/rematch`, { token });
// Web Push (docs/api.md, "Web Push"): the server's key, a seat's opt-in and opt-out.
export const pushKey = () => request('GET', '/api/push/key');
export const pushSubscribe = (id, token, subscription) =>
  request('POST', `/api/games/${encodeURIComponent(id)}/push`, { body: subscription, token });
export const pushUnsubscribe = (id, token) => request('DELETE', `/api/games/${encodeURIComponent(id)}/push`, { token });
