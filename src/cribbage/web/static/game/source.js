// @ts-check
// A game's source: the server, or this browser's engine (here.js, loaded when first needed): the
// same calls, STATEs and codes, so the rest of the page is the same code for both.

import * as api from '../shared/api.js';

export const LOCAL_PREFIX = 'local-';

/** @param {unknown} id */
export const isLocalGame = (id) => typeof id === 'string' && id.startsWith(LOCAL_PREFIX);

/** engine.js engineSupported, without loading it. */
export const canRunEngine = () => typeof Worker === 'function' && typeof WebAssembly === 'object';

/** Where a new game is played. @param {{people: boolean, offline: boolean, chosen: boolean, supported: boolean}} where */
export const playsHere = ({ people, offline, chosen, supported }) => supported && !people && (offline || chosen);

export const here = () => import('./here.js');

/** A game's calls: state, act, hint, recordText. @param {{id: string, token: string}} g */
export function sourceOf(g) {
  if (isLocalGame(g.id)) {
    /** @param {'state' | 'act' | 'hint' | 'recordText'} call */
    const local = (call) => /** @param {any} [action] */ async (action) => (await here()).localSource(g.id)[call](action);
    return { state: local('state'), act: local('act'), hint: local('hint'), recordText: local('recordText') };
  }
  return {
    state: () => api.getGame(g.id, g.token), act: (/** @type {any} */ action) => api.act(g.id, g.token, action),
    hint: () => api.getHint(g.id, g.token), recordText: () => api.getRecordText(g.id, g.token),
  };
}

/**
 * A new game where it is played, and whether the server answered (null: not asked); the server
 * not answering, here (here.js createHere).
 * @param {Record<string, any>} body  POST /api/games's
 * @param {{offline: boolean, chosen: boolean}} now
 */
export async function createGame(body, { offline, chosen }) {
  const where = { people: !!body.seats, supported: canRunEngine(), chosen };
  if (playsHere({ ...where, offline })) return (await here()).createHere(body, offline);
  try {
    return { ...(await api.createGame(body)), offline: false };
  } catch (err) {
    if (err.code !== 'offline' || !playsHere({ ...where, offline: true })) throw err;
    return (await here()).createHere(body, true);
  }
}
