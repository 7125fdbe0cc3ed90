// @ts-check
// "Play now" (docs/api.md, "Play now"), what the page knows of it: a small state machine fed by the
// server's answers to POST and GET /api/play and by their refusals' codes, with when to ask again
// and how long one has waited.  No DOM here: view-playnow.js shows it; tests/js/playnow.test.js
// drives it.

import { RETRYABLE } from '../shared/api.js';
import { QUEUE } from '../shared/codes.js';

/** How often the page asks how the wait goes (docs/api.md: every second or two). */
export const POLL_MS = 1000;
/** How long the page waits before asking again after a refusal worth retrying (not a 429's). */
export const RETRY_MS = 2000;

/**
 * @typedef {{game: string, seat: number, token: string, pool: string}} Match
 * @typedef {{code: string, data: Record<string, any>}} Problem
 * @typedef {{phase: 'idle', problem?: Problem}
 *   | {phase: 'joining', pool: string}
 *   | {phase: 'waiting', pool: string, waited: number, waiting: number, at: number, problem?: Problem, retryMs?: number}
 *   | {phase: 'starting', pool: string, problem?: Problem, retryMs?: number}
 *   | {phase: 'matched', match: Match}} PlayState
 * @typedef {{type: 'join', pool: string}
 *   | {type: 'answer', answer: Record<string, any>, at: number}
 *   | {type: 'error', code: string, data?: Record<string, any> | null, at: number}
 *   | {type: 'cancel'}} PlayEvent
 */

/** @type {PlayState} */
export const IDLE = Object.freeze({ phase: 'idle' });

/**
 * The state after an event: a join asked, the server's answer (a status, starting, a match), a
 * refusal's code, or the player's cancel.
 * @param {PlayState} state
 * @param {PlayEvent} event
 * @returns {PlayState}
 */
export function next(state, event) {
  switch (event.type) {
    case 'join':
      return { phase: 'joining', pool: event.pool };
    case 'cancel':
      return IDLE;
    case 'answer':
      if (state.phase === 'idle' || state.phase === 'matched') return state;  // an answer after a cancel
      return fromAnswer(event.answer, event.at, state);
    case 'error':
      if (state.phase === 'idle' || state.phase === 'matched') return state;
      return fromError(state, event.code, event.data || {}, event.at);
    default:
      return state;
  }
}

/**
 * @param {Record<string, any>} answer  a STATUS, {pool, starting}, or {match}
 * @param {number} at  when it came (ms)
 * @param {PlayState} state
 * @returns {PlayState}
 */
function fromAnswer(answer, at, state) {
  if (answer.match) return { phase: 'matched', match: answer.match };
  const pool = typeof answer.pool === 'string' ? answer.pool : 'pool' in state ? state.pool : '';
  if (answer.starting) return { phase: 'starting', pool };
  return { phase: 'waiting', pool, waited: Number(answer.waited) || 0, waiting: Number(answer.waiting) || 0, at };
}

/**
 * @param {Exclude<PlayState, {phase: 'idle'} | {phase: 'matched'}>} state
 * @param {string} code
 * @param {Record<string, any>} data
 * @param {number} at
 * @returns {PlayState}
 */
function fromError(state, code, data, at) {
  const problem = { code, data };
  // Waiting already (another tab, or before a reload): this page waits with it, in its pool.
  if (code === QUEUE.ALREADY_WAITING) return { phase: 'waiting', pool: data.pool || state.pool, waited: 0, waiting: 0, at };
  if (code === QUEUE.MATCH_WAITING) return { phase: 'starting', pool: state.pool };
  if (RETRYABLE.has(code) || code === QUEUE.UNAVAILABLE) {
    const retryMs = code === QUEUE.TOO_MANY && data.retry_after ? Number(data.retry_after) * 1000 : RETRY_MS;
    if (state.phase === 'joining') return { phase: 'idle', problem };  // not queued: the player tries again
    return { ...state, problem, retryMs };
  }
  return { phase: 'idle', problem };  // not waiting any more (match failed, signed out, unknown pool...)
}

/** Whether the page asks the server again: while waiting or while the game is being started. @param {PlayState} state */
export function polling(state) {
  return state.phase === 'waiting' || state.phase === 'starting';
}

/** How long until the page asks again (ms). @param {PlayState} state */
export function pollDelay(state) {
  return ('retryMs' in state && state.retryMs) || POLL_MS;
}

/**
 * The seconds waited now: the server's count at its last answer, plus the time since.
 * @param {PlayState} state
 * @param {number} now  ms, the clock of the answers' `at`
 */
export function waitedNow(state, now) {
  if (state.phase !== 'waiting') return 0;
  return Math.max(0, state.waited + (now - state.at) / 1000);
}

/**
 * A wait as minutes and seconds: 0:07, 2:05, 61:40 (an hour is 60 minutes).
 * @param {number} seconds
 */
export function formatWait(seconds) {
  const whole = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
