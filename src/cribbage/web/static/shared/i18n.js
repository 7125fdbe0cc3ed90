// @ts-check
// The game page's words: the texts of each language are in lang/en.js, lang/ja.js and lang/ru.js.
// t(key, vars) looks a key up in the current language (falling back to English); a value may be a
// function of the vars, for plurals.  The language comes from ?lang=, then localStorage, then the
// browser (navigator.languages), and is remembered when the player switches.

import { parseCard, RANKS, rankLabel } from './cards.js';
import { REASON } from './codes.js';
import { en } from '../lang/en.js';

export const LANGS = ['ja', 'en', 'ru'];
const LS_LANG = 'cribbage.lang';

/**
 * The words of each language loaded so far: English always (every page's fallback), another once
 * it is chosen (:func:`loadLanguage`), so a page loads only its own language's words.
 * @type {Record<string, typeof en>}
 */
export const STRINGS = { en };

let current = 'en';
const listeners = [];

function pick(value) {
  return LANGS.includes(value) ? value : null;
}

/** Load a language's words, once. */
export async function loadLanguage(lang) {
  if (pick(lang) && !STRINGS[lang]) STRINGS[lang] = (await import(`../lang/${lang}.js`))[lang];
}

/** Load every language's words (the tests, which compare them). */
export async function loadLanguages() {
  await Promise.all(LANGS.map(loadLanguage));
}

/** The language to start in: an explicit one (?lang=), the remembered one, then the browser's. */
function chosen(explicit) {
  let lang = pick(explicit);
  if (!lang) {
    try { lang = pick(localStorage.getItem(LS_LANG)); } catch { lang = null; }
  }
  if (!lang) {
    for (const l of navigator.languages || [navigator.language || 'en']) {
      lang = pick(String(l).slice(0, 2).toLowerCase());
      if (lang) break;
    }
  }
  return lang || 'en';
}

// A page's own language is loaded before any module that words something runs.
if (typeof location !== 'undefined') await loadLanguage(chosen(new URLSearchParams(location.search).get('lang')));

/** Choose the language: an explicit one (?lang=), the remembered one, then the browser's. */
export function initLang(explicit) {
  current = chosen(explicit);
  if (!STRINGS[current]) void setLang(current);  // not loaded yet: English until it is
  document.documentElement.lang = current;
  return current;
}

export function getLang() {
  return current;
}

/**
 * Switch to a language (loading its words first if needed) and tell the listeners.
 * @param {string} lang
 * @returns {Promise<void>}
 */
export function setLang(lang) {
  if (!pick(lang)) return Promise.resolve();
  if (!STRINGS[lang]) return loadLanguage(lang).then(() => setLang(lang));
  current = lang;
  document.documentElement.lang = lang;
  try { localStorage.setItem(LS_LANG, lang); } catch { /* ignore */ }
  for (const fn of listeners) fn(lang);
  return Promise.resolve();
}

export function onLangChange(fn) {
  listeners.push(fn);
}

export function t(key, vars = {}) {
  const value = (STRINGS[current] ?? en)[key] ?? en[key];
  if (value === undefined) return key;
  return typeof value === 'function' ? value(vars) : value;
}

export function comboName(kind) {
  return t(`combo.${kind}`);
}

const SAME_RANK = { 2: 'pair', 3: 'pair royal', 4: 'double pair royal' };
const MULTIPLE_RUNS = { 2: 'double run', 3: 'triple run', '2,2': 'double double run', 4: 'quadruple run' };

/**
 * A show's combinations as players name them (the words only; the server's combos stay as
 * they are): the pairs of one rank are one line ("Pair royal for 6"), runs on the same ranks
 * one line with their pairs ("Double run of 3 for 8").  Each line is { kind, cards, points, n }
 * (n: the run's length, else the cards), standing where its first combination stood; the
 * points add up to the same total.  As cribbage.text.show_lines does for the terminal.
 */
export function showLines(combos) {
  const rankOf = (card) => parseCard(card)?.rank ?? 0;
  const runs = new Map();
  for (const c of combos) {
    if (c.kind !== 'run') continue;
    const key = [...new Set(c.cards.map(rankOf))].sort((a, b) => a - b).join(',');
    runs.set(key, [...(runs.get(key) || []), c]);
  }
  const groupOf = new Map();
  for (const [key, same] of runs) if (same.length > 1) for (const c of same) groupOf.set(c, `runs ${key}`);
  for (const c of combos) {
    if (c.kind !== 'pair') continue;
    const rank = rankOf(c.cards[0]);
    const many = [...runs].find(([key, same]) => same.length > 1 && key.split(',').map(Number).includes(rank));
    groupOf.set(c, many ? `runs ${many[0]}` : `pairs ${rank}`);
  }
  const members = new Map();
  const order = [];
  for (const c of combos) {
    const key = groupOf.get(c);
    if (key === undefined) order.push(c);
    else if (members.has(key)) members.get(key).push(c);
    else { members.set(key, [c]); order.push(key); }
  }
  return order.map((item) => {
    if (typeof item !== 'string') return { ...item, n: item.cards.length };
    const group = members.get(item);
    const cards = [...new Set(group.flatMap((c) => c.cards))];
    const points = group.reduce((a, c) => a + c.points, 0);
    if (item.startsWith('pairs')) return { kind: SAME_RANK[cards.length] || 'pair', cards, points, n: cards.length };
    const count = new Map();
    for (const card of cards) count.set(rankOf(card), (count.get(rankOf(card)) || 0) + 1);
    const shape = [...count.values()].filter((k) => k > 1).sort((a, b) => b - a).join(',');
    const n = count.size;
    return MULTIPLE_RUNS[shape] ? { kind: MULTIPLE_RUNS[shape], cards, points, n } : null;
  }).flatMap((line, i) => (line ? [line] : members.get(order[i]).map((c) => ({ ...c, n: c.cards.length }))));
}

/** Seconds in the largest unit filled twice, rounded up (whole days, hours as such). @param {number} seconds */
export function durationText(seconds) {
  const s = Math.max(0, Math.ceil(Number(seconds) || 0));
  if (s >= 86400 && s % 86400 === 0) return t('durD', { n: s / 86400 });
  if (s >= 3600 && s % 3600 === 0) return t('durH', { n: s / 3600 });
  if (s < 120) return t('durS', { n: s });
  if (s < 2 * 3600) return t('durM', { n: Math.ceil(s / 60) });
  if (s < 2 * 86400) return t('durH', { n: Math.ceil(s / 3600) });
  return t('durD', { n: Math.ceil(s / 86400) });
}

/** A number as every page shows it: ``digits`` decimals and a true minus sign (U+2212) for a
 * negative, never a hyphen nor "−0.00"; with ``sign`` a plus for a positive; "—" for no number. */
export function numText(x, digits = 2, sign = false) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '\u2014';
  const text = Math.abs(x).toFixed(digits);
  if (Number(text) === 0) return text;
  return (x < 0 ? '\u2212' : sign ? '+' : '') + text;
}

/** The one name of a seat on every page (the table, its scores and show, the lobby, the review):
 * a computer is "Computer N", N its seat counted from 1 as in "Seat N" (plain "Computer" at seat 1
 * of two players: computer_name in service.py is the same rule); an open seat is "Seat N (open)";
 * a person is the name they gave.  {seat, kind, taken, name} as in a STATE's seats; players: the
 * table's number of seats. */
export function seatLabel({ seat, kind, taken = true, name = '' }, players) {
  if (kind === 'computer') return players === 2 && seat === 1 ? t('computer') : t('computerN', { n: seat + 1 });
  if (!taken) return t('openSeat', { n: seat + 1 });
  return name || t('playerN', { n: seat + 1 });
}

/** "Fifteen for 2", "フィフティーン 2点", "Пятнадцать — 2 очка"; n = the number of cards. */
export function comboLine(kind, points, n) {
  return t('comboLine', { kind, name: comboName(kind), p: points, n });
}

/** One reason of a play hint, from its code and numbers (docs/api.md): "pairs the 7 for 2"... */
export function reasonLine(reason) {
  switch (reason.code) {
    case REASON.COMBO:
      if (reason.kind === 'pair' && reason.rank) {
        return t('reason.pairs', { rank: rankLabel(RANKS.indexOf(reason.rank) + 1), p: reason.points });
      }
      return comboLine(reason.kind, reason.points, reason.length ?? 0);
    case REASON.LEAVES:
      return t('reason.leaves', { count: reason.count, makes: reason.makes });
    case REASON.AVOIDS:
      return t('reason.avoids', { count: reason.count });
    case REASON.SAFE_LEAD:
      return t('reason.safeLead');
    case REASON.NO_POINTS:
      return t('reason.none');
    default:
      return String(reason.code);  // a code this page does not know yet
  }
}

/** A play hint's reasons, joined in the language's way. */
export function reasonsLine(reasons) {
  return (reasons || []).map(reasonLine).join(t('reason.sep'));
}

/**
 * What the player sees of an error: the words of its code (docs/api.md), with the values the code
 * names; a code with no words of its own has those of its part before the first dot ('illegal'
 * for 'illegal.card'), and an unknown one a general line.  Never worded by the HTTP status.
 * @param {{code?: string, data?: Record<string, any> | null} | null | undefined} err
 */
export function errorText(err) {
  const code = (err && err.code) || '';
  if (code === 'offline') return t('offline');
  const key = [code, code.split('.')[0]].map((c) => `err.${c}`).find((k) => code && en[k] !== undefined);
  if (!key) return t('err.generic');
  const data = (err && err.data) || {};
  const place = data.field ? t(`field.${data.field}`) : '';
  return t(key, { ...data, allowed: data.allowed || [3, 5], place });
}

export function cardName(text) {
  const card = parseCard(text);
  if (!card) return String(text);
  return t('cardName', { rank: card.rank, suit: card.suit });
}

/**
 * A page's language: ?lang= of its address, else the remembered one, else the browser's; the
 * page's language menu (#lang-select) switches it, and relabel runs after every switch.
 * @param {(lang: string) => void} relabel
 */
export function startLanguage(relabel) {
  initLang(new URLSearchParams(location.search).get('lang'));
  document.getElementById('lang-select')?.addEventListener('change', (e) => setLang(/** @type {HTMLSelectElement} */ (e.target).value));
  onLangChange(relabel);
}

/**
 * A page's words in the language now: its title, its static texts, its language menu and its
 * links to the other pages (a link's id and its path), which keep the language.
 * @param {string} titleKey
 * @param {Record<string, string>} links
 */
export function relabelPage(titleKey, links) {
  document.title = t(titleKey);
  applyStatic(document);
  /** @type {HTMLSelectElement} */ (document.getElementById('lang-select')).value = current;
  for (const [id, path] of Object.entries(links)) {
    /** @type {HTMLAnchorElement} */ (document.getElementById(id)).href = `${path}?lang=${current}`;
  }
}

/** Translate the static texts: data-i18n (text), data-i18n-aria (aria-label). */
export function applyStatic(root) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-aria]')) el.setAttribute('aria-label', t(el.dataset.i18nAria));
}
