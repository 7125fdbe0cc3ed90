// @ts-check
// What the game page says of a game played in this browser: the engine's start, step by step
// (#engine-status), a game the browser does not let the page keep, and a saved game that cannot
// be read, with its download and a new game (#local-note).

import { $, h } from '../shared/dom.js';
import { t } from '../shared/i18n.js';

let readyTimer = 0;

/** The engine's start, as engine.js tells it ('interpreter', 'engine', 'ready'). @param {string} step */
export function showEngineStep(step) {
  const box = $('engine-status');
  clearTimeout(readyTimer);
  box.hidden = false;
  box.dataset.step = step;
  box.textContent = t(`local.step.${step}`);
  if (step === 'ready') readyTimer = window.setTimeout(() => { box.hidden = true; }, 2000);
}

/** Whether the game played here is kept: when not, said until it is. @param {boolean} kept */
export function showKept(kept) {
  const box = $('local-note');
  if (kept) {
    if (box.dataset.kind === 'not-kept') box.hidden = true;
    return;
  }
  box.dataset.kind = 'not-kept';
  box.textContent = t('local.notKept');
  box.hidden = false;
}

/**
 * A saved game that cannot be read (corrupt, tampered, or of an older engine): said, its text
 * offered as a file (it stays kept), and a new game.
 * @param {string} id
 * @param {string} savedText
 * @param {() => void} anew
 */
export function showBadSaved(id, savedText, anew) {
  const box = $('local-note');
  box.dataset.kind = 'bad-saved';
  box.textContent = '';
  const download = () => {
    const blob = new Blob([savedText], { type: 'application/json' });
    const a = h('a', { href: URL.createObjectURL(blob), download: `cribbage-saved-${id}.json` });
    document.body.append(a);
    a.click();
    a.remove();
  };
  box.append(h('span', { text: t('local.badSaved') }), ' ',
    h('button', { type: 'button', class: 'secondary', id: 'local-download', text: t('local.downloadSaved'), onclick: download }), ' ',
    h('button', { type: 'button', class: 'primary', id: 'local-anew', text: t('newGame'), onclick: () => { hideLocalNote(); anew(); } }));
  box.hidden = false;
}

export function hideLocalNote() {
  $('local-note').hidden = true;
  $('local-note').dataset.kind = '';
}
