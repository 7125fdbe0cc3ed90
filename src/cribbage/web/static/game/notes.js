// @ts-check
// The game page's announcements: the toast, the log, a seat's speech bubble, the error line, and
// the pauses of the replay at the chosen speed.

import { $, h } from '../shared/dom.js';
import { errorText, t } from '../shared/i18n.js';
import { S, SPEEDS, actions, params, sideColor } from './store.js';
import { canRunEngine } from './source.js';

export function speedFactor() {
  if (S.skip) return 0;
  const p = params.get('speed');
  if (p && p in SPEEDS) return SPEEDS[p];
  return SPEEDS[S.options.speed] ?? 1;
}
export function pause(ms) {
  const f = speedFactor();
  return f ? new Promise((r) => setTimeout(r, ms * f)) : Promise.resolve();
}

// ------------------------------------------------------------------ announcements

let toastSerial = 0;
export function announce(text, { side = null, big = false, log = true } = {}) {
  const box = $('toasts');
  const toast = h('div', { class: `toast${big ? ' big' : ''}`, style: side !== null && side !== undefined ? { '--side': sideColor(side) } : null, text });
  toast.dataset.serial = String(++toastSerial);
  box.textContent = '';
  box.append(toast);
  setTimeout(() => toast.classList.add('fade'), Math.max(1200, 2200 * (speedFactor() || 0.6)));
  setTimeout(() => toast.remove(), Math.max(1600, 2800 * (speedFactor() || 0.6)));
  if (log) addLog(text);
}
export function addLog(text) {
  const log = $('log');
  log.append(h('li', { text }));
  while (log.children.length > 200) log.firstChild.remove();
}
export function bubble(seat, text) {
  const b = document.getElementById(`bubble-${seat}`);
  if (!b) return;
  b.textContent = text;
  b.hidden = false;
  setTimeout(() => { b.hidden = true; }, Math.max(900, 1500 * (speedFactor() || 0.6)));
}

// ------------------------------------------------------------------ errors

export function showError(err) {
  const box = $('error');
  box.hidden = false;
  box.textContent = '';
  if (err && err.message) console.warn(err.message);
  const message = err && err.code === 'offline' ? t('offline') : t('said', { who: t('errorPrefix'), what: errorText(err) });
  box.append(h('span', { text: message }), ' ',
    h('button', { type: 'button', class: 'secondary', text: t('retry'), onclick: () => { hideError(); actions.retry(); } }));
  if (err && err.code === 'offline' && canRunEngine()) {
    box.append(' ', h('button', { type: 'button', class: 'primary', id: 'play-here', text: t('local.playHere'), onclick: () => { hideError(); actions.playHere(); } }));
  }
}
export function hideError() {
  $('error').hidden = true;
}
