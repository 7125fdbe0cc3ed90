// @ts-check
// A game against the computer played in this browser, the controller's part (controller.js does
// the rest, the same for every game): where a new game is played, resuming the game kept here
// after a reload, and keeping a finished one at the server ("Keep it in my games").

import * as api from '../shared/api.js';
import { $ } from '../shared/dom.js';
import { t } from '../shared/i18n.js';
import { engineSupported } from '../engine/engine.js';
import { forgetGame, saveGame } from '../shared/saved.js';
import { S, setBusy, setGame, setOffline, shownSteps, startGame } from './store.js';
import { createLocal, keptLocal, restoreLocal, uploadLocal } from './source.js';
import { isLocalGame, playsHere } from './local.js';
import { showBadSaved } from './view-local.js';
import { addLog, announce, showError } from './notes.js';
import { renderTablePanel } from './view-panels.js';
import { openOptions } from './view-dialogs.js';
import { receive } from './controller.js';

/**
 * A new game, where it is played: in this browser (a game against the computer, when the server
 * cannot be reached or when chosen), else at the server; a browser that cannot start the engine
 * while the server answers plays at the server, and a server that cannot be reached plays here.
 * @param {Record<string, any>} body  POST /api/games's body
 * @returns {Promise<{id: string, token: string, state: Record<string, any>, invites?: Record<string, any>[], note?: string}>}
 */
export async function createGame(body) {
  const where = { people: !!body.seats, supported: engineSupported(), chosen: !!S.options.here };
  const here = async () => ({ ...(await createLocal(body)), token: '', invites: [] });
  if (playsHere({ ...where, offline: S.offline })) {
    try {
      return await here();
    } catch (err) {
      if (err.code !== 'engine_failed' || S.offline) throw err;
      const created = await api.createGame(body);
      return { ...created, note: 'local.failedServer' };  // said once the new game's log starts
    }
  }
  try {
    const created = await api.createGame(body);
    setOffline(false);
    return created;
  } catch (err) {
    if (err.code !== 'offline' || !playsHere({ ...where, offline: true })) throw err;
    setOffline(true);
    return here();
  }
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

