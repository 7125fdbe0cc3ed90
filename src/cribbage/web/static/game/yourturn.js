// @ts-check
// "Your turn" in a hidden tab: the title says it (and a WebAudio chime, if chosen) until the tab
// is shown or the seat no longer acts.  nextAlert is pure (tests/js/yourturn.test.js).

import { loadJSON, saveJSON } from '../shared/dom.js';
import { t } from '../shared/i18n.js';

export const LS_TURN_SOUND = 'cribbage.turnSound';

/** The game the seat is to act in ('' if none), and whether the title says so. @typedef {{ acting: string, alerted: boolean }} TurnAlert */

/** @type {TurnAlert} */
export const QUIET = Object.freeze({ acting: '', alerted: false });

/** The game the state asks the seat to decide in ('' if none). @param {Record<string, any> | null | undefined} st */
export function actingIn(st) {
  if (!st || st.over || st.spectator || !Array.isArray(st.actions) || st.actions.length === 0) return '';
  return String(st.id ?? '');
}

/**
 * Whom the seat's status line says the table waits for (a code; words.js words it): people to
 * join ('join'), the seat itself ('you': only once the page shows it its decision, never while it
 * replays what came before, when every seat to discard next already has its discard), the
 * opponents who may call muggins ('muggins'), or the seat to act ('seat'); null: nobody to name.
 * @param {Record<string, any> | null | undefined} st  the STATE (a seat's, a spectator's)
 * @param {boolean} replaying  the page still replays the steps before the state's decisions
 * @returns {{ wait: 'join' | 'you' | 'muggins' | 'seat', seats: number[] } | null}
 */
export function awaited(st, replaying) {
  if (!st || st.over) return null;
  const open = st.waiting_for || [];
  if (open.length) return { wait: 'join', seats: [...open] };
  if (!replaying && actingIn(st) !== '') return { wait: 'you', seats: [] };
  const callers = st.view && st.view.claim ? st.view.claim.callers || [] : [];
  if (callers.length) return { wait: 'muggins', seats: [...callers] };
  const next = st.view ? st.view.to_act : null;
  if (typeof next !== 'number' || (!st.spectator && next === st.seat)) return null;
  return { wait: 'seat', seats: [next] };
}

/**
 * On from the state that made it the seat's turn in a hidden tab, while it acts; `ring` once.
 * @param {TurnAlert} was @param {Record<string, any> | null | undefined} st @param {boolean} hidden
 * @returns {TurnAlert & { ring: boolean }}
 */
export function nextAlert(was, st, hidden) {
  const acting = actingIn(st);
  const alerted = acting !== '' && hidden && (was.alerted || was.acting !== acting);
  return { acting, alerted, ring: alerted && !was.alerted };
}

/**
 * The seconds a turn clock's badge shows as left: to its deadline (the server's time, seconds
 * since the epoch), never less than 0 nor more than the clock's own length (before the page
 * shows the decision the deadline holds the reading time too, docs/api.md "Turn clock").
 * @param {number} deadline @param {number} now  seconds since the epoch
 * @param {number | null | undefined} clock  the table's clock, seconds a turn (none: no bound)
 */
export function clockLeft(deadline, now, clock) {
  const left = Math.max(0, Math.ceil(Number(deadline) - now));
  return typeof clock === 'number' && clock > 0 ? Math.min(left, clock) : left;
}

/** The tab is shown again. @param {TurnAlert} was @returns {TurnAlert} */
export function shown(was) {
  return { acting: was.acting, alerted: false };
}

/** @type {TurnAlert} */
let alert = QUIET;

/** The sound was chosen (off by default). */
export function soundOn() {
  return loadJSON(LS_TURN_SOUND, /** @type {unknown} */ (false)) === true;
}

/** The tab's title. */
export function showTitle() {
  document.title = alert.alerted ? t('yourTurnTitle', { title: t('title') }) : t('title');
}

/** A state came (pushed or answered). @param {Record<string, any>} st */
export function noticeTurn(st) {
  const next = nextAlert(alert, st, document.visibilityState === 'hidden');
  const changed = next.alerted !== alert.alerted;
  alert = { acting: next.acting, alerted: next.alerted };
  if (changed) showTitle();
  if (next.ring && soundOn()) import('./chime.js').then((m) => m.chime());
}

/** The title back when the tab is shown; the sound's checkbox (#opt-turn-sound). */
export function wireTurnAlert() {
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible' || !alert.alerted) return;
    alert = shown(alert);
    showTitle();
  });
  const box = /** @type {HTMLInputElement | null} */ (document.getElementById('opt-turn-sound'));
  if (!box) return;
  box.checked = soundOn();
  box.addEventListener('change', () => {
    saveJSON(LS_TURN_SOUND, box.checked);
    if (box.checked) import('./chime.js').then((m) => m.chime());  // a sample; sound allowed from now on
  });
}
