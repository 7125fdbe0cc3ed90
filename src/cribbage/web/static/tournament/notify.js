// @ts-check
// "Tell me when my next game is ready" (docs/api.md, "Tournaments"): a signed-in entrant of a
// correspondence tournament switches on Web Push in this browser; the server then sends a
// notice each time a table of theirs gets its game, which the service worker (sw.js) words and
// opens this page from.  The subscription is the game page's (game/push.js); whether to offer
// the switch is pure (offersReadyPush).  The server keeps no word of the switch for the page:
// this browser remembers the tournaments it switched on.

import { browserSubscription, keepWords, pushServer, supported } from '../game/push.js';
import { h, loadJSON, saveJSON } from '../shared/dom.js';
import { errorText, t } from '../shared/i18n.js';
import * as tapi from './tapi.js';

const LS_READY_PUSH = 'cribbage.tournamentPush';  // the tournaments this browser switched on: {[id]: true}

/**
 * Whether the page offers the switch: an online tournament not finished whose clock is a
 * correspondence game's (the server's threshold), to its entrant who has not withdrawn, signed
 * in, in a browser that can.
 * @param {Record<string, any> | null} T  the tournament as the server sent it
 * @param {number | null} correspondence
 * @param {boolean} canPush
 * @param {boolean} signedIn
 */
export function offersReadyPush(T, correspondence, canPush, signedIn) {
  if (!T || !canPush || !signedIn || correspondence === null || T.stage === 'finished') return false;
  const settings = T.settings || {};
  if (settings.venue !== 'online' || typeof settings.clock !== 'number' || settings.clock < correspondence) return false;
  const me = T.you ? T.you.entrant : null;
  const entry = (T.entrants || []).find((/** @type {any} */ e) => e.number === me);
  return !!entry && !entry.withdrawn;
}

/** @param {string} id */
const switchedOn = (id) => !!loadJSON(LS_READY_PUSH, /** @type {Record<string, boolean>} */ ({}))[id];

/** @param {string} id @param {boolean} on */
function remember(id, on) {
  const kept = loadJSON(LS_READY_PUSH, /** @type {Record<string, boolean>} */ ({}));
  if (on) kept[id] = true; else delete kept[id];
  saveJSON(LS_READY_PUSH, kept);
}

/**
 * The switch, made once at its first showing (no id: the page's redrawing restores the typed
 * fields by id, and must not switch this one again); `id` the tournament it is for.
 * @type {{ el: HTMLElement, input: HTMLInputElement, label: HTMLElement, note: HTMLElement, id: string } | null}
 */
let box = null;
/** @type {number | null} */
let threshold = null;
let asked = false;

/** Switch on (the browser asked for permission: this is a click's) or off. @param {boolean} on */
async function flip(on) {
  if (!box) return;
  const { input, note, id } = box;
  input.disabled = true;
  try {
    if (on) {
      const sub = await browserSubscription();
      if (!sub) { note.textContent = t('pushDenied'); input.checked = false; return; }
      await tapi.pushOn(id, sub);
      note.textContent = t('pushOnNow');
    } else {
      await tapi.pushOff(id);
      note.textContent = '';
    }
    remember(id, on);
  } catch (err) {
    input.checked = !on;
    note.textContent = errorText(err);
  } finally {
    input.disabled = false;
  }
}

function made() {
  const input = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', class: 't-push-switch' }));
  input.addEventListener('change', () => { void flip(input.checked); });
  const label = h('span');
  const note = h('small', { class: 'push-note', role: 'status' });
  const el = h('div', { class: 't-push no-print' }, h('label', { class: 'check' }, input, ' ', label), note);
  return { el, input, label, note, id: '' };
}

/**
 * The switch in ``parent`` (the reader's registration card) where it is offered, else hidden;
 * the first call asks the server for its threshold and calls ``again`` once it has it.
 * @param {Record<string, any> | null} T @param {boolean} signedIn @param {HTMLElement} parent @param {() => void} again
 */
export function renderReadyPush(T, signedIn, parent, again) {
  if (threshold === null && supported() && !asked) {
    asked = true;
    pushServer().then((got) => { threshold = got.correspondence; again(); }).catch(() => {});
  }
  const offered = offersReadyPush(T, threshold, supported(), signedIn);
  if (!offered) { if (box) box.el.hidden = true; return; }
  box = box || made();
  const { el, input } = box;
  if (el.parentElement !== parent) parent.append(el);
  el.hidden = false;
  box.id = String(/** @type {Record<string, any>} */ (T).id);
  box.label.textContent = t('tournament.readyPush');
  if (!input.disabled) input.checked = switchedOn(box.id);
  if (input.checked) keepWords();  // the notices in the page's language now
}
