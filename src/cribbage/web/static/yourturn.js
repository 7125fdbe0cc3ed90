// @ts-check
// "Your turn" in a hidden tab: the title says it (and a WebAudio chime, if chosen) until the tab
// is shown or the seat no longer acts.  nextAlert is pure (tests/js/yourturn.test.js).

import { loadJSON, saveJSON } from './dom.js';
import { t } from './i18n.js';

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
