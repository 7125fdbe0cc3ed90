// @ts-check
// The "Play now" dialog (docs/api.md, "Play now"): choose a pool, wait (how long, how many wait)
// with Cancel, and, once paired, the table opens with the seat's token as a joined game's does.
// Signed out, it asks to sign in first (view-account.js).  The state machine is playnow.js's; this
// module shows it and asks the server.  Loaded at the first click of the top bar's "Play now" (app.js).

import * as api from '../shared/api.js';
import { $, h } from '../shared/dom.js';
import { errorText, t } from '../shared/i18n.js';
import { showError } from './notes.js';
import { IDLE, formatWait, next, pollDelay, polling, waitedNow } from './playnow.js';
import { loadSession } from '../shared/saved.js';
import { poolLabel } from './standings.js';
import { enterGame } from './controller.js';
import { S } from './store.js';
import { closeDialogs, loadMeta } from './view-dialogs.js';

/** @type {import('./playnow.js').PlayState} */
let state = IDLE;
let pollTimer = 0;
let tickTimer = 0;

/** @returns {HTMLDialogElement} the dialog, made at its first opening */
function dialog() {
  let el = $('play-dialog');
  if (!el) {
    el = h('dialog', { id: 'play-dialog', class: 'dialog play-dialog', 'aria-labelledby': 'play-title' });
    // Closed while waiting (Escape, or Close): the wait ends; nobody is paired with a page that left.
    el.addEventListener('close', () => { if (polling(state) || state.phase === 'joining') cancel(); });
    document.body.append(el);
  }
  return el;
}

/** Open "Play now": signed out, the way to sign in; else the wait going on, or the pools to choose from. */
export function openPlayNow() {
  const el = dialog();
  if (!loadSession()) fillSignIn(el);
  else if (polling(state)) fillWaiting(el);
  else fillChoose(el);
  if (!el.open) el.showModal();
}

/** The words of the language now, again (app.js's relabel). */
export function relabelPlayNow() {
  const el = $('play-dialog');
  if (el && el.open) openPlayNow();
}

/** @param {HTMLDialogElement} el */
function fillSignIn(el) {
  el.replaceChildren(
    h('h2', { id: 'play-title', text: t('play.title') }),
    h('p', { id: 'play-signin-note', text: t('play.signInFirst') }),
    h('div', { class: 'dialog-buttons' },
      h('button', { type: 'button', class: 'primary', id: 'play-signin', text: t('account.signIn'), onclick: signInFirst }),
      h('button', { type: 'button', class: 'secondary', id: 'play-close', text: t('close'), onclick: () => el.close() })));
}

/** The account's dialog; signed in there, "Play now" opens again when it closes. */
function signInFirst() {
  dialog().close();
  import('./view-account.js').then(({ openAccount }) => {
    openAccount();
    $('account-dialog').addEventListener('close', () => { if (loadSession()) openPlayNow(); }, { once: true });
  }).catch((err) => console.error(err));
}

/** The pools the server offers (GET /api/meta), in its order. */
function pools() {
  return (S.meta && S.meta.pools) || [];
}

/** The choice of a pool and "Play".  The choices are a list of fields (.play-choices), one
 * more (a single game or a match) can be added beside the pool's. @param {HTMLDialogElement} el */
function fillChoose(el) {
  const known = pools();
  if (!known.length) loadMeta().then(() => { if (el.open && state.phase === 'idle' && pools().length) fillChoose(el); });
  const select = h('select', { id: 'play-pool', name: 'pool' },
    known.map((pool) => h('option', { value: pool.name, text: poolLabel(pool.name) })));
  const last = $('play-pool')?.value;
  if (last && known.some((p) => p.name === last)) select.value = last;
  const length = h('select', { id: 'play-first-to', name: 'first_to' },
    MATCH_LENGTHS.map((n) => h('option', { value: String(n), text: n === 1 ? t('play.single') : t('play.bestOf', { n: 2 * n - 1 }) })));
  length.value = $('play-first-to')?.value || '1';
  const problem = 'problem' in state && state.problem;
  el.replaceChildren(h('form', { method: 'dialog', onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); join(select.value, Number(length.value)); } },
    h('h2', { id: 'play-title', text: t('play.title') }),
    h('p', { class: 'play-note', text: t('play.note') }),
    h('div', { class: 'play-choices' },
      h('div', { class: 'field' }, h('label', { for: 'play-pool', text: t('play.pool') }), select),
      h('div', { class: 'field' }, h('label', { for: 'play-first-to', text: t('play.length') }), length)),
    h('div', { id: 'play-error', class: 'error', role: 'alert', hidden: !problem, text: problem ? errorText(problem) : '' }),
    h('div', { class: 'dialog-buttons' },
      h('button', { type: 'submit', class: 'primary', id: 'play-start', text: t('play.start'), disabled: !known.length }),
      h('button', { type: 'button', class: 'secondary', id: 'play-close', text: t('close'), onclick: () => el.close() }))));
}

/** The wait: its pool, how long (ticking), how many wait, Cancel. @param {HTMLDialogElement} el */
function fillWaiting(el) {
  const starting = state.phase === 'starting';
  const problem = 'problem' in state && state.problem;
  el.replaceChildren(
    h('h2', { id: 'play-title', text: t('play.title') }),
    h('p', { id: 'play-pool-name', class: 'play-pool-name', text: 'pool' in state ? poolLabel(state.pool) : '' }),
    h('p', { id: 'play-waited', class: 'play-waited', role: 'timer', text: starting ? t('play.starting') : '' }),
    h('p', { id: 'play-count', 'aria-live': 'polite', hidden: starting }),
    h('div', { id: 'play-error', class: 'error', role: 'alert', hidden: !problem, text: problem ? errorText(problem) : '' }),
    h('div', { class: 'dialog-buttons' },
      h('button', { type: 'button', class: 'secondary', id: 'play-cancel', text: t('cancel'), onclick: () => el.close() })));
  tick();
}

/** The time waited and how many wait, now. */
function tick() {
  if (state.phase !== 'waiting') return;
  const waited = $('play-waited'), count = $('play-count');
  if (waited) waited.textContent = t('play.waited', { time: formatWait(waitedNow(state, Date.now())) });
  if (count && count.dataset.n !== String(state.waiting)) {  // 0: not known yet (waiting already, from another tab)
    count.dataset.n = String(state.waiting);
    count.textContent = t('play.waiting', { n: state.waiting });
    count.hidden = !state.waiting;
  }
}

/** @param {import('./playnow.js').PlayEvent} event */
function dispatch(event) {
  const before = state;
  state = next(state, event);
  const el = dialog();
  clearTimeout(pollTimer);
  clearInterval(tickTimer);
  if (state.phase === 'matched') {
    openMatch(state.match);
    return;
  }
  if (polling(state)) {
    pollTimer = window.setTimeout(poll, pollDelay(state));
    if (state.phase === 'waiting') tickTimer = window.setInterval(tick, 250);
  }
  if (!el.open) return;
  if (polling(state)) {
    const same = before.phase === state.phase && !('problem' in before) && !('problem' in state);
    if (same) tick(); else fillWaiting(el);
  } else if (state.phase === 'idle') {
    fillChoose(el);
  }
}

/** @param {any} err @returns {import('./playnow.js').PlayEvent} */
const refused = (err) => ({ type: 'error', code: err.code || '', data: err.data, at: Date.now() });

/** A single game, or a match won by the first to 2 or 3 games (best of 3, best of 5). */
const MATCH_LENGTHS = [1, 2, 3];

/** @param {string} pool @param {number} firstTo */
async function join(pool, firstTo) {
  if (!pool || state.phase !== 'idle') return;
  dispatch({ type: 'join', pool });
  const button = $('play-start');
  if (button) button.disabled = true;
  try {
    const answer = await api.playNow(pool, firstTo);
    // Cancelled while the request was on its way (its DELETE may have come first): leave again.
    if (state.phase === 'idle') cancel();
    else dispatch({ type: 'answer', answer, at: Date.now() });
  } catch (err) {
    dispatch(refused(err));
  }
}

async function poll() {
  if (!polling(state)) return;
  try {
    dispatch({ type: 'answer', answer: await api.playStatus(), at: Date.now() });
  } catch (err) {
    dispatch(refused(err));
  }
}

/** Leave the queue.  A match made meanwhile stays made (docs/api.md): its table opens all the same. */
async function cancel() {
  dispatch({ type: 'cancel' });
  try {
    if ((await api.stopPlaying()).left) return;
    const answer = await api.playStatus();
    if (answer.match) openMatch(answer.match);
  } catch { /* not waiting, or the server away: nothing to leave */ }
}

/** Paired: the table opens with the seat's token, as a joined game's does (controller.js enterGame).
 * @param {import('./playnow.js').Match} match */
async function openMatch(match) {
  state = IDLE;
  closeDialogs();
  const game = { id: match.game, token: match.token, seat: match.seat };
  try {
    await enterGame(game, await api.getGame(game.id, game.token), 'play.startedLog');
  } catch (err) {
    showError(err);
  }
}
