// @ts-check
// The games against the computer played in this browser (loaded when first needed: source.js):
// their source on the engine's worker (engine/engine.js), kept after every action in IndexedDB
// (keep.js) and restored from there after a reload; a new one; resuming the one kept after a
// reload; a finished one kept at the server ("Keep it in my games").  A game here has an id
// 'local-…', no token and no live socket.

import * as api from '../shared/api.js';
import { $ } from '../shared/dom.js';
import { t } from '../shared/i18n.js';
import { engineCall, engineSupported, onProgress } from '../engine/engine.js';
import { forgetGame, loadSession, saveGame } from '../shared/saved.js';
import { S, setBusy, setGame, shownSteps, startGame } from './store.js';
import { dropGame, keepGame, keptGame } from './keep.js';
import { newLocalId, recordTextOf, uploadBody } from './local.js';
import { isLocalGame } from './source.js';
import { showBadSaved, showEngineStep, showKept } from './view-local.js';
import { addLog, announce, showError } from './notes.js';
import { renderTablePanel } from './view-panels.js';
import { openOptions } from './view-dialogs.js';
import { receive } from './controller.js';

onProgress(showEngineStep);  // the engine's start, step by step

/** The options of each game played here in this tab (its upload needs them when storage is refused). @type {Map<string, Record<string, any>>} */
const optionsOf = new Map();

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
  showKept(kept);
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

/** A game played here: its source (source.js sourceOf). @param {string} id */
export function localSource(id) {
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
  showKept(kept);
  return { id, state };
}

/**
 * A new game here, and whether the server answered (null: not asked); an engine that does not
 * start while the server answers: the game at the server, its note said.
 * @param {Record<string, any>} body  POST /api/games's
 * @param {boolean} offline
 */
export async function createHere(body, offline) {
  try {
    return { ...(await createLocal(body)), token: '', invites: [], offline: offline || null };
  } catch (err) {
    if (err.code !== 'engine_failed' || offline) throw err;
    return { ...(await api.createGame(body)), note: 'local.failedServer', offline: false };
  }
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
  const path = '/api/games/upload';  // the account's session goes with it: the game is the account's then
  const json = uploadBody(options, record);
  const seat = await api.request('POST', path, { json, token: api.sessionToken('POST', path, loadSession()?.token) });
  await dropGame(id).catch((err) => console.warn(err));
  return seat;
}

/**
 * Resume the game played in this browser (kept in IndexedDB, restored in the engine).  Resolves
 * true when resumed or when it is said why not (the engine's failure, a saved game that cannot be
 * read: kept, offered as a file, a new game offered), false when nothing is kept of it.
 * @param {{id: string, token: string, seat?: number}} saved
 */
export async function resumeLocal(saved) {
  setGame(saved);
  try {
    const st = await restoreLocal(saved.id);
    startGame(saved);
    shownSteps(st.events);
    await receive(st, false);
    renderTablePanel();
    addLog(t('resumed'));
    return true;
  } catch (err) {
    if (err.code === 'bad_record') {
      // Nothing saved is lost: the saved text stays kept under its id, and is offered as a file.
      const kept = await keptLocal(saved.id);
      forgetGame();
      setGame(null);
      setBusy(false);
      showBadSaved(saved.id, kept ? String(kept.saved) : '', () => openOptions(true));
      return true;
    }
    if (err.code === 'not_found' || err.code === 'not_kept') {  // nothing kept (or the storage refused): a game of the past
      forgetGame();
      setGame(null);
      return false;
    }
    setBusy(false);
    showError(err);  // the engine did not start: Retry resumes, New game offers the server's
    return true;
  }
}

/**
 * Keep a finished game played here at the server ("Keep it in my games"): uploaded, it is a
 * finished game of the server, its seat kept like any other (its review, the account's games).
 */
export async function uploadGame() {
  const game = S.game;
  if (!game || !isLocalGame(game.id)) return;
  const button = /** @type {HTMLButtonElement} */ ($('result-upload'));
  button.disabled = true;
  try {
    const seat = await uploadLocal(game.id);
    const server = { id: String(seat.id), token: String(seat.token), seat: Number(seat.seat) || 0 };
    setGame(server);
    saveGame(server);
    button.hidden = true;
    announce(t('local.uploaded'));
  } catch (err) {
    showError(err);
  } finally {
    button.disabled = false;
  }
}

