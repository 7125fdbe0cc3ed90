// @ts-check
// "Your turn" while the tab is in the background: when a state makes it this seat's turn to
// decide and the tab is hidden, the tab's title says so, and (if the player chose it) a short
// sound plays, made with WebAudio.  The title comes back when the tab is shown again or the seat
// no longer has to act.  What to show for a state is pure (nextAlert, tests/js/yourturn.test.js);
// the DOM part (noticeTurn, wireTurnAlert) is thin.

import { loadJSON, saveJSON } from './dom.js';
import { t } from './i18n.js';

export const LS_TURN_SOUND = 'cribbage.turnSound';

/**
 * What the page has shown of the seat's turn: the game in which the seat is to act ('' when it
 * is not), and whether the title (and the sound) said so while the tab was hidden.
 * @typedef {{ acting: string, alerted: boolean }} TurnAlert
 */

/** Nothing to say: no turn, no title. @type {TurnAlert} */
export const QUIET = Object.freeze({ acting: '', alerted: false });

/**
 * The game in which the state asks the page's seat to decide ('' if it does not: no decision,
 * the game over, a spectator's state).
 * @param {Record<string, any> | null | undefined} st
 */
export function actingIn(st) {
  if (!st || st.over || st.spectator || !Array.isArray(st.actions) || st.actions.length === 0) return '';
  return String(st.id ?? '');
}

/**
 * What a state changes of the alert: the title shows "your turn" while the tab is hidden and the
 * seat is to act, from the state that made it the seat's turn (a turn the seat already had when
 * the tab was hidden says nothing); `ring` is true only for the state that raised it.
 * @param {TurnAlert} was
 * @param {Record<string, any> | null | undefined} st
 * @param {boolean} hidden  the tab is in the background (document.visibilityState)
 * @returns {TurnAlert & { ring: boolean }}
 */
export function nextAlert(was, st, hidden) {
  const acting = actingIn(st);
  const alerted = acting !== '' && hidden && (was.alerted || was.acting !== acting);
  return { acting, alerted, ring: alerted && !was.alerted };
}

/**
 * The tab is shown again: the title is the page's own.
 * @param {TurnAlert} was
 * @returns {TurnAlert}
 */
export function shown(was) {
  return { acting: was.acting, alerted: false };
}

// ------------------------------------------------------------------ the DOM, thin

/** @type {TurnAlert} */
let alert = QUIET;
/** @type {AudioContext | null} */
let audio = null;

/** Whether the player chose a sound for their turn (off by default). */
export function soundOn() {
  return loadJSON(LS_TURN_SOUND, /** @type {unknown} */ (false)) === true;
}

/** The tab's title: the page's own, or "your turn" before it while alerted. */
export function showTitle() {
  document.title = alert.alerted ? t('yourTurnTitle', { title: t('title') }) : t('title');
}

/** A short two-note chime, generated (no audio file); nothing where WebAudio is missing or blocked. */
export function chime() {
  try {
    const Context = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    if (audio.state === 'suspended') audio.resume().catch(() => {});
    const start = audio.currentTime + 0.02;
    [660, 880].forEach((freq, i) => {
      const ctx = /** @type {AudioContext} */ (audio);
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      const at = start + i * 0.16;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.15);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + 0.16);
    });
  } catch { /* no sound: the title still says it */ }
}

/** A state came (pushed, or answered): the title (and the sound) if it made it the seat's turn. @param {Record<string, any>} st */
export function noticeTurn(st) {
  const next = nextAlert(alert, st, document.visibilityState === 'hidden');
  const changed = next.alerted !== alert.alerted;
  alert = { acting: next.acting, alerted: next.alerted };
  if (changed) showTitle();
  if (next.ring && soundOn()) chime();
}

/** The title back when the tab is shown; the sound's checkbox (#opt-turn-sound) kept as chosen. */
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
    if (box.checked) chime();  // a sample, and the browser lets the page play sound from now on
  });
}
