// @ts-check
// A player's profile (GET /api/players/{name}, docs/api.md "Players and ratings"): one rating per
// pool with its uncertainty and its graph over time, its points per deal (pegging, hand, crib) and
// skunks, the games played and won, the recent rated
// games with their reviews, and on one's own profile the games in progress, each with the way
// back to it.  Loaded at its first opening (the account's dialog, a name on the leaderboard).
// A game's review and the way back to a game need the seat's token: the one this browser holds
// (saved.js heldSeat), else, on one's own profile, a new key for the seat that the account opens
// here (POST /api/accounts/games/{id}/open), kept as a seat this browser plays.

import * as api from '../shared/api.js';
import { h, pageDialog, svg } from '../shared/dom.js';
import { errorText, getLang, onLangChange, t } from '../shared/i18n.js';
import { heldSeat, keepSeat, saveGame } from '../shared/saved.js';
import { openReview } from './controller.js';
import { changeText, graphPoints, poolLabel, profilePool, ratingText } from './standings.js';

const GRAPH = { width: 240, height: 56, pad: 4 };

/** The name the dialog shows, for its words again after a change of language. */
let shownName = '';

/** @returns {HTMLDialogElement} the dialog, made at its first opening */
const dialog = () => pageDialog('profile-dialog', { class: 'dialog players', 'aria-labelledby': 'profile-title' },
  (el) => onLangChange(() => { if (el.open && shownName) openProfile(shownName); }));

/**
 * Open a player's profile: loading, then the profile or what went wrong (worded by its code).
 * @param {string} name
 */
export async function openProfile(name) {
  const el = dialog();
  shownName = name;
  el.replaceChildren(h('h2', { id: 'profile-title', text: name }), h('p', { text: t('loading') }), buttons(el));
  if (!el.open) el.showModal();
  let answer;
  try {
    answer = await api.getProfile(name);
  } catch (err) {
    if (shownName !== name) return;
    el.replaceChildren(h('h2', { id: 'profile-title', text: name }),
      h('p', { id: 'profile-error', class: 'error', role: 'alert', text: errorText(err) }), buttons(el));
    return;
  }
  if (shownName !== name) return;  // another profile was asked for meanwhile
  el.replaceChildren(...profileBody(answer).filter(Boolean), buttons(el, profilePool(answer)));
}

/**
 * The leaderboard (on the profile's pool: its last game's) and Close.
 * @param {HTMLDialogElement} el
 * @param {string | null} [pool]  the profile's pool, once it is known
 */
function buttons(el, pool = null) {
  return h('div', { class: 'dialog-buttons' },
    h('button', {
      type: 'button', class: 'secondary', id: 'profile-board', text: t('players.leaderboard'),
      onclick: () => { el.close(); import('./view-leaderboard.js').then((m) => m.openLeaderboard(pool || undefined)); },
    }),
    h('button', { type: 'button', class: 'primary', id: 'profile-close', text: t('close'), onclick: () => el.close() }));
}

/** A number of points per deal, to one decimal, in the page's language. @param {number} x */
const num = (x) => x.toLocaleString(getLang(), { maximumFractionDigits: 1 });

/** @param {string} iso */
const dateText = (iso) => new Date(iso).toLocaleDateString(getLang(), { year: 'numeric', month: 'short', day: 'numeric' });

/** @param {Record<string, any>} p  the profile (PROFILE of docs/api.md) */
function profileBody(p) {
  return [
    h('h2', { id: 'profile-title', text: p.name }),
    h('p', { class: 'field-help', text: t('players.since', { date: dateText(p.created) }) }),
    h('p', { id: 'profile-totals', text: t('players.gamesWon', { games: p.games, wins: p.wins }) }),
    h('section', { id: 'profile-ratings', class: 'rating-cards' }, p.ratings.map(ratingCard)),
    p.playing ? playingList(p.playing) : null,
    recentList(p.recent, p.name, Array.isArray(p.playing)),
  ];
}

/** One pool's rating: the number ± its uncertainty, provisional or not, its place and its graph. @param {any} r */
function ratingCard(r) {
  return h('article', { class: 'rating-card', 'data-pool': r.pool },
    h('h3', { text: poolLabel(r.pool) }),
    h('p', { class: 'rating-line' },
      h('strong', { class: 'rating-value', text: ratingText(r) }),
      r.provisional ? h('span', { class: 'badge provisional', text: t('players.provisional') }) : null),
    h('p', { class: 'field-help', text: t('players.poolGames', { games: r.games, wins: r.wins, place: r.place ?? '—' }) }),
    r.averages ? h('p', { class: 'per-deal', text: t('players.perDeal', {
      deals: r.deals, pegging: num(r.averages.pegging), hand: num(r.averages.hand), crib: num(r.averages.crib),
    }) }) : null,
    h('p', { class: 'skunks', text: t('players.skunks', r.skunks) }),
    graph(r));
}

/** The rating over time, oldest left: a line through the rating after each game. @param {Record<string, any>} r */
function graph(r) {
  const { points, low, high } = graphPoints(r.history, GRAPH);
  const label = t('players.graphLabel', { pool: poolLabel(r.pool), low, high });
  const el = svg('svg', { class: 'rating-graph', viewBox: `0 0 ${GRAPH.width} ${GRAPH.height}`, role: 'img', 'aria-label': label });
  svg('title', {}, el, label);
  if (points.length > 1) svg('polyline', { points: points.map((pt) => pt.join(',')).join(' '), class: 'graph-line' }, el);
  const last = points[points.length - 1];
  if (last) svg('circle', { cx: last[0], cy: last[1], r: 3, class: 'graph-dot' }, el);
  return el;
}

/**
 * The seat of a game for this browser: the one it holds, else (one of the account's own games) a
 * new key for it, kept as a seat played here.  Throws an ApiError.
 * @param {string} id
 * @returns {Promise<{id: string, token: string, seat: number}>}
 */
async function seatHere(id) {
  const held = heldSeat(id);
  if (held) return held;
  const opened = await api.openSeat(id);
  const seat = { id, token: String(opened.token), seat: Number(opened.seat) };
  keepSeat(seat);
  return seat;
}

/** A section's error line, hidden until something goes wrong. */
const errorLine = () => h('p', { class: 'error', role: 'alert', hidden: true });

/** @param {HTMLElement} el @param {any} err  an ApiError */
function showError(el, err) {
  el.textContent = errorText(err);
  el.hidden = false;
}

/** The account's own games in progress, each with the way back to it. @param {Record<string, any>[]} games */
function playingList(games) {
  const error = errorLine();
  return h('section', { id: 'profile-playing' },
    h('h3', { text: t('players.playing') }),
    error,
    games.length ? h('ul', { class: 'profile-list' }, games.map((g) => h('li', { 'data-game': g.id },
      h('span', { text: t('players.gameSeat', { id: g.id.slice(0, 8), n: g.seat + 1 }) }),
      h('button', {
        type: 'button', class: 'secondary', text: t('players.goBack'),
        onclick: () => seatHere(g.id).then(goBack, (err) => showError(error, err)),
      })))) : h('p', { class: 'field-help', text: t('players.nonePlaying') }));
}

/**
 * The last rated games, newest first, each with who else played, won or lost, the rating's
 * change, and its review where this
 * browser holds its seat, or on one's own profile (``own``), where the account opens it here.
 * @param {Record<string, any>[]} games
 * @param {string} name  the profile's player
 * @param {boolean} own  the profile is the account's signed in here
 */
function recentList(games, name, own) {
  const error = errorLine();
  return h('section', { id: 'profile-recent' },
    h('h3', { text: t('players.recent') }),
    error,
    games.length ? h('ul', { class: 'profile-list' }, games.map((g) => {
      const change = changeText(g.change);
      return h('li', { 'data-game': g.id },
        h('span', { text: `${dateText(g.at)} · ${poolLabel(g.pool)} · ${g.shown}` }),
        others(g.players, name),
        typeof g.won === 'boolean' ? h('span', { class: g.won ? 'outcome won' : 'outcome lost', text: t(g.won ? 'players.won' : 'players.lost') }) : null,
        change ? h('span', { class: g.change < 0 ? 'change down' : 'change up', text: change }) : null,
        own || heldSeat(g.id) ? h('button', {
          type: 'button', class: 'secondary review-link', text: t('review.open'),
          onclick: () => seatHere(g.id).then(openReview).catch((err) => showError(error, err)),
        }) : null);
    })) : h('p', { class: 'field-help', text: t('players.noGames') }));
}

/**
 * Who else played a game: "vs" their names, a deleted account's worded in the page's language.
 * @param {{seat: number, name: string, deleted: boolean}[]} players
 * @param {string} name  the profile's player
 */
function others(players, name) {
  const names = players.filter((p) => p.deleted || p.name !== name).map((p) => (p.deleted ? t('players.deleted') : p.name));
  return names.length ? h('span', { class: 'opponents-names', text: t('players.vs', { names: names.join(t('listSep')) }) }) : null;
}

/** Back to a game in progress: it becomes this tab's game, and the page opens on it. @param {{id: string, token: string, seat: number}} held */
function goBack(held) {
  saveGame(held);
  location.assign(`/?lang=${getLang()}`);
}
