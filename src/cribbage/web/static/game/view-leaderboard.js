// @ts-check
// A pool's leaderboard (GET /api/leaderboard/{pool}, docs/api.md "Players and ratings"): the pools
// from GET /api/meta, the best 100 with their place, name, rating ± uncertainty and games, and
// the signed-in account's own place, its row marked.  A name opens that player's profile.
// It opens on the pool the person came from: a profile's (view-profile.js), else the one last
// chosen here, else the pool of the signed-in account's last rated game, else the standard game's.
// Loaded at the first click of the top bar's "Players" (app.js).

import * as api from '../shared/api.js';
import { h, pageDialog } from '../shared/dom.js';
import { errorText, onLangChange, t } from '../shared/i18n.js';
import { loadSession } from '../shared/saved.js';
import { poolLabel, profilePool, ratingText } from './standings.js';
import { openProfile } from './view-profile.js';

/** The pools (GET /api/meta), asked once. @type {Promise<string[]> | null} */
let pools = null;
/** The pool shown last, or '' before the first opening. */
let chosen = '';

/** @returns {HTMLDialogElement} the dialog, made at its first opening */
const dialog = () => pageDialog('board-dialog', { class: 'dialog players', 'aria-labelledby': 'board-title' },
  (el) => onLangChange(() => { if (el.open) openLeaderboard(chosen); }));

/** @returns {Promise<string[]>} */
function poolNames() {
  pools = pools || api.getMeta().then((meta) => meta.rating_pools);
  pools.catch(() => { pools = null; });  // asked again at the next opening
  return pools;
}

/**
 * The pool to open on when none is given: the last one shown, else the pool of the signed-in
 * account's last rated game (its profile), else the standard game's.
 * @returns {Promise<string>}
 */
async function startingPool() {
  if (chosen) return chosen;
  const session = loadSession();
  if (session && session.name) {
    try {
      const own = profilePool(await api.getProfile(session.name));
      if (own) return own;
    } catch (err) {
      console.warn(err);  // the leaderboard opens on the standard game's: its own request says what fails
    }
  }
  return 'standard';
}

/**
 * Open the leaderboard of a pool (the one the person came from: see startingPool).
 * @param {string} [asked]
 */
export async function openLeaderboard(asked) {
  const pool = asked || await startingPool();
  chosen = pool;
  const el = dialog();
  const body = h('div', { id: 'board-body', 'aria-live': 'polite' }, h('p', { text: t('loading') }));
  const select = h('select', { id: 'board-pool', onchange: () => openLeaderboard(select.value) });
  el.replaceChildren(
    h('h2', { id: 'board-title', text: t('players.leaderboard') }),
    h('div', { class: 'field' }, h('label', { for: 'board-pool', text: t('players.pool') }), select),
    body,
    h('div', { class: 'dialog-buttons' },
      h('button', { type: 'button', class: 'primary', id: 'board-close', text: t('close'), onclick: () => el.close() })));
  if (!el.open) el.showModal();
  try {
    const names = await poolNames();
    select.replaceChildren(...names.map((name) => h('option', { value: name, text: poolLabel(name), selected: name === pool })));
    const board = await api.getLeaderboard(pool);
    if (chosen !== pool) return;  // another pool was chosen meanwhile
    body.replaceChildren(...boardBody(board, el).filter(Boolean));
  } catch (err) {
    if (chosen === pool) body.replaceChildren(h('p', { id: 'board-error', class: 'error', role: 'alert', text: errorText(err) }));
  }
}

/**
 * The signed-in account's place, and the table of the best 100, its row marked.
 * @param {Record<string, any>} board  LEADERBOARD of docs/api.md
 * @param {HTMLDialogElement} el
 */
function boardBody(board, el) {
  const signedIn = !!loadSession();
  const mine = board.me;
  const myPlace = signedIn && 'me' in board
    ? h('p', { id: 'board-me', class: 'my-place', text: mine ? t('players.myPlace', { place: mine.place, rating: ratingText(mine) }) : t('players.noRating') })
    : null;
  // Nobody rated yet: one sentence says so (the account's own line would say it again).
  if (!board.places.length) return [h('p', { id: 'board-empty', class: 'field-help', text: t('players.empty') })];
  /** @param {string} name */
  const open = (name) => { el.close(); openProfile(name); };
  return [myPlace, h('table', { class: 'board-table' },
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col', text: '#' }), h('th', { scope: 'col', text: t('account.name') }),
      h('th', { scope: 'col', text: t('players.rating') }), h('th', { scope: 'col', text: t('players.games') }))),
    h('tbody', {}, board.places.map((/** @type {any} */ p) => {
      const isMe = !!mine && mine.place === p.place && mine.name === p.name;
      return h('tr', { class: isMe ? 'me-row' : null, 'aria-current': isMe ? 'true' : null },
        h('td', { text: String(p.place) }),
        h('td', {}, h('button', { type: 'button', class: 'link-button player-link', text: p.name, onclick: () => open(p.name) })),
        h('td', {}, ratingText(p), p.provisional ? h('span', { class: 'badge provisional', title: t('players.provisional'), text: '?' }) : null),
        h('td', { text: String(p.games) }));
    })))];
}
