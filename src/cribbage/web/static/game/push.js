// @ts-check
// Web Push at a correspondence table (docs/api.md, "Web Push"): a button opts the seat in (the
// browser asks for permission, subscribes with the server's key, the subscription goes to
// POST /api/games/{id}/push) or out (DELETE).  The service worker (sw.js) shows the notices,
// in the words this page hands it.  Whether to offer it is pure (offersPush).  The person's
// switch (the account's dialog: notifyEverywhere) opts every correspondence seat in by itself.
// The tournament page subscribes with the same code (browserSubscription, keepWords).

import * as api from '../shared/api.js';
import { h, loadJSON, saveJSON } from '../shared/dom.js';
import { errorText, t } from '../shared/i18n.js';
import { registerWorker } from '../shared/offline.js';

const LS_PUSH = 'cribbage.push';  // the games whose seat this browser opted in: {[id]: true}
const LS_PUSH_ALL = 'cribbage.pushAll';  // the person's switch: every correspondence seat opted in by itself

/** @type {{ key: string, correspondence: number } | null} */
let server = null;
/** @type {Promise<void> | null} */
let asking = null;

/**
 * Whether the page offers the opt-in: a seat's page (not a spectator's) of a game not over,
 * whose clock is a correspondence game's (the server's threshold), in a browser that can.
 * @param {Record<string, any> | null} st
 * @param {number | null} correspondence
 * @param {boolean} supported
 */
export function offersPush(st, correspondence, supported) {
  const clock = st && st.options ? st.options.clock : null;
  return supported && correspondence !== null && !!st && !st.over && !st.spectator && typeof clock === 'number' && clock >= correspondence;
}

/** A base64url text as bytes (the server's key, for pushManager.subscribe). @param {string} text */
export function keyBytes(text) {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/**
 * Whether a seat is opted in without a click: the opt-in offered there, the person's switch on
 * (the account's dialog), the browser's permission given already, and the seat not opted in yet.
 * @param {boolean} offered
 * @param {boolean} everywhere
 * @param {string} permission  Notification.permission
 * @param {boolean} on
 */
export function optsInByItself(offered, everywhere, permission, on) {
  return offered && everywhere && permission === 'granted' && !on;
}

/** The person's switch: notified of their turn at every correspondence table, in this browser. */
export const notifiesEverywhere = () => supported() && loadJSON(LS_PUSH_ALL, /** @type {unknown} */ (false)) === true;

/**
 * Turn the person's switch on (the browser asked for its permission: a click's) or off; the
 * seats opted in already stay so until their own button.  Resolves with whether it is on.
 * @param {boolean} on
 */
export async function notifyEverywhere(on) {
  const granted = on && supported() && (await Notification.requestPermission()) === 'granted';
  saveJSON(LS_PUSH_ALL, granted);
  return granted;
}

/** Whether this browser can take notifications at all. */
export function supported() {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator && typeof window !== 'undefined'
    && 'PushManager' in window && 'Notification' in window;
}

const optedIn = (id) => !!loadJSON(LS_PUSH, /** @type {Record<string, boolean>} */ ({}))[id];
function remember(id, on) {
  const kept = loadJSON(LS_PUSH, /** @type {Record<string, boolean>} */ ({}));
  if (on) kept[id] = true; else delete kept[id];
  saveJSON(LS_PUSH, kept);
}

let worded = '';
/** The games opted in by the person's switch in this page, or tried. */
const tried = new Set();  // the language the service worker last had the words in

/** The words of the notices (a turn's, a tournament game's), in the page's language, to the service worker. */
async function giveWords() {
  const ready = await navigator.serviceWorker.ready;
  if (ready.active) {
    ready.active.postMessage({
      type: 'words', title: t('pushTitle'), body: t('pushBody'), readyTitle: t('pushReadyTitle'), readyBody: t('pushReadyBody'),
    });
  }
  worded = t('pushTitle');
}

/** The service worker given the words again if the page's language changed since. */
export function keepWords() {
  if (worded !== t('pushTitle')) giveWords().catch(() => {});
}

/** The server's push key and correspondence threshold (GET /api/push/key), asked once. */
export async function pushServer() {
  if (!server) server = await api.pushKey();
  return /** @type {{ key: string, correspondence: number }} */ (server);
}

/**
 * This browser's push subscription for the server's key, as toJSON() gives it (the browser asks
 * for its permission: a click's), or null when notifications are refused.
 * @returns {Promise<Record<string, any> | null>}
 */
export async function browserSubscription() {
  if ((await Notification.requestPermission()) !== 'granted') return null;
  const registration = await worker();
  const { key } = await pushServer();
  const sub = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  return sub.toJSON();
}

/** The service worker (the pages' one registration: shared/offline.js), with the words of the notices. */
async function worker() {
  const registration = await registerWorker();
  await giveWords();
  return registration;
}

/** @param {{ id: string, token: string }} game @param {HTMLElement} note */
async function optIn(game, note) {
  const sub = await browserSubscription();
  if (!sub) { note.textContent = t('pushDenied'); return false; }
  await api.pushSubscribe(game.id, game.token, sub);
  remember(game.id, true);
  note.textContent = t('pushOnNow');
  return true;
}

/**
 * The opt-in box of the table panel, or null where it is not offered; the first call asks the
 * server for its key and calls ``again`` (the panel drawn anew) once it has it.
 * @param {Record<string, any> | null} st
 * @param {{ id: string, token: string } | null} game
 * @param {() => void} again
 */
export function pushBox(st, game, again) {
  if (!supported() || !game || !game.token) return null;
  if (!server) {
    asking = asking || api.pushKey().then((got) => { server = got; again(); }).catch(() => {});
    return null;
  }
  if (!offersPush(st, server.correspondence, true)) return null;
  const on = optedIn(game.id);
  const note = h('small', { class: 'push-note', role: 'status' });
  if (optsInByItself(true, notifiesEverywhere(), Notification.permission, on) && !tried.has(game.id)) {
    tried.add(game.id);  // once per page: a refusal is not asked again at every drawing
    optIn(game, note).then((done) => { if (done) again(); }).catch(() => {});
  }
  if (on) keepWords();  // the page's language now
  const button = h('button', { type: 'button', class: 'secondary', id: 'btn-push', text: t(on ? 'pushOff' : 'pushOn') });
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      if (on) { await api.pushUnsubscribe(game.id, game.token); remember(game.id, false); } else if (!(await optIn(game, note))) return;
      again();
    } catch (err) {
      note.textContent = errorText(err);
    } finally {
      button.disabled = false;
    }
  });
  return h('div', { class: 'push-box' }, button, note);
}
