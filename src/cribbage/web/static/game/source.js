// @ts-check
// Where a game is played: its source, with the same calls for a game at the server (api.js) and a
// game against the computer in this browser (the engine's worker, engine/engine.js), each answer
// the same STATE, hint or record text, each refusal the same ApiError with the server's code.  The
// controller, the store, the views and the replay are the same code for both: only the source
// differs.  A game in the browser (its id 'local-…', no token, no live socket) is kept after every
// action in IndexedDB (keep.js) and restored from there after a reload.

import * as api from '../shared/api.js';
import { engineCall, engineSupported } from '../engine/engine.js';
import { dropGame, keepGame, keptGame } from './keep.js';
import { isLocalGame, newLocalId, recordTextOf } from './local.js';

/**
 * The calls of a game, wherever it is played.
 * @typedef {{
 *   state: () => Promise<Record<string, any>>,
 *   act: (action: Record<string, any>) => Promise<Record<string, any>>,
 *   hint: () => Promise<Record<string, any>>,
 *   recordText: () => Promise<string>,
 * }} Source
 */

/**
 * What the page is told of the keeping of its games here: storage refused (the game goes on, not
 * kept), or kept again.
 * @type {{onKept: (kept: boolean) => void}}
 */
export const keeping = { onKept: () => {} };

/** The options of each game played here in this tab (its upload needs them when storage is refused). @type {Map<string, Record<string, any>>} */
const optionsOf = new Map();

/** @param {{id: string, token: string}} game @returns {Source} */
function serverSource(game) {
  return {
    state: () => api.getGame(game.id, game.token),
    act: (action) => api.act(game.id, game.token, action),
    hint: () => api.getHint(game.id, game.token),
    recordText: () => api.getRecordText(game.id, game.token),
  };
}

/** The game's saved text kept after a change (a refusal of the storage told, never thrown). @param {string} id */
async function keepNow(id, over = false) {
  let kept;
  try {
    const saved = await engineCall('saved', id);
    const options = optionsOf.get(id) || (await keptGame(id))?.options;
    if (!options) throw new Error(`the options of ${id} are not known`);
    await keepGame({ id, options, saved, over, updated: Date.now() });
    kept = true;
  } catch (err) {
    console.warn('the game was not kept in this browser:', err);
    kept = false;
  }
  keeping.onKept(kept);
}

/**
 * The game's options and record text as kept, and restored in the engine: its STATE.  Throws an
 * ApiError: not_found (nothing kept: a game of the past), bad_record (a corrupt or tampered saved
 * game, or one of an older engine), engine_failed.
 * @param {string} id
 */
export async function restoreLocal(id) {
  let kept;
  try {
    kept = await keptGame(id);
  } catch (err) {
    throw new api.ApiError(0, String(err), { code: 'not_kept' });
  }
  if (!kept) throw new api.ApiError(404, `${id} is not kept in this browser`, { code: 'not_found' });
  const record = recordTextOf(typeof kept.saved === 'string' ? kept.saved : '');
  if (!record || !kept.options || typeof kept.options !== 'object') {
    throw new api.ApiError(0, 'the saved game cannot be read', { code: 'bad_record' });
  }
  optionsOf.set(id, kept.options);
  try {
    return await engineCall('restore', id, kept.options, record);
  } catch (err) {
    // Options that are no longer valid are a saved game that cannot be read too.
    if (err.code === 'invalid') throw new api.ApiError(0, err.message, { code: 'bad_record' });
    throw err;
  }
}

/** @param {{id: string}} game @returns {Source} */
function localSource(game) {
  const id = game.id;
  /** A call of this game; a worker that no longer holds it (started again) restores it first. */
  const call = async (name, ...args) => {
    try {
      return await engineCall(name, id, ...args);
    } catch (err) {
      if (err.code !== 'not_found') throw err;
      await restoreLocal(id);
      return engineCall(name, id, ...args);
    }
  };
  return {
    state: () => call('state'),
    act: async (action) => {
      const st = await call('act', action);
      await keepNow(id, !!st.over);
      return st;
    },
    hint: () => call('hint'),
    recordText: () => call('record'),
  };
}

/** A game's source: the server's, or this browser's for a game whose id is 'local-…'. @param {{id: string, token: string}} game */
export function sourceOf(game) {
  return isLocalGame(game.id) ? localSource(game) : serverSource(game);
}

/**
 * A new game against the computer in this browser, kept as it starts: {id, state}.  Throws an
 * ApiError (the engine's refusal of an option, engine_failed).
 * @param {Record<string, any>} options  as POST /api/games takes them for a game against the computer
 */
export async function createLocal(options) {
  if (!engineSupported()) throw new api.ApiError(0, 'no Worker or WebAssembly here', { code: 'engine_failed' });
  const id = newLocalId();
  const state = await engineCall('new', id, options);
  optionsOf.set(id, options);
  let kept = true;
  try {
    await keepGame({ id, options, saved: await engineCall('saved', id), over: !!state.over, updated: Date.now() });
  } catch (err) {
    console.warn('the game is not kept in this browser:', err);
    kept = false;
  }
  keeping.onKept(kept);
  return { id, state };
}

/** What is kept of a game played here (null: nothing, or the storage refused). @param {string} id */
export async function keptLocal(id) {
  try {
    return await keptGame(id);
  } catch {
    return null;
  }
}

/**
 * A finished game played here, uploaded to the server (POST /api/games/upload), then forgotten
 * here: the server's seat {id, token, seat}.  Throws an ApiError.
 * @param {string} id
 */
export async function uploadLocal(id) {
  const kept = optionsOf.has(id) ? null : await keptGame(id).catch(() => null);
  const record = await engineCall('record', id).catch(async (err) => {
    if (err.code !== 'not_found') throw err;
    await restoreLocal(id);
    return engineCall('record', id);
  });
  const options = optionsOf.get(id) || (kept ? kept.options : null);
  if (!options) throw new api.ApiError(0, `${id} is not kept`, { code: 'not_found' });
  const seat = await api.uploadGame(options, record);
  await dropGame(id).catch((err) => console.warn(err));
  return seat;
}
